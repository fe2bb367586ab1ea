#!/usr/bin/env python3
# Sorts the pairs `duplicates` lists into declaration tables and code, so a count of repeated logic can be rerun.
"""dup-classes.py [FILE]

Reads the output of `duplicates --most 200` (FILE, or stdin; run in the
repository's top directory, whose files it opens) and puts each pair in
one class:

  table  both sides are declaration lines: the entries of an initializer
         table (`{ "name", ...},`, `.field = value,`, a SETTING_ or X(
         line, a UNIT(case) line), a BPF map definition (`__uint(`,
         `__type(`, `} NAME SEC(".maps")`), a header's prototypes -- the
         one-line-per-thing declarations the house style asks for;
  code   anything else: statements that may repeat logic.

Prints each pair with its class, then the counts:
"pairs: N; tables: T; code: C (tests/: K)".
"""
import re
import sys

ROW = re.compile(r'^D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)')
DECL = re.compile(r'''^\s*(
    \{.*\}?,?\s*(/\*.*)?$ |                # { "name", ... },
    \.\w+\s*=.*[,{]?\s*$ |                  # .field = value,
    [A-Z][A-Z0-9_]*\(.*\)?,?\s*$ |          # SETTING_X(...), UNIT(case), X(name)
    __(uint|type|array)\(.* |               # BPF map fields
    \}\s*\w*\s*(SEC\(".maps"\))?;?\s*$ |    # } NAME SEC(".maps");
    struct\s*\{\s*$ |
    (static\s+)?const\s+struct\s+\w+\s+\w+(\[\])?\s*=\s*\{\s*$ |
    \#(ifn?def|endif|else).* |
    "[^"]*"\s*,?\s*$ |                      # a continued string
    .*\},?\s*$ |                            # an entry's last line
    [\w\s*]+\b\w+\([^;]*\);\s*$ |            # a prototype
    [a-z_]+,?\s*$                           # a continued argument
)''', re.X)


def lines_of(path, a, b):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read().splitlines()[a - 1:b]
    except OSError:
        return []


def is_table(lines):
    code = [l for l in lines if l.strip() and not l.strip().startswith(('/*', '*', '//'))]
    return bool(code) and all(DECL.match(l) for l in code)


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    n = {'table': 0, 'code': 0}
    tests = 0
    for line in src:
        m = ROW.match(line)
        if not m:
            continue
        fa, a1, a2, fb, b1, b2 = m.groups()
        both = is_table(lines_of(fa, int(a1), int(a2))) and \
            is_table(lines_of(fb, int(b1), int(b2)))
        cls = 'table' if both else 'code'
        n[cls] += 1
        if cls == 'code' and fa.startswith('tests/') and fb.startswith('tests/'):
            tests += 1
        print(f'{cls:5} {line.rstrip()}')
    print(f"pairs: {n['table'] + n['code']}; tables: {n['table']}; "
          f"code: {n['code']} (tests/: {tests})")


if __name__ == '__main__':
    main()
