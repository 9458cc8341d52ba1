"""Causes a run cannot derive, recorded with where they are shown: why a wrapper's cell is below
its C baseline (below_c.py, "Faster than C") or why a peer is faster than thinmpi on a path
(suites/peers/peers.py), one line each, written once for both."""

# A new 1 MiB result bound to a kept variable: C++ builds the new one before the old goes.
ALLOCATION_ORDER = ("allocation order: the new 1 MiB result is allocated before the last one is "
                    "freed (C++ assignment), C frees first; plain C in that order ran a median "
                    "0.82x of C's own (16 repetitions, both MPIs, no system call apart; "
                    "docs/bench.md, The C baselines)")
# Causes the run cannot derive: variant (or a "prefix/*"), with "#size" where the cause holds at
# that size only (the cell's `bytes`, as the run records it) and "@mpi" where it is that MPI's
# only -> one line, with where it is shown.
RECORDED = {
    "thinmpi/channel_*": "not MPI: node_channel's own shared-memory ring, no MPI call a "
                         "message; its targets are below C (docs/bench.md, Targets)",
    "mpl/allreduce/plus@mpich": "another MPI_Op: MPL reduces with a user-defined op where C uses "
                                "MPI_SUM, whose local reduction costs MPICH 4.0.2 about 1,400 "
                                "instructions a call against a user op's 80 (docs/bench.md, "
                                "Why a user op beats MPI_SUM on MPICH)",
    "thinmpi/ser_vecstr#8": "fewer allocations: 8 strings of 8 chars fit in std::string itself "
                            "(libstdc++ keeps up to 15 chars without allocating), where the C "
                            "floor mallocs each string (docs/bench.md, The C baselines)",
    "go/byte_slice_prealloc#4194304": "huge pages: Go 1.19's runtime asks for transparent huge "
                                      "pages for its heap, so its 4 MiB slice sits on 2 MiB "
                                      "pages where C's malloc'd buffer has 4 KiB ones "
                                      "(docs/bench.md, The C baselines)",
    "mpi4py/ser_map": "fewer allocations from malloc: a new std::map<int, std::string> of 512 "
                      "entries takes 1,026 a round trip (a node each, and each 16-char value "
                      "one past what std::string holds in itself; callgrind), pickle's dict of "
                      "512 str takes its objects from CPython's small-object allocator; into a "
                      "kept map (the row into the caller's) thinmpi allocates none",
    "thinmpi/vector_alloc_uninit#1048576": ALLOCATION_ORDER,
    "thinmpi/vector_alloc#1048576": ALLOCATION_ORDER,
    "thinmpi/alltoallv/counts_exchanged#1048576": ALLOCATION_ORDER,
    "thinmpi/alltoallv/counts_exchanged_uninit#1048576": ALLOCATION_ORDER,
    "thinmpi/allgatherv/counts_exchanged#1048576": ALLOCATION_ORDER,
    "thinmpi/allgatherv/counts_exchanged_uninit#1048576": ALLOCATION_ORDER,
}


def recorded(variant, mpi=None, size=None):
    """The recorded cause of `variant`'s cell on `mpi` at `size` (its `bytes`), or None."""
    for key, cause in RECORDED.items():
        pattern, _, only = key.partition("@")
        pattern, _, at = pattern.partition("#")
        if (only and only != mpi) or (at and at != str(size)):
            continue
        if pattern == variant or (pattern.endswith("*") and variant.startswith(pattern[:-1])):
            return cause
    return None
