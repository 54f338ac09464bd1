#!/usr/bin/env python3
"""Functions of one object that ran, in first-seen order, from callgrind
output files (valgrind --tool=callgrind --demangle=no):

    executed_functions.py OBJECT_BASENAME callgrind.out...

Prints one symbol a line (callgrind's recursion suffix `'N` removed), the
format of ld.lld's --symbol-ordering-file. Standard library only.
"""
import re
import sys


def executed(want, paths):
    seen, order = set(), []
    for path in paths:
        objects, functions, current, called = {}, {}, None, None
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
            if name not in seen:
                seen.add(name)
                order.append(name)
    return order


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    print("\n".join(executed(sys.argv[1], sys.argv[2:])))
