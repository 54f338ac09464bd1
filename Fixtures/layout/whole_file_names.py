#!/usr/bin/env python3
"""Names of functions that a Swift runtime library linked into BINARY
defines in a whole-file code section, the standard library's own excepted:

    whole_file_names.py BINARY

ld.lld's --symbol-ordering-file moves every section that defines a listed
name, local symbols of every file included. The toolchain's static
libraries are compiled without function sections: each file's code is one
`.text` section. _RegexParser and _StringProcessing (linked into every
static Swift binary) hold local copies of small helpers our code runs too
(`$sSqwxx`, outlined copies, String specialisations), so listing such a name
dragged their 450 and 320 KiB of code, of which a flow runs a few functions,
into the middle of the hot functions, and a flow touched a dozen more 64 KiB
windows. record.sh puts these names last: the two sections then lie after
the hot code. The standard library's section (Swift.o) is left to the list:
a flow executes code all through it (1.3 of its 1.6 MB are resident).

Needs objdump and nm (binutils) and swiftc on PATH (or SWIFTC).
"""
import json
import os
import re
import shutil
import subprocess
import sys


def static_library_folder():
    swiftc = os.environ.get("SWIFTC") or shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc"
    info = json.loads(subprocess.run([swiftc, "-print-target-info"], capture_output=True, text=True, check=True).stdout)
    resources = info["paths"]["runtimeResourcePath"]  # .../usr/lib/swift
    return os.path.join(os.path.dirname(resources), "swift_static", "linux")


def whole_file_sections(archive):
    """{member: (names in its whole-file .text, its global functions)}"""
    members, current = {}, None
    listing = subprocess.run(["objdump", "-t", archive], capture_output=True, text=True).stdout
    for line in listing.splitlines():
        header = re.match(r"^(\S+):\s+file format", line)
        if header:
            current = header.group(1)
            members[current] = (set(), set())
            continue
        # objdump -t: ADDRESS FLAGS... SECTION SIZE NAME; `F .text` is a
        # function in the file's one code section (`.text.NAME` would be a
        # section of its own).
        fields = line.split()
        if current is None or len(fields) < 5 or "F" not in fields[1:-3]:
            continue
        names, globals_ = members[current]
        if fields[-3] == ".text":
            names.add(fields[-1])
        if fields[1] == "g":
            globals_.add(fields[-1])
    return members


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    in_binary = {fields[-1] for fields in (line.split() for line in subprocess.run(
        ["nm", binary], capture_output=True, text=True, check=True).stdout.splitlines()) if len(fields) == 3}
    folder = static_library_folder()
    names = set()
    for library in sorted(os.listdir(folder)):
        if not library.endswith(".a"):
            continue
        for member, (defined, globals_) in whole_file_sections(os.path.join(folder, library)).items():
            # Linked: one of its global functions is in the binary. Swift.o
            # is the standard library (see above).
            if member == "Swift.o" or not (globals_ & in_binary):
                continue
            names |= defined
    print("\n".join(sorted(names)))


if __name__ == "__main__":
    main()
