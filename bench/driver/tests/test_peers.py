"""The peers (KaMPIng, MPL) on fixture data: their cells through compare and collectives, the
peers table's ratios and calls, the lines saying why thinmpi is not the fastest, the missing
cells of a build without them, and the matrix's jobs that carry them."""

import unittest

from wrapper_bench import matrix
from wrapper_bench.core import compare
from wrapper_bench.core import harness_cells
from wrapper_bench.suites.peers import peers
from wrapper_bench.report import Section
from wrapper_bench.core.session import Setup


def tiny_record(variant, one_way_us, baseline=None, count=8, compiler="gcc", rep=0, job="j"):
    api, payload = variant.split("/")
    return {"suite": "tiny", "mpi": "openmpi", "compiler": compiler, "variant": variant,
            "api": api, "payload": payload, "baseline": baseline, "count": count,
            "bytes": 4 * count, "iterations": 100, "warmup": 10, "blocks": 1,
            "one_way_us": one_way_us, "block_one_way_us": [one_way_us], "verified": True,
            "rep": rep, "job": job}


def tiny_cells():
    """One process at 8 ints: C known count 1.0 µs, C matched probe 1.5 µs, C probe 1.4 µs;
    thinmpi's allocating receive 1.55 µs, KaMPIng's 1.45 µs (Probe + Recv), MPL's 1.8 µs."""
    records = [tiny_record("c/int_buffer", 1.0), tiny_record("c/mprobe", 1.5),
               tiny_record("c/probe", 1.4),
               tiny_record("thinmpi/vector_bounded", 1.01, "c/int_buffer"),
               tiny_record("kamping/vector_bounded", 1.03, "c/int_buffer"),
               tiny_record("mpl/vector_bounded", 1.02, "c/int_buffer"),
               tiny_record("thinmpi/vector_alloc", 1.55, "c/mprobe"),
               tiny_record("kamping/vector", 1.45, "c/probe"),
               tiny_record("mpl/vector", 1.8, "c/probe")]
    return compare.aggregate(records)


AUDIT = [{"mpi": "openmpi", "compiler": "gcc", "variant": variant, "count": 8, "calls": calls}
         for variant, calls in (
             ("c/int_buffer", {"MPI_Send": 1.0, "MPI_Recv": 1.0}),
             ("c/mprobe", {"MPI_Send": 1.0, "MPI_Mprobe": 1.0, "MPI_Get_count": 1.0,
                           "MPI_Mrecv": 1.0}),
             ("thinmpi/vector_bounded", {"MPI_Send": 1.0, "MPI_Recv": 1.0}),
             ("kamping/vector_bounded", {"MPI_Send": 1.0, "MPI_Recv": 1.0}),
             ("mpl/vector_bounded", {"MPI_Send": 1.0, "MPI_Recv": 1.0}),
             ("thinmpi/vector_alloc", {"MPI_Send": 1.0, "MPI_Mprobe": 1.0, "MPI_Mrecv": 1.0}),
             ("kamping/vector", {"MPI_Send": 1.0, "MPI_Probe": 1.0, "MPI_Get_count": 1.0,
                                 "MPI_Recv": 1.0}))]


def by_path(rows, label):
    return next(row for row in rows if row[2] == label)


class TinyTable(unittest.TestCase):
    def setUp(self):
        self.rows, self.why = peers.tiny_rows(tiny_cells(), AUDIT)

    def test_a_build_of_no_cxx_library_has_no_row(self):
        # The Go harness's C baseline (compiler "go") ran beside these builds: no row of its own.
        records = [tiny_record("c/int_buffer", 1.0, compiler="go"),
                   tiny_record("go/int_slice_prealloc", 1.1, "c/int_buffer", compiler="go")]
        rows, _ = peers.tiny_rows(compare.aggregate(records) + tiny_cells(), AUDIT)
        self.assertEqual({row[1] for row in rows}, {"gcc"})

    def test_ratio_against_the_c_of_the_path_with_its_calls(self):
        row = by_path(self.rows, "bounded vector<int> (8)")
        self.assertEqual(row[:4], ["OpenMPI", "gcc", "bounded vector<int> (8)",
                                   "1.000 µs (1 Send + 1 Recv)"])
        self.assertEqual(row[4], "1.01× (1 Send + 1 Recv)")  # thinmpi
        self.assertEqual(row[5], "1.03× (1 Send + 1 Recv)")  # KaMPIng
        self.assertEqual(row[7], "—")  # no Boost.MPI cell in the fixture

    def test_a_baseline_other_than_the_paths_c_is_chained_through_the_floor(self):
        # KaMPIng's probe path is measured against c/probe (1.45 / 1.4); the row's C is the
        # matched probe: (1.45 / 1.4) * (1.4 / 1.0) / (1.5 / 1.0) = 1.45 / 1.5.
        row = by_path(self.rows, "vector<int> of unknown size (8)")
        self.assertTrue(row[5].startswith("0.97×"), row[5])
        self.assertTrue(row[4].startswith("1.03×"), row[4])  # thinmpi 1.55 / 1.5

    def test_why_lines_name_the_faster_peer_and_the_calls(self):
        unknown = [line for line in self.why if "unknown size" in line]
        self.assertEqual(len(unknown), 1)
        self.assertIn("KaMPIng 0.97× against thinmpi's 1.03×", unknown[0])
        self.assertIn("The calls differ", unknown[0])
        self.assertIn("KaMPIng 1 Send + 1 Probe + 1 Get_count + 1 Recv", unknown[0])
        self.assertIn("several threads", unknown[0])

    def test_boosts_kept_vector_meets_thinmpis_kept_one_not_its_allocating_receive(self):
        # Boost.MPI's recv(source, tag, v) fills the caller's vector: no allocation once it is
        # large enough. Against thinmpi's new vector a receive (1.55 µs) it would look faster;
        # its row is thinmpi's recv_reuse's.
        records = [tiny_record("c/int_buffer", 1.0), tiny_record("c/mprobe", 1.5),
                   tiny_record("thinmpi/vector_alloc", 1.55, "c/mprobe"),
                   tiny_record("thinmpi/vector_reuse", 1.2, "c/mprobe"),
                   tiny_record("boost/vector", 1.25, "c/int_buffer")]
        rows, why = peers.tiny_rows(compare.aggregate(records), AUDIT)
        new = by_path(rows, "vector<int> of unknown size (8)")
        kept = by_path(rows, "vector<int> of unknown size, into the caller's (8)")
        self.assertEqual(new[7], "—")  # no Boost.MPI form returns a new vector
        self.assertTrue(kept[4].startswith("0.80×"), kept[4])  # thinmpi 1.2 / 1.5
        self.assertTrue(kept[7].startswith("0.83×"), kept[7])  # Boost.MPI 1.25 / 1.5
        self.assertFalse([line for line in why if "Boost.MPI" in line])

    def test_boosts_serialized_objects_are_in_the_rows_into_the_callers(self):
        # Boost.MPI decodes a vector<string> into the caller's (its strings keep their storage):
        # its row is thinmpi's recv_reuse(serialized(x)) against the C that unpacks into its
        # kept payload, not the new-object row.
        def serial(variant, one_way, baseline=None):
            return dict(tiny_record(variant, one_way, baseline, count=64), suite="serialization")
        records = [serial("c/ser_vecstr", 5.0), serial("c/ser_vecstr_kept", 3.2),
                   serial("thinmpi/ser_vecstr", 5.1, "c/ser_vecstr"),
                   serial("thinmpi/ser_vecstr_reuse", 3.4, "c/ser_vecstr_kept"),
                   serial("boost/ser_vecstr", 4.8, "c/ser_vecstr_kept"),
                   serial("kamping/ser_vecstr", 9.0, "c/ser_vecstr")]
        rows, why = peers.tiny_rows(compare.aggregate(records), AUDIT, "serialization",
                                    peers.SERIAL_PATHS)
        new = by_path(rows, "vector<string> (64)")
        kept = by_path(rows, "vector<string>, into the caller's (64)")
        self.assertTrue(new[4].startswith("1.02×"), new[4])  # thinmpi 5.1 / 5.0
        self.assertEqual(new[7], "—")
        self.assertTrue(new[5].startswith("1.80×"), new[5])  # KaMPIng 9.0 / 5.0
        self.assertTrue(kept[4].startswith("1.06×"), kept[4])  # thinmpi 3.4 / 3.2
        self.assertTrue(kept[7].startswith("1.50×"), kept[7])  # Boost.MPI 4.8 / 3.2
        self.assertFalse([line for line in why if "Boost.MPI" in line])

    def test_a_recorded_cause_of_the_faster_peer_is_its_line(self):
        mpl = {"variant": "mpl/allreduce/plus", "mpi": "mpich", "bytes": 4}
        values = {"thinmpi": (1.0, {"MPI_Allreduce": 1.0}, {}),
                  "mpl": (0.8, {"MPI_Allreduce": 1.0}, mpl)}
        line = peers.why_line("MPICH gcc, allreduce, plus (4 B)", values)
        self.assertIn("MPL 0.80× against thinmpi's 1.00×: another MPI_Op", line)
        values["mpl"] = (0.8, {"MPI_Allreduce": 1.0}, dict(mpl, mpi="openmpi"))
        self.assertIn("wrappers' own code", peers.why_line("x", values))

    def test_no_line_where_thinmpi_is_fastest(self):
        self.assertFalse([line for line in self.why if "bounded" in line])

    def test_same_calls_within_two_percent_is_noise(self):
        values = {"thinmpi": (1.015, {"MPI_Send": 1.0}, {}),
                  "mpl": (1.0, {"MPI_Send": 1.0}, {})}
        self.assertIn("within the noise", peers.why_line("x", values))
        values["thinmpi"] = (1.2, {"MPI_Send": 1.0}, {})
        self.assertIn("wrappers' own code", peers.why_line("x", values))

    def test_a_fixed_paths_gap_larger_than_its_code_is_not_thinmpis_code(self):
        # At 1 MiB a message takes ~100 µs; thinmpi's checks around a known-count receive are
        # the same few dozen instructions at every size, so a 10 µs gap is not them.
        values = {"thinmpi": (1.05, {"MPI_Send": 1.0}, {}),
                  "mpl": (0.95, {"MPI_Send": 1.0}, {})}
        line = peers.why_line("x", values, 100.0, True)
        self.assertIn("the gap, 10.0 µs a message, is over 20 times", line)
        self.assertIn("not thinmpi's code", line)
        self.assertIn("wrappers' own code", peers.why_line("x", values, 5.0, True))  # 0.5 µs
        self.assertIn("wrappers' own code", peers.why_line("x", values, 100.0, False))
        self.assertIn("wrappers' own code", peers.why_line("x", values))
        rows, why = peers.tiny_rows(compare.aggregate(
            [tiny_record("c/char_buffer", 100.0), tiny_record("thinmpi/char_span", 105.0),
             tiny_record("mpl/char_buffer", 95.0)]), AUDIT)
        self.assertIn("is over 20 times", " ".join(why))

    def test_fewer_calls_than_the_faster_peer_are_not_the_reason(self):
        values = {"thinmpi": (1.05, {"MPI_Mprobe": 1.0, "MPI_Mrecv": 1.0}, {}),
                  "boost": (1.0, {"MPI_Mprobe": 1.0, "MPI_Get_count": 1.0, "MPI_Mrecv": 1.0},
                            {})}
        line = peers.why_line("x", values)
        self.assertIn("thinmpi makes no more MPI calls", line)
        self.assertNotIn("would make", line)


class CollectivesTable(unittest.TestCase):
    def test_collective_rows_and_calls(self):
        def record(variant, us, baseline=None):
            api, op, form = variant.split("/")
            return {"variant": variant, "api": api, "op": op, "form": form,
                    "baseline": baseline, "ranks": 2, "count": 1, "bytes": 4, "iterations": 10,
                    "blocks": 1, "us": us, "block_us": [us], "verified": True, "mpi": "mpich",
                    "compiler": "gcc", "rep": 0, "job": "j"}
        cells = harness_cells.aggregate([
            record("c/allreduce/sum", 1.0), record("thinmpi/allreduce/plus", 1.0,
                                                   "c/allreduce/sum"),
            record("mpl/allreduce/plus", 1.6, "c/allreduce/sum")])
        audit = [{"mpi": "mpich", "compiler": "gcc", "ranks": 2, "variant": "mpl/allreduce/plus",
                  "calls": {"MPI_Allreduce": 1.0}}]
        rows, why = peers.coll_rows({"cells": cells, "audit": audit})
        row = by_path(rows, "allreduce, plus")
        self.assertEqual(row[6], "1.60× (1 Allreduce)")
        self.assertEqual(why, [])


class Missing(unittest.TestCase):
    def test_a_build_without_a_peer_says_why(self):
        setup = Setup()
        setup.manifests[("mpich", "clang")] = {"kamping": True, "mpl": False,
                                                "mpl_missing_reason": "no source: offline"}
        setup.manifests[("openmpi", "gcc")] = {}
        peers.note_missing(setup)
        reasons = {(m["mpi"], m["api"]): m["reason"] for m in setup.missing}
        self.assertEqual(reasons[("mpich", "mpl")], "no source: offline")
        self.assertNotIn(("mpich", "kamping"), reasons)
        self.assertIn("rebuild", reasons[("openmpi", "kamping")])

    def test_the_api_filter_leaves_them_alone(self):
        setup = Setup()
        setup.manifests[("mpich", "gcc")] = {"kamping": False, "mpl": False}
        peers.note_missing(setup, ("c", "thinmpi"))
        self.assertEqual(setup.missing, [])


class Matrix(unittest.TestCase):
    def test_tiny_jobs_carry_the_peers_with_their_c_baselines(self):
        build = matrix.Build("openmpi", "gcc", (("c/int_buffer", 4, 0), ("c/probe", 4, 0),
                                                ("kamping/vector", 4, 0), ("mpl/int", 4, 1),
                                                ("thinmpi/span", 4, 0)))
        filters = matrix.Filters(api=("kamping", "mpl"), suites=("tiny",))
        jobs = matrix.expand([build], filters, matrix.QUICK, {"kamping/vector": "c/probe"})
        self.assertIn("kamping", matrix.APIS)
        one = next(j for j in jobs if j.count == 1)
        self.assertEqual(one.variants, ("c/int_buffer", "c/probe", "kamping/vector", "mpl/int"))
        eight = next(j for j in jobs if j.count == 8)
        self.assertNotIn("thinmpi/span", eight.variants)
        self.assertIn("kamping/vector", eight.variants)

    def test_sweep_and_osu_jobs_carry_the_peers_with_their_c_baselines(self):
        build = matrix.Build("mpich", "clang", (
            ("c/int_buffer", 4, 0), ("c/mprobe", 4, 0), ("c/probe", 4, 0),
            ("c/char_buffer", 1, 0), ("kamping/vector_bounded", 4, 0), ("kamping/vector", 4, 0),
            ("mpl/vector_bounded", 4, 0), ("mpl/vector", 4, 0), ("mpl/vector_container", 4, 0),
            ("kamping/char_buffer", 1, 0), ("mpl/char_buffer", 1, 0)))
        baselines = {"kamping/vector": "c/probe", "mpl/vector": "c/probe",
                     "mpl/vector_container": "c/mprobe", "kamping/vector_bounded": "c/int_buffer",
                     "mpl/vector_bounded": "c/int_buffer", "kamping/char_buffer": "c/char_buffer",
                     "mpl/char_buffer": "c/char_buffer"}
        filters = matrix.Filters(api=("kamping", "mpl"), suites=("sweep", "osu"),
                                 sweep_bytes=(4096,))
        jobs = matrix.expand([build], filters, matrix.QUICK, baselines)
        sweep = next(j for j in jobs if j.suite == "sweep")
        self.assertEqual(sweep.count, 1024)
        self.assertEqual(set(sweep.variants), {
            "c/int_buffer", "c/mprobe", "c/probe", "kamping/vector_bounded", "kamping/vector",
            "mpl/vector_bounded", "mpl/vector", "mpl/vector_container"})
        osu = [j for j in jobs if j.suite == "osu"]
        self.assertEqual(osu[-1].count, 4096)
        self.assertEqual(osu[-1].variants, ("c/char_buffer", "kamping/char_buffer",
                                            "mpl/char_buffer"))

    def test_sweep_rows_are_per_size_and_only_where_a_peer_ran(self):
        records = [dict(tiny_record(v, us, base, count=1024), suite="sweep")
                   for v, us, base in (("c/int_buffer", 2.0, None),
                                       ("thinmpi/vector_bounded", 2.0, "c/int_buffer"),
                                       ("mpl/vector_bounded", 2.1, "c/int_buffer"),
                                       ("c/mprobe", 3.0, None))]
        rows, why = peers.tiny_rows(compare.aggregate(records), AUDIT, "sweep",
                                    peers.SWEEP_PATHS)
        self.assertEqual([row[2] for row in rows], ["bounded vector<int> (4 KiB)"])
        self.assertEqual(rows[0][6], "1.05× (1 Send + 1 Recv)")  # MPL
        self.assertEqual(why, [])

    def test_a_kamping_build_without_cereal_says_why(self):
        setup = Setup()
        setup.manifests[("openmpi", "gcc")] = {
            "kamping": True, "mpl": True, "kamping_serial": False,
            "kamping_serial_missing_reason": "cereal's headers are not installed"}
        peers.note_missing(setup)
        self.assertEqual(setup.missing, [{"mpi": "openmpi", "compiler": "gcc",
                                          "api": "kamping (serialization)",
                                          "reason": "cereal's headers are not installed"}])

    def test_section_lists_both_tables(self):
        doc = {"cells": tiny_cells(), "audit": AUDIT}
        section = peers.section(doc, Section)
        self.assertEqual([t.key for t in section.tables], ["peers_tiny"])
        self.assertTrue(section.paragraphs[0].startswith("Where thinmpi is not"))


if __name__ == "__main__":
    unittest.main()


def char_records(thin_us, mpl_us, rep=0):
    """One process at 8 chars: C known count 1.0 µs, thinmpi's span and MPL's buffer."""
    return [tiny_record("c/char_buffer", 1.0, rep=rep),
            tiny_record("thinmpi/char_span", thin_us, "c/char_buffer", rep=rep),
            tiny_record("mpl/char_buffer", mpl_us, "c/char_buffer", rep=rep)]


def spread(median, low, high):
    return {"median": median, "min": low, "max": high}


class PeerRetiming(unittest.TestCase):
    """A line whose gap the run names no cause for is a case to time again (core/recheck.py,
    run_peers), and its line then says what that gave."""

    def setUp(self):
        from wrapper_bench.core import recheck
        self.recheck = recheck
        recheck.forget()
        self.addCleanup(recheck.forget)
        self.doc = {"cells": compare.aggregate(char_records(1.10, 1.00)
                                               + char_records(1.12, 1.01, rep=1)),
                    "audit": AUDIT + [{"mpi": "openmpi", "compiler": "gcc", "variant": v,
                                       "count": 8, "calls": {"MPI_Send": 1.0, "MPI_Recv": 1.0}}
                                      for v in ("c/char_buffer", "thinmpi/char_span",
                                                "mpl/char_buffer")]}

    def test_an_unexplained_line_is_a_case_and_a_named_or_noisy_one_is_not(self):
        (case,) = peers.unexplained_cases(self.doc)
        self.assertEqual(case, {"suite": "tiny", "mpi": "openmpi", "compiler": "gcc",
                                "ranks": 2, "bytes": 32, "c": "c/char_buffer",
                                "thinmpi": "thinmpi/char_span", "peer": "mpl/char_buffer"})
        level = {"cells": compare.aggregate(char_records(1.01, 1.00)), "audit": self.doc["audit"]}
        self.assertEqual(peers.unexplained_cases(level), [])

    def relaunched(self, found, seconds=1.0):
        made = []
        thin, peer = (self.recheck.cell_key("tiny", "openmpi", "gcc", 2, v, 32)
                      for v in ("thinmpi/char_span", "mpl/char_buffer"))

        def alone(processes, names):
            made.append((tuple(names), processes))
            return {thin: found[0], peer: found[1]} if found else {}
        self.recheck.register("tiny job", {thin: spread(1.1, 1.1, 1.1), peer: spread(1, 1, 1)},
                              seconds, lambda processes: {}, alone, 12)
        rows, launches = self.recheck.run_peers(peers.unexplained_cases(self.doc), "quick")
        return rows, launches, made

    def line(self, rows):
        doc = dict(self.doc, peer_rechecks=rows)
        section = peers.section(doc, Section)
        return next(p for p in section.paragraphs if "chars of known count" in p)

    def test_a_gap_that_timing_again_does_not_show_is_not_reproduced(self):
        rows, launches, made = self.relaunched((spread(1.01, 1.00, 1.02), spread(1.00, 0.99,
                                                                                 1.01)))
        self.assertEqual(made, [(("c/char_buffer", "thinmpi/char_span", "mpl/char_buffer"), 2)])
        self.assertEqual(launches, 2)
        self.assertEqual(rows[0]["processes"], 2)
        line = self.line(rows)
        self.assertIn("not reproduced: timed again alone with C in 2 more processes, thinmpi "
                      "1.01× against MPL's 1.00×", line)
        self.assertNotIn("wrappers' own code", line)

    def test_a_gap_that_stays_keeps_its_unnamed_line_with_the_new_figures(self):
        rows, _, _ = self.relaunched((spread(1.09, 1.08, 1.10), spread(1.00, 0.99, 1.01)))
        line = self.line(rows)
        self.assertIn("timed again alone with C in 2 more processes, thinmpi 1.09× against "
                      "MPL's 1.00×: so the gap is the wrappers' own code", line)
        self.assertNotIn("not reproduced", line)

    def test_a_line_not_timed_again_says_why(self):
        rows, launches, _ = self.relaunched(None)
        self.assertEqual(launches, 2)
        self.assertIn("(not timed again: the relaunch failed or did not time it)",
                      self.line(rows))
        self.recheck.forget()
        rows, launches, made = self.relaunched((spread(1.0, 1.0, 1.0),) * 2, seconds=1000.0)
        self.assertEqual((made, launches), ([], 0))
        self.assertIn("past the re-timing budget (40 s)", self.line(rows))
        self.recheck.forget()
        rows, _ = self.recheck.run_peers(peers.unexplained_cases(self.doc), "quick")
        self.assertIn("does not relaunch a part of its jobs", self.line(rows))
