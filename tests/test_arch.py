"""``--arch`` parsing and the architecture families the bank model distinguishes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cudalint.model.arch import KNOWN_ARCHS, Arch, ArchError, parse_arch


@pytest.mark.parametrize(
    ("text", "name", "major", "minor"),
    [
        ("sm_90", "sm_90", 9, 0),
        ("sm_90a", "sm_90", 9, 0),
        ("compute_90", "sm_90", 9, 0),
        ("compute_90a", "sm_90", 9, 0),
        ("90", "sm_90", 9, 0),
        ("SM_86", "sm_86", 8, 6),
        (" sm_75 ", "sm_75", 7, 5),
        ("sm_20", "sm_20", 2, 0),
        ("sm_21", "sm_21", 2, 1),
        ("sm_35", "sm_35", 3, 5),
        ("37", "sm_37", 3, 7),
        ("sm_50", "sm_50", 5, 0),
        ("sm_100", "sm_100", 10, 0),
        ("sm_100a", "sm_100", 10, 0),
        ("sm_100f", "sm_100", 10, 0),
        ("compute_120", "sm_120", 12, 0),
        ("121", "sm_121", 12, 1),
    ],
)
def test_accepts(text: str, name: str, major: int, minor: int) -> None:
    arch = parse_arch(text)
    assert arch == Arch(name, major, minor)
    assert arch.number == major * 10 + minor


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "sm_",
        "sm",
        "sm90",
        "sm-90",
        "sm_9",
        "9",
        "sm_1000",
        "sm_90ab",
        "sm_90x",
        "sm_90_",
        "compute_",
        "compute90",
        "gfx90a",
        "sm_9 0",
        "sm_90\n1",
        "sm_-90",
        "sm_+90",
        "sm_\u0669\u0660",  # Arabic-Indic digits: int() would read them as 90
        "sm_\uff19\uff10",  # fullwidth digits
        "lto_90",
    ],
)
def test_rejects_junk(text: str) -> None:
    with pytest.raises(ArchError, match="invalid arch"):
        parse_arch(text)


@pytest.mark.parametrize("text", ["sm_10", "sm_13", "sm_91", "sm_99", "sm_00", "999", "compute_88"])
def test_rejects_unknown_numbers(text: str) -> None:
    with pytest.raises(ArchError, match="unknown arch"):
        parse_arch(text)


@given(st.integers(0, 999))
def test_every_number_is_known_or_rejected(number: int) -> None:
    text = f"sm_{number:02d}"
    if number in KNOWN_ARCHS:
        assert parse_arch(text).number == number
    else:
        with pytest.raises(ArchError):
            parse_arch(text)


def test_arch_error_is_a_value_error() -> None:
    assert issubclass(ArchError, ValueError)


@pytest.mark.parametrize("number", KNOWN_ARCHS)
def test_families(number: int) -> None:
    arch = parse_arch(f"sm_{number}")
    expected = {2: "fermi", 3: "kepler"}.get(number // 10, "maxwell+")
    assert arch.family == expected


def test_family_examples() -> None:
    assert parse_arch("sm_20").family == "fermi"
    assert parse_arch("sm_21").family == "fermi"
    assert {parse_arch(f"sm_{n}").family for n in (30, 32, 35, 37)} == {"kepler"}
    assert {parse_arch(f"sm_{n}").family for n in (50, 60, 70, 80, 90, 100, 120)} == {"maxwell+"}


def test_measured_only_on_sm90() -> None:
    assert parse_arch("sm_90").measured
    assert parse_arch("sm_90a").measured
    assert not parse_arch("sm_80").measured
    assert not parse_arch("sm_100").measured
    assert not parse_arch("sm_35").measured
