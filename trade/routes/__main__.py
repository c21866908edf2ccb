"""``python -m trade.routes SECTOR_FILE... [--json OUT] [--svg OUT]``: the mapper without Django."""

import os
import sys

# The mapper never calls BLAS: with one OpenBLAS thread, importing numpy does not keep a second
# core spinning (about 0.2 s of CPU on this machine). Set before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .cli import main  # after the environment is set

sys.exit(main())
