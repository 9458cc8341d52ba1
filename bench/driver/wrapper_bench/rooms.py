"""The registry of the suites' rooms: the matrix, the CLI and the report read the rooms from
here, in this order (the order of the suites' jobs, launches, charts and setup steps)."""

from .suites.audit import ROOM as AUDIT
from .suites.collectives import ROOM as COLLECTIVES
from .suites.floor import ROOM as FLOOR
from .suites.go import ROOM as GO
from .suites.hosts import ROOM as HOSTS
from .suites.instructions import ROOM as INSTRUCTIONS
from .suites.io import ROOM as IO
from .suites.neighbors import ROOM as NEIGHBORS
from .suites.node import ROOM as NODE
from .suites.osu import ROOM as OSU
from .suites.p2p import ROOM as P2P
from .suites.peers import ROOM as PEERS
from .suites.rma import ROOM as RMA
from .suites.serialization import ROOM as SERIALIZATION
from .suites.timing import ROOM as TIMING

ROOMS = (P2P, FLOOR, GO, OSU, SERIALIZATION, AUDIT, COLLECTIVES, NEIGHBORS, RMA, NODE, IO,
         INSTRUCTIONS, HOSTS, PEERS, TIMING)
# The suites that run by default (--suites), in the order of their jobs.
SUITES = tuple(suite for room in ROOMS for suite in room.suites)
