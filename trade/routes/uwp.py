"""UWP digits, the Traveller -> GURPS conversion (T-2) and the trade classifications (T-4).

Seed 002 states its rules in GURPS terms; ``trade-routes.md`` T-2 fixes how a Traveller UWP maps
onto them and T-4 restates the seed's classification definitions on UWP digits.
"""

from __future__ import annotations

from dataclasses import dataclass

EHEX = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # Traveller extended hex: no I and no O

# T-2: Traveller starport letter -> GURPS starport class (V=5 ... 0=0).
GURPS_PORT = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1, "X": 0}
PORT_NAMES = ("0", "I", "II", "III", "IV", "V")

# T-4 codes in a fixed display order.
CODE_ORDER = ("Ag", "Ex", "In", "Na", "Ni", "Ri", "Po")
# T-4 variant "remarks": Ex is any of these file trade codes.
EXTREME_REMARKS = frozenset({"As", "De", "Fl", "Ic", "Va", "He"})


def ehex(ch: str) -> int:
    """One eHex digit -> int (A = 10, ... skipping I and O); ValueError for anything else."""
    idx = EHEX.find(ch.upper()) if len(ch) == 1 else -1
    if idx < 0:
        raise ValueError(f"not an eHex digit: {ch!r}")
    return idx


@dataclass(frozen=True, slots=True)
class Uwp:
    """A parsed UWP ``Starport Size Atmo Hydro Pop Gov Law - TL`` (digits decoded from eHex)."""

    starport: str
    size: int
    atmosphere: int
    hydrographics: int
    population: int
    government: int
    law: int
    tech_level: int

    @classmethod
    def parse(cls, text: str) -> Uwp:
        """``"A788899-C"`` -> Uwp; ValueError when the text is not a 9-character UWP."""
        text = text.strip()
        if len(text) != 9 or text[7] != "-":
            raise ValueError(f"UWP must look like A788899-C, got {text!r}")
        port = text[0].upper()
        if not port.isalpha():
            raise ValueError(f"bad starport in UWP {text!r}")
        size, atmosphere, hydrographics, population, government, law = [ehex(c) for c in text[1:7]]
        return cls(
            port, size, atmosphere, hydrographics, population, government, law, ehex(text[8])
        )

    def __str__(self) -> str:
        d = (self.size, self.atmosphere, self.hydrographics, self.population)
        rest = (self.government, self.law)
        return self.starport + "".join(EHEX[v] for v in d + rest) + "-" + EHEX[self.tech_level]


def gurps_port(starport: str) -> int:
    """T-2: starport A-E, X -> GURPS class V..I, 0 (any other letter: 0)."""
    return GURPS_PORT.get(starport.upper(), 0)


def gurps_tl(tl: int) -> int:
    """T-2: Traveller TL -> GURPS TL (0->2, 1->4, 2-4->5, 5-6->6, 7->7, 8->8, 9-11->9,
    12-13->10, 14->11, 15->12, 16+->13)."""
    if tl <= 0:
        return 2
    if tl == 1:
        return 4
    if tl <= 4:
        return 5
    if tl <= 6:
        return 6
    if tl <= 8:
        return tl
    if tl <= 11:
        return 9
    if tl <= 13:
        return 10
    return min(tl - 3, 13)


def control_rating(law: int) -> int:
    """T-2: CR = ceil(law / 2), at most 6."""
    return min((law + 1) // 2, 6)


def classify_uwp(uwp: Uwp) -> frozenset[str]:
    """T-4: the seed's classifications Ag Ex In Na Ni Ri Po on UWP digits (PR = population)."""
    atm, hyd, pr = uwp.atmosphere, uwp.hydrographics, uwp.population
    codes: set[str] = set()
    if 4 <= atm <= 9 and 4 <= hyd <= 8 and 5 <= pr <= 7:
        codes.add("Ag")
    if uwp.size == 0 or atm <= 1 or 10 <= atm <= 15:
        codes.add("Ex")
    if atm in (0, 1, 2, 4, 7, 9) and pr >= 9:
        codes.add("In")
    if atm <= 3 and hyd <= 3 and pr >= 6:
        codes.add("Na")
    if pr <= 6:
        codes.add("Ni")
    if atm in (6, 8) and 6 <= pr <= 8 and 2 <= control_rating(uwp.law) <= 5:
        codes.add("Ri")
    if 2 <= atm <= 5 and hyd <= 3:
        codes.add("Po")
    return frozenset(codes)


def classify_remarks(remarks: tuple[str, ...] | list[str]) -> frozenset[str]:
    """T-4 variant ``classifications="remarks"``: the file's own trade codes; Ex from As De Fl
    Ic Va He."""
    given = set(remarks)
    codes: set[str] = {c for c in ("Ag", "In", "Na", "Ni", "Ri", "Po") if c in given}
    if given & EXTREME_REMARKS:
        codes.add("Ex")
    return frozenset(codes)


def sorted_codes(codes: frozenset[str] | set[str]) -> list[str]:
    """Classification codes in the fixed T-4 table order."""
    return [c for c in CODE_ORDER if c in codes]
