#!/usr/bin/env bash
# Settings entries are typed: a field of the wrong C type does not compile, and no table writes .type/.off by hand.
. "$(dirname "$0")/lib.sh"
not_c_under_sanitizers "the settings macros, checked by the compiler"

CC=${CC:-cc}

# A table of one entry, MACRO over struct o's field FIELD, into $T/t.c.
table_of() {
	cat >"$T/t.c" <<EOF
#include <stdbool.h>
#include <stdint.h>
#include "lib/settings.h"
enum colour { RED, GREEN };
struct o { unsigned u; uint64_t size; bool b; const char *s; double d; enum colour c; int i;
	   struct setting_list l; };
const struct setting table[] = { { .name = "x", $1 }, { 0 } };
EOF
}
compiles() { "$CC" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$TOP/src" "$T/t.c"; }

each_type_takes_its_own_field() {
	local m
	for m in 'SETTING_UINT(struct o, u)' 'SETTING_SIZE(struct o, size)' \
		 'SETTING_COUNT(struct o, size)' 'SETTING_BOOL(struct o, b)' \
		 'SETTING_STRING(struct o, s)' 'SETTING_DOUBLE(struct o, d)' \
		 'SETTING_ENUM(struct o, c)' 'SETTING_ENUM(struct o, i)' \
		 'SETTING_LIST(struct o, l)'; do
		table_of "$m"
		compiles || die "$m did not compile"
	done
}

a_field_of_the_wrong_type_does_not_compile() {
	local m f err
	for m in 'SETTING_UINT(struct o, size)' 'SETTING_SIZE(struct o, u)' \
		 'SETTING_BOOL(struct o, i)' 'SETTING_STRING(struct o, d)' \
		 'SETTING_DOUBLE(struct o, size)' 'SETTING_ENUM(struct o, size)' \
		 'SETTING_LIST(struct o, s)'; do
		table_of "$m"
		err=$(compiles 2>&1) && die "$m compiled"
		f=${m##*, }
		printf '%s\n' "$err" | grep -q "struct o\.${f%)} is not" ||
			die "$m: the error names no field: $(printf '%s\n' "$err" | head -n 2)"
	done
	true
}

# The count of entries that store through .off without the field's type
# checked: a .type other than SET_CALL, or an .off, written by hand.
no_table_writes_type_or_offset_by_hand() {
	local hits
	hits=$(grep -rnE '\.type *= *SET_[A-Z]+|\.off *= *[^;]*,' "$TOP/src" --include='*.c' |
		grep -v '\.type *= *SET_CALL') || return 0
	die "$(printf '%s\n' "$hits" | wc -l) untyped entries: $(printf '%s\n' "$hits" | head -n 2 | tr '\n' ' ')"
}

t each_type_takes_its_own_field
t a_field_of_the_wrong_type_does_not_compile
t no_table_writes_type_or_offset_by_hand
