"""Hostile input: every file gets a clear diagnostic or a clean result, the right exit
status, and never a traceback, a crash or a hang; the other files of the run are still
analyzed. Fixtures are generated in ``tmp_path``.

Exit status contract (README "Exit status"): 2 when a path could not be read or
analyzed (unreadable, not a regular file, binary, out of time), 1 when a warning is
reported, 0 otherwise. A file clang parses only in part is information (CL004), not a
failure.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from pathlib import Path

import pytest
from factories import run_cli

from cudalint.api import FileTask, check_file, run_tasks
from cudalint.cli import main
from cudalint.options import Options

#: A kernel with one 2-way conflict (line 4) and one clean access (line 5).
KERNEL = (
    "__global__ void k(float *o, int n) {\n"
    "  __shared__ float s[1024];\n"
    "  s[threadIdx.x] = 0.0f;\n"
    "  o[0] = s[threadIdx.x * 2];\n"
    "  o[1] = s[threadIdx.x];\n"
    "}\n"
)
CONFLICT_AT = "k.cu:4:10: warning: 2-way bank conflict"


run = functools.partial(run_cli, isolated=True)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code, out, _ = run(capsys, "--format", "json", "--show-all", "--select", "ALL", *argv)
    return code, json.loads(out)


def kernel(body: str) -> str:
    return f"__global__ void k(float *o, int n) {{\n  __shared__ float s[1024];\n{body}\n}}\n"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("good.cu").write_text(KERNEL.replace("k(", "good("), encoding="utf-8")


def good_still_analyzed(out: str) -> bool:
    return "good.cu:4:10: warning: 2-way bank conflict" in out


# --- text encodings and damaged files ---------------------------------------------------


def test_empty_file_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_bytes(b"")
    code, out, _ = run(capsys, "k.cu")
    assert code == 0
    assert out == "1 file, 0 accesses: 0 proved, 0 worst-case, 0 unknown; 0 conflicts\n"


def test_binary_garbage_is_an_error_and_the_rest_is_analyzed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    Path("k.cu").write_bytes(bytes(range(256)) * 16)  # NUL bytes: an object file, an image
    code, out, err = run(capsys, "k.cu", "good.cu")
    assert code == 2
    assert err == "cudalint: error: k.cu: not a source file (it contains NUL bytes)\n"
    assert good_still_analyzed(out)


def test_garbage_without_nul_bytes_is_a_partial_parse(capsys: pytest.CaptureFixture[str]) -> None:
    import random

    rng = random.Random(7)
    Path("k.cu").write_bytes(bytes(rng.randrange(1, 256) for _ in range(4096)))
    code, out, _ = run(capsys, "k.cu", "good.cu")
    assert code == 1  # good.cu's warning; k.cu is information only
    assert "[CL004]" in out and good_still_analyzed(out)


def test_non_utf8_bytes_in_comments_strings_and_the_access_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    src = KERNEL.replace(
        "  o[0] = s[threadIdx.x * 2];",
        "  o[0] = s[threadIdx.x * 2]; /* caf\xe9 \xff\xfe */",
    ).replace("__global__", '// \xe9t\xe9\nconst char *m = "\xff";\n__global__')
    Path("k.cu").write_bytes(src.encode("latin-1"))
    code, out, _ = run(capsys, "k.cu")
    assert code == 1
    assert "k.cu:6:10: warning: 2-way bank conflict" in out
    assert "\ufffd" in out  # the excerpt shows the bad bytes as replacement characters


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_gives_the_same_positions(capsys: pytest.CaptureFixture[str], newline: str) -> None:
    Path("k.cu").write_bytes(KERNEL.replace("\n", newline).encode())
    code, out, _ = run(capsys, "k.cu")
    assert code == 1 and CONFLICT_AT in out
    assert "\r" not in out.split("\n", 2)[1]  # the excerpt line carries no CR


def test_utf8_bom_gives_the_same_positions(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_bytes(b"\xef\xbb\xbf" + KERNEL.encode())
    code, out, _ = run(capsys, "k.cu")
    assert code == 1 and CONFLICT_AT in out


def test_utf16_is_reported_not_misread(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_bytes(KERNEL.encode("utf-16"))
    code, _, err = run(capsys, "k.cu")
    assert code == 2 and "k.cu: not a source file" in err


def test_every_truncation_of_a_kernel_gets_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    data = KERNEL.encode()
    for cut in range(0, len(data), 7):
        Path("k.cu").write_bytes(data[:cut])
        code, out, _ = run(capsys, "k.cu")
        assert code in (0, 1), (cut, out)
        assert out.endswith("conflicts\n") or out.endswith("conflict\n"), (cut, out)


@pytest.mark.parametrize(
    "body",
    [
        "  { { s[threadIdx.x * 32] = 1.0f;",  # unbalanced braces
        "  } } } s[threadIdx.x * 32] = 1.0f;",
        "#define M(x) (x\n  s[threadIdx.x * 32] = M(1);",  # unbalanced macro
        "#if 1\n  s[threadIdx.x * 32] = 1.0f;",  # unterminated #if
        "#define F(a, b) a + b\n  s[F(threadIdx.x)] = 1.0f;",  # wrong macro arity
        "  s[threadIdx.x * 32 = 1.0f;",
        '  const char *q = "unterminated;\n  s[threadIdx.x * 32] = 1.0f;',
    ],
)
def test_unbalanced_source_is_a_partial_parse(
    capsys: pytest.CaptureFixture[str], body: str
) -> None:
    Path("k.cu").write_text(kernel(body), encoding="utf-8")
    code, out, _ = run(capsys, "k.cu", "good.cu")
    assert code == 1  # from good.cu only: a partial parse is information
    assert "k.cu:" in out and "[CL004]" in out and good_still_analyzed(out)


# --- size and depth ---------------------------------------------------------------------------


def test_fifty_thousand_lines(capsys: pytest.CaptureFixture[str]) -> None:
    lines = [f"static const int table_{i} = {i} * 3 + 1;  // entry {i}" for i in range(50_000)]
    Path("k.cu").write_text("\n".join(lines) + "\n" + KERNEL, encoding="utf-8")
    start = time.monotonic()
    code, out, _ = run(capsys, "k.cu")
    assert code == 1 and "k.cu:50004:10: warning: 2-way bank conflict" in out
    assert time.monotonic() - start < 60


DEEP = 10_000


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("parentheses", "  o[0] = s[" + "(" * DEEP + "threadIdx.x" + ")" * DEEP + "];"),
        ("braces", "  " + "{" * DEEP + "o[0] = s[threadIdx.x];" + "}" * DEEP),
        ("unary minus", "  o[0] = s[" + "- " * DEEP + "(int)threadIdx.x & 1023];"),
        ("sum", "  o[0] = s[(threadIdx.x" + " + 1" * DEEP + ") & 1023];"),
        ("ternaries", "  o[0] = s[" + "n ? 1 : " * (DEEP // 4) + "threadIdx.x];"),
        ("nested ifs", "  " + "if (n) " * (DEEP // 4) + "o[0] = s[threadIdx.x];"),
    ],
)
def test_deeply_nested_source(capsys: pytest.CaptureFixture[str], name: str, body: str) -> None:
    # Each of these used to overflow the C stack (libclang's parser recurses once per
    # level) and kill the process with SIGSEGV.
    Path("k.cu").write_text(kernel(body), encoding="utf-8")
    code, out, err = run(capsys, "k.cu", "good.cu")
    assert good_still_analyzed(out), (name, out, err)
    if name in ("parentheses", "braces"):
        assert code == 1 and "bracket nesting level exceeded maximum of 256" in out
    else:
        assert code == 1 and "could not be analyzed" not in out, (name, out, err)


@pytest.mark.parametrize(
    ("depth", "status", "wavefronts"), [(60, "proved", 1), (250, "unknown", None)]
)
def test_deep_index_expression(
    capsys: pytest.CaptureFixture[str], depth: int, status: str, wavefronts: int | None
) -> None:
    # Nested operations (under clang's bracket limit). 60 levels, an IR about 180 deep,
    # go through the algebra and the evaluator: tid * 3^60 + c is an odd multiple of tid
    # modulo 2^32, so clean. 250 levels pass the frontend's depth limit (200): the index
    # is an unknown value that may differ between lanes, never a proof (it once read as a
    # uniform value, and so "proved" by luck).
    index = "threadIdx.x"
    for _ in range(depth):
        index = f"({index} * 3 + 1)"
    Path("k.cu").write_text(
        kernel(f"  o[0] = s[{index} & 1023];\n  o[1] = s[threadIdx.x * 2];"), encoding="utf-8"
    )
    code, doc = run_json(capsys, "k.cu", "--max-unknown", "100")
    assert code == 1
    by_line = {a["line"]: a for a in doc["accesses"]}  # type: ignore[union-attr,index]
    assert (by_line[3]["status"], by_line[3]["wavefronts"]) == (status, wavefronts)
    if status == "unknown":
        assert "nested more than 200 levels" in by_line[3]["reason"]
    assert (by_line[4]["status"], by_line[4]["wavefronts"]) == ("proved", 2)


def test_include_cycle(capsys: pytest.CaptureFixture[str]) -> None:
    Path("a.cuh").write_text('#include "b.cuh"\n', encoding="utf-8")
    Path("b.cuh").write_text('#include "a.cuh"\n', encoding="utf-8")
    Path("k.cu").write_text('#include "a.cuh"\n' + KERNEL, encoding="utf-8")
    code, out, _ = run(capsys, "k.cu")
    assert code == 1 and "#include nested too deeply" in out
    assert "k.cu:5:10: warning: 2-way bank conflict" in out


def test_a_self_including_header_analyzed_on_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cuh").write_text('#include "k.cuh"\n' + KERNEL, encoding="utf-8")
    code, out, _ = run(capsys, "k.cuh")
    assert code == 1 and "[CL004]" in out


# --- values ----------------------------------------------------------------------------------


def test_absurd_array_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(
        "__global__ void k(float *o) {\n"
        "  __shared__ float s[1 << 30];\n"
        "  __shared__ char c[0x7fffffff];\n"
        "  o[0] = s[threadIdx.x * 32] + c[threadIdx.x];\n"
        "}\n"
        "__global__ void too_big(float *o) {\n"
        "  __shared__ float t[1ull << 62];\n"
        "  o[0] = t[threadIdx.x];\n"
        "}\n"
        "__global__ void negative(float *o) {\n"
        "  __shared__ float u[-4];\n"
        "  o[0] = u[threadIdx.x];\n"
        "}\n",
        encoding="utf-8",
    )
    code, doc = run_json(capsys, "k.cu")
    assert code == 1 and doc["errors"] == []
    (conflict,) = [d for d in doc["diagnostics"] if d["code"] == "CL001"]  # type: ignore[union-attr,index]
    assert conflict["line"] == 4 and conflict["wavefronts"] == 32
    assert any(d["code"] == "CL004" for d in doc["diagnostics"])  # type: ignore[union-attr,index]


def test_negative_and_overflowing_indices(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(
        kernel(
            "  o[0] = s[-1 - (int)threadIdx.x];\n"
            "  o[1] = s[threadIdx.x * 0x7fffffff];\n"
            "  o[2] = s[(int)threadIdx.x * 2147483647 * 4];\n"
            "  o[3] = s[threadIdx.x - 4294967295u];\n"
            "  o[4] = s[(long long)threadIdx.x * 9223372036854775807LL];\n"
            "  o[5] = s[threadIdx.x + 18446744073709551615ull];"
        ),
        encoding="utf-8",
    )
    code, doc = run_json(capsys, "k.cu")
    assert code in (0, 1) and doc["errors"] == []
    records = doc["accesses"]
    assert len(records) == 6  # type: ignore[arg-type]
    for a in records:  # type: ignore[union-attr]
        assert a["status"] in ("proved", "worst-case", "unknown")
        if a["status"] != "unknown":
            assert a["wavefronts"] >= a["ideal_wavefronts"] >= 1


def test_division_by_zero_in_an_index_is_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(
        kernel(
            "  o[0] = s[threadIdx.x / 0];\n"
            "  o[1] = s[threadIdx.x % (n - n)];\n"
            "  o[2] = s[threadIdx.x / (threadIdx.x - threadIdx.x)];\n"
            "  o[3] = s[1 << 40];\n"
            "  o[4] = s[threadIdx.x >> -1];\n"
            "  o[5] = s[threadIdx.x * 2];"
        ),
        encoding="utf-8",
    )
    code, doc = run_json(capsys, "k.cu")
    # most accesses unknown: more than --max-unknown allows (50%), an error (exit 2)
    assert code == 2 and doc["errors"] == []
    assert doc["summary"]["too_many_unknown"] is True  # type: ignore[index,call-overload]
    by_line = {a["line"]: a for a in doc["accesses"]}  # type: ignore[union-attr,index]
    for line in (3, 4, 5, 7):
        assert by_line[line]["status"] == "unknown", by_line[line]
        assert by_line[line]["reason"], by_line[line]
    assert by_line[8]["wavefronts"] == 2


# --- paths -----------------------------------------------------------------------------------


def test_a_directory_named_like_a_source_is_searched(capsys: pytest.CaptureFixture[str]) -> None:
    os.mkdir("dir.cu")
    Path("dir.cu", "inner.cu").write_text(KERNEL, encoding="utf-8")
    code, out, _ = run(capsys, "dir.cu")
    assert code == 1 and os.path.join("dir.cu", "inner.cu") + ":4:10: warning" in out
    code, out, _ = run(capsys, ".")
    assert code == 1 and os.path.join("dir.cu", "inner.cu") + ":4:10: warning" in out


def test_an_empty_directory_named_like_a_source(capsys: pytest.CaptureFixture[str]) -> None:
    os.mkdir("k.cu")
    code, out, _ = run(capsys, "k.cu", "good.cu")
    assert code == 1 and good_still_analyzed(out) and out.endswith("1 conflict\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file kinds")
@pytest.mark.parametrize(
    ("make", "why"),
    [
        (
            lambda: os.symlink("loop2.cu", "k.cu") or os.symlink("k.cu", "loop2.cu"),
            "Too many levels of symbolic links",
        ),
        (lambda: os.symlink("nowhere.cu", "k.cu"), "No such file or directory"),
        (lambda: os.mkfifo("k.cu"), "a FIFO, not a regular file"),  # would block a plain open()
        # /dev/zero would never end
        (lambda: os.symlink("/dev/zero", "k.cu"), "a device, not a regular file"),
    ],
    ids=["symlink loop", "dangling symlink", "fifo", "device"],
)
def test_unreadable_paths_exit_2_and_the_rest_is_analyzed(
    capsys: pytest.CaptureFixture[str], make: object, why: str
) -> None:
    make()  # type: ignore[operator]
    code, out, err = run(capsys, "k.cu", "good.cu")
    assert code == 2
    assert err == f"cudalint: error: k.cu: cannot read file: {why}\n"
    assert good_still_analyzed(out)


def test_a_path_through_a_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "good.cu/k.cu", "x" * 300 + ".cu", "good.cu")
    assert code == 2 and good_still_analyzed(out)
    assert "good.cu/k.cu: cannot read file: Not a directory" in err
    assert "cannot read file: File name too long" in err


@pytest.mark.skipif(
    sys.platform == "win32" or (hasattr(os, "geteuid") and os.geteuid() == 0),
    reason="root reads files whatever their mode (the other unreadable paths above "
    "cover exit 2 as root)",
)
def test_a_file_without_read_permission_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(KERNEL, encoding="utf-8")
    os.chmod("k.cu", 0)
    try:
        code, out, err = run(capsys, "k.cu", "good.cu")
    finally:
        os.chmod("k.cu", 0o644)
    assert code == 2 and "k.cu: cannot read file: Permission denied" in err
    assert good_still_analyzed(out)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symlinks")
def test_symlink_loops_in_a_tree_end(capsys: pytest.CaptureFixture[str]) -> None:
    os.makedirs("tree/sub")
    Path("tree/sub/k.cu").write_text(KERNEL, encoding="utf-8")
    os.symlink("..", "tree/sub/up")  # a directory loop: not followed
    os.symlink("loop.cu", "tree/loop.cu")  # a file that links to itself
    code, out, err = run(capsys, "tree")
    assert code == 2
    assert os.path.join("tree", "sub", "k.cu") + ":4:10: warning" in out
    assert "tree/loop.cu: cannot read file: Too many levels of symbolic links" in err


# --- time budget -------------------------------------------------------------------------------


def many_kernels(count: int) -> str:
    return "".join(
        f"__global__ void k{i}(float *o) {{ __shared__ float s{i}[64]; "
        f"o[0] = s{i}[threadIdx.x * {i % 7 + 1} % 64]; }}\n"
        for i in range(count)
    )


def test_timeout_reports_the_file_not_analyzed_and_goes_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    Path("k.cu").write_text(many_kernels(3000), encoding="utf-8")
    start = time.monotonic()
    code, out, err = run(capsys, "--timeout", "0.5", "k.cu", "good.cu")
    assert time.monotonic() - start < 20
    assert code == 2 and good_still_analyzed(out)
    assert "cudalint: error: k.cu: analysis stopped after 0.5 s of CPU time (--timeout)" in err


def test_timeout_keeps_what_was_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    import cudalint.model.proof as proof

    real = proof.prove

    def slow(*args: object, **kwargs: object) -> object:
        end = time.thread_time() + 0.05  # the budget counts CPU time: spend some
        while time.thread_time() < end:
            pass
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(proof, "prove", slow)
    Path("k.cu").write_text(many_kernels(40), encoding="utf-8")
    report = check_file("k.cu", Options(timeout=0.6))
    assert report.error is not None and "analysis stopped after 0.6 s of CPU time" in report.error
    assert "shared accesses were not analyzed (reported as unknown)" in report.error
    done = [
        r
        for r in report.results
        if r.reason != "not analyzed: the file's time budget ran out (see --timeout)"
    ]
    missed = [r for r in report.results if r not in done]
    assert done and missed and len(report.results) == 40
    assert all(r.status == "unknown" and r.wavefronts is None for r in missed)
    assert report.unit is not None and report.diagnostics is not None


def test_hard_backstop_interrupts_code_that_never_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    import cudalint.budget as budget
    import cudalint.checker as checker
    import cudalint.model.analyze as analyze

    monkeypatch.setattr(budget, "HARD_GRACE", 0.5)

    def forever(*args: object) -> object:
        while True:
            pass

    # where the per-file pipeline finds it (imported at its import or on first use)
    monkeypatch.setattr(analyze, "analyze", forever)
    monkeypatch.setattr(checker, "analyze", forever, raising=False)
    start = time.monotonic()
    report = check_file("good.cu", Options(timeout=0.2))
    assert time.monotonic() - start < 5
    assert report.error == (
        "analysis stopped after 0.2 s of CPU time (--timeout); the file was not analyzed"
    )


def test_timeout_with_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(many_kernels(3000), encoding="utf-8")
    tasks = [FileTask(p, Options(timeout=0.5)) for p in ("good.cu", "k.cu", "good.cu")]
    reports = run_tasks(tasks, jobs=2)
    assert [r.error is None for r in reports] == [True, False, True]
    assert reports[1].error is not None
    assert "analysis stopped after 0.5 s of CPU time" in reports[1].error


def test_timeout_zero_is_no_limit_and_bad_values_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "--timeout", "0", "good.cu")[0] == 1
    for bad in ("-1", "soon", "nan", "inf"):
        code, _, err = run(capsys, "--timeout", bad, "good.cu")
        assert code == 2 and "invalid --timeout" in err
    Path("cudalint.toml").write_text("timeout = -3\n", encoding="utf-8")
    code, _, err = main(["good.cu"]), *capsys.readouterr()
    assert code == 2 and "invalid value for 'timeout'" in err


def test_timeout_from_the_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    Path("k.cu").write_text(many_kernels(3000), encoding="utf-8")
    Path("cudalint.toml").write_text("timeout = 0.5\n", encoding="utf-8")
    code = main(["k.cu"])
    _, err = capsys.readouterr()
    assert code == 2 and "analysis stopped after 0.5 s of CPU time" in err


# --- determinism -------------------------------------------------------------------------------


def test_hostile_tree_gives_the_same_bytes_with_any_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    os.mkdir("t")
    Path("t/a.cu").write_text(KERNEL, encoding="utf-8")
    Path("t/b.cu").write_bytes(b"\0\1\2")
    Path("t/c.cu").write_text(kernel("  { s[threadIdx.x * 4] = 1;"), encoding="utf-8")
    Path("t/d.cu").write_bytes(KERNEL.replace("\n", "\r\n").encode())
    Path("t/e.cu").write_text(kernel("  o[0] = s[threadIdx.x / 0];"), encoding="utf-8")
    os.symlink("missing.cu", "t/f.cu")
    outputs = set()
    for jobs in ("1", "2", "4"):
        for fmt in ("text", "json", "sarif"):
            code, out, err = run(capsys, "-j", jobs, "--format", fmt, "--show-all", "t")
            outputs.add((fmt, code, out, err))
    assert len(outputs) == 3


def test_conflict_on_a_shared_scalar_has_no_fix_and_no_crash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Found in cuda-samples (eigenvalues/bisect_kernel_large_onei.cuh): planning a layout
    # fix for a scalar indexed an empty list ("internal error ... IndexError").
    Path("k.cu").write_text(
        "__global__ void k(float *o) {\n"
        "  __shared__ unsigned int flag;\n"
        "  atomicExch(&flag, 1);\n"
        "  o[0] = flag;\n"
        "}\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "k.cu")
    assert code == 1 and "k.cu:3:15: warning:" in out and "could not be analyzed" not in out


# --- --fix keeps what it does not change ------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symlinks")
def test_fix_writes_through_a_symlink_and_keeps_it() -> None:
    from cudalint.fsutil import write_file

    Path("real.cu").write_bytes(b"old\r\n")
    os.chmod("real.cu", 0o640)
    os.symlink("real.cu", "link.cu")
    write_file("link.cu", b"new\r\n", expected=b"old\r\n")
    assert os.path.islink("link.cu") and Path("real.cu").read_bytes() == b"new\r\n"
    assert os.stat("real.cu").st_mode & 0o777 == 0o640
    assert sorted(os.listdir(".")) == ["good.cu", "link.cu", "real.cu"]  # no temp file left


def test_fix_on_a_crlf_file_keeps_crlf(capsys: pytest.CaptureFixture[str]) -> None:
    src = (
        "#define TILE 32\r\n"
        "__global__ void t(float *o, const float *in) {\r\n"
        "  __shared__ float tile[TILE][TILE];\r\n"
        "  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];\r\n"
        "  __syncthreads();\r\n"
        "  o[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\r\n"
        "}\r\n"
        "void run(float *o, const float *in) { t<<<1, dim3(32, 32)>>>(o, in); }\r\n"
    )
    Path("k.cu").write_bytes(src.encode())
    code, _, err = run(capsys, "--fix", "k.cu")
    fixed = Path("k.cu").read_bytes()
    assert code == 0, err
    assert b"tile[TILE][TILE + 1]" in fixed
    assert fixed.count(b"\r\n") == src.count("\r\n") and b"\n" not in fixed.replace(b"\r\n", b"")


def test_timeout_while_fixes_are_rechecked_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every access is analysed in time, but the budget runs out while a fix is
    re-checked (the re-check then rejects it): the report says so instead of silently
    offering fewer fixes (issue 17, item 7)."""
    import cudalint.fixes.recheck as recheck

    real = recheck.analyze

    def slow(*args: object, **kwargs: object) -> object:
        # the budget counts CPU time: spend what is left of it (0.5 s at most), then let
        # the re-check's own analysis find it gone (it reports those accesses "not
        # analyzed", and the fix planner rejects the candidate)
        if not burnt:
            burnt.append(True)
            end = time.thread_time() + 0.5
            while time.thread_time() < end:
                pass
        return real(*args, **kwargs)  # type: ignore[arg-type]

    burnt: list[bool] = []
    monkeypatch.setattr(recheck, "analyze", slow)
    Path("k.cu").write_text(
        "__global__ void k(float *o) {\n"
        "  __shared__ float t[32][32];\n"
        "  t[threadIdx.x][0] = 1.0f;\n"  # 32-way: padding to [32][33] is the fix
        "  o[threadIdx.x] = t[0][threadIdx.x];\n"
        "}\n",
        encoding="utf-8",
    )
    report = check_file("k.cu", Options(timeout=0.5))
    assert report.error is not None
    assert "while re-checking fixes" in report.error
    assert all(
        r.reason != "not analyzed: the file's time budget ran out (see --timeout)"
        for r in report.results
    )


def test_no_memory_for_the_analysis_thread_is_a_clear_file_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker whose address space is used up cannot start the file's analysis thread
    ("can't start new thread"): that is an out-of-memory error for the file, not an
    internal error to report, and the process knows to retire (bench/faults.py found it
    after an exponential macro in a capped -j worker)."""
    import threading

    import cudalint.budget as budget

    def no_thread(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(budget, "_start_failed", False)
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    Path("k.cu").write_text(KERNEL, encoding="utf-8")
    report = check_file("k.cu", Options())
    assert report.error == "k.cu: out of memory while analyzing the file"
    assert budget.thread_start_failed()
