"""The serialization suite: its jobs, its table and its target lines."""

import tempfile
import unittest
from pathlib import Path

from fixture_data import HARNESS_VARIANTS
from wrapper_bench import matrix
from wrapper_bench.core import compare
from wrapper_bench.suites.audit import path_tables
from wrapper_bench.suites.serialization import serial_suite
from wrapper_bench.matrix import Build
from wrapper_bench.core import p2p_jobs

SERIAL = tuple((f"{api}/{p}", 1, 0) for p in ("ser_vecstr", "ser_map", "ser_record")
               for api in ("c", "thinmpi", "boost")) + \
    tuple((f"c/{p}_kept", 1, 0) for p in ("ser_vecstr", "ser_map", "ser_record"))
# Boost.MPI decodes into the caller's object: its floor is the C that unpacks into its kept one.
BASELINES = {n: "c/" + n.split("/")[1] + ("_kept" if n.startswith("boost/") else "")
             for n, _, _ in SERIAL if not n.startswith("c/")}
FLAT = (("thinmpi/ser_map_flat", 1, 0),)
FLAT_BASELINES = dict(BASELINES, **{"thinmpi/ser_map_flat": "c/ser_map"})


def expand(builds, **filters):
    return matrix.expand(builds, matrix.Filters(**filters), matrix.QUICK, BASELINES)


class SerialJobs(unittest.TestCase):
    def test_every_shape_and_count_with_its_floor(self):
        jobs = expand([Build("openmpi", "gcc", SERIAL)], suites=("serialization",))
        self.assertEqual([j.count for j in jobs], [8, 64, 1024, 8, 512, 64])
        for job in jobs:
            floors = [n for n in job.variants if n.startswith("c/")]
            self.assertEqual(job.variants[:2], tuple(floors))
            self.assertEqual(floors[1], floors[0] + "_kept")  # Boost.MPI's
        self.assertLess(jobs[2].iterations, jobs[0].iterations)

    def test_in_the_default_matrix(self):
        self.assertIn("serialization", matrix.SUITES)

    def test_kept_out_of_the_tiny_tables(self):
        build = Build("openmpi", "gcc", HARNESS_VARIANTS + SERIAL)
        for job in expand([build], suites=("tiny",)):
            self.assertFalse(any(p2p_jobs.is_serial(n) for n in job.variants))

    def test_the_flat_map_runs_beside_the_map_against_its_floor(self):
        jobs = matrix.expand([Build("openmpi", "gcc", SERIAL + FLAT)],
                             matrix.Filters(suites=("serialization",)), matrix.QUICK,
                             FLAT_BASELINES)
        maps = [j for j in jobs if "c/ser_map" in j.variants]
        self.assertEqual([j.count for j in maps], [8, 512])
        for job in maps:
            self.assertEqual(job.variants, ("c/ser_map", "c/ser_map_kept", "thinmpi/ser_map",
                                            "boost/ser_map", "thinmpi/ser_map_flat"))
        self.assertFalse(any("thinmpi/ser_map_flat" in j.variants for j in jobs
                             if j not in maps))
        self.assertIn("thinmpi/ser_map_flat", serial_suite.variant_names())

    def test_sizes_keep_the_small_payloads(self):
        jobs = expand([Build("openmpi", "gcc", SERIAL)], suites=("serialization",),
                      sweep_bytes=(4, 4096))
        self.assertEqual([j.count for j in jobs], [8, 8, 64])


def record(variant, one_way, count, rep, baseline=None):
    """One harness record of the serialization suite (openmpi, gcc)."""
    api, payload = variant.split("/")
    return {"variant": variant, "api": api, "payload": payload,
            "baseline": None if api == "c" else baseline or f"c/{payload}", "count": count,
            "bytes": count,
            "warmup": 10, "iterations": 100, "blocks": 2, "one_way_us": one_way,
            "block_one_way_us": [one_way, one_way], "verified": True, "suite": "serialization",
            "mpi": "openmpi", "compiler": "gcc", "job": f"serialization/openmpi-gcc/n{count}",
            "rep": rep}


def serial_records(ratio, reuse=None):
    """Each shape's floor, thinmpi and Boost.MPI (against the kept floor, as its kernels are),
    and thinmpi's recv_reuse form at `reuse` where given."""
    found = []
    for payload, _, sizes in serial_suite.SHAPES:
        for count in sizes:
            for rep in range(3):
                found += [record(f"c/{payload}", 1.0, count, rep),
                          record(f"c/{payload}_kept", 0.5, count, rep),
                          record(f"thinmpi/{payload}", ratio, count, rep),
                          record(f"boost/{payload}", 1.5, count, rep, f"c/{payload}_kept")]
                if reuse:
                    found.append(record(f"thinmpi/{payload}_reuse", 0.5 * reuse, count, rep,
                                        f"c/{payload}_kept"))
    return found


class SerialReport(unittest.TestCase):
    def test_table_has_a_row_per_shape_with_ratios(self):
        cells = compare.aggregate(serial_records(1.05))
        table = serial_suite.table(cells)
        # Each shape's row, and its "into a kept one" row where Boost.MPI's cell is.
        self.assertEqual(len(table.rows), 12)
        self.assertIn("(1.05×)", table.rows[0][4])
        self.assertEqual(table.rows[0][5], "—")
        self.assertEqual(table.rows[1][2], "vector<string> 8×8 into a kept one")
        self.assertIn("0.500 µs", table.rows[1][3])
        self.assertEqual(table.rows[1][4], "—")
        self.assertIn("(3.00×)", table.rows[1][5])

    def test_the_reuse_forms_are_judged_against_the_kept_floor_and_compared_with_boost(self):
        cells = compare.aggregate(serial_records(1.05, reuse=1.04))
        rows = serial_suite.table(cells).rows
        kept = [r for r in rows if r[2] == "vector<string> 64×64 into a kept one"]
        self.assertEqual(len(kept), 1)
        self.assertIn("(1.04×)", kept[0][4])
        self.assertIn("(3.00×)", kept[0][5])
        line = serial_suite.target_lines(cells)[0]
        # Boost.MPI (1.5 µs) against thinmpi's recv_reuse (0.52 µs), both into a kept one.
        self.assertIn("2.9× faster than boost at 64×64 (both into a kept one) (met", line)
        self.assertIn("thinmpi/ser_map_reuse at most 1.04×, not judged (std::map links and "
                      "balances a node per entry", line)
        targets = {r[0].split(" ")[0]: r for r in path_tables.thinmpi_targets(cells).rows}
        self.assertEqual(targets["thinmpi/ser_vecstr_reuse"][1:3], ["c/ser_vecstr_kept", "≤ 1.10×"])
        self.assertEqual(targets["thinmpi/ser_vecstr_reuse"][-1], "met")
        self.assertEqual(targets["thinmpi/ser_map_reuse"][-1], "not judged")

    def test_kamping_has_a_column_and_mpl_a_dash_with_the_reason(self):
        records = serial_records(1.05) + [record("kamping/ser_vecstr", 2.5, 8, rep)
                                          for rep in range(3)]
        table = serial_suite.table(compare.aggregate(records))
        self.assertEqual(table.headers[-2:], ["KaMPIng cereal", "MPL"])
        self.assertIn("(2.50×)", table.rows[0][-2])
        self.assertEqual(table.rows[0][-1], "—")
        self.assertEqual(table.rows[1][-2], "—")  # no KaMPIng cell at 64×64
        self.assertIn("MPL has no general serialization", table.note)

    def test_kamping_runs_beside_the_floor(self):
        build = Build("openmpi", "gcc", SERIAL + (("kamping/ser_map", 1, 0),))
        jobs = matrix.expand([build], matrix.Filters(suites=("serialization",),
                                                     api=("kamping",)),
                             matrix.QUICK, dict(BASELINES, **{"kamping/ser_map": "c/ser_map"}))
        self.assertEqual([j.variants for j in jobs], [("c/ser_map", "kamping/ser_map")] * 2)

    def test_target_lines_say_met_or_missed(self):
        met = serial_suite.target_lines(compare.aggregate(serial_records(1.05)))
        self.assertIn("1.05× the hand-packed C (met", met[0])
        missed = serial_suite.target_lines(compare.aggregate(serial_records(1.5)))
        self.assertIn("(missed", missed[0])

    def test_the_map_is_reported_beside_its_flat_form_which_is_judged(self):
        records = [r for r in serial_records(1.05) if r["variant"] != "thinmpi/ser_map"]
        records += [record("thinmpi/ser_map", 2.0, count, rep) for count in (8, 512)
                    for rep in range(3)]
        records += [record("thinmpi/ser_map_flat", 1.06, count, rep, "c/ser_map")
                    for count in (8, 512) for rep in range(3)]
        cells = compare.aggregate(records)
        rows = serial_suite.table(cells).rows
        flat = [r for r in rows if r[2] == "map<int,string> 512 as vector<pair>"]
        self.assertEqual(len(flat), 1)
        self.assertIn("(1.06×)", flat[0][4])
        self.assertEqual(set(flat[0][5:]), {"—"})
        line = serial_suite.target_lines(cells)[0]
        self.assertIn("at most 1.06× the hand-packed C (met", line)
        self.assertIn("thinmpi/ser_map at most 2.00×, not judged (std::map allocates a node", line)
        targets = {r[0].split(" ")[0]: r for r in path_tables.thinmpi_targets(cells).rows}
        self.assertEqual(targets["thinmpi/ser_map_flat"][1:3], ["c/ser_map", "≤ 1.10×"])
        self.assertEqual(targets["thinmpi/ser_map_flat"][-1], "met")
        mapped = targets["thinmpi/ser_map"]
        self.assertIn("(std::map allocates a node per entry, C one array)", mapped[0])
        self.assertIn("judged on thinmpi/ser_map_flat", mapped[2])
        self.assertEqual((mapped[3], mapped[-1]), ("2.00×", "not judged"))

    def test_chart_is_drawn(self):
        cells = compare.aggregate(serial_records(1.05))
        with tempfile.TemporaryDirectory() as out:
            drawn = serial_suite.draw(cells, Path(out))
            self.assertEqual(drawn[0][1], "serialization_openmpi.png")
            self.assertTrue((Path(out) / drawn[0][1]).stat().st_size > 0)


if __name__ == "__main__":
    unittest.main()
