#!/usr/bin/env python3
"""Checks that the folders of bench/ stand in layers, as scripts/check_layers.py does for
include/thinmpi.

Each folder has a layer (LAYERS below, lowest first); a C, C++ or Go (cgo) file includes only
files of its own folder or of folders in lower layers, never one beside it or above it, so no two
folders include each other. A quoted include is found where the compiler finds it: beside the
file, else in the bench folder that holds a file of that name (the harnesses' include folders);
one found nowhere in bench/ (mpi.h, thinmpi's headers, the peers', examples/) is not bench's to
check. Prints every violation and exits 1 when there is one; make test runs it (ctest:
layout.bench_layers, bench/CMakeLists.txt).

    scripts/check_bench_layers.py [bench-dir]
"""
import os
import re
import sys

from layer_rules import include_violation, layer_of

# Lowest first. Folders on one line share a layer and do not include each other.
LAYERS = [
    ["harness", "audit"],
    ["programs"],
    ["kernels/c", "kernels/thinmpi", "kernels/boost", "kernels/kamping", "kernels/mpl",
     "kernels/mpi4py", "kernels/go"],
]
SOURCES = (".c", ".h", ".cpp", ".hpp", ".go")
SKIPPED = ("driver", "setup", "cmake")
INCLUDE = re.compile(r'^\s*(?://\s*)?#\s*include\s*"([^"]+)"', re.M)


def sources(root):
    """bench-relative paths of every C, C++ and Go file outside the driver and set-up."""
    found = []
    for directory, folders, files in os.walk(root):
        rel_dir = os.path.relpath(directory, root).replace(os.sep, "/")
        if rel_dir == ".":
            folders[:] = [f for f in folders if f not in SKIPPED]
        for name in sorted(files):
            if name.endswith(SOURCES):
                found.append(name if rel_dir == "." else f"{rel_dir}/{name}")
    return found


def resolve(including, target, by_name, present):
    """The bench file an include names, None when it is not bench's, or a list when ambiguous."""
    beside = os.path.normpath(os.path.join(os.path.dirname(including), target)).replace(os.sep, "/")
    if beside in present:
        return beside
    matches = [path for path in by_name.get(os.path.basename(target), [])
               if path == target or path.endswith("/" + target)]
    if len(matches) == 1:
        return matches[0]
    return matches or None


def violations(root):
    files = sources(root)
    present = set(files)
    by_name = {}
    for path in files:
        by_name.setdefault(os.path.basename(path), []).append(path)
    found = []
    for rel in files:
        folder = os.path.dirname(rel)
        rank = layer_of(LAYERS, folder)
        if rank is None:
            found.append(f"{rel}: folder '{folder or '.'}' has no layer in "
                         f"scripts/check_bench_layers.py")
            continue
        text = open(os.path.join(root, rel), errors="replace").read()
        for target in INCLUDE.findall(text):
            to_path = resolve(rel, target, by_name, present)
            if to_path is None:
                continue
            if isinstance(to_path, list):
                found.append(f"{rel} includes \"{target}\": found in {', '.join(to_path)} "
                             f"(one name, one file)")
                continue
            wrong = include_violation(LAYERS, rel, folder, rank, to_path,
                                      os.path.dirname(to_path))
            if wrong:
                found.append(wrong)
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "bench")
    found = violations(root)
    for line in found:
        print(line)
    print(f"bench layers: {len(found)} violation(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
