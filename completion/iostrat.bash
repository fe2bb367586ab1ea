# bash completion for iostrat(1).  Installed as
# PREFIX/share/bash-completion/completions/iostrat (make install, the
# Debian package).  The subcommands and each one's options come from the
# binary itself (iostrat __commands, iostrat __options CMD: the tables its
# parsers use), strategy names from `iostrat list`; nothing is listed twice.

_iostrat_dirs_with_results() { # CUR: results directories first, and the
	# directories that hold some (results/), to walk into them
	local d
	while IFS= read -r d; do
		if [ -e "$d/results.jsonl" ] || compgen -G "$d/*/results.jsonl" >/dev/null; then
			COMPREPLY+=("$d")
		fi
	done < <(compgen -d -- "$1")
}

_iostrat_shipped() { # BIN SUB EXT: names of the shipped files (profiles, fio jobs)
	local exe dir f
	exe=$(type -P "$1") || return
	exe=$(readlink -f "$exe")
	for dir in "${exe%/*}/../$2" "${exe%/*}/../share/iostrat/$2"; do
		[ -d "$dir" ] || continue
		for f in "$dir"/*"$3"; do
			[ -e "$f" ] || continue
			f=${f##*/}
			printf '%s\n' "${f%"$3"}"
		done
		return
	done
}

_iostrat() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local bin=${COMP_WORDS[0]} cmd i opts line w npos=0 takes=
	COMPREPLY=()
	type -P "$bin" >/dev/null 2>&1 || bin=iostrat

	if [ "$COMP_CWORD" -eq 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "$("$bin" __commands 2>/dev/null) help --help --version" -- "$cur")
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] &&
			mapfile -t COMPREPLY < <(compgen -W "$("$bin" __commands 2>/dev/null)" -- "$cur")
		return
	fi

	# after "--": a command line of its own (queue add, trace)
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			if declare -F _command_offset >/dev/null; then
				_command_offset $((i + 1))
			else
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			fi
			return
		fi
	done

	# the options, and which take a value ("-s --strategy =")
	opts=()
	while IFS= read -r line; do
		for w in $line; do
			[ "$w" = = ] && takes+=" ${line% =} " && continue
			opts+=("$w")
		done
	done < <("$bin" __options "$cmd" 2>/dev/null)

	if [[ " $takes " == *" $prev "* ]]; then
		# an option whose table lists its values (--cache, --fsync, --madvise ...)
		mapfile -t COMPREPLY < <(compgen -W "$("$bin" __values "$cmd" "$prev" 2>/dev/null)" -- "$cur")
		[ "${#COMPREPLY[@]}" -gt 0 ] && return
		case $prev in
		-s | --strategy)
			mapfile -t COMPREPLY < <(compgen -W "$("$bin" list 2>/dev/null | awk '/^[a-z]/ { print $1 }')" -- "$cur") ;;
		--preset) mapfile -t COMPREPLY < <(compgen -W "small medium-short medium-long big" -- "$cur") ;;
		--dataset)
			if [ "$cmd" = fio ] || [ "$cmd" = limits ]; then
				mapfile -t COMPREPLY < <(compgen -W "small medium-short medium-long big" -- "$cur")
			fi
			mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur") ;;
		--resume) _iostrat_dirs_with_results "$cur" ;;
		-l | --limits) # limits: a comma list of the six
			mapfile -t COMPREPLY < <(compgen -P "${cur%"${cur##*,}"}" -W "read_direct write_new_buffered write_new_direct pagecache_copy copy_file_range transform" -- "${cur##*,}") ;;
		-p | --profile)
			mapfile -t COMPREPLY < <(compgen -W "$(_iostrat_shipped "$bin" profiles .ini)" -- "$cur"
				compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur") ;;
		--client) mapfile -t COMPREPLY < <(compgen -A hostname -- "${cur##*,}") ;;
		-o | --out | --results | --data | --dir | --scratch | --state-dir)
			[ "$cmd$prev" = trace-o ] && { mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return; }
			mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
		--unix) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;; # net: a socket file
		--parse) mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur"; compgen -d -- "$cur") ;;
		*) ;; # a number, a list: nothing to offer
		esac
		return
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "${opts[*]} --help" -- "$cur")
		return
	fi

	# positional arguments: count those before this one
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == -* ]]; then
			[[ " $takes " == *" $w "* ]] && ((i++))
			continue
		fi
		((npos++))
	done
	case $cmd in
	bench | sched)
		mapfile -t COMPREPLY < <(compgen -W "$(_iostrat_shipped "$bin" profiles .ini)" -- "$cur"
			compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur") ;;
	report | compare | plot) _iostrat_dirs_with_results "$cur" ;;
	fio)
		mapfile -t COMPREPLY < <(compgen -W "$(_iostrat_shipped "$bin" fio-jobs .fio)" -- "$cur"
			compgen -f -X '!*.fio' -- "$cur"; compgen -d -- "$cur") ;;
	sweep) [ "$npos" -eq 0 ] && mapfile -t COMPREPLY < <(compgen -W "blocksize bufsize api" -- "$cur") ;;
	queue)
		[ "$npos" -eq 0 ] &&
			mapfile -t COMPREPLY < <(compgen -W "add list remove status pause resume run-next" -- "$cur") ;;
	trace)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
	run | verify | gen) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	*) ;;
	esac
}
complete -o filenames -F _iostrat iostrat
