#!/usr/bin/python3
"""Extracts every C++ code sample of the documentation into translation units that the tests
compile (docs/CMakeLists.txt: the target doc_samples, the ctest docs.samples), so that no sample a
reader copies is out of date.

Samples are
  - the ```cpp blocks of README.md and docs/*.md;
  - the indented code blocks of the `///` doc comments of the public headers (include/thinmpi,
    not detail/): a run of `///` lines indented by four spaces or more after a blank `///` line
    (without the blank line, Markdown and Doxygen read them as the paragraph's text).

Each becomes one function body (statements, local structs included), or, when it declares
classes, templates or functions (it starts with `class`, `template`, `namespace` or `#include`,
or defines a function), one
namespace; `#include` lines move to the top of the unit, and a sample that specializes a thinmpi
template or defines `int main(` is placed at global scope (at most one main per unit). One unit per Markdown file and one per header folder
(the folders are the families), #line-mapped, so that an error names the sample's own file and
line. Every sample sees the prelude below: the names the samples share (`world`, `n`, `use()`,
...); a sample that needs another name declares it. A sample that cannot stand alone (a fragment
of a class, a signature) says so in a comment of its own, `// not compiled: <why>`, and is
counted, not compiled.

Usage:
  doc_samples.py --root DIR --out DIR     write the units (only those whose text changed)
  doc_samples.py --root DIR --list        the units' file names, one a line (for CMake)
  doc_samples.py --root DIR --summary     how many samples each source has, compiled or not
"""
import argparse
import pathlib
import re
import sys

PRELUDE = r"""// The names every sample may use without declaring them (scripts/doc_samples.py).
#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace doc_samples {
inline thinmpi::comm_view world;            // thinmpi::world() in a program
inline int argc = 0;                        // main's arguments
inline char** argv = nullptr;
inline int n = 8;                           // an element count
inline int rank = 0, size = 1;              // world.rank(), world.size()
inline int src = 0, dest = 0, peer = 0;     // the ranks a message comes from, goes to
inline int tag = 0;
inline int root = 0, left = 0, right = 0;   // a root, the neighbours of a ring or grid
inline int steps = 10;                      // the rounds of a loop
inline int rows = 6, cols = 5;              // a row-major field of doubles
inline std::vector<double> field(30);
extern thinmpi::framed_channel channel;     // thinmpi::framed_channel channel(world)
extern thinmpi::cartesian_communicator grid;  // a Cartesian grid of the ranks
template <class... T>
void use(T&&...) {}                         // reads what a sample produced
template <class... T>
void update(T&&...) {}                      // writes a buffer between rounds
}  // namespace doc_samples
"""

NOT_COMPILED = re.compile(r"//\s*not compiled:\s*(.+)")
# A sample that starts so is declarations; a struct then statements is a function body (a local
# struct), a class (access specifiers, member templates) is not.
DECLARATION_START = re.compile(r"^(class|template|namespace|#include)\b")
FUNCTION_DEFINITION = re.compile(r"^[A-Za-z_][\w:<>,*& ]*\s+[A-Za-z_]\w*\([^;]*\)\s*(const\s*)?\{")
# At global scope: a specialization of a thinmpi template, and a program's main().
GLOBAL_SCOPE = re.compile(r"^(template\s*<>\s*struct\s+thinmpi::|int main\()")


class Sample:
    def __init__(self, path: pathlib.Path, line: int, lines: list[str]):
        self.path, self.line, self.lines = path, line, lines
        text = "\n".join(lines)
        found = NOT_COMPILED.search(text)
        self.not_compiled = found.group(1).strip() if found else None
        code = [l for l in lines if l.strip() and not l.strip().startswith("//")]
        first = code[0].strip() if code else ""
        self.global_scope = any(GLOBAL_SCOPE.match(l) for l in lines)
        self.declarations = bool(DECLARATION_START.match(first)) or any(
            FUNCTION_DEFINITION.match(l) for l in lines)


def markdown_samples(path: pathlib.Path) -> list[Sample]:
    samples, block, start = [], None, 0
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if block is None and line.strip() == "```cpp":
            block, start = [], number + 1
        elif block is not None and line.strip() == "```":
            samples.append(Sample(path, start, block))
            block = None
        elif block is not None:
            block.append(line)
    return samples


DOC_LINE = re.compile(r"^(\s*)///(.*)$")


def header_samples(path: pathlib.Path) -> list[Sample]:
    samples, block, start, blank_before = [], None, 0, True
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines, 1):
        doc = DOC_LINE.match(line)
        text = doc.group(2) if doc and not doc.group(2).startswith("<") else None
        is_code = text is not None and text.startswith("     ") and text.strip() != ""
        if is_code and block is None:
            if not blank_before:
                is_code = False  # a paragraph's indented continuation: Markdown text, no code
            else:
                block, start = [], number
        if is_code:
            block.append(text[5:])
        elif block is not None:
            samples.append(Sample(path, start, block))
            block = None
        blank_before = text is not None and text.strip() == ""
    return samples


def sources(root: pathlib.Path) -> dict[str, list[pathlib.Path]]:
    """Unit name -> the files whose samples it holds; files without samples get no unit."""
    units: dict[str, list[pathlib.Path]] = {}
    for md in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        units[f"md_{md.stem.lower()}.cpp"] = [md]
    include = root / "include" / "thinmpi"
    for folder in sorted(p for p in include.iterdir() if p.is_dir()):
        headers = sorted(h for h in folder.rglob("*.hpp") if "detail" not in h.parts)
        units[f"headers_{folder.name}.cpp"] = headers
    return {name: files for name, files in units.items()
            if any(samples_of(path) for path in files)}


def samples_of(path: pathlib.Path) -> list[Sample]:
    return markdown_samples(path) if path.suffix == ".md" else header_samples(path)


def unit_text(name: str, files: list[pathlib.Path]) -> str:
    out = [f"// Generated by scripts/doc_samples.py from {len(files)} file(s): do not edit.",
           PRELUDE]
    samples = [s for f in files for s in samples_of(f) if s.not_compiled is None]
    includes = sorted({l.strip() for s in samples for l in s.lines
                       if l.strip().startswith("#include")})
    out += includes
    for index, sample in enumerate(samples):
        mapped = [f'#line {sample.line} "{sample.path}"']
        # #include lines were hoisted: keep each remaining line at its own source line.
        numbered, line = [], sample.line
        for original in sample.lines:
            if original.strip().startswith("#include"):
                numbered.append(f'#line {line + 1} "{sample.path}"')
            else:
                numbered.append(original)
            line += 1
        mapped += numbered
        if sample.global_scope:
            out += mapped
        elif sample.declarations:
            out += [f"namespace doc_samples::sample_{index} {{"] + mapped + ["}"]
        else:
            out += [f"namespace doc_samples {{", f"void sample_{index}() {{"] + mapped + ["}", "}"]
    out.append(f"// {len(samples)} sample(s).")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=pathlib.Path, required=True)
    parser.add_argument("--out", type=pathlib.Path)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    units = sources(args.root.resolve())
    if args.list:
        print("\n".join(units))
        return 0
    if args.summary:
        compiled = skipped = 0
        for files in units.values():
            for path in files:
                for sample in samples_of(path):
                    if sample.not_compiled:
                        skipped += 1
                        print(f"not compiled: {path}:{sample.line}: {sample.not_compiled}")
                    else:
                        compiled += 1
        print(f"{compiled} samples compiled, {skipped} not compiled")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, files in units.items():
        target = args.out / name
        text = unit_text(name, files)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
