"""The io suite on fixture data: its jobs and launch command, the cells and ratios taken inside
each process, the targets' verdicts with the worst cell named, MPI-IO against POSIX, the audit
and the machine mode."""

import unittest
from types import SimpleNamespace

from wrapper_bench.report import Section
from wrapper_bench.suites.io import io_report, io_suite as ios

VARIANTS = tuple(f"{api}/{op}" for api in ios.APIS for form, ops in ios.OPS.items()
                 for op in ops if api != "posix" or form == "independent")
BUILD = ios.IoBuild("openmpi", "gcc", "mpirun.openmpi", ("/x/wb_io",), VARIANTS,
                    "/x/libwb_audit.so")
PYTHON = ios.IoBuild("openmpi", "python", "mpirun.openmpi",
                     ("/usr/bin/python3", "mpi4py_io.py", "--c-kernels", "/x/lib.so"),
                     ("mpi4py/write_at", "c/write_at", "posix/write_at"))


def record(variant, size, us, rep=0, fs="tmpfs", floor=0.03, compiler="gcc"):
    api, _, op = variant.partition("/")
    form = next(f for f, ops in ios.OPS.items() if op in ops)
    return {"variant": variant, "api": api, "op": op, "form": form, "bytes": size,
            "rank_bytes": size, "iterations": 100, "us": us, "block_us": [us] * 10,
            "floor_before_us": floor, "floor_after_us": floor, "verified": True,
            "mpi": "openmpi", "compiler": compiler, "fs": fs, "rep": rep,
            "job": f"io/openmpi-{compiler}/{form}/{fs}"}


# µs per call of (posix, c, thinmpi) on tmpfs: thinmpi 1.01x C except write_at 64 KiB (1.05x);
# C 1.5x POSIX at 8 B.
TIMES = {("write_at", 8): (1.0, 1.5, 1.515), ("write_at", 65536): (10.0, 11.0, 11.55),
         ("read_at", 8): (0.6, 0.9, 0.909)}


def fixture_records(slow_rep=None):
    records = []
    for rep in range(3):
        floor = 0.2 if rep == slow_rep else 0.03
        for (op, size), row in TIMES.items():
            for api, us in zip(("posix", "c", "thinmpi"), row):
                records.append(record(f"{api}/{op}", size, us * (1 + 0.01 * rep), rep,
                                      floor=floor))
        records += [record("c/write_at_all", 1 << 20, 200.0, rep, floor=floor),
                    record("thinmpi/write_at_all", 1 << 20, 198.0, rep, floor=floor)]
        records += [record("c/write_at", 8, 1.4, rep, compiler="python"),
                    record("mpi4py/write_at", 8, 3.5, rep, compiler="python")]
    return records


AUDIT = [{"mpi": "openmpi", "compiler": "gcc", "variant": v, "bytes": 64, "rank": 0,
          "calls": calls} for v, calls in
         (("c/read_at", {"MPI_File_read_at": 1.0, "MPI_Get_count": 1.0}),
          ("thinmpi/read_at", {"MPI_File_read_at": 1.0}),
          ("c/write_at", {"MPI_File_write_at": 1.0}),
          ("thinmpi/write_at", {"MPI_File_write_at": 1.0}))]


def fixture_part(slow_rep=None, audit=AUDIT):
    return ios.recompute({"records": fixture_records(slow_rep), "audit": audit, "failures": [],
                          "missing": [], "file_systems": {"tmpfs": {"path": "/dev/shm",
                                                                    "type": "tmpfs"}}})


def cell(part, variant, size, compiler="gcc"):
    return next(c for c in part["cells"] if (c["variant"], c["bytes"], c["compiler"]) ==
                (variant, size, compiler))


class Jobs(unittest.TestCase):
    def test_forms_file_systems_and_the_audit(self):
        jobs = ios.jobs_for(BUILD, "quick", ["tmpfs", "disk"])
        keys = [j.key for j in jobs]
        self.assertEqual(keys[:4], ["io/openmpi-gcc/independent/tmpfs",
                                    "io/openmpi-gcc/collective/tmpfs/1048576",
                                    "io/openmpi-gcc/collective/tmpfs/8388608",
                                    "io/openmpi-gcc/shared/tmpfs"])
        self.assertEqual(keys[-1], "io/openmpi-gcc/audit")
        self.assertEqual(len(jobs), 9)  # 4 per file system, the audit
        independent = jobs[0]
        self.assertEqual([s for s, _ in independent.sizes], list(ios.INDEPENDENT_BYTES))
        calls = dict(independent.sizes)
        self.assertEqual(calls[8], calls[4096])
        self.assertLess(calls[1 << 20], calls[65536])
        self.assertIn("posix/write_at", independent.variants)
        self.assertNotIn("posix/write_at", jobs[1].variants)

    def test_full_runs_64_mib_and_smoke_is_small(self):
        full = ios.jobs_for(BUILD, "full", ["tmpfs"])
        self.assertIn("io/openmpi-gcc/collective/tmpfs/67108864", [j.key for j in full])
        smoke = ios.jobs_for(BUILD, "smoke", ["tmpfs"])
        self.assertEqual(len(smoke), 4)
        self.assertTrue(all(n <= 20 for j in smoke for _, n in j.sizes))

    def test_api_filter_keeps_c_and_the_floor(self):
        jobs = ios.jobs_for(BUILD, "quick", ["tmpfs"], api_filter=("mpi4py",))
        self.assertFalse(any(v.startswith("thinmpi/") for j in jobs for v in j.variants))
        self.assertIn("posix/read_at", jobs[0].variants)

    def test_mpi4py_runs_the_independent_forms_only(self):
        jobs = ios.jobs_for(PYTHON, "quick", ["tmpfs", "disk"])
        self.assertEqual([j.form for j in jobs], ["independent", "independent"])

    def test_command(self):
        job = ios.jobs_for(BUILD, "quick", ["tmpfs"])[0]
        line = ios.command(job, "/dev/shm/wb-io-x")
        self.assertIn("--bind-to", line)
        self.assertEqual(line[line.index("--dir") + 1], "/dev/shm/wb-io-x")
        self.assertTrue(line[line.index("--sizes") + 1].startswith("8:"))
        audit = ios.jobs_for(BUILD, "quick", ["tmpfs"])[-1]
        line = ios.command(audit, "/d", "/tmp/a.jsonl")
        self.assertIn("LD_PRELOAD=/x/libwb_audit.so", line)
        self.assertEqual(line[line.index("--audit") + 1], str(ios.AUDIT_CALLS))

    def test_odd_processes_list_the_apis_in_reverse(self):
        # wb_io's first-listed write instance ran slower at 8 MiB: each API is first in half of
        # a job's processes, an even number.
        job = next(j for j in ios.jobs_for(BUILD, "quick", ["tmpfs"]) if j.form == "collective")
        variants = ("c/write_at_all", "c/read_at_all", "posix/write_at_all",
                    "thinmpi/write_at_all", "thinmpi/read_at_all")
        self.assertEqual(ios.ordered(variants, 0), variants)
        self.assertEqual(ios.ordered(variants, 1),
                         ("thinmpi/write_at_all", "thinmpi/read_at_all", "posix/write_at_all",
                          "c/write_at_all", "c/read_at_all"))
        first = [ios.command(job, "/d", rep=rep) for rep in range(2)]
        listed = [line[line.index("--variants") + 1].split(",") for line in first]
        self.assertEqual(sorted(listed[0]), sorted(listed[1]))
        self.assertNotEqual(listed[0][0].split("/")[0], listed[1][0].split("/")[0])
        self.assertEqual([ios.COUNTS[mode].reps % 2 for mode in ("quick", "full")], [0, 0])

    def test_disk_base_is_not_tmpfs(self):
        base = ios.disk_base(SimpleNamespace(build_prefix="/dev/shm/bench-"))
        self.assertNotEqual(base, None)
        self.assertNotIn(ios.file_system_of(base), ("tmpfs", "ramfs"))


class Cells(unittest.TestCase):
    def setUp(self):
        self.part = fixture_part()

    def test_ratios_are_taken_inside_each_process(self):
        mine = cell(self.part, "thinmpi/write_at", 65536)
        self.assertAlmostEqual(mine["ratio_vs_c"]["median"], 1.05)
        c = cell(self.part, "c/write_at", 8)
        self.assertAlmostEqual(c["ratio_vs_posix"]["median"], 1.5)
        self.assertIsNone(c["ratio_vs_c"])
        self.assertEqual(c["reps"], 3)
        mpi4py = cell(self.part, "mpi4py/write_at", 8, "python")
        self.assertAlmostEqual(mpi4py["ratio_vs_c"]["median"], 2.5)

    def test_machine_mode(self):
        self.assertEqual(self.part["mode"]["mode"], "fast")
        slow = fixture_part(slow_rep=2)  # rep 2's independent and collective processes
        self.assertEqual((slow["mode"]["mode"], slow["mode"]["slow"]), ("mixed", 2))


class Report(unittest.TestCase):
    def setUp(self):
        self.part = fixture_part()

    def test_targets_name_the_worst_cell(self):
        rows = io_report.targets_table(self.part).rows
        ratio_row = next(r for r in rows if r[0].startswith("thinmpi / C"))
        self.assertEqual(ratio_row[3], "3 of 4")
        self.assertEqual(ratio_row[4], "1.05× (write_at 64 KiB, tmpfs)")
        self.assertTrue(ratio_row[5].startswith("not met: write_at 64 KiB"))
        audit_row = next(r for r in rows if "audit" in r[0])
        self.assertEqual(audit_row[-1], "met")

    def test_a_different_call_fails_the_audit(self):
        audit = AUDIT[:-1] + [dict(AUDIT[-1], calls={"MPI_File_write_at": 1.0,
                                                     "MPI_File_sync": 1.0})]
        rows = io_report.targets_table(fixture_part(audit=audit)).rows
        self.assertEqual(next(r for r in rows if "audit" in r[0])[-1],
                         "not met: thinmpi/write_at")

    def test_tables(self):
        table = io_report.ratio_table(self.part["cells"], "openmpi", "gcc",
                                      self.part["file_systems"])
        self.assertEqual([r[:2] for r in table.rows],
                         [["write_at", "8 B"], ["write_at", "64 KiB"], ["read_at", "8 B"],
                          ["write_at_all", "1 MiB array"]])
        self.assertTrue(table.rows[1][4].startswith("1.05×"))
        posix = io_report.posix_table(self.part["cells"], "openmpi", "gcc")
        self.assertTrue(posix.rows[0][4].startswith("1.50×"))
        self.assertEqual(posix.rows[0][5], "0.505 µs")  # medians over the processes (1 % apart)
        self.assertIn("ns a byte", posix.note)
        mpi4py = io_report.mpi4py_table(self.part["cells"])
        self.assertTrue(mpi4py.rows[0][-1].startswith("2.50×"))
        audit = io_report.audit_table(self.part["audit"])
        self.assertEqual(audit.rows[0][1:], ["write_at", "1 MPI_File_write_at",
                                             "1 MPI_File_write_at", "yes"])

    def test_section(self):
        section = io_report.sections(self.part, [], Section)[0]
        self.assertIn("Machine mode: fast", section.paragraphs[0])
        self.assertIn("/dev/shm (tmpfs)", section.paragraphs[1])


if __name__ == "__main__":
    unittest.main()
