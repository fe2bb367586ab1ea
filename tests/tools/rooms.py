#!/usr/bin/env python3
# The rooms of src/ (its top directories) and who uses whom: includes, and declarations placed outside the room that defines them.
"""rooms.py [--ladder FILE] [SRC]

Reads every .c/.cc/.h of SRC (default src/).  A room is the first
directory under SRC (src/main.c is the room "main").  Room A uses room B
when a file of A includes a header of B (an include "x.h" is looked up
beside the file first, then under SRC, as the compiler's -Isrc does), or
when a header of A declares a function that a file of B defines (so who
calls it through A's header needs B).

Without --ladder: prints every use between rooms (with one instance of
each), the strongly connected components of more than one room, and the
count "rooms in a circle: N".  Exit 0.

With --ladder FILE (one rung a line, top first, rooms of a rung side by
side, '#' comments; or a markdown file whose fenced block after the line
LADDER_MARK is that): checks that each room uses only rooms on rungs below
its own; prints one line per offence naming the file and the include or
declaration, and exits 1 if there is any (or a room is missing).
"""
import os
import re
import sys

EXTS = ('.c', '.cc', '.h')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
IDENT = re.compile(r'([A-Za-z_]\w*)\s*\($')


def room_of(rel):
    parts = rel.split('/')
    return parts[0] if len(parts) > 1 else os.path.splitext(parts[0])[0]


def sources(src):
    for d, _, names in os.walk(src):
        for n in sorted(names):
            if n.endswith(EXTS):
                p = os.path.join(d, n)
                yield os.path.relpath(p, src)


def resolve(src, rel, inc):
    """The header's path relative to src, or None (a system/generated one)."""
    for path in (os.path.join(os.path.dirname(rel), inc), inc):
        path = os.path.normpath(path)
        if not path.startswith('..') and \
                os.path.isfile(os.path.join(src, path)):
            return path
    return None


def spelled_by_rule(rel, inc, hdr):
    """A header of the including file's directory by its name ("row.h"),
    any header by its path from src/ ("core/strategy.h")."""
    return inc == hdr or ('/' not in inc and
                          os.path.dirname(hdr) == os.path.dirname(rel))


def strip(text):
    """Text without comments, strings, character constants and
    preprocessor lines (kept as blank lines)."""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    text = re.sub(r'^\s*#(.*\\\n)*.*$', '', text, flags=re.M)
    return text


def top_level(text):
    """(statement, end) for each top-level statement, its braces' contents
    left out: end '{' for a function definition's head, ';' for the rest
    (declarations, and definitions of variables with their initializer)."""
    depth, buf = 0, []
    for ch in text:
        if ch == '{':
            if depth == 0 and is_function_head(''.join(buf)):
                yield ''.join(buf), '{'
                buf = []
            depth += 1
        elif ch == '}':
            depth -= 1
        elif depth == 0 and ch == ';':
            yield ''.join(buf), ';'
            buf = []
        elif depth == 0:
            buf.append(ch)


def is_function_head(stmt):
    return function_name(stmt) is not None and ')' in stmt


def function_name(stmt):
    """The function a top-level statement declares or defines, or None."""
    s = ' '.join(stmt.split())
    if '(' not in s or s.startswith('typedef') or '=' in s.split('(')[0]:
        return None
    m = IDENT.search(s.split('(')[0] + '(')
    if not m or m.group(1) in ('__attribute__', 'typeof', 'sizeof'):
        return None
    return m.group(1)


def variable_name(stmt):
    """The variable a top-level statement declares or defines, or None
    (a struct, enum or union declared alone names no variable)."""
    s = ' '.join(stmt.split()).split('=')[0].strip()
    words = s.replace('*', ' ').split()
    if '(' in s or len(words) < 2 or words[0] == 'typedef':
        return None
    if words[0] in ('struct', 'enum', 'union') and len(words) == 2:
        return None
    m = re.search(r'([A-Za-z_]\w*)\s*(\[[^]]*\]\s*)*$', s)
    return m.group(1) if m else None


def symbols(text):
    """(declared, defined) names of functions and variables of a file;
    static ones are neither (they are the file's own)."""
    declared, defined = set(), set()
    for stmt, end in top_level(strip(text)):
        s = stmt.strip()
        if s.startswith(('static', 'typedef')):
            continue
        if end == '{':
            defined.add(function_name(s))
        elif is_function_head(s):
            declared.add(function_name(s))
        elif variable_name(s):
            (declared if s.startswith('extern') else defined).add(
                variable_name(s))
    return declared, defined


def scan(src):
    files = {rel: open(os.path.join(src, rel), encoding='utf-8').read()
             for rel in sources(src)}
    uses = {}          # (A, B) -> first reason
    definer = {}       # function -> set of rooms defining it
    declares = {}      # file -> names it declares
    misspelt = []      # includes against the rule of spelled_by_rule
    for rel, text in sorted(files.items()):
        a = room_of(rel)
        for m in INCLUDE.finditer(text):
            hdr = resolve(src, rel, m.group(1))
            if hdr and not spelled_by_rule(rel, m.group(1), hdr):
                misspelt.append(f'{rel} includes "{m.group(1)}": neither '
                                f'a name beside it nor "{hdr}"')
            if hdr and room_of(hdr) != a:
                uses.setdefault((a, room_of(hdr)),
                                f'{rel} includes "{m.group(1)}"')
        declared, defined = symbols(text)
        for f in defined:
            definer.setdefault(f, set()).add(a)
        declares[rel] = declared
    for rel, names in sorted(declares.items()):
        a = room_of(rel)
        for f in sorted(names):
            for b in sorted(definer.get(f, ())):
                if b != a and a not in definer[f]:
                    uses.setdefault((a, b),
                                    f'{rel} declares {f}, defined in {b}/')
    rooms = sorted({room_of(r) for r in files})
    return rooms, uses, misspelt


def components(rooms, uses):
    """Strongly connected components (Tarjan), each a sorted list."""
    graph = {r: sorted(b for (a, b) in uses if a == r) for r in rooms}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for r in rooms:
        if r not in index:
            visit(r)
    return out


def report(rooms, uses, misspelt):
    print(f'rooms: {len(rooms)} ({" ".join(rooms)})')
    for (a, b), why in sorted(uses.items()):
        print(f'{a} -> {b}: {why}')
    knots = [c for c in components(rooms, uses) if len(c) > 1]
    for c in knots:
        print(f'circle: {" ".join(c)}')
    print(f'rooms in a circle: {sum(len(c) for c in knots)}')
    for why in misspelt:
        print(f'include: {why}')
    print(f'includes against the rule: {len(misspelt)}')
    return 0


LADDER_MARK = '<!-- the ladder, read by tests/rooms.sh -->'


def read_ladder(path):
    """The rungs, lowest first, each a list of rooms: from a file of one
    rung a line (top first, '#' comments), or from the fenced block after
    LADDER_MARK in a markdown file.  Rooms of one rung use none of each
    other."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    if LADDER_MARK in lines:
        at = lines.index(LADDER_MARK) + 2          # past the ``` line
        lines = lines[at:lines.index('```', at)]
    rungs = [ln.split('#')[0].split() for ln in lines]
    return [r for r in reversed(rungs) if r]


def check(rooms, uses, misspelt, rungs):
    bad = len(misspelt)
    for why in misspelt:
        print(f'rooms: {why}')
    level = {r: i for i, rung in enumerate(rungs) for r in rung}
    for r in rooms:
        if r not in level:
            print(f'rooms: {r}: a room of src/ missing from the ladder')
            bad += 1
    for (a, b), why in sorted(uses.items()):
        if a in level and b in level and level[b] >= level[a]:
            where = 'above' if level[b] > level[a] else 'beside'
            print(f'rooms: {a} uses {b}, a room {where} it: {why}')
            bad += 1
    return 1 if bad else 0


def main(argv):
    ladder = None
    if len(argv) > 1 and argv[0] == '--ladder':
        ladder, argv = argv[1], argv[2:]
    src = argv[0] if argv else 'src'
    rooms, uses, misspelt = scan(src)
    if ladder is None:
        return report(rooms, uses, misspelt)
    return check(rooms, uses, misspelt, read_ladder(ladder))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
