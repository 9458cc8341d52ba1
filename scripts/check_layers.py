#!/usr/bin/env python3
"""Checks that the folders of include/thinmpi stand in layers.

Each folder has a layer (LAYERS below, lowest first); a header includes only headers of its own
folder or of folders in lower layers, never one beside it or above it. thinmpi.hpp, the
umbrella, stands above all and is the only header at the top. Prints every violation and exits 1
when there is one; make test runs it (ctest: layout.layers).

    scripts/check_layers.py [include-dir]
"""
import os
import re
import sys

from layer_rules import include_violation, layer_of

# Lowest first. Folders on one line share a layer and do not include each other.
LAYERS = [
    ["core"],
    ["requests"],
    ["p2p", "collectives"],
    ["serialization"],
    ["communicator"],
    ["framed", "topology", "rma", "io"],
    ["node"],
]
INCLUDE = re.compile(r'^\s*#\s*include\s*"thinmpi/([^"]+)"', re.M)


def violations(root):
    found = []
    for directory, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith((".hpp", ".h")):
                continue
            rel = os.path.relpath(os.path.join(directory, name), root).replace(os.sep, "/")
            if "/" not in rel:
                if rel != "thinmpi.hpp":
                    found.append(f"{rel}: a header at the top; only the umbrella thinmpi.hpp stands there")
                continue
            folder = rel.split("/")[0]
            rank = layer_of(LAYERS, folder)
            if rank is None:
                found.append(f"{rel}: folder '{folder}' has no layer in scripts/check_layers.py")
                continue
            text = open(os.path.join(root, rel), errors="replace").read()
            for target in INCLUDE.findall(text):
                to = target.split("/")[0] if "/" in target else "."
                wrong = include_violation(LAYERS, rel, folder, rank, f"thinmpi/{target}", to)
                if wrong:
                    found.append(wrong)
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "include", "thinmpi")
    if os.path.basename(os.path.normpath(root)) != "thinmpi":
        root = os.path.join(root, "thinmpi")
    found = violations(root)
    for line in found:
        print(line)
    print(f"layers: {len(found)} violation(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
