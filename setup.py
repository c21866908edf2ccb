"""What pyproject.toml cannot say: the trade-route mapper's C loops, an optional extension
whose build defines the digest of its source (trade/routes/native_build.py)."""

import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).parent))  # a PEP 517 build does not put the project there
from trade.routes.native_build import extension

setup(ext_modules=[extension(Path("trade/routes/csrc/native.c"))])
