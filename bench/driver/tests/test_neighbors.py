"""The neighbors suite on fixture data: jobs, the sparse-vs-dense cells, the report's tables."""

import sys
import unittest
from types import SimpleNamespace

from wrapper_bench import matrix
from wrapper_bench.core import harness, harness_cells
from wrapper_bench.suites.neighbors import neighbor_report, neighbor_suite
from wrapper_bench.report import Section

sys.path.insert(0, str(neighbor_suite.MPI4PY_KERNEL.parent))
import mpi4py_neighbors  # noqa: E402  (bench/kernels: --list and the data need no mpi4py)

VARIANTS = [{"variant": "c/neighbor_alltoall/torus", "api": "c", "program": False},
            {"variant": "thinmpi/neighbor_alltoall/torus", "api": "thinmpi", "program": False},
            {"variant": "c/sparse_exchange/nbx", "api": "c", "program": False},
            {"variant": "c/sparse_exchange/alltoallv", "api": "c", "program": False},
            {"variant": "thinmpi/sparse_exchange/nbx", "api": "thinmpi", "program": False},
            {"variant": "thinmpi/sparse_exchange/alltoallv", "api": "thinmpi",
             "program": False},
            {"variant": "c/halo_2d/program", "api": "c", "program": True},
            {"variant": "thinmpi/halo_2d/program", "api": "thinmpi", "program": True}]


def build():
    return harness.CollBuild("openmpi", "gcc", "mpiexec.openmpi", ["/x/wb_neighbors"],
                             VARIANTS, "/x/libwb_audit.so")


def record(variant, blocks, ranks=4, job="j", rep=0, count=1, baseline=None):
    api, op, form = variant.split("/")
    return {"variant": variant, "api": api, "op": op, "form": form, "baseline": baseline,
            "ranks": ranks, "count": count, "bytes": 4 * count, "iterations": 100,
            "blocks": len(blocks), "us": sum(blocks) / len(blocks), "block_us": blocks,
            "verified": True, "mpi": "openmpi", "compiler": "gcc", "rep": rep, "job": job}


def fixture_records():
    """One process at 4 ranks: thinmpi's NBX takes half its dense exchange's time, C's 0.4x;
    thinmpi's neighbor_alltoall 1.01x C, its halo program 1.05x C."""
    return [record("c/sparse_exchange/nbx", [4.0]),
            record("c/sparse_exchange/alltoallv", [10.0]),
            record("thinmpi/sparse_exchange/nbx", [5.0], baseline="c/sparse_exchange/nbx"),
            record("thinmpi/sparse_exchange/alltoallv", [10.0],
                   baseline="c/sparse_exchange/alltoallv"),
            record("c/neighbor_alltoall/torus", [2.0]),
            record("thinmpi/neighbor_alltoall/torus", [2.02],
                   baseline="c/neighbor_alltoall/torus"),
            record("c/halo_2d/program", [100.0], job="p", count=64),
            record("thinmpi/halo_2d/program", [105.0], job="p", count=64,
                   baseline="c/halo_2d/program")]


class Jobs(unittest.TestCase):
    def test_neighbor_sizes_then_halo_sides_then_an_audit_at_2_and_4_ranks(self):
        jobs = harness.jobs_for(build(), "quick", plan=neighbor_suite.PLAN)
        timed = [(j.ranks, j.count) for j in jobs if not j.audit and not
                 harness.is_program_job(j)]
        per_rank = [max(1, b // 4) for b in neighbor_suite.NEIGHBOR_BYTES]
        self.assertEqual(timed, [(2, c) for c in per_rank] + [(4, c) for c in per_rank])
        halo = [(j.ranks, j.count) for j in jobs if harness.is_program_job(j)]
        self.assertEqual(halo, [(r, n) for r in (2, 4) for n in neighbor_suite.HALO_SIDES])
        audits = [j for j in jobs if j.audit]
        self.assertEqual([j.ranks for j in audits], [2, 4])
        self.assertIn("thinmpi/halo_2d/program", audits[0].variants)
        self.assertTrue(all(j.key.startswith("neighbors/") for j in jobs))

    def test_smoke_is_one_size_and_a_small_plate_at_2_ranks(self):
        jobs = harness.jobs_for(build(), "smoke", sizes=(4, 4096), plan=neighbor_suite.PLAN)
        self.assertEqual([(j.ranks, j.count, j.audit) for j in jobs],
                         [(2, 1, False), (2, neighbor_suite.SMOKE_HALO_SIDE, False),
                          (2, 8, True)])

    def test_the_suite_is_in_the_default_matrix_and_adds_no_matrix_jobs(self):
        self.assertIn("neighbors", matrix.SUITES)
        self.assertNotIn("neighbors", matrix.SUITE_JOBS)

    def test_builds_come_from_wb_neighbors_json_with_the_reason_when_thinmpi_is_out(self):
        setup = SimpleNamespace(manifests={("openmpi", "gcc"): {}}, launchers={}, missing=[])
        options = SimpleNamespace(build_prefix="/nonexistent/", api=("thinmpi",))
        found = neighbor_suite.find_builds(setup, options)
        self.assertEqual(found, [(None, "openmpi-gcc: no wb_neighbors.json (rebuild the "
                                        "kernels)")])


class Cells(unittest.TestCase):
    def test_sparse_over_dense_is_taken_inside_each_process_per_api(self):
        sparse = {s["api"]: s for s in neighbor_suite.sparse_vs_dense(fixture_records())}
        self.assertAlmostEqual(sparse["c"]["ratio"]["median"], 0.4)
        self.assertAlmostEqual(sparse["thinmpi"]["ratio"]["median"], 0.5)
        self.assertEqual((sparse["thinmpi"]["ranks"], sparse["thinmpi"]["bytes"]), (4, 4))

    def test_recompute_keeps_the_records_and_adds_cells_and_sparse(self):
        part = neighbor_suite.recompute({"ranks": [2, 4], "records": fixture_records()})
        self.assertEqual(len(part["cells"]), 8)
        self.assertEqual(len(part["sparse"]), 2)


class Report(unittest.TestCase):
    def part(self):
        audit = [{"mpi": "openmpi", "compiler": "gcc", "ranks": n,
                  "variant": "c/sparse_exchange/alltoallv",
                  "calls": {"MPI_Alltoall": 1.0, "MPI_Alltoallv": 1.0}, "peers": 2.0 * n}
                 for n in (2, 4)]
        return neighbor_suite.recompute({"ranks": [2, 4], "records": fixture_records(),
                                         "audit": audit, "failures": [], "notes": [],
                                         "missing": ["x: y"]})

    def test_targets_count_the_cells_within(self):
        part = self.part()
        rows = {r[0]: r for r in neighbor_report.targets_table(part["cells"],
                                                               part["sparse"]).rows}
        neighborhood = rows["neighborhood collectives (ring, torus) vs the same C call"]
        self.assertEqual(neighborhood[2:], ["1.010x", "1 of 1", "1.01x"])
        self.assertEqual(rows["the halo program vs its C version"][3], "0 of 1")
        faster = rows["thinmpi sparse exchange / dense exchange at 4 ranks"]
        self.assertEqual(faster[1:], ["< 1.00x", "0.500x", "1 of 1", "0.50x"])
        self.assertEqual(rows["making the torus (cartesian_communicator) vs MPI_Cart_create"][3],
                         "no cells")

    def test_cells_where_c_pairs_wrongly_are_reported_not_judged(self):
        def cell(variant, mpi, ranks, ratio):
            return {"api": "thinmpi", "op": variant.split("/")[0], "mpi": mpi, "ranks": ranks,
                    "variant": "thinmpi/" + variant, "ratio": {"median": ratio}}
        cells = [cell("neighbor_alltoallv/torus", "mpich", 2, 2.5),   # C wrong: not judged
                 cell("neighbor_alltoallv/torus", "openmpi", 2, 1.0),  # blocking right there
                 cell("neighbor_alltoall/ring", "mpich", 2, 1.6),      # graph, repeated
                 cell("neighbor_alltoall/ring", "mpich", 4, 1.0),      # distinct at 4
                 cell("neighbor_alltoall/torus", "mpich", 4, 1.01)]    # alltoall right there
        rows = {r[0]: r for r in neighbor_report.targets_table(cells, []).rows}
        judged = rows["neighborhood collectives (ring, torus) vs the same C call"]
        self.assertEqual(judged[2:], ["1.000x", "3 of 3", "1.01x"])
        wrong = [r for name, r in rows.items() if "pairs the blocks wrongly" in name][0]
        self.assertEqual(wrong[1:], ["reported, not judged", "2.050x", "2 cells", "2.50x"])
        self.assertEqual(neighbor_report._torus_dims(4), (2, 2))
        self.assertEqual(neighbor_report._torus_dims(9), (3, 3))

    def test_sparse_table_has_a_row_per_api_and_build(self):
        table = neighbor_report.sparse_table(self.part()["sparse"])
        self.assertEqual(table.rows, [["c", "OpenMPI", "gcc", "4", "0.40x"],
                                      ["thinmpi", "OpenMPI", "gcc", "4", "0.50x"]])

    def test_the_halo_program_has_its_own_table_by_block_side(self):
        table = neighbor_report.halo_table(self.part()["cells"], ("thinmpi",))
        self.assertEqual(table.headers[-1], "64 x 64 per rank")
        self.assertEqual(table.rows, [["thinmpi/halo_2d/program", "c/halo_2d/program",
                                       "OpenMPI", "gcc", "4", "1.05x"]])
        sections = neighbor_report.sections(self.part(), Section)
        by_call = sections[0].tables[1]
        self.assertNotIn("thinmpi/halo_2d/program", [r[0] for r in by_call.rows])

    def test_audit_puts_the_rank_counts_side_by_side(self):
        table = neighbor_report.audit_table(self.part()["audit"])
        self.assertEqual(table.headers[-2:], ["peers at 2 ranks", "peers at 4 ranks"])
        self.assertEqual(table.rows[0][3], "1 MPI_Alltoall, 1 MPI_Alltoallv")
        self.assertEqual(table.rows[0][-2:], ["4", "8"])

    def test_the_sparse_growth_shows_dense_peers_grow_with_p_and_nbx_peers_stay(self):
        nbx = [{"mpi": "openmpi", "compiler": "gcc", "ranks": n,
                "variant": "c/sparse_exchange/nbx", "peers": 2.0,
                "calls": {"MPI_Issend": 2.0, "MPI_Mrecv": 2.0, "MPI_Ibarrier": 1.0,
                          "MPI_Improbe": 5.5 * n, "MPI_Test": 1.0, "MPI_Testall": 3.0}}
               for n in (2, 4)]
        table = neighbor_report.sparse_growth_table(self.part()["audit"] + nbx)
        self.assertEqual(table.headers[3:], ["calls at 2 ranks", "calls at 4 ranks",
                                             "ranks addressed at 2", "ranks addressed at 4",
                                             "grows"])
        dense, sparse = table.rows
        self.assertEqual(dense[0], "c/sparse_exchange/alltoallv")
        self.assertEqual(dense[-3:], ["4", "8", "with the ranks: 2 x p (O(p))"])
        self.assertEqual(sparse[3], "1 MPI_Ibarrier, 2 MPI_Issend, 2 MPI_Mrecv")
        self.assertEqual(sparse[-3:], ["2", "2", "constant: its destinations (O(messages))"])

    def test_the_sparse_growth_leaves_other_calls_out_and_says_when_a_count_is_missing(self):
        rows = [{"mpi": "mpich", "compiler": "clang", "ranks": 2, "peers": 4.0,
                 "variant": "thinmpi/sparse_exchange/alltoallv", "calls": {"MPI_Alltoall": 1}},
                {"mpi": "mpich", "compiler": "clang", "ranks": 4, "peers": 2.0,
                 "variant": "c/neighbor_alltoall/ring", "calls": {}}]
        (row,) = neighbor_report.sparse_growth_table(rows).rows
        self.assertEqual(row[:4], ["thinmpi/sparse_exchange/alltoallv", "MPICH", "clang",
                                   "1 MPI_Alltoall"])
        self.assertEqual(row[-1], "—")

    def test_sections(self):
        sections = neighbor_report.sections(self.part(), Section)
        self.assertEqual([s.title for s in sections],
                         ["Neighbors: thinmpi against C", "Neighbors: mpi4py against C",
                          "Neighbors: path audit"])
        self.assertIn("Missing: x: y", sections[0].paragraphs)

    def test_the_rank_counts_left_out_are_listed_with_how_to_ask(self):
        part = dict(self.part(), left_out=[{"ranks": 4, "launches": 6, "why": "4 ranks on 2 "
                                            "cores; ask for them with --ranks 2,4"}])
        lines = neighbor_report.sections(part, Section)[0].paragraphs
        self.assertIn("Left out: the 4-rank timed cells (6 launches): 4 ranks on 2 cores; ask "
                      "for them with --ranks 2,4.", lines)


class AuditRows(unittest.TestCase):
    def test_peers_are_per_call_and_rank(self):
        job = harness.CollJob(build(), 4, 8, ("c/sparse_exchange/nbx",), 20, 1, True,
                              "neighbors")
        lines = [{"label": "c/sparse_exchange/nbx", "rank": r,
                  "calls": {"MPI_Issend": 40, "MPI_Ibarrier": 20}, "peers": 40}
                 for r in range(4)]
        (row,) = harness_cells.audit_rows(job, lines)
        self.assertEqual(row["calls"], {"MPI_Issend": 2.0, "MPI_Ibarrier": 1.0})
        self.assertEqual(row["peers"], 2.0)


class Mpi4pyKernel(unittest.TestCase):
    """bench/kernels/mpi4py/mpi4py_neighbors.py, the parts that need no MPI."""

    def test_blocks_name_the_sender_and_the_dimension(self):
        value = mpi4py_neighbors.value
        self.assertEqual(mpi4py_neighbors.block(3, 0, 2), [value(3, 0), value(3, 1)])
        self.assertEqual(mpi4py_neighbors.block(3, 1, 2), mpi4py_neighbors.block(3, 0, 2))
        self.assertEqual(mpi4py_neighbors.block(3, 2, 2), [value(3, 2), value(3, 3)])

    def test_every_variant_has_its_c_baseline(self):
        for name, variant in mpi4py_neighbors.PYTHON_VARIANTS.items():
            self.assertTrue(name.startswith("mpi4py/"))
            self.assertTrue(variant.baseline.startswith("c/"))


if __name__ == "__main__":
    unittest.main()
