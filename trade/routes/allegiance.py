"""Political allegiance for the WTCM (T-5): the base polity of a T5 allegiance code.

T-5: the base polity comes from ``allegiance_codes.tab`` (``ImDd`` and ``ImDv`` are both ``Im``);
a client state ``Cs..`` counts as its patron's polity when the code names one, else its own; a
non-aligned ``Na..`` world is never allied with any other world (``None``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .sectors import SectorFormatError

CLIENT_PREFIX = "Client state, "


@dataclass(frozen=True, slots=True)
class AllegianceTable:
    """Rows of ``allegiance_codes.tab``: code -> (BaseCode, Name). Empty when no file is known.

    Without a table a 4-character code's polity is its first two characters (the T5 family
    prefix, so ``ImDd`` and ``ImDv`` still agree); see docs/trade-routes.md.
    """

    rows: dict[str, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> AllegianceTable:
        """Read the tab-separated ``Code Legacy BaseCode Name Location`` file."""
        rows: dict[str, tuple[str, str]] = {}
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
        if not lines:
            return cls(rows)
        header = [h.strip().lower() for h in lines[0].split("\t")]
        try:
            ci, bi, ni = header.index("code"), header.index("basecode"), header.index("name")
        except ValueError as exc:
            raise SectorFormatError(
                "allegiance table needs Code, BaseCode and Name columns"
            ) from exc
        for line in lines[1:]:
            cells = line.split("\t")
            if len(cells) > max(ci, bi, ni):
                rows[cells[ci].strip()] = (cells[bi].strip(), cells[ni].strip())
        return cls(rows)

    @classmethod
    def load(cls, path: str | Path) -> AllegianceTable:
        """Read ``allegiance_codes.tab`` from a path."""
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise SectorFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc
        return cls.parse(text)

    def _base(self, code: str) -> str:
        row = self.rows.get(code)
        if row is not None:
            return row[0] or code
        if self.rows:
            return code
        return code[:2] if len(code) == 4 else code

    def _patron(self, code: str) -> str | None:
        row = self.rows.get(code)
        if row and row[1].startswith(CLIENT_PREFIX):
            patron = row[1][len(CLIENT_PREFIX) :].strip()
            for other, (base, name) in sorted(self.rows.items()):
                if name == patron and other != code:
                    return base or other
        suffix = code[2:]
        if len(suffix) == 2 and (
            not self.rows or any(base == suffix for base, _ in self.rows.values())
        ):
            return suffix
        return None

    def polity(self, code: str) -> str | None:
        """T-5: the polity used for "same allegiance"; ``None`` never equals anything."""
        code = code.strip()
        if not code or code.startswith("Na") or set(code) <= {"-", "?"}:
            return None
        if code.startswith("Cs"):
            return self._patron(code) or code
        return self._base(code)
