"""Sector file readers (T-1): Traveller Map tab-delimited ``.tab`` with its ``.xml`` metadata,
the T5 column format (header plus a line of dashes) and the classic column ``.sec`` format.

The readers never stop on bad data: a row whose UWP holds ``?`` (an anomaly) is skipped and
counted, a malformed line is reported as ``(path, line_no, reason)`` and skipped, and star data is
kept as text (never parsed, so unknown star types cannot stop a run). The :class:`World` rows carry
every UWP field, so the campaign's sector import can use this reader as well.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .uwp import Uwp

SECTOR_COLS = 32  # T-1: x = col + 32 * SectorX
SECTOR_ROWS = 40  # T-1: y = row + 40 * SectorY


class SectorFormatError(ValueError):
    """A whole file cannot be read (unreadable, unknown format, no world rows possible)."""


@dataclass(frozen=True, slots=True)
class SkippedLine:
    """One skipped input line: the file, its 1-based line number and why."""

    path: str
    line_no: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line_no}: {self.reason}"


@dataclass(frozen=True, slots=True)
class World:
    """One system row of a sector file, UWP decoded (eHex digits as ints).

    ``hex`` is ``"XXYY"`` inside its sector; ``zone`` is ``""`` (green), ``"A"`` or ``"R"``;
    ``remarks`` are the trade codes and remarks split on spaces.
    """

    sector: str
    hex: str
    name: str
    uwp: str
    starport: str
    size: int
    atmosphere: int
    hydrographics: int
    population: int
    government: int
    law: int
    tech_level: int
    bases: str = ""
    remarks: tuple[str, ...] = ()
    zone: str = ""
    pbg: str = ""
    allegiance: str = ""
    stars: str = ""
    subsector: str = ""
    line_no: int = 0

    @property
    def id(self) -> str:
        """contracts §2 world id: the sector's name and the hex."""
        return f"{self.sector} {self.hex}"

    @property
    def col(self) -> int:
        return int(self.hex[:2])

    @property
    def row(self) -> int:
        return int(self.hex[2:])

    def _pbg_digit(self, i: int) -> int | None:
        ch = self.pbg[i : i + 1]
        return int(ch) if ch.isdigit() else None

    @property
    def pop_multiplier(self) -> int | None:
        return self._pbg_digit(0)

    @property
    def belts(self) -> int | None:
        return self._pbg_digit(1)

    @property
    def gas_giants(self) -> int | None:
        return self._pbg_digit(2)


@dataclass(frozen=True, slots=True)
class XboatRoute:
    """A communication route from the ``.xml`` ``<Routes>`` (T-6): hexes and sector offsets."""

    start: str
    end: str
    start_offset: tuple[int, int] = (0, 0)
    end_offset: tuple[int, int] = (0, 0)
    allegiance: str = ""


@dataclass(frozen=True, slots=True)
class SectorFile:
    """One parsed sector file: its worlds, metadata and every skipped line."""

    path: str
    name: str
    abbreviation: str
    position: tuple[int, int] | None
    worlds: tuple[World, ...]
    routes: tuple[XboatRoute, ...] = ()
    anomalies: tuple[SkippedLine, ...] = ()
    malformed: tuple[SkippedLine, ...] = ()
    format: str = "tab"
    subsectors: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SectorMeta:
    """The parts of a Traveller Map ``.xml`` the mapper uses."""

    name: str | None = None
    abbreviation: str | None = None
    position: tuple[int, int] | None = None
    routes: tuple[XboatRoute, ...] = ()
    subsectors: dict[str, str] = field(default_factory=dict)


def read_sector(
    path: str | Path, *, at: tuple[int, int] | None = None, encoding: str = "utf-8"
) -> SectorFile:
    """T-1: read one sector file and the ``.xml`` beside it (same stem) when there is one.

    ``at`` overrides the metadata's sector X, Y. Raises :class:`SectorFormatError` only when the
    file itself cannot be read; bad lines are skipped and reported instead.
    """
    p = Path(path)
    try:
        text = p.read_bytes().decode(encoding, errors="replace")
    except OSError as exc:
        raise SectorFormatError(f"{p}: cannot read: {exc.strerror or exc}") from exc
    meta_text = None
    xml_path = p.with_suffix(".xml")
    if p.suffix.lower() != ".xml" and xml_path.is_file():
        try:
            meta_text = xml_path.read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            raise SectorFormatError(f"{xml_path}: cannot read: {exc.strerror or exc}") from exc
    return parse_sector(text, path=str(p), metadata_xml=meta_text, at=at)


def parse_sector(
    text: str,
    *,
    path: str = "<sector>",
    metadata_xml: str | None = None,
    at: tuple[int, int] | None = None,
    name: str | None = None,
) -> SectorFile:
    """T-1: parse sector text (tab, T5 column or classic SEC, detected from the content).

    The sector's name is ``name``, else the metadata's ``<Name>``, else a ``# Sector:`` comment,
    else the file name's stem. Use this for uploads, which have no file beside them.
    """
    meta = parse_metadata(metadata_xml, path=path) if metadata_xml else SectorMeta()
    lines = text.removeprefix("\ufeff").splitlines()  # a BOM would hide the header
    sector_name = name or meta.name or _comment_name(lines) or Path(path).stem or "Sector"
    fmt, rows, anomalies, malformed = _parse_rows(lines, path, sector_name)
    if not rows and not anomalies and malformed and len(malformed) == _count_data_lines(lines):
        raise SectorFormatError(f"{path}: not a sector file ({malformed[0].reason})")
    return SectorFile(
        path=path,
        name=sector_name,
        abbreviation=meta.abbreviation or "",
        position=at if at is not None else meta.position,
        worlds=tuple(rows),
        routes=meta.routes,
        anomalies=tuple(anomalies),
        malformed=tuple(malformed),
        format=fmt,
        subsectors=dict(meta.subsectors),
    )


def _count_data_lines(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip() and not line.startswith(("#", "@")))


def _comment_name(lines: list[str]) -> str | None:
    for line in lines[:50]:
        m = re.match(r"#\s*Sector\s*:\s*(.+?)\s*$", line, re.IGNORECASE)
        if m:
            return m.group(1)
    return None


def _parse_xml(text: str, path: str) -> ET.Element:
    # Uploaded metadata is untrusted: refuse DTDs/entities (entity-expansion attacks) outright.
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise SectorFormatError(f"{path}: metadata with a DOCTYPE or ENTITY is refused")
    try:
        return ET.fromstring(text.encode("utf-8"))  # noqa: S314 - no DTD possible, see above
    except ET.ParseError as exc:
        raise SectorFormatError(f"{path}: bad sector metadata XML: {exc}") from exc


def parse_metadata(text: str, *, path: str = "<metadata>") -> SectorMeta:
    """Read ``<Name>``, ``Abbreviation``, ``<X>``/``<Y>``, ``<Subsectors>`` and the ``<Routes>``
    that count as communication routes (no ``Type``, or ``Type="Xboat"``; T-6)."""
    root = _parse_xml(text.removeprefix("\ufeff"), path)
    name = None
    for el in root.findall("Name"):
        if "Lang" not in el.attrib and (el.text or "").strip():
            name = (el.text or "").strip()
            break
    position = None
    x_el, y_el = root.find("X"), root.find("Y")
    if x_el is not None and y_el is not None:
        try:
            position = (int((x_el.text or "").strip()), int((y_el.text or "").strip()))
        except ValueError as exc:
            raise SectorFormatError(f"{path}: sector X/Y are not integers") from exc
    subsectors = {el.get("Index", ""): (el.text or "").strip() for el in root.iter("Subsector")}
    routes: list[XboatRoute] = []
    for el in root.iter("Route"):
        kind = el.get("Type")
        if kind is not None and kind.lower() != "xboat":
            continue
        start, end = el.get("Start", ""), el.get("End", "")
        try:
            start_off = (int(el.get("StartOffsetX", "0")), int(el.get("StartOffsetY", "0")))
            end_off = (int(el.get("EndOffsetX", "0")), int(el.get("EndOffsetY", "0")))
        except ValueError:
            continue
        if _valid_hex(start) and _valid_hex(end):
            routes.append(XboatRoute(start, end, start_off, end_off, el.get("Allegiance", "")))
    return SectorMeta(
        name=name,
        abbreviation=root.get("Abbreviation"),
        position=position,
        routes=tuple(routes),
        subsectors=subsectors,
    )


def _valid_hex(code: str) -> bool:
    if len(code) != 4 or not code.isdigit():
        return False
    return 1 <= int(code[:2]) <= SECTOR_COLS and 1 <= int(code[2:]) <= SECTOR_ROWS


# --- rows ---------------------------------------------------------------------------------------

_TAB_ALIASES = {
    "hex": "hex",
    "name": "name",
    "uwp": "uwp",
    "bases": "bases",
    "b": "bases",
    "remarks": "remarks",
    "zone": "zone",
    "z": "zone",
    "pbg": "pbg",
    "allegiance": "allegiance",
    "a": "allegiance",
    "stars": "stars",
    "stellar": "stars",
    "ss": "subsector",
}
_DASHES = re.compile(r"^-+( +-+)*\s*$")
_SEC_ROW = re.compile(
    r"^(?P<name>.*?)\s*(?P<hex>\d{4})\s+(?P<uwp>[A-Z?][0-9A-Z?]{6}-[0-9A-Z?])(?P<rest>\s.*)?$"
)
_SEC_TAIL = re.compile(
    r"^(?P<mid>.*?)\s+(?P<pbg>[0-9?X]{3})\s+(?P<alleg>[A-Za-z0-9?-]{2,4})(?:\s+(?P<stars>.*?))?\s*$"
)


def _parse_rows(
    lines: list[str], path: str, sector: str
) -> tuple[str, list[World], list[SkippedLine], list[SkippedLine]]:
    first = next(
        (i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")), None
    )
    if first is None:
        return "tab", [], [], []
    head = lines[first]
    if "\t" in head:
        names = [_TAB_ALIASES.get(h.strip().lower()) for h in head.split("\t")]
        if "hex" in names and "uwp" in names:
            return ("tab", *_read_fields(lines, first + 1, path, sector, _tab_splitter(names)))
    if first + 1 < len(lines) and _DASHES.match(lines[first + 1]):
        spans = [(m.start(), m.end()) for m in re.finditer(r"-+", lines[first + 1])]
        names = [_TAB_ALIASES.get(head[a:b].strip().lower()) for a, b in spans]
        if "hex" in names and "uwp" in names:
            splitter = _column_splitter(names, spans)
            return ("column", *_read_fields(lines, first + 2, path, sector, splitter))
    return ("sec", *_read_fields(lines, 0, path, sector, _sec_fields))


Splitter = Callable[[str], "dict[str, str] | str"]


def _tab_splitter(names: list[str | None]) -> Splitter:
    needed = max(names.index("hex"), names.index("uwp")) + 1

    def split(line: str) -> dict[str, str] | str:
        cells = line.split("\t")
        if len(cells) < needed:
            return f"expected at least {needed} tab-separated fields, found {len(cells)}"
        return {n: c.strip() for n, c in zip(names, cells, strict=False) if n}

    return split


def _column_splitter(names: list[str | None], spans: list[tuple[int, int]]) -> Splitter:
    def split(line: str) -> dict[str, str] | str:
        out: dict[str, str] = {}
        for i, (n, (a, b)) in enumerate(zip(names, spans, strict=True)):
            if n:
                end = len(line) if i == len(spans) - 1 else b
                out[n] = line[a:end].strip()
        return out

    return split


def _sec_fields(line: str) -> dict[str, str] | str:
    m = _SEC_ROW.match(line.rstrip())
    if not m:
        return "not a sector row (no hex followed by a UWP)"
    rest = m.group("rest") or ""
    out = {"name": m.group("name").strip(), "hex": m.group("hex"), "uwp": m.group("uwp")}
    tail = _SEC_TAIL.match(rest)
    if not tail:
        return "no PBG and allegiance after the UWP"
    out.update(pbg=tail.group("pbg"), allegiance=tail.group("alleg"))
    out["stars"] = (tail.group("stars") or "").strip()
    mid = tail.group("mid")
    tokens = [(t.start(), t.end(), t.group()) for t in re.finditer(r"\S+", mid)]
    # Classic layout: bases sit right after the UWP, the zone just before the PBG.
    if tokens and tokens[0][0] <= 2 and re.fullmatch(r"[A-Z*]{1,3}", tokens[0][2]):
        out["bases"] = tokens.pop(0)[2]
    if tokens and len(mid) - tokens[-1][1] <= 3 and tokens[-1][2] in ("A", "R", "F", "U"):
        out["zone"] = tokens.pop()[2]
    out["remarks"] = " ".join(t for _, _, t in tokens)
    return out


def _read_fields(
    lines: list[str], start: int, path: str, sector: str, split: Splitter
) -> tuple[list[World], list[SkippedLine], list[SkippedLine]]:
    worlds: list[World] = []
    anomalies: list[SkippedLine] = []
    malformed: list[SkippedLine] = []
    for idx in range(start, len(lines)):
        line = lines[idx]
        if not line.strip() or line.startswith(("#", "@")):
            continue
        line_no = idx + 1
        fields_ = split(line)
        if isinstance(fields_, str):
            malformed.append(SkippedLine(path, line_no, fields_))
            continue
        result = _world(fields_, sector, line_no)
        if isinstance(result, World):
            worlds.append(result)
        elif result.startswith("anomaly"):
            anomalies.append(SkippedLine(path, line_no, result))
        else:
            malformed.append(SkippedLine(path, line_no, result))
    return worlds, anomalies, malformed


def _world(f: dict[str, str], sector: str, line_no: int) -> World | str:
    hex_code = f.get("hex", "")
    if not _valid_hex(hex_code):
        return f"bad hex {hex_code!r} (want XXYY, column 01-32, row 01-40)"
    uwp_text = f.get("uwp", "")
    if "?" in uwp_text:
        return f"anomaly {hex_code} {f.get('name', '')!r}: UWP {uwp_text!r} has '?'"
    try:
        uwp = Uwp.parse(uwp_text)
    except ValueError as exc:
        return f"bad UWP at {hex_code}: {exc}"
    zone = f.get("zone", "").strip().upper()
    return World(
        sector=sector,
        hex=hex_code,
        name=f.get("name", "").strip(),
        uwp=uwp_text.strip().upper(),
        starport=uwp.starport,
        size=uwp.size,
        atmosphere=uwp.atmosphere,
        hydrographics=uwp.hydrographics,
        population=uwp.population,
        government=uwp.government,
        law=uwp.law,
        tech_level=uwp.tech_level,
        bases=f.get("bases", "").strip().strip("-"),
        remarks=tuple(f.get("remarks", "").split()),
        zone=zone if zone in ("A", "R") else "",
        pbg=f.get("pbg", "").strip(),
        allegiance=f.get("allegiance", "").strip().strip("-"),
        stars=f.get("stars", "").strip(),
        subsector=f.get("subsector", "").strip(),
        line_no=line_no,
    )
