"""Issue 17 items 3 and 9: writes where they should not go, wrong combinations, edge cases.

Item 3: ``--fix``/``--add-ignores`` replaced read-only files, changed owners, dropped
xattrs, split hard links and followed symlinks out of the tree; ``--baseline`` and
``--bank-map-svg`` wrote through dangling or planted links; a file reached through a
link was analysed twice. Item 9: ``--diff --add-ignores`` wrote; ``--fix --add-ignores``
skipped the fixes; a suppression went into a ``/* ...`` comment (a new copy every run);
CR-only files ignored suppressions; ``--diff`` printed U+FFFD for non-UTF-8 bytes; a
``-x.cu`` broke a pre-commit batch; a missing baseline under pre-commit recorded one
batch; terminal escapes in file names reached the terminal; a 5 MB line printed 5 MB;
libclang's crash dumps (~2.5 KB each) reached stderr.

Every case runs the real pipeline on the padding fixture (one 32-way conflict, CL001 at
16:32, a safe pad fix) or a small kernel; the expectations are the fixture's
hand-derived finding, never cudalint's output copied.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from factories import run_cli

from cudalint.cli import main
from cudalint.diagnostics import Diagnostic
from cudalint.fsutil import WriteError, write_file
from cudalint.output.text import render_diagnostic
from cudalint.suppressions import add_ignore_edits, apply_edits, find_suppressions

ROOT = Path(__file__).resolve().parent.parent
TRANSPOSE = (ROOT / "fixtures" / "fixes" / "pad_transpose.cu").read_bytes()
PADDED = TRANSPOSE.replace(b"tile[TILE][TILE];", b"tile[TILE][TILE + 1];")
#: The conflicting load of the fixture (16:32), and the text of its line.
FINDING = "16:32: warning: 32-way bank conflict"
LOAD = b"        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files and links")


@pytest.fixture()
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "k.cu").write_bytes(TRANSPOSE)
    monkeypatch.chdir(tree)
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    return tree


run = functools.partial(run_cli, isolated=True, strict=True)


# --- item 3: writes where they should not go -----------------------------------------------


def test_fix_refuses_a_read_only_file_and_exits_2(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = work / "k.cu"
    target.chmod(0o444)  # a read-only checkout (refused for root as well)
    code, _, err = run(capsys, "--fix", "k.cu")
    assert code == 2
    assert "k.cu is read-only; not written" in err
    assert target.read_bytes() == TRANSPOSE
    assert oct(target.stat().st_mode & 0o777) == oct(0o444)
    code, _, err = run(capsys, "--add-ignores", "k.cu")
    assert code == 2 and "read-only" in err and target.read_bytes() == TRANSPOSE


def test_a_hard_linked_file_is_not_split(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.link(work / "k.cu", work / "other.cu")
    code, _, err = run(capsys, "--fix", "k.cu")
    assert code == 2 and "has 2 hard links" in err
    assert (work / "k.cu").stat().st_ino == (work / "other.cu").stat().st_ino
    assert (work / "other.cu").read_bytes() == TRANSPOSE


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="giving a file to another owner needs root",
)
def test_the_replacement_keeps_owner_group_and_xattrs(tmp_path: Path) -> None:
    target = tmp_path / "k.cu"
    target.write_bytes(TRANSPOSE)
    os.chown(target, 12345, 23456)
    try:
        os.setxattr(target, "user.origin", b"checkout")
    except OSError:  # a file system without user xattrs (tmpfs on older kernels)
        has_xattr = False
    else:
        has_xattr = True
    write_file(str(target), PADDED, expected=TRANSPOSE)
    st = target.stat()
    assert (st.st_uid, st.st_gid) == (12345, 23456)
    assert target.read_bytes() == PADDED
    if has_xattr:
        assert os.getxattr(target, "user.origin") == b"checkout"


def test_fix_writes_through_a_link_inside_the_tree_but_not_outside(
    tmp_path: Path, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "victim.cu").write_bytes(TRANSPOSE)
    (work / "planted.cu").symlink_to(outside / "victim.cu")
    code, _, err = run(capsys, "--fix", "planted.cu")
    assert code == 2
    assert "planted.cu is a symbolic link to" in err and "outside the tree" in err
    assert (outside / "victim.cu").read_bytes() == TRANSPOSE
    # a link that stays inside the tree is written through: the file fixed, the link kept
    (work / "sub").mkdir()
    (work / "sub" / "alias.cu").symlink_to(work / "k.cu")
    code, _, err = run(capsys, "--fix", "sub/alias.cu")
    assert code == 0, err
    assert (work / "sub" / "alias.cu").is_symlink()
    assert (work / "k.cu").read_bytes() == PADDED


def test_baseline_never_writes_through_a_dangling_link(
    tmp_path: Path, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    planted = tmp_path / "planted.json"
    (work / "base.json").symlink_to(planted)  # dangling
    code, _, err = run(capsys, "--baseline", "base.json", "k.cu")
    assert code == 2 and "symbolic link" in err
    code, _, err = run(capsys, "--baseline", "base.json", "--update-baseline", "k.cu")
    assert code == 2 and "symbolic link" in err
    assert not planted.exists() and (work / "base.json").is_symlink()
    with pytest.raises(WriteError, match="symbolic link"):
        from cudalint.fsutil import ABSENT

        write_file(str(work / "base.json"), b"{}", expected=ABSENT)


def test_bank_map_svg_replaces_a_planted_link_instead_of_writing_through_it(
    tmp_path: Path, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(capsys, "--bank-map-svg", "maps", "k.cu")
    assert code == 1
    names = sorted(p.name for p in (work / "maps").iterdir())
    assert len(names) == 1 and names[0].endswith(".svg")
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    picture = work / "maps" / names[0]
    picture.unlink()
    picture.symlink_to(victim)
    code, _, _ = run(capsys, "--bank-map-svg", "maps", "k.cu")
    assert code == 1
    assert victim.read_bytes() == b"precious\n"
    assert not picture.is_symlink() and picture.read_bytes().lstrip().startswith(b"<")


def test_a_file_reached_through_a_link_is_analysed_once(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "alias.cu").symlink_to("k.cu")
    code, out, _ = run(capsys, "k.cu", "alias.cu")
    assert code == 1
    assert out.count("warning: 32-way") == 1 and f"k.cu:{FINDING}" in out
    assert "1 file," in out
    # a directory walk finds alias.cu first (sorted) but reports the file by its own name
    code, out, _ = run(capsys, ".")
    assert code == 1 and out.count("warning: 32-way") == 1 and f"\nk.cu:{FINDING}" in "\n" + out
    # --fix writes it once, with no false "changed since it was analyzed"
    code, _, err = run(capsys, "--fix", ".")
    assert code == 0 and "changed since" not in err, err
    assert (work / "k.cu").read_bytes() == PADDED and (work / "alias.cu").is_symlink()


# --- item 9: combinations --------------------------------------------------------------------


def test_diff_with_add_ignores_is_rejected_and_writes_nothing(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--diff", "--add-ignores", "k.cu")
    assert code == 2 and "--diff" in err and "--add-ignores" in err
    assert (work / "k.cu").read_bytes() == TRANSPOSE and out == ""


STRIDED = b"""
__global__ void strided(float *out) {
    __shared__ float s[1024];
    s[threadIdx.x * 32 % 1024] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

void launch2(float *out) { strided<<<1, 32>>>(out); }
"""


def test_fix_with_add_ignores_fixes_first_then_suppresses_the_rest(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The strided store (25:5): lane l writes word 32*l, all in bank 0: 32-way, no fix.
    (work / "k.cu").write_bytes(TRANSPOSE + STRIDED)
    code, _, err = run(capsys, "--fix", "--add-ignores", "k.cu")
    assert code == 0, err
    text = (work / "k.cu").read_bytes()
    assert b"tile[TILE][TILE + 1];" in text  # the fix
    assert b"s[threadIdx.x * 32 % 1024] = 1.0f;  // cudalint: ignore[CL001]" in text
    assert text.count(b"cudalint: ignore") == 1  # the fixed load needs none
    code, out, _ = run(capsys, "k.cu")
    assert code == 0 and "0 conflicts" in out


def test_a_line_ending_inside_a_block_comment_gets_its_suppression_above(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = TRANSPOSE.replace(LOAD + b"\n}", LOAD + b" /* the load\n   walks a column */\n}")
    (work / "k.cu").write_bytes(source)
    for _ in range(2):  # the second run has nothing left to add
        code, _, err = run(capsys, "--add-ignores", "k.cu")
        assert code == 0, err
    text = (work / "k.cu").read_bytes()
    assert text.count(b"cudalint: ignore") == 1
    assert b"        // cudalint: ignore[CL001]\n" + LOAD + b" /* the load\n" in text
    code, out, _ = run(capsys, "k.cu")
    assert code == 0 and "0 conflicts" in out
    # a line that starts inside a comment has no place for one: skipped, not corrupted
    src = b"int a; /* x\n y */ int b; /* z\n */\n"
    edits, skipped = add_ignore_edits(src, "f.cu", {2: {"CL001"}})
    assert edits == [] and skipped == [2]


def test_cr_only_line_endings_keep_suppressions_working(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cr = TRANSPOSE.replace(b"\n", b"\r")
    (work / "k.cu").write_bytes(cr)
    code, out, _ = run(capsys, "k.cu")
    assert code == 1 and f"k.cu:{FINDING}" in out  # clang counts a lone CR as a line
    assert LOAD.decode().strip() in out  # the excerpt is that line, not the whole file
    code, _, err = run(capsys, "--add-ignores", "k.cu")
    assert code == 0, err
    text = (work / "k.cu").read_bytes()
    assert b"\n" not in text and LOAD + b"  // cudalint: ignore[CL001]\r" in text
    code, out, _ = run(capsys, "k.cu")
    assert code == 0 and "0 conflicts" in out
    assert [s.target_line for s in find_suppressions(b"a;\r// cudalint: ignore\rb;\r")] == [3]
    assert apply_edits(b"a\rb\r\nc\n", []) == b"a\rb\r\nc\n"


def test_diff_of_a_file_that_is_not_utf8_applies_with_git(
    work: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    latin1 = TRANSPOSE.replace(b"#define ROWS 8", b"#define ROWS 8  // caf\xe9 (Latin-1)")
    (work / "k.cu").write_bytes(latin1)
    code = main(["--isolated", "--diff", "k.cu"])
    out, _ = capsysbinary.readouterr()
    assert code == 1
    assert b"\xef\xbf\xbd" not in out and b"caf\xe9" in out
    assert (work / "k.cu").read_bytes() == latin1
    git = shutil.which("git")
    if git is not None:
        (work / "k.diff").write_bytes(out)
        done = subprocess.run([git, "apply", "k.diff"], cwd=work, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
        assert (work / "k.cu").read_bytes() == PADDED.replace(
            b"#define ROWS 8", b"#define ROWS 8  // caf\xe9 (Latin-1)"
        )


def test_a_file_named_like_an_option_is_a_file(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "-x.cu").write_bytes(TRANSPOSE)
    code, out, err = run(capsys, "k.cu", "-x.cu")  # as pre-commit passes it
    assert code == 1, err
    assert f"./-x.cu:{FINDING}" in out and f"k.cu:{FINDING}" in out
    code, out, err = run(capsys, "k.cu", "--", "-x.cu")
    assert code == 1 and f"./-x.cu:{FINDING}" in out, err
    code, _, err = run(capsys, "k.cu", "-y.cu")  # no such file: still an unknown option
    assert code == 2 and "unrecognized arguments: -y.cu" in err


def test_a_missing_baseline_under_pre_commit_is_an_error(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRE_COMMIT", "1")
    code, _, err = run(capsys, "--baseline", "base.json", "k.cu")
    assert code == 2 and "pre-commit" in err and "record it once" in err
    assert not (work / "base.json").exists()
    code, _, err = run(capsys, "--baseline", "base.json", "--update-baseline", "k.cu")
    assert code == 2 and "pre-commit" in err and not (work / "base.json").exists()
    monkeypatch.delenv("PRE_COMMIT")
    code, _, _ = run(capsys, "--baseline", "base.json", "--update-baseline", "k.cu")
    assert code == 0 and (work / "base.json").exists()
    monkeypatch.setenv("PRE_COMMIT", "1")  # an existing one applies under pre-commit
    code, out, _ = run(capsys, "--baseline", "base.json", "k.cu")
    assert code == 0 and "0 conflicts" in out


# --- item 9: what reaches the terminal ---------------------------------------------------------


def test_terminal_escapes_in_file_names_and_sources_are_escaped(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "e\x1b]0;owned\x07\x1b[2J.cu"
    (work / name).write_bytes(
        TRANSPOSE.replace(LOAD, LOAD + b" // \x1b[31mred" + "\u202e".encode())
    )
    code, out, err = run(capsys, name, "missing\x1b[2J.cu")
    assert code == 2
    assert "\x1b" not in out + err and "\x07" not in out + err and "\u202e" not in out
    assert "e\\x1b]0;owned\\x07\\x1b[2J.cu:16:32: warning" in out
    assert "\\x1b[31mred\\u202e" in out
    assert "missing\\x1b[2J.cu" in err


def test_a_5_mb_line_prints_a_window_around_the_access(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = TRANSPOSE.replace(LOAD, LOAD + b" /*" + b"x" * 5_000_000 + b"*/")
    (work / "k.cu").write_bytes(long)
    code, out, _ = run(capsys, "k.cu")
    assert code == 1 and f"k.cu:{FINDING}" in out
    assert len(out) < 2000
    lines = out.splitlines()
    snippet, caret = lines[1], lines[2]
    assert snippet.endswith("…") and caret.index("^") == snippet.index("tile[threadIdx.x]")
    # a span far into the line: the window starts just before it, marked
    d = Diagnostic(
        code="CL001",
        name="x",
        severity="warning",
        message="m",
        file="f.cu",
        line=1,
        column=4_000_001,
        end_line=1,
        end_column=4_000_005,
    )
    rendered = render_diagnostic(d, b"y" * 4_000_000 + b"tile" + b"z" * 1_000_000, False)
    assert rendered[1].startswith("…") and rendered[1].endswith("…")
    assert rendered[2].index("^") == rendered[1].index("tile") and len(rendered[1]) <= 242


def test_a_libclang_crash_dump_is_one_short_line(
    work: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # clang's own debugging pragma crashes the parser; libclang's crash recovery turns it
    # into a parse error and writes ~2.5 KB (its command line, the file) to descriptor 2
    (work / "crash.cu").write_text("#pragma clang __debug crash\n__global__ void k() {}\n")
    code = main(["--isolated", "crash.cu", "k.cu"])
    out, err = capfd.readouterr()
    assert code == 2
    assert f"k.cu:{FINDING}" in out  # the other file is still analysed
    assert "crash.cu: libclang could not parse the file" in err
    assert "libclang crashed on it" in err
    assert "command_line_args" not in err and "unsaved_files" not in err
    assert len(err) < 400, err
