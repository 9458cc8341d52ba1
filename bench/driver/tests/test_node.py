"""The node suite on fixture data: its jobs and launch command, the cells and ratios taken inside
each process, the crossover, the message rate, the machine mode and the targets' verdicts."""

import unittest
from pathlib import Path
from tempfile import TemporaryDirectory

from wrapper_bench.report import Section
from wrapper_bench.suites.node import node_chart, node_report, node_suite as ns

BUILD = ns.NodeBuild("openmpi", "gcc", "mpirun.openmpi", "/x/wb_node",
                     ns.LATENCY + (ns.C_RATE, ns.RATE))


def record(variant, size, one_way, rep=0, kind="latency", ranks=2, floor=0.03):
    return {"variant": variant, "bytes": size, "count": size, "ranks": ranks, "kind": kind,
            "block_one_way_us": [one_way] * 10, "one_way_us": one_way, "iterations": 1000,
            "floor_before_us": floor, "floor_after_us": floor, "verified": True,
            "mpi": "openmpi", "compiler": "gcc", "rep": rep,
            "job": f"node/openmpi-gcc/{kind}/{ranks}ranks"}


# One-way µs per size: floor, C known, C mprobe, thinmpi MPI path, channel known, channel
# unknown, ring only (TIMED, in that order). The channel is 1.2x the floor and 0.4x C up to 48 B, loses to C from
# 64 KiB on the default path and from 16 KiB on the ring.
TIMED = (ns.FLOOR, ns.C_KNOWN, ns.C_MPROBE, ns.THINMPI_MPI, ns.KNOWN, ns.UNKNOWN, ns.RING)
TIMES = {8: (0.05, 0.15, 0.20, 0.15, 0.06, 0.07, 0.06),
         48: (0.05, 0.15, 0.20, 0.15, 0.06, 0.07, 0.06),
         4096: (0.3, 3.0, 3.2, 3.0, 1.0, 1.1, 1.0),
         16384: (0.8, 4.0, 4.1, 4.0, 3.9, 4.0, 4.4),
         65536: (3.0, 11.0, 11.0, 11.0, 12.0, 12.5, 18.0)}


def fixture_records(slow_rep=None):
    records = []
    for rep in range(3):
        floor = 0.2 if rep == slow_rep else 0.03
        for size, row in TIMES.items():
            records += [record(v, size, t * (1 + 0.01 * rep), rep, floor=floor)
                        for v, t in zip(TIMED, row)]
        records += [record(ns.C_RATE, 8, 3.2, rep, "rate"), record(ns.RATE, 8, 1.5, rep, "rate")]
    records += [record(ns.C_KNOWN, 8, 2.0, 0, ranks=4), record(ns.KNOWN, 8, 1.0, 0, ranks=4)]
    return records


def fixture_part(slow_rep=None):
    return ns.recompute({"records": fixture_records(slow_rep), "failures": [], "missing": [],
                         "window": ns.WINDOW, "pairs_ranks": 4, "cores": 2})


def cell(part, variant, size, ranks=2):
    return next(c for c in part["cells"] if (c["variant"], c["bytes"], c["ranks"]) ==
                (variant, size, ranks))


class Jobs(unittest.TestCase):
    def test_every_size_in_one_process_fewer_round_trips_when_large(self):
        jobs = ns.jobs_for(BUILD, "quick")
        latency = jobs[0]
        self.assertEqual((latency.kind, latency.ranks), ("latency", 2))
        self.assertEqual([s for s, _ in latency.counts], list(ns.SIZES))
        trips = dict(latency.counts)
        self.assertEqual(trips[8], trips[4096])
        self.assertLess(trips[1048576], trips[65536])
        self.assertEqual([(j.kind, j.ranks) for j in jobs],
                         [("latency", 2), ("rate", 2), ("latency", 4), ("rate", 4)])

    def test_no_compared_path_follows_the_floor(self):
        """The blocks run in a cycle; the path right after the floor's spin can run 5-14% slower
        for its whole block, so that place is C's matched probe, which no ratio compares."""
        order = ns.jobs_for(BUILD, "quick")[0].variants
        after_floor = order[(order.index(ns.FLOOR) + 1) % len(order)]
        self.assertEqual(after_floor, ns.C_MPROBE)
        self.assertEqual(set(order), set(ns.LATENCY))

    def test_command_binds_two_ranks_and_oversubscribes_four(self):
        two, _, four, _ = ns.jobs_for(BUILD, "quick")
        self.assertIn("--bind-to", ns.command(two))
        self.assertIn("--oversubscribe", ns.command(four))
        self.assertNotIn("--bind-to", ns.command(four))
        self.assertIn("8:", ns.command(two)[ns.command(two).index("--counts") + 1])


class Cells(unittest.TestCase):
    def setUp(self):
        self.part = fixture_part()

    def test_ratios_are_taken_inside_each_process(self):
        known = cell(self.part, ns.KNOWN, 8)
        self.assertAlmostEqual(known["ratio_vs_c"]["median"], 0.4)
        self.assertAlmostEqual(known["ratio_vs_floor"]["median"], 1.2)
        self.assertEqual(known["reps"], 3)

    def test_message_rate(self):
        rate = cell(self.part, ns.RATE, 8)
        self.assertAlmostEqual(rate["messages_per_s"]["median"], 64 / (2 * 1.5e-6),
                               delta=1e3)
        self.assertAlmostEqual(rate["ratio_vs_c"]["median"], 1.5 / 3.2)

    def test_crossover_of_the_ring_and_the_default_path(self):
        found = {c["variant"]: c for c in self.part["crossovers"]}
        self.assertEqual(found[ns.RING]["losses"], [16384, 65536])
        self.assertEqual((found[ns.RING]["last_win"], found[ns.RING]["first_loss"]),
                         (4096, 16384))
        self.assertEqual((found[ns.KNOWN]["last_win"], found[ns.KNOWN]["first_loss"]),
                         (16384, 65536))

    def test_machine_mode(self):
        self.assertEqual(self.part["mode"]["mode"], "fast")
        slow = fixture_part(slow_rep=2)
        self.assertEqual((slow["mode"]["mode"], slow["mode"]["slow"]), ("mixed", 1))
        self.assertEqual(cell(slow, ns.KNOWN, 8)["slow_reps"], 1)


class Report(unittest.TestCase):
    def setUp(self):
        self.part = fixture_part()

    def verdicts(self):
        return {row[0]: row[-1] for row in node_report.targets_table(self.part).rows}

    def test_targets(self):
        verdicts = self.verdicts()
        self.assertEqual(verdicts["4-48 B one-way vs the floor"], "met")
        self.assertEqual(verdicts["4-48 B one-way vs C known count"], "met")
        self.assertEqual(verdicts["unknown size, 1-48 B, vs C known count"], "met")
        self.assertEqual(verdicts["message rate at 8 B vs C"], "met")  # 3.2 / 1.5 = 2.13x
        self.assertEqual(verdicts["every size to 1 MiB vs C known count (default crossover)"],
                         "not met")  # 65536: 12 / 11

    def test_a_slow_channel_misses(self):
        records = [dict(r, block_one_way_us=[r["one_way_us"] * 3] * 10)
                   if r["variant"] == ns.KNOWN else r for r in fixture_records()]
        part = ns.recompute({"records": records, "cores": 2})
        verdicts = {row[0]: row[-1] for row in node_report.targets_table(part).rows}
        self.assertEqual(verdicts["4-48 B one-way vs the floor"], "not met")
        self.assertEqual(verdicts["4-48 B one-way vs C known count"], "not met")

    def test_tables_and_section(self):
        latency = node_report.latency_table(self.part["cells"], "openmpi", "gcc")
        self.assertEqual([row[0] for row in latency.rows], ["8 B", "48 B", "4 KiB", "16 KiB",
                                                            "64 KiB"])
        self.assertEqual(latency.rows[0][-3:], ["1.20×", "0.40×", "0.40×"])
        crossing = node_report.crossover_table(self.part)
        self.assertEqual(crossing.rows[0][2:4], ["ring only", "4 KiB"])
        self.assertEqual(node_report.rate_table(self.part["cells"]).rows[0][-1], "2.13×")
        self.assertEqual(len(node_report.pairs_table(self.part["cells"]).rows), 1)
        section = node_report.sections(self.part, [], Section)[0]
        self.assertIn("Machine mode: fast", section.paragraphs[0])
        self.assertIn("oversubscribed", section.paragraphs[0])

    def test_chart(self):
        with TemporaryDirectory() as folder:
            drawn = node_chart.draw(self.part, Path(folder))
            self.assertEqual(drawn[0][1], node_chart.CHART)
            self.assertTrue((Path(folder) / node_chart.CHART).stat().st_size > 0)


if __name__ == "__main__":
    unittest.main()
