"""The mpi4py variants of wrapper-bench's serialization suite: comm.send / comm.recv (pickle) of
the Python objects equivalent to the C++ payloads of serial_payloads.h.

    mpi4py/ser_vecstr  a list of n str of n chars
    mpi4py/ser_map     a dict of n entries, int key 3i+1 -> a str of 16 chars
    mpi4py/ser_record  a tuple (str of n chars, list of n floats)

Each is measured against its hand-packed C floor (c/ser_*, loaded from libwb_ckernels).
"""

TAG = 7
MAP_VALUE_CHARS = 16


def text(seed, length):
    """String `seed` of a payload, as wb_serial_char writes it."""
    return "".join(chr(ord("a") + (seed * 7 + j) % 26) for j in range(length))


def make_vecstr(count):
    return [text(i, count) for i in range(count)]


def make_map(count):
    return {3 * i + 1: text(i, MAP_VALUE_CHARS) for i in range(count)}


def make_record(count):
    return (text(0, count), [j * 0.5 + 1.0 for j in range(count)])


class PickledObject:
    """comm.send(obj) / comm.recv(): mpi4py pickles the object into one message."""

    element_bytes = 1
    make = None

    def __init__(self, comm, count):
        self.comm, self.peer = comm, 1 - comm.Get_rank()
        self.sent = type(self).make(count)
        self.received = None

    def round_trips(self, iterations):
        """Runs `iterations` round trips (rank 0 sends, rank 1 echoes)."""
        comm, peer = self.comm, self.peer
        starts = comm.Get_rank() == 0
        for _ in range(iterations):
            if starts:
                comm.send(self.sent, dest=peer, tag=TAG)
            self.received = comm.recv(source=peer, tag=TAG)
            if not starts:
                comm.send(self.received, dest=peer, tag=TAG)

    def verify(self):
        """True when the last payload received is the one sent."""
        return self.received == self.sent


def _variant(payload, make):
    return type(f"Pickled_{payload}", (PickledObject,),
                {"name": f"mpi4py/{payload}", "baseline": f"c/{payload}",
                 "make": staticmethod(make)})


VARIANTS = {v.name: v for v in (_variant("ser_vecstr", make_vecstr),
                                _variant("ser_map", make_map),
                                _variant("ser_record", make_record))}
