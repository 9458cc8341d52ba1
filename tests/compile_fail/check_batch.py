#!/usr/bin/env python3
"""The compile-failure checks, batched: one build of misuse.cpp with every section in it.

  check_batch.py run --build-dir B --source misuse.cpp --expect FILE --results DIR
      builds target compile_fail_all (-DTHINMPI_CF_ALL: every section, each its own function) and
      writes DIR/<section>.txt: PASS or FAIL, then why. A section passes when one of the errors
      whose source lines fall inside the section (the error's own line, or the line of misuse.cpp
      its instantiation was required from) matches the section's expected diagnostic. A section
      the batch cannot speak for (no error of its own: a compiler reports an instantiation's
      error once, so a second section making the same instantiation shows none) is built alone,
      as target compile_fail_<section>, and judged as before: the build must fail and say the
      expected diagnostic.
  check_batch.py report --results DIR --section NAME
      prints the section's verdict; exit 0 if it passed (what ctest's compile_fail.<name> runs).

FILE holds a line per section: NAME, a tab, the expected regex (a newline in it written \\n).
Patterns match as CMake's regexes did: `.` also matches a newline. NAME followed by " first"
(thinmpi_add_compile_fail's FIRST) asks more: the section's first error line, in the batch or
built alone, must say it (thinmpi's sentence before any complaint of the compiler's own).
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

SECTION = re.compile(r"#if defined\(THINMPI_CF_ALL\) \|\| defined\(THINMPI_CF_(\w+)\)")
# Lines that introduce a diagnostic rather than state one: include stacks, GCC's "In function",
# "In instantiation of", "required from" chains.
CONTEXT = re.compile(r"^In file included from|^\s+from \S|: In (?:function|instantiation|member "
                     r"function|static member function|lambda function|constructor|destructor|"
                     r"substitution)|:\d+:\d+:\s+(?:required (?:from|by)|in .constexpr. expansion)")
ERROR = re.compile(r":\d+:\d+: (?:fatal )?error: ")


def section_ranges(source):
    """[(first line, last line, NAME)] of each section of misuse.cpp (1-based, inclusive)."""
    ranges, current = [], None
    for number, line in enumerate(Path(source).read_text().splitlines(), start=1):
        match = SECTION.match(line)
        if match:
            current = (number, match.group(1))
        elif current and line.startswith("#endif"):
            ranges.append((current[0], number, current[1]))
            current = None
    return ranges


def blocks(output):
    """The diagnostics of a build, each with its context lines (before it: GCC) and notes
    (after it: clang); a new one starts at a context or error line once the current has an error."""
    found, current, has_error = [], [], False
    for line in output.splitlines():
        starts = CONTEXT.search(line) or ERROR.search(line)
        if starts and has_error:
            found.append("\n".join(current))
            current, has_error = [], False
        current.append(line)
        has_error = has_error or bool(ERROR.search(line))
    if has_error:
        found.append("\n".join(current))
    return found


def sections_of(block, source_name, ranges):
    """The sections whose lines the block names."""
    names = set()
    for match in re.finditer(re.escape(source_name) + r":(\d+):", block):
        line = int(match.group(1))
        names.update(name for first, last, name in ranges if first <= line <= last)
    return names


def build(build_dir, target):
    done = subprocess.run(["cmake", "--build", build_dir, "--target", target],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    return done.returncode, done.stdout


def read_expectations(path):
    """{NAME: pattern}, and the names whose first error must match."""
    expected, first = {}, set()
    for line in Path(path).read_text().splitlines():
        if line.strip():
            name, pattern = line.split("\t", 1)
            if name.endswith(" first"):
                name = name[: -len(" first")]
                first.add(name)
            expected[name] = re.compile(pattern.replace("\\n", "\n"), re.DOTALL)
    return expected, first


def first_error(found):
    """The first error line of the first of `found` (blocks, in the compiler's order)."""
    for block in found[:1]:
        for line in block.splitlines():
            if ERROR.search(line):
                return line
    return ""


def says(pattern, found, first):
    """Whether the blocks `found` say `pattern`: any of them, or (first) the first error line."""
    if first:
        return bool(pattern.search(first_error(found)))
    return any(pattern.search(block) for block in found)


def run(args):
    results = Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    for old in results.glob("*.txt"):
        old.unlink()
    expected, first = read_expectations(args.expect)
    ranges = section_ranges(args.source)
    in_source = {name for _, _, name in ranges}
    status, output = build(args.build_dir, "compile_fail_all")
    per_section = {name: [] for name in expected}
    for block in blocks(output):
        for name in sections_of(block, Path(args.source).name, ranges):
            per_section.setdefault(name, []).append(block)
    alone = []
    for name, pattern in expected.items():
        if name not in in_source:
            verdict = f"FAIL\nmisuse.cpp has no section THINMPI_CF_{name}"
        elif status == 0:
            verdict = f"FAIL\nthe batch built (status 0): no section may compile. Output:\n{output}"
        elif says(pattern, per_section[name], name in first):
            which = "first error" if name in first else "errors"
            verdict = f"PASS\nthe batch build's {which} in this section say /{pattern.pattern}/"
        else:
            alone.append(name)
            status_alone, output_alone = build(args.build_dir, f"compile_fail_{name.lower()}")
            if status_alone == 0:
                verdict = f"FAIL\ncompile_fail_{name.lower()} built (status 0); it must not compile"
            elif (says(pattern, blocks(output_alone), True) if name in first
                  else pattern.search(output_alone)):
                verdict = (f"PASS\nbuilt alone (the batch showed no matching error of its own), "
                           f"it failed with /{pattern.pattern}/")
            else:
                wanted = "as its first error " if name in first else ""
                verdict = (f"FAIL\ncompile_fail_{name.lower()} failed to build (status "
                           f"{status_alone}) without the expected diagnostic {wanted}"
                           f"/{pattern.pattern}/ (first error: {first_error(blocks(output_alone))})."
                           f" Output:\n{output_alone}")
        (results / f"{name}.txt").write_text(verdict + "\n")
    passed = sum((results / f"{n}.txt").read_text().startswith("PASS") for n in expected)
    print(f"compile-fail: {passed} of {len(expected)} sections fail to compile as they must, "
          f"{len(expected) - len(alone)} judged from one batch build"
          + (f", built alone: {', '.join(alone)}" if alone else ""))
    return 0


def report(args):
    path = Path(args.results) / f"{args.section}.txt"
    if not path.exists():
        print(f"no verdict for {args.section}: compile_fail.batch did not run or did not reach it")
        return 1
    text = path.read_text()
    print(text, end="")
    return 0 if text.startswith("PASS") else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_parser = sub.add_parser("run")
    run_parser.add_argument("--build-dir", required=True)
    run_parser.add_argument("--source", required=True)
    run_parser.add_argument("--expect", required=True)
    run_parser.add_argument("--results", required=True)
    report_parser = sub.add_parser("report")
    report_parser.add_argument("--results", required=True)
    report_parser.add_argument("--section", required=True)
    args = parser.parse_args()
    return run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    sys.exit(main())
