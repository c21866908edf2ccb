"""T-4 classifications on their boundary values, and the T-8 GWP (seed 002)."""

from __future__ import annotations

import pytest

from trade.routes.uwp import Uwp, classify_remarks, classify_uwp, ehex
from trade.routes.wtn import gwp, population


def uwp(size: int = 5, atm: int = 5, hyd: int = 5, pop: int = 5, law: int = 5) -> Uwp:
    return Uwp("C", size, atm, hyd, pop, 5, law, 8)


def has(code: str, **digits: int) -> bool:
    return code in classify_uwp(uwp(**digits))


def test_ehex_skips_i_and_o() -> None:
    assert [ehex(c) for c in "09AFGHJ"] == [0, 9, 10, 15, 16, 17, 18]
    with pytest.raises(ValueError):
        ehex("I")


def test_parse_uwp() -> None:
    u = Uwp.parse("A788899-C")
    assert (u.starport, u.size, u.atmosphere, u.hydrographics, u.population) == ("A", 7, 8, 8, 8)
    assert (u.government, u.law, u.tech_level) == (9, 9, 12)
    assert str(u) == "A788899-C"
    for bad in ("A788899C", "A78889-C", "1788899-C", "A7888I9-C"):
        with pytest.raises(ValueError):
            Uwp.parse(bad)


def test_ag_boundaries() -> None:
    # T-4 Ag: atmosphere 4-9, hydrographics 4-8, PR 5-7.
    assert has("Ag", atm=4, hyd=4, pop=5) and has("Ag", atm=9, hyd=8, pop=7)
    assert not has("Ag", atm=3, hyd=5, pop=6) and not has("Ag", atm=10, hyd=5, pop=6)
    assert not has("Ag", atm=6, hyd=3, pop=6) and not has("Ag", atm=6, hyd=9, pop=6)
    assert not has("Ag", atm=6, hyd=5, pop=4) and not has("Ag", atm=6, hyd=5, pop=8)


def test_ex_boundaries() -> None:
    # T-4 Ex: size 0, or atmosphere 0-1, or atmosphere A-F.
    assert has("Ex", size=0) and has("Ex", atm=0) and has("Ex", atm=1)
    assert has("Ex", atm=10) and has("Ex", atm=15)
    assert not has("Ex", size=1, atm=2) and not has("Ex", atm=9)


def test_in_boundaries() -> None:
    # T-4 In: atmosphere 0, 1, 2, 4, 7 or 9, and PR >= 9.
    for atm in (0, 1, 2, 4, 7, 9):
        assert has("In", atm=atm, pop=9)
        assert not has("In", atm=atm, pop=8)
    for atm in (3, 5, 6, 8, 10):
        assert not has("In", atm=atm, pop=10)


def test_na_boundaries() -> None:
    # T-4 Na: atmosphere 0-3, hydrographics 0-3, PR >= 6.
    assert has("Na", atm=0, hyd=0, pop=6) and has("Na", atm=3, hyd=3, pop=10)
    assert not has("Na", atm=4, hyd=0, pop=6) and not has("Na", atm=3, hyd=4, pop=6)
    assert not has("Na", atm=3, hyd=3, pop=5)


def test_ni_boundaries() -> None:
    # T-4 Ni: PR <= 6.
    assert has("Ni", pop=0) and has("Ni", pop=6) and not has("Ni", pop=7)


def test_ri_boundaries() -> None:
    # T-4 Ri: atmosphere 6 or 8, PR 6-8, CR 2-5 (CR = ceil(law / 2): law 3-10).
    assert has("Ri", atm=6, pop=6, law=3) and has("Ri", atm=8, pop=8, law=10)
    assert not has("Ri", atm=7, pop=7, law=5) and not has("Ri", atm=5, pop=7, law=5)
    assert not has("Ri", atm=6, pop=5, law=5) and not has("Ri", atm=6, pop=9, law=5)
    assert not has("Ri", atm=6, pop=7, law=2) and not has("Ri", atm=6, pop=7, law=11)


def test_po_boundaries() -> None:
    # T-4 Po: atmosphere 2-5 and hydrographics 0-3.
    assert has("Po", atm=2, hyd=0) and has("Po", atm=5, hyd=3)
    assert not has("Po", atm=1, hyd=0) and not has("Po", atm=6, hyd=0)
    assert not has("Po", atm=4, hyd=4)


def test_remarks_variant() -> None:
    # T-4 variant "remarks": the file's codes; Ex from As De Fl Ic Va He.
    assert classify_remarks(("Ag", "Ni", "Hi", "Cp")) == {"Ag", "Ni"}
    for code in ("As", "De", "Fl", "Ic", "Va", "He"):
        assert classify_remarks((code,)) == {"Ex"}
    assert classify_remarks(("In", "Na", "Ri", "Po", "Ba")) == {"In", "Na", "Ri", "Po"}


def test_gwp_seed_example() -> None:
    # Seed 002: TL 9 (GURPS), Ag and Ni: 3,660 x 1.2 x 0.8 = 3,513.6 per head; the seed then uses
    # the PR 9 range's middle, 5,500,000,000 people, for 19,324,800,000,000 (its "PR of 8" is a
    # slip in the seed: its own population range is PR 9's). No PBG multiplier -> the middle.
    assert population(9, "") == 5_500_000_000
    assert gwp(9, 9, "", frozenset({"Ag", "Ni"})) == 19_324_800_000_000


def test_gwp_contract_example_regina() -> None:
    # contracts §2: Regina A788899-C, PBG 703, Ri: GURPS TL 10 -> 5,860 x 1.6 x 7e8.
    assert gwp(10, 8, "703", frozenset({"Ri"})) == 6_563_200_000_000


def test_gwp_modifiers_cumulative_and_rounded_down() -> None:
    # T-8: x1.4 In, x0.8 Po/Ex, floor to whole credits; PR 0 -> population 0.
    assert gwp(2, 1, "1", frozenset({"Ex", "Po"})) == 864  # 135 x 0.8 x 0.8 x 10
    assert gwp(13, 3, "3", frozenset({"In"})) == 24_400 * 14 * 3000 // 10
    assert gwp(0, 1, "1", frozenset({"Ex", "Po", "Ni"})) == 281  # 55*.512*10 = 281.6 -> 281
    assert gwp(10, 0, "9", frozenset()) == 0
    assert population(5, "0") == 550_000  # P 0 is no multiplier: the middle of the range
