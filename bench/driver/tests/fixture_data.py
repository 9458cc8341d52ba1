"""Fixture data for the driver's tests: run records as the harness prints them (with the fields
the runner adds), audit lines as libwb_audit writes them, and builds as detect finds them."""

from wrapper_bench.matrix import Build

FLOORS = {"openmpi": 0.30, "mpich": 0.26}
OVERHEADS = {"c/int_buffer": 1.0, "c/mprobe": 1.5, "boost/int": 1.03, "boost/raw": 1.02,
             "boost/vector": 1.5, "c/char_buffer": 1.0, "c/char_mprobe": 1.5,
             "boost/string": 2.6, "mpi4py/numpy": 3.0, "mpi4py/object": 6.0, "c/probe": 1.2,
             "go/int_slice_prealloc": 1.4, "go/int_slice_recv": 2.4,
             "go/byte_slice_prealloc": 1.4, "c/persistent": 1.4, "thinmpi/persistent": 1.414,
             "c/partitioned": 2.1, "thinmpi/partitioned": 2.142}
ELEMENT_BYTES = {"c/char_buffer": 1, "c/char_mprobe": 1, "boost/string": 1,
                 "go/byte_slice_prealloc": 1}
BASELINES = {"boost/int": "c/int_buffer", "boost/raw": "c/int_buffer",
             "boost/vector": "c/int_buffer", "boost/string": "c/char_buffer",
             "mpi4py/numpy": "c/int_buffer", "mpi4py/object": "c/int_buffer",
             "go/int_slice_prealloc": "c/int_buffer", "go/int_slice_recv": "c/probe",
             "go/byte_slice_prealloc": "c/char_buffer", "thinmpi/persistent": "c/persistent",
             "thinmpi/partitioned": "c/partitioned"}

HARNESS_VARIANTS = (("c/int_buffer", 4, 0), ("c/mprobe", 4, 0), ("c/char_buffer", 1, 0),
                    ("c/char_mprobe", 1, 0), ("c/struct", 40, 0), ("boost/int", 4, 1),
                    ("boost/raw", 4, 0), ("boost/vector", 4, 0), ("boost/string", 1, 0))


def record(suite, mpi, compiler, variant, count, rep, scale=1.0):
    """One harness record: the one-way time is floor x overhead (x scale, x a rep wobble)."""
    wobble = 1.0 + 0.01 * ((rep % 3) - 1)
    api, payload = variant.split("/")
    size = count * ELEMENT_BYTES.get(variant, 4)
    one_way = FLOORS[mpi] * OVERHEADS[variant] * scale * wobble
    if size >= 1 << 20:  # the payload dominates: 1 MiB at about 8 GB/s
        one_way = (FLOORS[mpi] + size / 8000.0) * (1.0 if api == "c" else 1.02) * wobble
    return {"variant": variant, "api": api, "payload": payload,
            "baseline": BASELINES.get(variant), "count": count, "bytes": size, "warmup": 10,
            "iterations": 100, "blocks": 2, "one_way_us": one_way,
            "block_one_way_us": [one_way, one_way], "verified": True, "suite": suite,
            "mpi": mpi, "compiler": compiler, "job": f"{suite}/{mpi}-{compiler}/n{count}",
            "rep": rep}


def tiny_records():
    """Tiny-suite records of two MPIs x two compilers, plus mpi4py, three repetitions."""
    records = []
    for mpi in ("openmpi", "mpich"):
        for compiler, scale in (("gcc", 1.0), ("clang", 1.01)):
            for rep in range(3):
                for count in (1, 8, 64):
                    for v in ("c/int_buffer", "c/mprobe", "boost/raw", "boost/vector"):
                        records.append(record("tiny", mpi, compiler, v, count, rep, scale))
                    if count == 1:
                        records.append(record("tiny", mpi, compiler, "boost/int", 1, rep, scale))
                for count in (8, 64):
                    for v in ("c/char_buffer", "c/char_mprobe", "boost/string"):
                        records.append(record("tiny", mpi, compiler, v, count, rep, scale))
        for rep in range(3):
            for count in (1, 8, 64):
                for v in ("c/int_buffer", "mpi4py/numpy", "mpi4py/object"):
                    records.append(record("tiny", mpi, "python", v, count, rep))
    return records


def sweep_records():
    """Sweep records at 4 B and 1 MiB for C, Boost vector and mpi4py NumPy."""
    records = []
    for mpi in ("openmpi", "mpich"):
        for rep in range(3):
            for count in (1, 262144):
                for v in ("c/int_buffer", "boost/vector"):
                    records.append(record("sweep", mpi, "gcc", v, count, rep))
                for v in ("c/int_buffer", "mpi4py/numpy"):
                    records.append(record("sweep", mpi, "python", v, count, rep))
    return records


def audit_lines():
    """libwb_audit's lines for 100 round trips of boost/vector and boost/string, both ranks."""
    vector = {"MPI_Send": 100, "MPI_Mprobe": 100, "MPI_Get_count": 100, "MPI_Mrecv": 100}
    string = dict(vector, MPI_Alloc_mem=300, MPI_Free_mem=300)
    return [{"label": label, "rank": rank, "calls": calls, "bytes_sent": 3200}
            for label, calls in (("boost/vector", vector), ("boost/string", string))
            for rank in (0, 1)]


def harness_build(mpi="openmpi", compiler="gcc"):
    return Build(mpi, compiler, HARNESS_VARIANTS)


def mpi4py_build(mpi="openmpi"):
    return Build(mpi, "python", (("c/int_buffer", 4, 0), ("mpi4py/numpy", 4, 0),
                                 ("mpi4py/object", 4, 0)), runner="mpi4py")


GO_VARIANTS = (("go/int_slice_prealloc", 4, 0), ("go/int_slice_recv", 4, 0),
               ("go/byte_slice_prealloc", 1, 0), ("c/int_buffer", 4, 0), ("c/probe", 4, 0),
               ("c/char_buffer", 1, 0))

# osu_latency's output as OSU 7.x prints it (-m 1:4 here), and as OSU 5.x did.
OSU_7_OUTPUT = """# OSU MPI Latency Test v7.4
# Datatype: MPI_CHAR.
# Size          Latency (us)
1                       0.21
2                       0.22
4                       0.21
"""
OSU_5_OUTPUT = """# OSU MPI Latency Test v5.9
# Size          Latency (us)
0                       0.18
1                       0.20
1048576                96.35
"""


def go_build(mpi="openmpi"):
    return Build(mpi, "go", GO_VARIANTS, runner="go")


def go_records():
    """Tiny-suite records of the Go kernel on both MPIs (1, 8, 64 ints), three repetitions."""
    return [record("tiny", mpi, "go", v, count, rep)
            for mpi in ("openmpi", "mpich") for rep in range(3) for count in (1, 8, 64)
            for v in ("c/int_buffer", "go/int_slice_prealloc", "c/probe", "go/int_slice_recv")]


def with_floors(records, floors_by_rep):
    """The records with each process's floor: floors_by_rep[rep] = (before, after)."""
    for r in records:
        r["floor_before_us"], r["floor_after_us"] = floors_by_rep[r["rep"]]
    return records
