"""Across hosts: the options, the host suites' jobs, the launch commands and the report's
tables, on fixture data."""

import argparse
import contextlib
import io
import tempfile
import unittest
from pathlib import Path

from fixture_data import BASELINES, harness_build, mpi4py_build, record
from wrapper_bench import matrix
from wrapper_bench.core import compare
from wrapper_bench.suites.hosts import hosts
from wrapper_bench.cli import parse
from wrapper_bench.suites.hosts.host_tables import host_lines, host_tables, mpi_comparison
from wrapper_bench.core import osu as core_osu
from wrapper_bench.core import p2p_jobs

REPO = Path(__file__).resolve().parents[3]
OSU_BUILD_VARIANTS = harness_build().variants + (("thinmpi/char_span", 1, 0),)


def options(**given):
    values = dict(hosts=None, hostfile=None, launcher="mpiexec", suites=matrix.SUITES)
    values.update(given)
    return argparse.Namespace(**values)


class Options(unittest.TestCase):
    def test_hosts_add_the_host_suites_unless_suites_are_given(self):
        parsed = parse(["--hosts", "cluster"])
        self.assertEqual(parsed.suites, matrix.SUITES + hosts.HOST_SUITES)
        parsed = parse(["--hosts", "a,b", "--suites", "osu-hosts"])
        self.assertEqual(parsed.suites, ("osu-hosts",))

    def test_bad_combinations_are_named(self):
        cases = {"give two host names": options(hosts="a"),
                 "not both": options(hosts="a,b", hostfile="/etc/hostname"),
                 "no such file": options(hostfile="/nonexistent/hostfile"),
                 "not on the local cluster": options(hosts="cluster", launcher="srun"),
                 "give --hosts or --hostfile": options(suites=("osu-hosts",)),
                 "unknown suites nope": options(suites=("tiny", "nope"))}
        for expected, given in cases.items():
            with self.subTest(expected):
                self.assertIn(expected, hosts.check_options(given, suites_given=True,
                                                               known=matrix.SUITES))

    def test_parse_exits_with_the_error(self):
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()) as err:
            parse(["--suites", "tiny-hosts"])
        self.assertIn("give --hosts or --hostfile", err.getvalue())


class Jobs(unittest.TestCase):
    def setUp(self):
        self.builds = [matrix.Build("mpich", "gcc", OSU_BUILD_VARIANTS),
                       matrix.Build("mpich", "clang", OSU_BUILD_VARIANTS), mpi4py_build("mpich")]
        self.baselines = dict(BASELINES, **{"thinmpi/char_span": "c/char_buffer"})

    def expand(self, **filters):
        wanted = matrix.Filters(suites=hosts.HOST_SUITES, **filters)
        return hosts.expand(self.builds, wanted, matrix.QUICK, self.baselines)

    def test_osu_hosts_runs_every_size_once_per_mpi_with_the_int_paths_from_4_bytes(self):
        osu = [j for j in self.expand() if j.suite == "osu-hosts"]
        chars = [j for j in osu if "c/char_buffer" in j.variants]
        self.assertEqual([j.count for j in chars], list(core_osu.OSU_BYTES))
        self.assertEqual({j.build.compiler for j in osu}, {"gcc", "python"})
        boost = [j for j in osu if "boost/raw" in j.variants]
        self.assertEqual(boost[0].variants, ("c/int_buffer", "boost/raw"))
        self.assertEqual([j.count * 4 for j in boost], [s for s in core_osu.OSU_BYTES if s >= 4])
        numpy = [j for j in osu if "mpi4py/numpy" in j.variants]
        self.assertEqual(len(numpy), len(boost))

    def test_the_compiler_filter_picks_the_host_kernels_and_sizes_cap_the_sweep(self):
        osu = [j for j in self.expand(compiler=("clang",), sweep_bytes=(64,))
               if j.suite == "osu-hosts" and j.build.runner == "harness"]
        self.assertEqual({j.build.compiler for j in osu}, {"clang"})
        self.assertEqual(max(j.count for j in osu if "c/char_buffer" in j.variants), 64)

    def test_tiny_hosts_is_the_tiny_suite_renamed_with_its_own_launcher(self):
        tiny = [j for j in self.expand() if j.suite == "tiny-hosts"]
        single = p2p_jobs.tiny_jobs(self.builds[0], matrix.QUICK["tiny"], matrix.Filters(),
                                    self.baselines)
        self.assertEqual([(j.variants, j.count) for j in tiny if j.build.compiler == "gcc"],
                         [(j.variants, j.count) for j in single])
        self.assertTrue(all(j.key.startswith("tiny-hosts/") for j in tiny))
        self.assertEqual(hosts.launcher_key(tiny[0]), ("mpich", "gcc", "hosts"))
        self.assertEqual(hosts.launcher_key(single[0]), ("mpich", "gcc"))

    def test_matrix_expand_leaves_the_host_suites_to_their_room(self):
        wanted = matrix.Filters(suites=("tiny", "osu-hosts"))
        jobs = matrix.expand(self.builds, wanted, matrix.QUICK, self.baselines)
        self.assertEqual({j.suite for j in jobs}, {"tiny"})


class Launch(unittest.TestCase):
    def test_real_hosts_one_rank_each(self):
        self.assertEqual(hosts.launch_prefix("openmpi", "mpirun.openmpi", options(hosts="a,b"),
                                             REPO),
                         ["mpirun.openmpi", "-n", "2", "--map-by", "node", "--bind-to", "core",
                          "--host", "a,b"])
        self.assertEqual(hosts.launch_prefix("mpich", "mpiexec.mpich",
                                             options(hostfile="/h"), REPO),
                         ["mpiexec.mpich", "-n", "2", "-ppn", "1", "-bind-to", "core", "-f",
                          "/h"])

    def test_srun(self):
        prefix = hosts.launch_prefix("mpich", "x", options(hosts="a,b", launcher="srun"), REPO)
        self.assertEqual(prefix, ["srun", "-N", "2", "-n", "2", "--ntasks-per-node=1", "-w",
                                  "a,b"])
        launcher = hosts.HostLauncher("mpich", "x", ["wb"], prefix=prefix, srun=True,
                                      env={"PYTHONPATH": "/p"})
        self.assertEqual(launcher.command(["--count", "1"])[-4:],
                         ["--export=ALL,PYTHONPATH=/p", "wb", "--count", "1"])

    def test_local_cluster_uses_the_scripts_settings_from_node1(self):
        prefix = hosts.launch_prefix("openmpi", "mpirun.openmpi", options(hosts="cluster"),
                                     REPO)
        self.assertEqual(prefix[1:4], ["exec", "node1", "--"])
        for setting in ("--bind-to", "none", "btl", "vader,tcp,self", "plm_rsh_agent"):
            self.assertIn(setting, prefix)
        mpich = hosts.launch_prefix("mpich", "mpiexec.mpich", options(hosts="cluster"), REPO)
        self.assertIn("UCX_TLS", mpich)
        self.assertEqual(mpich[mpich.index("UCX_TLS") + 1], "tcp")

    def test_the_build_environment_reaches_every_host(self):
        launcher = hosts.HostLauncher("openmpi", "m", ["python3", "k.py"], prefix=["m"],
                                      env={"PYTHONPATH": "/p"})
        self.assertEqual(launcher.command([]), ["m", "-x", "PYTHONPATH=/p", "python3", "k.py"])

    def test_rank_hosts_must_be_two_different_hosts(self):
        with tempfile.TemporaryDirectory() as folder:
            fake = Path(folder) / "launch"
            fake.write_text("#!/bin/sh\necho same\necho same\n")
            fake.chmod(0o755)
            launcher = hosts.HostLauncher("mpich", "m", ["wb"], prefix=[str(fake)])
            names, error = hosts.rank_hosts(launcher)
            self.assertIsNone(names)
            self.assertIn("not on two hosts", error)
            fake.write_text("#!/bin/sh\necho b\necho a\n")
            self.assertEqual(hosts.rank_hosts(launcher), (["a", "b"], None))


def host_records():
    """osu-hosts records of both MPIs: C and thinmpi chars, Boost raw ints, mpi4py NumPy."""
    records = []
    for mpi, scale in (("openmpi", 40.0), ("mpich", 30.0)):
        for rep in range(3):
            for size in (1, 8, 1 << 20):
                records.append(_host(record("osu", mpi, "gcc", "c/char_buffer", size, rep,
                                            scale)))
                thinmpi = _host(record("osu", mpi, "gcc", "c/char_buffer", size, rep, scale))
                thinmpi.update(variant="thinmpi/char_span", api="thinmpi", payload="char_span",
                               baseline="c/char_buffer")
                records.append(thinmpi)
                if size >= 4:
                    for variant in ("c/int_buffer", "boost/raw"):
                        records.append(_host(record("osu", mpi, "gcc", variant, size // 4, rep,
                                                    scale)))
                    for variant in ("c/int_buffer", "mpi4py/numpy"):
                        records.append(_host(record("osu", mpi, "python", variant, size // 4,
                                                    rep, scale)))
    return records


def _host(one):
    one["suite"] = "osu-hosts"
    ints = "char" not in one["variant"]
    one["job"] = "osu-hosts/" + one["job"] + ("/ints" if ints else "")
    one["bytes"] = one["count"] * (4 if ints else 1)
    return one


class Report(unittest.TestCase):
    def setUp(self):
        self.cells = compare.aggregate(host_records())

    def test_gompi_format_per_mpi(self):
        tables = host_tables(self.cells)
        keys = [t.key for t in tables]
        self.assertEqual(keys, ["osu-hosts-openmpi", "osu-hosts-mpich", "hosts-openmpi-vs-mpich"])
        sweep = tables[0]
        self.assertEqual(sweep.headers, ["message size (bytes)", "C MPI (µs)", "thinmpi (µs)",
                                         "Boost.MPI (µs)", "mpi4py (µs)", "thinmpi / C"])
        self.assertEqual([row[0] for row in sweep.rows], ["1", "8", "1048576"])
        one_byte, eight = sweep.rows[0], sweep.rows[1]
        self.assertEqual(one_byte[3:5], ["—", "—"])  # no int path below 4 B
        self.assertEqual(eight[1], "12.00")  # 0.30 µs floor x 40
        self.assertEqual(eight[5], "1.00x")
        self.assertIn("(1.02x)", eight[3])

    def test_openmpi_against_mpich(self):
        table = mpi_comparison(self.cells)
        self.assertEqual(table.rows[0], ["1 B", "12.00", "7.80", "1.54×"])

    def test_no_host_cells_no_tables_and_a_line_that_says_how(self):
        self.assertEqual(host_tables([]), [])
        self.assertIn("--hosts cluster", host_lines({})[0])

    def test_hosts_and_transport_lines(self):
        context = {"hosts": {"mode": "cluster", "rank_hosts": {"mpich": ["node1", "node2"],
                                                              "openmpi": "launch failed"},
                             "transport": {"mpich": "TCP"}, "launcher": {"mpich": "m"},
                             "transport_check": {"mpich": {"payload_bytes": 100,
                                                           "eth0_bytes": 104,
                                                           "wire_per_payload": 1.04}}}}
        lines = host_lines(context)
        self.assertIn("ranks on node1 and node2; transport: TCP", lines[1])
        self.assertIn("1.04 per payload byte", lines[1])
        self.assertIn("not run: launch failed", lines[2])


if __name__ == "__main__":
    unittest.main()
