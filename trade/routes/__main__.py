"""``python -m trade.routes SECTOR_FILE... [--json OUT] [--svg OUT]``: the mapper without Django."""

import gc
import os
import sys

# The mapper never calls BLAS: with one OpenBLAS thread, importing numpy does not keep a second
# core spinning (about 0.2 s of CPU on this machine). Set before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# A run builds a few hundred thousand objects (worlds, pairs, legs) and no reference cycles
# worth collecting: the cyclic collector would only walk them again and again (0.085 s on the
# 16 sectors). Likewise, freeing every one of them at exit is work for nothing: once the
# output is written and flushed the process leaves at once (0.05 s).
gc.disable()

from .cli import main  # noqa: E402 - after the environment is set

code = main()
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
