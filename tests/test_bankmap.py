"""The bank map: ``--explain-access`` text snapshots, ``--bank-map-svg`` files, and the
model behind them (the proof's worst-warp addresses and the phase split).

Snapshots live in ``tests/golden/bankmap/``; when the picture changes on purpose,
regenerate them with ``CUDALINT_UPDATE_GOLDEN=1 pytest tests/test_bankmap.py`` and
review the diff.
"""

from __future__ import annotations

import io
import os
import random
import re
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from cudalint.api import check_file
from cudalint.cli import main
from cudalint.ir import Access as IrAccess
from cudalint.ir import AccessKind, Const, Span
from cudalint.model.arch import parse_arch
from cudalint.model.banks import warp_cost
from cudalint.model.explain import bank_map, results_at
from cudalint.model.proof import atomic_form
from cudalint.model.results import AccessResult
from cudalint.options import Options
from cudalint.output.bankmap import lane_ranges, render_svg, svg_file_name

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "bankmap"
UPDATE = os.environ.get("CUDALINT_UPDATE_GOLDEN") == "1"
SOURCE = "tests/data/bankmap.cu"
SVG = "{http://www.w3.org/2000/svg}"


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)


# --- text snapshots ------------------------------------------------------------------------

CASES = {
    "conflict_free": 7,  # f[l]
    "two_way": 9,  # f[2 * l]
    "thirty_two_way": 11,  # f[32 * l]
    "multicast": 13,  # f[l / 4]: four lanes per word
    "double_halves": 15,  # 8-byte load served in half-warps, 16-way in each
    "float4_quarters": 17,  # 16-byte load served in quarter-warps
    "multicast_conflict": 21,  # f[32 * (l / 16)]: 2 words of bank 0, 16 lanes each
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_explain_access_text_snapshot(name: str) -> None:
    code, out, err = run(
        ["--isolated", "--color", "never", "--explain-access", f"{SOURCE}:{CASES[name]}"]
    )
    assert code == 0, err
    golden = GOLDEN / f"{name}.txt"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_snapshots_show_what_they_are_named_for() -> None:
    text = {n: (GOLDEN / f"{n}.txt").read_text(encoding="utf-8") for n in CASES}
    rows = {n: [ln for ln in t.splitlines() if ln.startswith("  wf ")] for n, t in text.items()}
    assert "no bank conflict" in text["conflict_free"]
    assert rows["conflict_free"] == ["  wf   1" + "".join(f"{b:>4}" for b in range(32))]
    assert not any("!" in row for row in rows["multicast"])
    assert "2-way bank conflict" in text["two_way"]
    assert len(rows["thirty_two_way"]) == 32
    assert all(row.split()[2] == f"{w}!" for w, row in enumerate(rows["thirty_two_way"]))
    assert "32-way bank conflict" in text["thirty_two_way"]
    assert "  0+  4+  8+ 12+ 16+ 20+ 24+ 28+" in text["multicast"]
    assert "word 0 for lanes 0-3" in text["multicast"]
    assert text["double_halves"].count("phase: lanes") == 2
    assert "(half-warp), 16 wavefronts" in text["double_halves"]
    assert text["float4_quarters"].count("(quarter-warp)") == 4
    assert "  0# " in text["multicast_conflict"] and " 16# " in text["multicast_conflict"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_text_cells_line_up_under_their_banks(name: str) -> None:
    """Two-digit lanes stay readable: every cell sits under its bank's number, with a
    space before it, so that neighbouring cells never run together."""
    text = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    header = next(ln for ln in text if ln.lstrip().startswith("0   1   2"))
    ends = [m.end() for m in re.finditer(r"\d+", header)]
    assert len(ends) == 32
    for row in (ln for ln in text if ln.startswith("  wf ")):
        for bank, end in enumerate(ends):
            cell = row[end - 3 : end + 1].ljust(4)
            assert cell[0] == " ", (name, bank, row)
            assert re.fullmatch(r" ( \.|[ \d]\d)[ !+#]", cell), (name, bank, cell)


def test_explain_access_colours_conflicts_on_a_terminal() -> None:
    code, out, _ = run(["--isolated", "--color", "always", "--explain-access", f"{SOURCE}:9:14"])
    assert code == 0
    assert "\033[1;37;41m  0!\033[0m" in out
    code, out, _ = run(["--isolated", "--color", "always", "--explain-access", f"{SOURCE}:7"])
    assert "\033[1;37;41m" not in out


def test_explain_access_errors() -> None:
    code, _, err = run(["--isolated", "--explain-access", f"{SOURCE}:3"])
    assert code == 2
    assert "no shared-memory access at tests/data/bankmap.cu:3" in err
    assert "lines 7, 9, 11" in err
    code, _, err = run(["--isolated", "--explain-access", "nope.cu:3"])
    assert code == 2 and "no such file" in err
    code, _, err = run(["--isolated", "--explain-access", SOURCE])
    assert code == 2 and "FILE:LINE[:COL]" in err


def test_column_picks_the_innermost_access() -> None:
    report = check_file(SOURCE, Options())
    on_line = results_at(report.results, 17)
    assert [r.access.text for r in on_line] == ["v[2 * l]"]
    assert results_at(report.results, 17, 16) == on_line
    assert results_at(report.results, 17, 15) == []
    assert results_at(report.results, 17, 24) == []  # end column is exclusive
    assert results_at(report.results, 17, 23) == on_line


# --- SVG -----------------------------------------------------------------------------------


def _panels(root: ET.Element) -> dict[str, ET.Element]:
    """The SVG's panels by role: ``now`` (no fix drawn), or ``before`` and ``after``."""
    return {
        e.get("class", "").split()[1]: e
        for e in root.iter(f"{SVG}g")
        if e.get("class", "").startswith("panel ")
    }


def _cells(path: Path, panel: str | None = None) -> list[ET.Element]:
    """The cells of the current map (the ``now`` or ``before`` panel), or of ``panel``."""
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    panels = _panels(root)
    chosen = panels[panel] if panel else panels.get("now", panels.get("before"))
    assert chosen is not None
    return [e for e in chosen.iter(f"{SVG}rect") if "cell" in e.get("class", "").split()]


def test_bank_map_svg_one_file_per_conflicting_access(tmp_path: Path) -> None:
    code, _, _ = run(["--isolated", "-q", "--bank-map-svg", str(tmp_path), SOURCE])
    assert code == 1
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "tests_data_bankmap.cu-11-14.svg",
        "tests_data_bankmap.cu-15-14.svg",
        "tests_data_bankmap.cu-17-16.svg",
        "tests_data_bankmap.cu-21-14.svg",
        "tests_data_bankmap.cu-35-24.svg",
        "tests_data_bankmap.cu-9-14.svg",
    ]
    # 32-way: 32 wavefronts x 32 banks; bank 0 serves lane w-1 in wavefront w
    cells = _cells(tmp_path / "tests_data_bankmap.cu-11-14.svg")
    assert len(cells) == 32 * 32
    busy = [c for c in cells if "idle" not in c.get("class", "")]
    assert [
        (c.get("data-bank"), c.get("data-wavefront"), c.get("data-lanes"), c.get("data-word"))
        for c in busy
    ] == [("0", str(w + 1), str(w), str(32 * w)) for w in range(32)]
    assert all(c.get("class") == "cell conflict" for c in busy)
    # 16-byte, quarter-warps: 8 wavefronts, each lane in 4 consecutive banks
    cells = _cells(tmp_path / "tests_data_bankmap.cu-17-16.svg")
    busy = [c for c in cells if "idle" not in c.get("class", "")]
    assert len(cells) == 8 * 32 and len(busy) == 32 * 4
    lane5 = [c for c in busy if c.get("data-lanes") == "5"]
    assert [c.get("data-bank") for c in lane5] == ["8", "9", "10", "11"]
    assert {c.get("data-wavefront") for c in lane5} == {"2"}
    # a second run writes the same files, byte for byte
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    again = tmp_path / "again"
    run(["--isolated", "-q", "--bank-map-svg", str(again), SOURCE])
    assert {p.name: p.read_bytes() for p in again.iterdir()} == first


def test_bank_map_svg_of_an_explained_multicast_access(tmp_path: Path) -> None:
    code, _, err = run(
        ["--isolated", "--explain-access", f"{SOURCE}:13", "--bank-map-svg", str(tmp_path)]
    )
    assert code == 0
    assert "wrote 1 bank map to" in err
    cells = _cells(tmp_path / "tests_data_bankmap.cu-13-14.svg")
    busy = [c for c in cells if "idle" not in c.get("class", "")]
    assert [(c.get("data-bank"), c.get("data-lanes"), c.get("class")) for c in busy] == [
        (str(b), " ".join(str(4 * b + i) for i in range(4)), "cell multicast") for b in range(8)
    ]
    text = (tmp_path / "tests_data_bankmap.cu-13-14.svg").read_text(encoding="utf-8")
    assert "no bank conflict (proved)" in text


def _texts(group: ET.Element, cls: str) -> list[str]:
    return [e.text or "" for e in group.iter(f"{SVG}text") if e.get("class") == cls]


def test_svg_cells_show_their_word_and_a_table_gives_every_lane(tmp_path: Path) -> None:
    code, _, _ = run(["--isolated", "-q", "--bank-map-svg", str(tmp_path), SOURCE])
    assert code == 1
    # f[32 * l]: lane l reads byte 128 l, word 32 l, bank 0 (derived from the index)
    root = ET.parse(tmp_path / "tests_data_bankmap.cu-11-14.svg").getroot()
    (panel,) = _panels(root).values()
    busy = [
        g
        for g in panel.iter(f"{SVG}g")
        if g.get("class") is None
        and any("cell" in r.get("class", "") for r in g.iter(f"{SVG}rect"))
    ]
    assert len(busy) == 32
    for g in busy:
        (rect,) = g.iter(f"{SVG}rect")
        # the word is written in the cell, not only in its tooltip
        assert _texts(g, "word") == [rect.get("data-word")]
        assert _texts(g, "lane") == [rect.get("data-lanes")]
    assert sorted(int(t) for t in _texts(panel, "word")) == [32 * lane for lane in range(32)]
    rows = [g for g in panel.iter(f"{SVG}g") if g.get("class") == "lane-row"]
    assert [
        (g.get("data-lane"), g.get("data-byte"), g.get("data-word"), g.get("data-bank"))
        for g in rows
    ] == [(str(x), str(128 * x), str(32 * x), "0") for x in range(32)]
    assert [[t.text for t in g.iter(f"{SVG}text")] for g in rows][5] == ["5", "640", "160", "0"]
    # float4 v[2 * l]: 16 bytes from byte 32 l: words 8l..8l+3, banks 8l mod 32 ..+3
    root = ET.parse(tmp_path / "tests_data_bankmap.cu-17-16.svg").getroot()
    rows = [g for g in _panels(root)["before"].iter(f"{SVG}g") if g.get("class") == "lane-row"]
    assert [(g.get("data-byte"), g.get("data-word"), g.get("data-bank")) for g in rows] == [
        (str(32 * x), f"{8 * x}-{8 * x + 3}", f"{8 * x % 32}-{8 * x % 32 + 3}") for x in range(32)
    ]


def test_svg_pairs_the_map_with_the_map_under_the_suggested_fix(tmp_path: Path) -> None:
    """tile[threadIdx.x][threadIdx.y] in a 32 x 32 tile: 32 wavefronts on bank 0; under
    the suggested pad (tile[32][33], re-checked by the fix planner) lane l reads word
    33 l in bank l: one wavefront."""
    report = check_file(SOURCE, Options())
    (d,) = [d for d in report.diagnostics if d.line == 35]
    assert d.fix is not None and d.fix.checked is not None
    assert d.fix.checked.wavefronts == 1  # the planner's re-check, reused as is
    code, _, _ = run(["--isolated", "-q", "--bank-map-svg", str(tmp_path), SOURCE])
    assert code == 1
    path = tmp_path / "tests_data_bankmap.cu-35-24.svg"
    root = ET.parse(path).getroot()
    assert set(_panels(root)) == {"before", "after"}
    before = [c for c in _cells(path, "before") if "idle" not in c.get("class", "")]
    after = [c for c in _cells(path, "after") if "idle" not in c.get("class", "")]
    assert [(c.get("data-bank"), c.get("data-wavefront"), c.get("data-word")) for c in before] == [
        ("0", str(x + 1), str(32 * x)) for x in range(32)
    ]
    assert sorted(
        (int(c.get("data-bank", "")), c.get("data-wavefront"), c.get("data-word"), c.get("class"))
        for c in after
    ) == [(x, "1", str(33 * x), "cell plain") for x in range(32)]
    rows = [g for g in _panels(root)["after"].iter(f"{SVG}g") if g.get("class") == "lane-row"]
    assert [(g.get("data-byte"), g.get("data-bank")) for g in rows] == [
        (str(132 * x), str(x)) for x in range(32)
    ]
    text = path.read_text(encoding="utf-8")
    assert "with the fix: pad the last dimension: tile[32][33]" in text
    assert "1 wavefront, ideal 1: no bank conflict (proved)" in text
    # an access without a fix is drawn alone
    assert set(_panels(ET.parse(tmp_path / "tests_data_bankmap.cu-11-14.svg").getroot())) == {"now"}


def test_svg_pair_for_keplers_eight_byte_mode(tmp_path: Path) -> None:
    """On sm_35 the 8-byte-mode suggestion draws the access in 8-byte mode beside it."""
    source = "fixtures/fixes/kepler_eight_byte.cu"
    report = check_file(source, Options(arch="sm_35"))
    fixed = [d for d in report.diagnostics if d.fix is not None and d.fix.checked is not None]
    assert fixed and all(
        d.fix is not None and d.fix.checked is not None and d.fix.checked.bank_mode == 8
        for d in fixed
    )
    code, _, _ = run(
        ["--isolated", "-q", "--arch", "sm_35", "--bank-map-svg", str(tmp_path), source]
    )
    assert code == 1
    d = fixed[0]
    assert d.fix is not None and d.fix.checked is not None
    path = tmp_path / f"fixtures_fixes_kepler_eight_byte.cu-{d.line}-{d.column}.svg"
    after = _cells(path, "after")
    assert max(int(c.get("data-wavefront", "")) for c in after) == d.fix.checked.wavefronts
    assert "8-byte bank mode" in path.read_text(encoding="utf-8")


def test_svg_file_names_are_safe_and_distinct() -> None:
    report = check_file(SOURCE, Options())
    names = [svg_file_name(r) for r in report.results]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+\.svg", n) for n in names)


# --- the model: worst-warp addresses and phases --------------------------------------------


def _args(path: Path) -> Options:
    m = re.search(r"cudalint-args:.*--arch\s+(sm_\d+)", path.read_text(encoding="utf-8"))
    return Options(arch=m.group(1)) if m else Options()


@pytest.mark.parametrize(
    "name",
    [
        "kepler_sm35.cu",
        "fermi_sm20.cu",
        "atomics_shared_histogram.cu",
        "strides_1d_double.cu",
        "strides_1d_float4.cu",
        "vectorize_merged.cu",
        "assumed_block_shape.cu",
        "warp_dependent.cu",
        "guarded.cu",
    ],
)
def test_worst_warp_addresses_reproduce_the_result(name: str) -> None:
    """The addresses the proof hands out cost exactly what the result says, and the
    bank map draws that many wavefronts (or says why not)."""
    path = ROOT / "fixtures" / name
    options = _args(path)
    report = check_file(str(path), options)
    assert report.error is None
    drawn = 0
    for r in report.results:
        if r.wavefronts is None or r.lane_addresses is None:
            continue
        arch = parse_arch(r.arch)
        width = r.merged_width or r.access.width
        cost = warp_cost(
            r.lane_addresses, width, r.access.kind, arch, r.bank_mode, atomic_form(r.access)
        )
        assert (cost.wavefronts, cost.ideal) == (r.wavefronts, r.ideal_wavefronts), r.access
        m = bank_map(r)
        assert m is not None
        assert (m.drawn_wavefronts == r.wavefronts) == (m.note is None)
        assert len(m.phases) <= r.ideal_wavefronts or m.note is not None
        drawn += 1
    assert drawn > 0


def _result(
    addresses: list[int | None], width: int, kind: AccessKind, arch: str, bank_mode: int
) -> AccessResult:
    access = IrAccess(
        array="k::s",
        kernel="k",
        kind=kind,
        width=width,
        offset=Const(0),
        span=Span("k.cu", 1, 1, 1, 2),
        atomic_op=None,
    )
    cost = warp_cost(addresses, width, kind, parse_arch(arch), bank_mode)
    return AccessResult(
        access=access,
        arch=arch,
        bank_mode=bank_mode,
        status="proved",
        wavefronts=cost.wavefronts,
        ideal_wavefronts=cost.ideal,
        reason=None,
        block_dim=(32, 1, 1),
        block_dim_source="launch",
        warp=0,
        lane_addresses=tuple(addresses),
    )


@pytest.mark.parametrize(
    "arch,bank_mode", [("sm_90", 4), ("sm_80", 4), ("sm_35", 4), ("sm_35", 8), ("sm_20", 4)]
)
def test_bank_map_matches_the_bank_rule(arch: str, bank_mode: int) -> None:
    """Over random patterns: the rows drawn add up to warp_cost's wavefronts, one drawn
    phase per ideal wavefront, and a cell is marked colliding exactly where its bank
    serves several words in its phase."""
    rng = random.Random(f"{arch}/{bank_mode}")
    for _ in range(400):
        width = rng.choice((1, 2, 4, 8, 16))
        kind: AccessKind = rng.choice(("load", "store"))
        span = rng.choice((4, 32, 256, 2048))
        addresses: list[int | None] = [
            None if rng.random() < 0.15 else rng.randrange(0, span) // width * width
            for _ in range(32)
        ]
        if all(a is None for a in addresses):
            continue
        r = _result(addresses, width, kind, arch, bank_mode)
        m = bank_map(r)
        assert m is not None
        fermi_128 = arch == "sm_20" and width == 16
        if not fermi_128:
            assert m.drawn_wavefronts == r.wavefronts, (addresses, width, kind)
            assert m.note is None
            assert len(m.phases) == r.ideal_wavefronts
        for p in m.phases:
            for b in range(32):
                column = [row[b] for row in p.wavefronts if row[b] is not None]
                assert all(c.colliding == (len(column) > 1) for c in column)
                assert all(c.bank == b for c in column)
            lanes = {lane for row in p.wavefronts for c in row if c for lane in c.lanes}
            assert lanes == {i for i in range(p.first_lane, p.end_lane) if addresses[i] is not None}


def test_svg_draws_every_phase_row() -> None:
    addresses: list[int | None] = [16 * (2 * lane) for lane in range(32)]
    r = _result(addresses, 16, "load", "sm_90", 4)
    m = bank_map(r)
    assert m is not None
    root = ET.fromstring(render_svg(m))
    cells = [e for e in root.iter(f"{SVG}rect") if "cell" in e.get("class", "")]
    assert len(cells) == 32 * m.drawn_wavefronts


def test_lane_ranges() -> None:
    assert lane_ranges([0, 1, 2, 3, 8, 10, 11]) == "0-3, 8, 10-11"
    assert lane_ranges([]) == ""


def test_a_shape_with_run_time_components_is_drawn_with_stars(tmp_path: Path) -> None:
    """dim3(32, by, bz): the bank map names the launch shape (32, *, *), not None."""
    src = tmp_path / "rows.cu"
    src.write_text(
        "__global__ void rows(float *o) {\n"
        "  __shared__ float s[64];\n"
        "  o[threadIdx.x] = s[threadIdx.x];\n"
        "}\n"
        "void run(float *o, int by, int bz) { rows<<<1, dim3(32, by, bz)>>>(o); }\n"
    )
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        main(["--color", "never", "--explain-access", f"{src}:3"])
    assert "block (32, *, *) from the launch" in out.getvalue()
    assert "None" not in out.getvalue()
