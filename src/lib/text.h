/* SPDX-License-Identifier: MIT */
/* Text that reaches JSON, headings and labels: UTF-8 kept, other bytes escaped. */
#ifndef IOSTRAT_LIB_TEXT_H
#define IOSTRAT_LIB_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/*
 * Every string that goes into JSON goes through here, never json_string():
 * names come from the file system and the command line, where any byte
 * but '/' and NUL is legal, while JSON text is UTF-8 (jansson refuses the
 * rest and returns NULL, which became a null "dataset" and "config_id").
 * Valid UTF-8 passes unchanged; each byte that is not part of a valid
 * sequence is written as the four characters \xHH (docs/results.md).
 * Never NULL unless out of memory.
 */
json_t *json_text(const char *s);

/*
 * A data set's label is one field of config_id ("big/stream/t1/...") and
 * a heading in reports: a label taken from a directory's name has each
 * control character (a newline would break every heading and CSV line)
 * written as \xHH, as json_text does for bytes that are not UTF-8.
 */
void label_from_name(const char *name, char *buf, size_t len);
/* A label given by hand (--dataset): not empty, no '/' (it would split
 * config_id) and no control character.  0, or -EINVAL after one line. */
int label_check(const char *opt, const char *label);
/* s with bytes that are not UTF-8 escaped as above, in buf (truncated). */
const char *text_escape(const char *s, char *buf, size_t len);

/* A size limit as it was given, in the largest unit that holds it whole:
 * "1024 MiB", "512 KiB", "1000 bytes" (never "0 MiB" for a small one). */
const char *fmt_limit(unsigned long long bytes, char *buf, size_t len);

/* How a bool reads in tables and figures: yes or no. */
const char *bool_word(bool b);

#endif
