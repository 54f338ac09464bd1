#!/usr/bin/env python3
"""Functions of one object that ran, from callgrind output files (valgrind
--tool=callgrind --demangle=no), one file per recorded run:

    executed_functions.py [--last FILE] OBJECT_BASENAME run-1.out run-2.out ...

Prints one symbol a line (callgrind's recursion suffix `'N` removed), the
format of ld.lld's --symbol-ordering-file: first the functions every run
executed, then those fewer runs executed, ties in the order of the first
run that executed them. So the code of the most common run (the first file)
lies together, and each other run adds a stretch of its own: the kernel maps
64 KiB around each page fault, and interleaved functions of different runs
would make each run touch more of the text. Names in FILE
(whole_file_names.py) come last, whatever ran them. Standard library only.
"""
import re
import sys


def executed_in(want, path):
    """The object's functions in one file, in the order they first appear."""
    objects, functions, current, called = {}, {}, None, None
    seen, order = set(), []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        match = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line)
        if match:
            if match.group(3):
                objects[match.group(2)] = match.group(3)
            if match.group(1) == "ob":
                current = objects.get(match.group(2))
            else:
                called = objects.get(match.group(2))
            continue
        match = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if not match:
            continue
        if match.group(3):
            functions[match.group(2)] = match.group(3)
        name = functions.get(match.group(2))
        where = current if match.group(1) == "fn" else called
        if not name or not where or not where.endswith("/" + want) or name.startswith("0x"):
            continue
        name = re.sub(r"'\d+$", "", name)
        # Valgrind's name for the entry point the C runtime starts in.
        name = "_start" if name == "(below main)" else name
        if name not in seen:
            seen.add(name)
            order.append(name)
    return order


def executed(want, paths, last=frozenset()):
    runs = [executed_in(want, path) for path in paths]
    count, first = {}, {}
    for run_index, run in enumerate(runs):
        for position, name in enumerate(run):
            count[name] = count.get(name, 0) + 1
            first.setdefault(name, (run_index, position))
    # False sorts first.
    return sorted(count, key=lambda name: (name in last, -count[name], first[name]))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    last = frozenset()
    if arguments[:1] == ["--last"] and len(arguments) > 1:
        last = frozenset(open(arguments[1]).read().split())
        arguments = arguments[2:]
    if len(arguments) < 2:
        sys.exit(__doc__)
    print("\n".join(executed(arguments[0], arguments[1:], last)))
