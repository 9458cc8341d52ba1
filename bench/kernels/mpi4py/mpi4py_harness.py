"""What the mpi4py kernels of wrapper-bench share (mpi4py_kernel.py, point-to-point, and
mpi4py_coll.py, collectives): the harnesses' command line, the audit window, the thread level and
the end of a run."""

import argparse
import json
import os


def parser(doc, variants, iterations, warmup):
    """The harnesses' options (and --c-kernels), with this kernel's defaults."""
    options = argparse.ArgumentParser(description=doc.splitlines()[0])
    options.add_argument("--list", action="store_true")
    options.add_argument("--variants", default=variants)
    options.add_argument("--count", type=int, default=1)
    options.add_argument("--iterations", type=int, default=iterations)
    options.add_argument("--warmup", type=int, default=warmup)
    options.add_argument("--blocks", type=int, default=10)
    options.add_argument("--audit", type=int, default=0)
    options.add_argument("--c-kernels", help="path of libwb_ckernels.so (the C baselines)")
    return options


def audited(comm, label, body):
    """Runs body() inside an MPI_Pcontrol(2) window of libwb_audit labelled `label` (mpi4py's
    Pcontrol passes only the level, so the label goes through WB_AUDIT_LABEL)."""
    from mpi4py import MPI

    os.environ["WB_AUDIT_LABEL"] = label
    comm.Barrier()
    MPI.Pcontrol(2)
    body()
    MPI.Pcontrol(0)
    comm.Barrier()


def thread_level():
    """The thread level mpi4py initialized MPI with (it asks for MPI_THREAD_MULTIPLE)."""
    from mpi4py import MPI

    names = {MPI.THREAD_SINGLE: "single", MPI.THREAD_FUNNELED: "funneled",
             MPI.THREAD_SERIALIZED: "serialized", MPI.THREAD_MULTIPLE: "multiple"}
    return names.get(MPI.Query_thread(), "unknown")


def finish(variants, records, comm):
    """Frees the variants, prints the records on rank 0; returns the exit status."""
    for variant in variants:
        getattr(variant, "close", lambda: None)()
    if comm.Get_rank() == 0:
        for record in records:
            print(json.dumps(record), flush=True)
    return 0 if all(record["verified"] for record in records) else 3
