"""``python -m trade.routes SECTOR_FILE... [--json OUT] [--svg OUT]``: the mapper without Django."""

import sys

from .cli import main

sys.exit(main())
