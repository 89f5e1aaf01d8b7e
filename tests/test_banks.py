"""Unit and property tests of the bank simulator (cudalint.model.banks.warp_cost).

Every expected number here was worked out by hand from the rule (docs/bank-model.md):
for sm_90 from the H100 measurements' README, for Kepler and Fermi from NVIDIA's CUDA C
Programming Guide (compute capability 3.x and 2.x shared-memory sections). Cases the
hardware files also contain are marked "measured".
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cudalint.ir import AccessKind
from cudalint.model.arch import Arch, parse_arch
from cudalint.model.banks import warp_cost
from cudalint.model.results import BankConflict, Cost

SM90 = parse_arch("sm_90")
SM80 = parse_arch("sm_80")
SM50 = parse_arch("sm_50")
KEPLER = parse_arch("sm_35")
FERMI = parse_arch("sm_20")
FULL = 0xFFFFFFFF

Addresses = list["int | None"]


def addrs(index: Callable[[int], int], width: int, mask: int = FULL) -> Addresses:
    """Byte addresses of ``T s[index(lane)]`` with ``sizeof(T) == width``; None where inactive."""
    return [index(lane) * width if mask >> lane & 1 else None for lane in range(32)]


def cost90(
    index: Callable[[int], int], width: int, kind: AccessKind = "load", mask: int = FULL
) -> tuple[int, int]:
    c = warp_cost(addrs(index, width, mask), width, kind, SM90)
    return c.wavefronts, c.ideal


def kepler(index: Callable[[int], int], width: int, mode: int, mask: int = FULL) -> tuple[int, int]:
    c = warp_cost(addrs(index, width, mask), width, "load", KEPLER, mode)
    return c.wavefronts, c.ideal


def fermi(
    index: Callable[[int], int], width: int, kind: AccessKind = "load", mask: int = FULL
) -> tuple[int, int]:
    c = warp_cost(addrs(index, width, mask), width, kind, FERMI)
    return c.wavefronts, c.ideal


def only(lanes: dict[int, int]) -> Addresses:
    """Byte addresses for the listed lanes, every other lane inactive."""
    return [lanes.get(lane) for lane in range(32)]


# ---------------------------------------------------------------------------------------------
# sm_90 (and sm_50..sm_80, assumed identical): the measured rule
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "index", "width", "expected"),
    [
        # <= 4 bytes: the whole warp is one phase; count distinct words per bank.
        ("float s[l]", lambda t: t, 4, (1, 1)),
        ("float s[0] (multicast)", lambda t: 0, 4, (1, 1)),
        ("float s[2l]: words b and b+32 in bank b", lambda t: 2 * t, 4, (2, 1)),
        ("float s[3l]", lambda t: 3 * t, 4, (1, 1)),
        ("float s[32l]: column", lambda t: 32 * t, 4, (32, 1)),
        ("float s[33l]: padded column", lambda t: 33 * t, 4, (1, 1)),
        ("float s[l % 4] (multicast)", lambda t: t % 4, 4, (1, 1)),
        ("char s[l]: 4 lanes per word", lambda t: t, 1, (1, 1)),
        ("char s[4l]", lambda t: 4 * t, 1, (1, 1)),
        ("char s[128l]: bank 0", lambda t: 128 * t, 1, (32, 1)),
        ("short s[2l]", lambda t: 2 * t, 2, (1, 1)),
        ("short s[64l]", lambda t: 64 * t, 2, (32, 1)),
        # 8-byte loads (worked examples of hw/README.md, measured).
        ("double s[l/2]: quads touch 2 addresses, one phase", lambda t: t // 2, 8, (1, 1)),
        ("double s[l%16]: l and l+16 share, but 2 phases", lambda t: t % 16, 8, (2, 2)),
        ("double s[32(l%16)+l/16]: halves in turn", lambda t: 32 * (t % 16) + t // 16, 8, (32, 2)),
        ("double s[l]: two half-warp phases", lambda t: t, 8, (2, 2)),
        ("double s[0]: one phase", lambda t: 0, 8, (1, 1)),
        ("double s[2l]", lambda t: 2 * t, 8, (4, 2)),
        # 16-byte loads.
        ("float4 s[l/4]: halves (measured)", lambda t: t // 4, 16, (2, 2)),
        ("float4 s[l/8]: halves", lambda t: t // 8, 16, (2, 2)),
        ("float4 s[l]: quarters", lambda t: t, 16, (4, 4)),
        ("float4 s[l/2]: quads touch 2 addresses", lambda t: t // 2, 16, (2, 2)),
        ("float4 s[2l]", lambda t: 2 * t, 16, (8, 4)),
        ("float4 s[8l]: one bank group per quarter", lambda t: 8 * t, 16, (32, 4)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_sm90_loads(
    name: str, index: Callable[[int], int], width: int, expected: tuple[int, int]
) -> None:
    assert cost90(index, width) == expected


@pytest.mark.parametrize(
    ("name", "index", "width", "expected"),
    [
        ("float s[l]", lambda t: t, 4, (1, 1)),
        ("float s[0]: one write", lambda t: 0, 4, (1, 1)),
        ("float s[32l]", lambda t: 32 * t, 4, (32, 1)),
        # Stores never get the quad exception: halves for 8 bytes, quarters for 16.
        ("double s[l/2]", lambda t: t // 2, 8, (2, 2)),
        ("double s[0]", lambda t: 0, 8, (2, 2)),
        ("double s[l]", lambda t: t, 8, (2, 2)),
        ("double s[32(l%16)+l/16]", lambda t: 32 * (t % 16) + t // 16, 8, (32, 2)),
        ("float4 s[l/4]", lambda t: t // 4, 16, (4, 4)),
        ("float4 s[l]", lambda t: t, 16, (4, 4)),
        ("float4 s[0]", lambda t: 0, 16, (4, 4)),
        ("float4 s[2l]", lambda t: 2 * t, 16, (8, 4)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_sm90_stores(
    name: str, index: Callable[[int], int], width: int, expected: tuple[int, int]
) -> None:
    assert cost90(index, width, "store") == expected


def test_atomics_follow_the_4_byte_rule() -> None:
    assert cost90(lambda t: 0, 4, "atomic") == (1, 1)
    assert cost90(lambda t: t, 4, "atomic") == (1, 1)
    assert cost90(lambda t: 32 * (t % 2), 4, "atomic") == (2, 1)
    assert cost90(lambda t: 32 * t, 4, "atomic") == (32, 1)


@pytest.mark.parametrize("arch", [SM50, SM80, parse_arch("sm_100")])
def test_other_maxwell_plus_archs_use_the_sm90_rule(arch: Arch) -> None:
    for index, width, kind in [
        (lambda t: t // 2, 8, "load"),
        (lambda t: 32 * (t % 16) + t // 16, 8, "load"),
        (lambda t: t // 4, 16, "load"),
        (lambda t: t // 2, 8, "store"),
        (lambda t: 2 * t, 4, "load"),
    ]:
        a = addrs(index, width)
        assert warp_cost(a, width, kind, arch) == warp_cost(a, width, kind, SM90)  # type: ignore[arg-type]


# Partial masks: inactive lanes take no part, in the banks or in the quad test.


@pytest.mark.parametrize("width", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("kind", ["load", "store"])
def test_all_inactive_costs_nothing(width: int, kind: AccessKind) -> None:
    assert warp_cost([None] * 32, width, kind, SM90) == Cost(0, 0, None)


def test_partial_masks() -> None:
    assert cost90(lambda t: 32 * t, 4, mask=0xFF) == (8, 1)
    assert cost90(lambda t: 32 * t, 4, mask=0x55555555) == (16, 1)
    assert cost90(lambda t: 32 * t, 4, mask=1 << 17) == (1, 1)
    # Only the upper half-warp: one phase holds active lanes.
    assert cost90(lambda t: t, 8, "store", mask=0xFFFF0000) == (1, 1)
    assert cost90(lambda t: t, 8, "load", mask=0xFFFF0000) == (1, 1)
    # Lanes 0 and 31 only: the first and the last quarter.
    assert cost90(lambda t: t, 16, "store", mask=(1 << 31) | 1) == (2, 2)
    assert cost90(lambda t: 2 * t, 16, "store", mask=0xFF) == (2, 1)
    # double s[l] on lanes 0-15 only.
    assert cost90(lambda t: t, 8, "load", mask=0xFFFF) == (1, 1)


def test_inactive_lanes_do_not_count_in_the_quad_test() -> None:
    # double s[l] with lanes 4k and 4k+1 active: each quad touches 2 distinct addresses, so
    # the warp is one phase; words w with w % 8 < 4 up to 59 put words b and b+32 in bank b.
    # Were the inactive lanes' indices counted, the quads would hold 4 addresses: 2 phases.
    assert cost90(lambda t: t, 8, "load", mask=0x33333333) == (2, 1)
    # The same addresses as a store: two half-warp phases with one word per bank each.
    assert cost90(lambda t: t, 8, "store", mask=0x33333333) == (2, 2)


# The conflict detail: the busiest bank of the worst phase.


def test_conflict_detail_of_a_column_access() -> None:
    # float tile[32][32]; tile[l][0]
    c = warp_cost(addrs(lambda t: 32 * t, 4), 4, "load", SM90)
    assert (c.wavefronts, c.ideal, c.ways) == (32, 1, 32.0)
    assert c.conflict == BankConflict(
        bank=0, words=tuple(32 * t for t in range(32)), lanes=tuple((t,) for t in range(32))
    )


def test_conflict_detail_other_bank_and_shared_words() -> None:
    # tile[l][5] of float tile[32][32]: bank 5.
    c = warp_cost(addrs(lambda t: 32 * t + 5, 4), 4, "store", SM90)
    assert c.conflict is not None
    assert c.conflict.bank == 5
    assert c.conflict.words == tuple(32 * t + 5 for t in range(32))
    # float s[32 * (l % 2)]: two words of bank 0, each multicast to 16 lanes.
    c = warp_cost(addrs(lambda t: 32 * (t % 2), 4), 4, "load", SM90)
    assert (c.wavefronts, c.ideal) == (2, 1)
    assert c.conflict == BankConflict(
        bank=0, words=(0, 32), lanes=(tuple(range(0, 32, 2)), tuple(range(1, 32, 2)))
    )


def test_conflict_detail_of_a_wide_access_lists_every_word() -> None:
    # double s[32 * l]: each lane touches words 64l and 64l+1; banks 0 and 1 tie at 16
    # words per half-warp; the lower bank is reported, from the first half-warp.
    c = warp_cost(addrs(lambda t: 32 * t, 8), 8, "store", SM90)
    assert (c.wavefronts, c.ideal, c.ways) == (32, 2, 16.0)
    assert c.conflict == BankConflict(
        bank=0, words=tuple(64 * t for t in range(16)), lanes=tuple((t,) for t in range(16))
    )


def test_no_conflict_no_detail() -> None:
    for index, width in [(lambda t: t, 4), (lambda t: t, 8), (lambda t: t, 16), (lambda t: 0, 4)]:
        assert warp_cost(addrs(index, width), width, "load", SM90).conflict is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        warp_cost([0] * 31, 4, "load", SM90)
    with pytest.raises(ValueError):
        warp_cost([0] * 32, 8, "atomic", SM90)
    with pytest.raises(ValueError):
        warp_cost([0] * 32, 4, "load", SM90, bank_mode=8)
    with pytest.raises(ValueError):
        warp_cost([0] * 32, 4, "load", FERMI, bank_mode=8)
    with pytest.raises(ValueError):
        warp_cost([0] * 32, 4, "load", KEPLER, bank_mode=2)


# ---------------------------------------------------------------------------------------------
# Kepler (sm_3x): CUDA C Programming Guide, compute capability 3.x, "Shared Memory".
# 32 banks, 64 bits wide. 64-bit mode: successive 64-bit words in successive banks; no conflict
# between sub-words of one 64-bit word. 32-bit mode: successive 32-bit words in successive
# banks; no conflict between words i and i+32 of one 64-word-aligned segment.
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [4, 8])
def test_kepler_guide_figure_strides_and_irregular(mode: int) -> None:
    # Strided 32-bit accesses, stride 1 and 2 words: conflict-free in both modes.
    assert kepler(lambda t: t, 4, mode) == (1, 1)
    assert kepler(lambda t: 2 * t, 4, mode) == (1, 1)
    # Random permutation; broadcast; lanes 3, 4, 6, 7, 9 on one word of bank 5.
    perm = random.Random(3).sample(range(32), 32)
    assert kepler(lambda t: perm[t], 4, mode) == (1, 1)
    assert kepler(lambda t: 7, 4, mode) == (1, 1)
    same = {3, 4, 6, 7, 9}
    assert kepler(lambda t: 5 if t in same else (t if t != 5 else 3), 4, mode) == (1, 1)
    # double s[lane]: conflict-free in both modes (64 words of one segment in 32-bit mode).
    assert kepler(lambda t: t, 8, mode) == (1, 1)


def test_kepler_32bit_mode_stride_3_words() -> None:
    # Figure of the 3.x section: stride of three 32-bit words, no bank conflict (32-bit mode).
    assert kepler(lambda t: 3 * t, 4, 4) == (1, 1)


def test_kepler_64bit_mode_stride_3_words_conflicts() -> None:
    # In 64-bit mode, lane 1 (bytes 12..15, 64-bit word 1) and lane 22 (bytes 264..267,
    # 64-bit word 33) are different 64-bit words of bank 1: 2-way by the guide's rule.
    c = warp_cost(addrs(lambda t: 3 * t, 4), 4, "load", KEPLER, 8)
    assert (c.wavefronts, c.ideal) == (2, 1)
    assert c.conflict is not None and c.conflict.bank == 1


def test_kepler_32bit_mode_segments() -> None:
    word = 4
    # Words i and i+32 of one 64-word-aligned segment share a pass ...
    assert warp_cost(only({0: 0 * word, 1: 32 * word}), 4, "load", KEPLER, 4).wavefronts == 1
    assert warp_cost(only({0: 64 * word, 1: 96 * word}), 4, "load", KEPLER, 4).wavefronts == 1
    # ... but not across segments, nor i and i+96.
    assert warp_cost(only({0: 32 * word, 1: 64 * word}), 4, "load", KEPLER, 4).wavefronts == 2
    assert warp_cost(only({0: 0 * word, 1: 96 * word}), 4, "load", KEPLER, 4).wavefronts == 2
    assert warp_cost(only({0: 0, 1: 64 * word}), 4, "load", KEPLER, 4).wavefronts == 2
    # In 64-bit mode words 0 and 32 are 64-bit words 0 and 16: different banks.
    assert warp_cost(only({0: 0, 1: 32 * word}), 4, "load", KEPLER, 8).wavefronts == 1


def test_kepler_64bit_mode_sub_words() -> None:
    # Bytes 0 and 4: two sub-words of one 64-bit word, no conflict; in 32-bit mode they are
    # words 0 and 1 of different banks.
    assert warp_cost(only({0: 0, 1: 4}), 4, "load", KEPLER, 8).wavefronts == 1
    # Bytes 0 and 256: 64-bit words 0 and 32, both bank 0: 2-way.
    assert warp_cost(only({0: 0, 1: 256}), 4, "load", KEPLER, 8).wavefronts == 2
    assert warp_cost(only({0: 0, 1: 256}), 8, "load", KEPLER, 8).wavefronts == 2
    # float s[l] in 64-bit mode: lanes 2k and 2k+1 share 64-bit word k.
    assert kepler(lambda t: t, 4, 8) == (1, 1)
    # Lanes 3, 4, 6, 7, 9 on different 32-bit halves of 64-bit word 5 (bytes 40 and 44).
    odd_lanes = {3: 40, 4: 44, 6: 40, 7: 44, 9: 44}
    assert warp_cost(only(odd_lanes), 4, "load", KEPLER, 8).wavefronts == 1


def test_kepler_wide_accesses() -> None:
    # float2 s[l] covers words 0..63, one segment: conflict-free in both modes.
    assert kepler(lambda t: t, 8, 4) == (1, 1)
    # float2 s[l + 16] covers words 32..95, across two segments: word 32+b (segment 0)
    # and 64+b (segment 1) in bank b, 2-way in 32-bit mode; 64-bit words 16..47 in 64-bit mode.
    assert kepler(lambda t: t + 16, 8, 4) == (2, 1)
    assert kepler(lambda t: t + 16, 8, 8) == (1, 1)
    # double s[2l]: 64-bit words 2l, l and l+16 collide in 64-bit mode; in 32-bit mode
    # words 0, 32 (segment 0) and 64, 96 (segment 1) in bank 0.
    assert kepler(lambda t: 2 * t, 8, 8) == (2, 1)
    assert kepler(lambda t: 2 * t, 8, 4) == (2, 1)
    # double s[3l]: 64-bit words 3l hit 32 distinct banks; in 32-bit mode words 0 and 96.
    assert kepler(lambda t: 3 * t, 8, 8) == (1, 1)
    assert kepler(lambda t: 3 * t, 8, 4) == (2, 1)
    # 16 bytes: two half-warp phases.
    assert kepler(lambda t: t, 16, 4) == (2, 2)
    assert kepler(lambda t: t, 16, 8) == (2, 2)
    assert kepler(lambda t: t, 16, 8, mask=0xFFFF) == (1, 1)
    assert kepler(lambda t: 2 * t, 16, 8) == (4, 2)
    assert kepler(lambda t: 2 * t, 16, 4) == (4, 2)


def test_kepler_conflict_detail_names_256_byte_rows() -> None:
    # float s[2l + 2] in 32-bit mode: bank 0 holds word 32 (row 0, lane 15) and word 64
    # (row 1, lane 31).
    c = warp_cost(addrs(lambda t: 2 * t + 2, 4), 4, "load", KEPLER, 4)
    assert c == Cost(2, 1, BankConflict(bank=0, words=(0, 1), lanes=((15,), (31,))))


def test_kepler_4_byte_mode_shift_changes_the_count() -> None:
    # A uniform shift by 2 words (8 bytes): float s[2l] -> s[2l + 2] moves word 64 into the
    # next 64-word segment.
    assert kepler(lambda t: 2 * t, 4, 4) == (1, 1)
    assert kepler(lambda t: 2 * t + 2, 4, 4) == (2, 1)
    # float2 s[l] -> s[l + 16]: a shift of 128 bytes.
    assert kepler(lambda t: t, 8, 4) == (1, 1)
    assert kepler(lambda t: t + 16, 8, 4) == (2, 1)


def test_kepler_8_byte_mode_shift_by_half_a_bank_changes_the_count() -> None:
    # The shift invariance of 8-byte mode holds for multiples of 8 bytes only: words 0 and
    # 63 are 64-bit words 0 and 31 (banks 0 and 31); shifted by 4 bytes they are words 1 and
    # 64, i.e. 64-bit words 0 and 32, both bank 0.
    assert warp_cost(only({0: 0, 1: 63 * 4}), 4, "load", KEPLER, 8).wavefronts == 1
    assert warp_cost(only({0: 4, 1: 64 * 4}), 4, "load", KEPLER, 8).wavefronts == 2


# ---------------------------------------------------------------------------------------------
# Fermi (sm_2x): CUDA C Programming Guide, compute capability 2.x, "Shared Memory".
# ---------------------------------------------------------------------------------------------


def test_fermi_32_bit_and_smaller() -> None:
    assert fermi(lambda t: t, 4) == (1, 1)
    assert fermi(lambda t: 2 * t, 4) == (2, 1)  # stride of two 32-bit words: 2-way
    assert fermi(lambda t: 3 * t, 4) == (1, 1)  # stride of three: conflict-free
    assert fermi(lambda t: 0, 4) == (1, 1)  # broadcast
    assert fermi(lambda t: t, 1) == (1, 1)  # char shared[32]; shared[tid]
    assert fermi(lambda t: 32 * t, 4) == (32, 1)
    perm = random.Random(5).sample(range(32), 32)
    assert fermi(lambda t: perm[t], 4) == (1, 1)


def test_fermi_64_bit_in_half_warps() -> None:
    # "a bank conflict only occurs if two threads in either of the half-warps access
    # different addresses belonging to the same bank": double shared[tid] is conflict-free.
    assert fermi(lambda t: t, 8) == (2, 2)
    assert fermi(lambda t: t, 8, "store") == (2, 2)
    assert fermi(lambda t: 0, 8) == (2, 2)
    assert fermi(lambda t: t // 2, 8) == (2, 2)  # no quad exception on Fermi
    assert fermi(lambda t: t, 8, mask=0xFFFF) == (1, 1)
    # double s[2l]: in each half-warp lanes l and l+8 touch words 4l and 4l+32.
    assert fermi(lambda t: 2 * t, 8) == (4, 2)


def test_fermi_128_bit_plus_one_rule() -> None:
    # "The majority of 128-bit accesses will cause 2-way bank conflicts, even if no two
    # threads in a quarter-warp access different addresses belonging to the same bank":
    # ways = 1 + the largest number of distinct addresses one bank serves in a quarter.
    c = warp_cost(addrs(lambda t: t, 16), 16, "load", FERMI)
    assert (c.wavefronts, c.ideal, c.ways, c.conflict) == (8, 4, 2.0, None)
    # float4 s[2l]: in each quarter lanes l and l+4 touch words 8l and 8l+32: 1 + 2 = 3-way.
    c = warp_cost(addrs(lambda t: 2 * t, 16), 16, "load", FERMI)
    assert (c.wavefronts, c.ideal, c.ways) == (12, 4, 3.0)
    assert c.conflict == BankConflict(bank=0, words=(0, 32), lanes=((0,), (4,)))
    # One quarter-warp active.
    assert fermi(lambda t: t, 16, mask=0xFF) == (2, 1)
    assert fermi(lambda t: t, 16, mask=0) == (0, 0)
    # The worst quarter sets the ways of the whole request: quarter 0 is 3-way, the others
    # conflict-free, still 3 x 4 wavefronts.
    mixed = [8 * t * 4 if t < 8 else (t + 100) * 16 for t in range(32)]
    assert warp_cost(mixed, 16, "load", FERMI) == Cost(
        12, 4, BankConflict(bank=0, words=(0, 32), lanes=((0,), (4,)))
    )
    # float4 s[8l]: all 8 lanes of a quarter on banks 0..3.
    assert fermi(lambda t: 8 * t, 16) == (36, 4)


# ---------------------------------------------------------------------------------------------
# Property tests
# ---------------------------------------------------------------------------------------------

WIDTHS = (1, 2, 4, 8, 16)
ARCH_MODES: list[tuple[Arch, int]] = [(SM90, 4), (FERMI, 4), (KEPLER, 4), (KEPLER, 8)]
#: The most phases an access of each width can take, per family.
MAX_PHASES = {
    "maxwell+": {1: 1, 2: 1, 4: 1, 8: 2, 16: 4},
    "fermi": {1: 1, 2: 1, 4: 1, 8: 2, 16: 4},
    "kepler": {1: 1, 2: 1, 4: 1, 8: 1, 16: 2},
}


@st.composite
def patterns(
    draw: st.DrawFn, width: int | None = None, max_width: int = 16
) -> tuple[Addresses, int]:
    """Random width-aligned addresses: small ranges (collisions, multicast) and large ones."""
    w = width if width is not None else draw(st.sampled_from([x for x in WIDTHS if x <= max_width]))
    span = draw(st.sampled_from([4, 32, 64, 256, 4096]))
    index = draw(st.lists(st.integers(0, span), min_size=32, max_size=32))
    mask = draw(st.one_of(st.just(FULL), st.integers(0, FULL)))
    return [e * w if mask >> lane & 1 else None for lane, e in enumerate(index)], w


kinds_for = st.sampled_from(["load", "store"])


@settings(max_examples=300)
@given(p=patterns(), kind=kinds_for, am=st.sampled_from(ARCH_MODES))
def test_cost_bounds(p: tuple[Addresses, int], kind: AccessKind, am: tuple[Arch, int]) -> None:
    a, width = p
    arch, mode = am
    c = warp_cost(a, width, kind, arch, mode)
    assert c.wavefronts >= c.ideal >= 0
    assert c.ideal <= MAX_PHASES[arch.family][width]
    if any(x is not None for x in a):
        assert c.ideal >= 1
    else:
        assert (c.wavefronts, c.ideal) == (0, 0)
    if not (arch.family == "fermi" and width == 16):  # Fermi's +1: 2-way without a busiest bank
        assert (c.conflict is None) == (c.wavefronts == c.ideal)
    if c.conflict is not None:
        assert len(c.conflict.words) == len(c.conflict.lanes) >= 2
        assert all(lanes for lanes in c.conflict.lanes)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", ["load", "store"])
@pytest.mark.parametrize("am", ARCH_MODES, ids=lambda am: f"{am[0].name}-{am[1]}")
def test_all_inactive_is_zero(width: int, kind: AccessKind, am: tuple[Arch, int]) -> None:
    assert warp_cost([None] * 32, width, kind, am[0], am[1]) == Cost(0, 0)


#: Shifts that keep the count: multiples of the bank width (and of the access width).
SHIFT_INVARIANT: list[tuple[Arch, int]] = [(SM90, 4), (FERMI, 4), (KEPLER, 8)]


@settings(max_examples=300)
@given(
    p=patterns(),
    kind=kinds_for,
    am=st.sampled_from(SHIFT_INVARIANT),
    steps=st.integers(-(2**16), 2**16),
)
def test_uniform_bank_aligned_shift_keeps_the_count(
    p: tuple[Addresses, int], kind: AccessKind, am: tuple[Arch, int], steps: int
) -> None:
    a, width = p
    arch, mode = am
    shift = steps * max(width, mode)
    assume(all(x is None or x + shift >= 0 for x in a))
    shifted = [None if x is None else x + shift for x in a]
    before = warp_cost(a, width, kind, arch, mode)
    after = warp_cost(shifted, width, kind, arch, mode)
    assert (after.wavefronts, after.ideal) == (before.wavefronts, before.ideal)


@settings(max_examples=200)
@given(p=patterns(), kind=kinds_for, steps=st.integers(-64, 64))
def test_kepler_4_byte_mode_shift_by_whole_rows_keeps_the_count(
    p: tuple[Addresses, int], kind: AccessKind, steps: int
) -> None:
    # In 4-byte mode only whole 256-byte rows (64 words) are a period (proof.period).
    a, width = p
    shift = 256 * steps
    assume(all(x is None or x + shift >= 0 for x in a))
    shifted = [None if x is None else x + shift for x in a]
    before = warp_cost(a, width, kind, KEPLER, 4)
    after = warp_cost(shifted, width, kind, KEPLER, 4)
    assert (after.wavefronts, after.ideal) == (before.wavefronts, before.ideal)


@settings(max_examples=300)
@given(
    p=patterns(max_width=4), kind=st.sampled_from(["load", "store", "atomic"]), seed=st.integers()
)
def test_permuting_lanes_keeps_a_small_access_cost_sm90(
    p: tuple[Addresses, int], kind: AccessKind, seed: int
) -> None:
    a, width = p
    permuted = list(a)
    random.Random(seed).shuffle(permuted)
    before = warp_cost(a, width, kind, SM90)
    after = warp_cost(permuted, width, kind, SM90)
    assert (after.wavefronts, after.ideal) == (before.wavefronts, before.ideal)
    if before.conflict is not None:
        assert after.conflict is not None
        assert (after.conflict.bank, after.conflict.words) == (
            before.conflict.bank,
            before.conflict.words,
        )


@settings(max_examples=200)
@given(p=patterns(width=8), seed=st.integers())
def test_permuting_lanes_within_half_warps_keeps_an_8_byte_store_cost_sm90(
    p: tuple[Addresses, int], seed: int
) -> None:
    a, width = p
    rng = random.Random(seed)
    lo, hi = a[:16], a[16:]
    rng.shuffle(lo)
    rng.shuffle(hi)
    before = warp_cost(a, width, "store", SM90)
    after = warp_cost(lo + hi, width, "store", SM90)
    assert (after.wavefronts, after.ideal) == (before.wavefronts, before.ideal)


@settings(max_examples=300)
@given(
    p=patterns(max_width=4),
    kind=st.sampled_from(["load", "store"]),
    am=st.sampled_from(ARCH_MODES),
    data=st.data(),
)
def test_adding_a_lane_on_a_touched_word_keeps_the_cost(
    p: tuple[Addresses, int], kind: AccessKind, am: tuple[Arch, int], data: st.DataObject
) -> None:
    a, width = p
    arch, mode = am
    active = [lane for lane in range(32) if a[lane] is not None]
    inactive = [lane for lane in range(32) if a[lane] is None]
    assume(active and inactive)
    donor = a[data.draw(st.sampled_from(active))]
    assert donor is not None
    word = donor // 4
    new_lane = data.draw(st.sampled_from(inactive))
    grown = list(a)
    grown[new_lane] = 4 * word + data.draw(st.sampled_from(range(0, 4, width)))
    before = warp_cost(a, width, kind, arch, mode)
    after = warp_cost(grown, width, kind, arch, mode)
    assert (after.wavefronts, after.ideal) == (before.wavefronts, before.ideal)


@settings(max_examples=300)
@given(p=patterns(), kind=kinds_for)
def test_adding_a_lane_never_decreases_the_cost_sm90(
    p: tuple[Addresses, int], kind: AccessKind
) -> None:
    # Monotonicity where the phase split cannot change: <= 4 bytes and stores.
    a, width = p
    assume(width <= 4 or kind == "store")
    inactive = [lane for lane in range(32) if a[lane] is None]
    assume(inactive)
    grown = list(a)
    grown[inactive[0]] = 0
    assert (
        warp_cost(grown, width, kind, SM90).wavefronts >= warp_cost(a, width, kind, SM90).wavefronts
    )


@settings(max_examples=300)
@given(p=patterns(width=8) | patterns(width=16))
def test_wide_loads_never_cost_more_than_stores_sm90(p: tuple[Addresses, int]) -> None:
    a, width = p
    load = warp_cost(a, width, "load", SM90)
    store = warp_cost(a, width, "store", SM90)
    assert load.wavefronts <= store.wavefronts
    assert load.ideal <= store.ideal


@settings(max_examples=300)
@given(p=patterns())
def test_kepler_32_bit_mode_no_worse_than_fermi(p: tuple[Addresses, int]) -> None:
    # Guide, 3.x 32-bit mode: "the same access pattern generates as many or fewer bank
    # conflicts than on devices of compute capability 2.x".
    a, width = p
    assert (
        warp_cost(a, width, "load", KEPLER, 4).wavefronts
        <= warp_cost(a, width, "load", FERMI).wavefronts
    )


@settings(max_examples=300)
@given(p=patterns(width=8) | patterns(width=16))
def test_kepler_64_bit_mode_no_worse_than_fermi_for_wide_accesses(p: tuple[Addresses, int]) -> None:
    # Guide, 3.x 64-bit mode: "fewer bank conflicts than on devices of compute capability
    # 2.x for 64-bit accesses". (Its "as many or fewer for 32-bit accesses" does not hold
    # for the rule it states: see test_kepler_64bit_mode_stride_3_words_conflicts.)
    a, width = p
    assert (
        warp_cost(a, width, "load", KEPLER, 8).wavefronts
        <= warp_cost(a, width, "load", FERMI).wavefronts
    )


def test_kepler_64_bit_mode_can_be_worse_than_fermi_for_32_bit_accesses() -> None:
    assert kepler(lambda t: 3 * t, 4, 8) == (2, 1)
    assert fermi(lambda t: 3 * t, 4) == (1, 1)


# An independent re-implementation of hw/README.md's table, as the oracle for sm_90.


def _readme_rule(a: Sequence[int | None], width: int, kind: str) -> tuple[int, int]:
    def cost(lanes: range) -> int:
        words_by_bank: dict[int, set[int]] = defaultdict(set)
        for lane in lanes:
            x = a[lane]
            if x is not None:
                for word in range(x // 4, (x + width - 1) // 4 + 1):
                    words_by_bank[word % 32].add(word)
        return max((len(w) for w in words_by_bank.values()), default=0)

    def quads_share() -> bool:
        return all(
            len({x // width for x in a[q : q + 4] if x is not None}) <= 2 for q in range(0, 32, 4)
        )

    if width <= 4:
        n = 1
    elif width == 8:
        n = 1 if kind == "load" and quads_share() else 2
    else:
        n = 2 if kind == "load" and quads_share() else 4
    size = 32 // n
    phases = [range(k * size, (k + 1) * size) for k in range(n)]
    phases = [p for p in phases if any(a[lane] is not None for lane in p)]
    return sum(cost(p) for p in phases), len(phases)


@settings(max_examples=500)
@given(p=patterns(), kind=kinds_for)
def test_sm90_matches_the_readme_table(p: tuple[Addresses, int], kind: AccessKind) -> None:
    a, width = p
    c = warp_cost(a, width, kind, SM90)
    assert (c.wavefronts, c.ideal) == _readme_rule(a, width, kind)
