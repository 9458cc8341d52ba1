"""python3 -m wrapper_bench: see cli.py."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
