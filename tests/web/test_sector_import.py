"""Sector import (issue 7): the tests write their own small sector files (never the licensed
real ones). Systems imported = world lines − lines reported skipped; re-import updates in place."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from campaigns import map_selectors
from campaigns.admin import import_sector_action
from campaigns.sector_import import (
    Rates,
    SectorImportError,
    derive_rates,
    import_into,
    import_sectors,
)
from economy.snapshot import export_state
from powers.maps import render_svg
from powers.models import Campaign, HexType, MapHex, Power, StarSystem
from trade.routes import parse_sector

pytestmark = pytest.mark.django_db

HEADER = "Sector\tSS\tHex\tName\tUWP\tBases\tRemarks\tZone\tPBG\tAllegiance\tStars"


def tab_row(hex_code: str, name: str, uwp: str, remarks: str = "", pbg: str = "503") -> str:
    return "\t".join(["Tst", "A", hex_code, name, uwp, "NS", remarks, "", pbg, "ImDd", "G2 V"])


def write_tab(
    folder: Path, name: str, rows: list[str], *, xy: tuple[int, int] | None = None
) -> Path:
    """``<name>.tab`` (two comment lines, then the header: world rows start at line 4) and,
    with ``xy``, the ``<name>.xml`` that gives the sector's position."""
    path = folder / f"{name}.tab"
    path.write_text("\n".join(["# written by a test", "#", HEADER, *rows]) + "\n", "utf-8")
    if xy is not None:
        abbrev = name[:4].title()
        (folder / f"{name}.xml").write_text(
            f'<?xml version="1.0"?><Sector Abbreviation="{abbrev}"><X>{xy[0]}</X>'
            f"<Y>{xy[1]}</Y><Name>{name}</Name></Sector>",
            "utf-8",
        )
    return path


ROWS = [
    tab_row("1910", "Capital", "A788899-C", "Ri Pa Ph"),  # line 4
    tab_row("0101", "Rock", "C000300-9", "As Na Ni Va", pbg="230"),  # line 5
    tab_row("0534", "Beacon", "???????-?", "{Anomaly}", pbg="???"),  # line 6: anomaly
    tab_row("0202", "Broken", "A78-bad"),  # line 7: malformed UWP
    "short line",  # line 8: malformed, too few fields
    tab_row("3240", "Farm", "B66A766-8", "Ag Ga Wa Ri"),  # line 9
]


def test_derive_rates_by_the_documented_rule() -> None:
    sector = parse_sector("\n".join([HEADER, *ROWS]), path="t.tab", name="T")
    capital, rock, farm = sector.worlds
    # Capital A788899-C, Ri, 0 belts: Ore 7+0+6; Gal 8+6+6(A)+10(Ri); Bio 8+8; PL 2x8
    assert derive_rates(capital) == Rates(ore=13, gal=30, bio=16, pl=16)
    # Rock C000300-9, As Na Ni Va, 3 belts: Ore 0+9+4+10+5+5; Gal 3+4+2; Bio 0; PL 6
    assert derive_rates(rock) == Rates(ore=33, gal=9, bio=0, pl=6)
    # Farm B66A766-8, Ag Ga Wa Ri: Ore 6+0+4; Gal 7+4+4+10; Bio 10+6+10+5+3 (Atmo 6); PL 14
    assert derive_rates(farm) == Rates(ore=10, gal=25, bio=34, pl=14)


def test_tab_import_creates_hexes_and_neutral_systems(tmp_path: Path) -> None:
    path = write_tab(tmp_path, "Testsec", ROWS)
    report = import_sectors(campaign_name="Imported", files=[path])
    world_lines = 6
    assert [(s.line_no, s.reason.split()[0]) for s in report.skipped] == [
        (6, "anomaly"),
        (7, "bad"),
        (8, "expected"),
    ]
    assert report.created == world_lines - len(report.skipped) == 3
    assert report.updated == 0 and report.hexes_created == 3
    campaign = Campaign.objects.get(name="Imported")
    assert (campaign.map_cols, campaign.map_rows) == (32, 40)  # one sector, not its worlds' box
    assert campaign.market.count() == 3  # set up like any campaign
    systems = {s.key: s for s in StarSystem.objects.filter(campaign=campaign).select_related("hex")}
    assert set(systems) == {"testsec-1910", "testsec-0101", "testsec-3240"}
    capital = systems["testsec-1910"]
    assert (capital.name, capital.hex.code, capital.hex.hex_type) == ("Capital", "1910", "system")
    assert capital.uwp == "A788899-C" and capital.trade_codes == "Ri Pa Ph"
    assert (capital.bases, capital.pbg, capital.allegiance) == ("NS", "503", "ImDd")
    assert (capital.rate_ore, capital.rate_gal, capital.rate_bio, capital.rate_pl) == (
        13,
        30,
        16,
        16,
    )
    assert (capital.holder, capital.loyalty, capital.system_type) == (None, 0, "standard")
    assert systems["testsec-3240"].system_type == "basic"  # PL 14 < 15
    svg = render_svg(map_selectors.public_map(campaign=campaign))
    assert svg.count('class="sys"') == 3 and "Capital" in svg


def test_classic_sec_import(tmp_path: Path) -> None:
    path = tmp_path / "Old.sec"
    path.write_text(
        "# Sector: Old Days\n"
        "Zeycude      0101 C430698-9    De Na Ni Po       613 Zh K9 V\n"
        "Regina       1910 A788899-C A  Ri Pa Ph        A 703 Im F7 V BD M3 V\n"
        "this line is not a world\n"
        "Anomaly      0534 ???????-?    {Anomaly}         ??? --\n",
        "utf-8",
    )
    report = import_sectors(campaign_name="Old", files=[path])
    assert report.created == 4 - 2
    assert [s.line_no for s in report.skipped] == [4, 5]
    regina = StarSystem.objects.get(campaign__name="Old", key="old-days-1910")
    assert (regina.uwp, regina.zone, regina.bases, regina.allegiance) == (
        "A788899-C",
        "A",
        "A",
        "Im",
    )
    assert regina.hex.code == "1910"


def test_multi_sector_numbering_from_top_left(tmp_path: Path) -> None:
    west = write_tab(tmp_path, "West", [tab_row("0101", "W1", "A788899-C")], xy=(-2, -1))
    east = write_tab(tmp_path, "East", [tab_row("0101", "E1", "A788899-C")], xy=(-1, -1))
    south = write_tab(tmp_path, "South", [tab_row("3240", "S1", "A788899-C")], xy=(-1, 0))
    report = import_sectors(campaign_name="Block", files=[east, south, west])
    assert report.created == 3
    where = {
        s.key: s.hex.code
        for s in StarSystem.objects.filter(campaign__name="Block").select_related("hex")
    }
    assert where == {"west-0101": "0101", "east-0101": "3301", "sout-3240": "6480"}
    # Two sectors across, two down: the map bounds follow (contracts §1 map.size).
    campaign = Campaign.objects.get(name="Block")
    assert (campaign.map_cols, campaign.map_rows) == (64, 80)
    assert export_state(campaign)["map"]["size"] == {"cols": 64, "rows": 80}


def test_multi_sector_refusals(tmp_path: Path) -> None:
    a = write_tab(tmp_path, "Anon", [tab_row("0101", "A", "A788899-C")])  # no .xml
    b = write_tab(tmp_path, "Bee", [tab_row("0101", "B", "A788899-C")], xy=(0, 0))
    with pytest.raises(SectorImportError, match="no sector position"):
        import_sectors(campaign_name="Nope", files=[a, b])
    wide = [
        write_tab(tmp_path, f"W{i}", [tab_row("0101", f"W{i}", "A788899-C")], xy=(i, 0))
        for i in range(4)
    ]
    with pytest.raises(SectorImportError, match="99"):
        import_sectors(campaign_name="Nope", files=wide)
    assert not Campaign.objects.filter(name="Nope").exists()


def test_reimport_updates_in_place_and_keeps_game_state(tmp_path: Path) -> None:
    path = write_tab(tmp_path, "Again", ROWS)
    import_sectors(campaign_name="Again", files=[path])
    campaign = Campaign.objects.get(name="Again")
    power = Power.objects.create(campaign=campaign, key="p", name="P")
    capital = StarSystem.objects.get(campaign=campaign, key="again-1910")
    capital.holder, capital.loyalty, capital.stock_ore = power, 12, 40
    capital.save()
    MapHex.objects.create(campaign=campaign, col=5, row=5, hex_type=HexType.DUST_CLOUD)
    changed = [tab_row("1910", "Capital Prime", "A788A99-D", "Ri Hi"), *ROWS[1:]]
    changed.append(tab_row("0505", "Dusty", "C555555-5"))  # onto the dust cloud hex
    write_tab(tmp_path, "Again", changed)
    report = import_sectors(campaign_name="Again", files=[path])
    assert (report.created, report.updated, len(report.skipped)) == (1, 3, 3)
    again = StarSystem.objects.get(pk=capital.pk)
    assert (again.name, again.uwp, again.population, again.trade_codes) == (
        "Capital Prime",
        "A788A99-D",
        10,
        "Ri Hi",
    )
    assert (again.holder_id, again.loyalty, again.stock_ore) == (power.pk, 12, 40)
    assert again.rate_pl == 20 and again.rate_gal == 10 + 6 + 6 + 10 + 5
    assert MapHex.objects.get(campaign=campaign, col=5, row=5).hex_type == "system"
    assert StarSystem.objects.filter(campaign=campaign).count() == 4


def test_a_hex_holding_another_system_is_reported_not_overwritten(tmp_path: Path) -> None:
    campaign = Campaign.objects.create(name="Taken")
    hexagon = MapHex.objects.create(campaign=campaign, col=19, row=10)
    StarSystem.objects.create(campaign=campaign, key="home", name="Home", hex=hexagon)
    path = write_tab(tmp_path, "Taken", ROWS[:2])
    report = import_into(campaign=campaign, files=[path])
    assert report.created == 1
    assert [(s.line_no, s.reason) for s in report.skipped] == [
        (4, "hex 1910 already holds system 'home'")
    ]
    assert StarSystem.objects.get(campaign=campaign, key="home").name == "Home"


def test_import_sector_command(tmp_path: Path) -> None:
    path = write_tab(tmp_path, "Cmd", ROWS)
    out = io.StringIO()
    call_command("import_sector", str(path), "--campaign", "By command", stdout=out)
    text = out.getvalue()
    assert "3 systems created, 0 updated, 3 lines skipped" in text
    assert f"skipped {path}:6: anomaly 0534" in text
    assert f"skipped {path}:7: bad UWP" in text and f"skipped {path}:8: expected" in text
    out = io.StringIO()
    call_command("import_sector", str(path), "--campaign", "By command", stdout=out)
    assert "0 systems created, 3 updated" in out.getvalue()
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\nworld\n")
    with pytest.raises(CommandError, match="not a sector file"):
        call_command("import_sector", str(junk), "--campaign", "By command")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_sector", str(tmp_path / "missing.tab"), "--campaign", "X")


def test_admin_action_uploads_a_sector(client: Client) -> None:
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-1")
    client.force_login(admin)
    campaign = Campaign.objects.create(name="Admin import")
    url = reverse("admin:powers_campaign_changelist")
    assert import_sector_action.__name__ == "import_sector_action"
    form = client.post(url, {"action": "import_sector_action", "_selected_action": [campaign.pk]})
    assert form.status_code == 200 and b'enctype="multipart/form-data"' in form.content
    text = "\n".join(["# upload", HEADER, *ROWS])
    upload = SimpleUploadedFile("Upload.tab", text.encode(), content_type="text/plain")
    done = client.post(
        url,
        {
            "action": "import_sector_action",
            "_selected_action": [campaign.pk],
            "apply": "1",
            "sector_files": upload,
        },
        follow=True,
    )
    body = done.content.decode()
    assert "3 systems created, 0 updated, 3 lines skipped; the map is now 32 × 40" in body
    assert "Skipped Upload.tab:5: anomaly" in body
    assert StarSystem.objects.filter(campaign=campaign, key="upload-1910").exists()
    bad = SimpleUploadedFile("x.txt", b"hello\nworld\n")
    again = client.post(
        url,
        {
            "action": "import_sector_action",
            "_selected_action": [campaign.pk],
            "apply": "1",
            "sector_files": bad,
        },
    )
    assert again.status_code == 200 and "not a sector file" in again.content.decode()


def test_admin_action_imports_sectors_side_by_side(client: Client, tmp_path: Path) -> None:
    """Issue 18: several sectors at once from the admin, placed by their .xml; the map bounds
    follow. Files are paired with their .xml by name, whatever the order chosen."""
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-1")
    client.force_login(admin)
    campaign = Campaign.objects.create(name="Side by side")
    west = write_tab(tmp_path, "West", [tab_row("1910", "Capital", "A788899-C")], xy=(-4, -1))
    east = write_tab(tmp_path, "East", [tab_row("0101", "Far", "C000300-9")], xy=(-3, -1))
    paths = [west, east.with_suffix(".xml"), east, west.with_suffix(".xml")]
    uploads = [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths]
    url = reverse("admin:powers_campaign_changelist")
    done = client.post(
        url,
        {
            "action": "import_sector_action",
            "_selected_action": [campaign.pk],
            "apply": "1",
            "sector_files": uploads,
        },
        follow=True,
    )
    assert "2 systems created, 0 updated, 0 lines skipped; the map is now 64 × 40" in (
        done.content.decode()
    )
    placed = dict(StarSystem.objects.filter(campaign=campaign).values_list("name", "hex__col"))
    assert placed == {"Capital": 19, "Far": 33}  # East's 0101 is 3301
    campaign.refresh_from_db()
    assert (campaign.map_cols, campaign.map_rows) == (64, 40)
    # without the .xml, two sectors cannot be placed: refused, nothing written
    lone = [SimpleUploadedFile(p.name, p.read_bytes()) for p in (west, east)]
    again = client.post(
        url,
        {
            "action": "import_sector_action",
            "_selected_action": [campaign.pk],
            "apply": "1",
            "sector_files": lone,
        },
    )
    assert "no sector position" in again.content.decode()
    assert StarSystem.objects.filter(campaign=campaign).count() == 2


def test_maps_of_imported_sectors_credit_the_data(tmp_path: Path) -> None:
    import_sectors(campaign_name="Credited", files=[write_tab(tmp_path, "Cred", ROWS)])
    svg = render_svg(map_selectors.public_map(campaign=Campaign.objects.get(name="Credited")))
    assert "<desc>Sector data: Traveller Map" in svg and "Mongoose Publishing" in svg
    plain = Campaign.objects.create(name="Hand made")
    assert "Mongoose" not in render_svg(map_selectors.public_map(campaign=plain))
