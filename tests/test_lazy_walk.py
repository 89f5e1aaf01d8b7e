"""The lazy walk (``walker.LAZY_HOSTS``, issue 15 goal 3): a host function is built and
scanned only when the walk needs it, and the unit is the one an eager walk gives."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

from cudalint.frontend import parse_file, walker
from cudalint.ir import TranslationUnit
from cudalint.options import Options

SOURCE = """
#define LAUNCH(k, n) k<<<1, n>>>(out)
__global__ void k1(float *out) { __shared__ float s[1024]; s[threadIdx.x * 2] = 1.0f; }
__global__ void k2(float *out) { __shared__ float s[1024]; s[threadIdx.x * 4] = 1.0f; }
__device__ float helper(float *p) { return p[threadIdx.x]; }
int parse_args(int argc, char **argv) {   // launches nothing, calls nothing that does
    int n = 0;
    for (int i = 1; i < argc; ++i) n += argv[i][0] == '-';
    return n;
}
void unrelated(void) { int x = 3; x *= 2; (void)x; }
int report(int flags) { int s = 0; for (int i = 0; i < flags; ++i) s += i; return s; }
void run1(float *out, int n) { k1<<<1, n>>>(out); }
void run2(float *out, int n) { LAUNCH(k2, n); }   // a launch through a macro
template <int N> void twice(float *out) { run1(out, N); run1(out, 2 * N); }
int main(int argc, char **argv) {
    float *out = 0;
    int flags = parse_args(argc, argv);
    twice<64>(out);
    run2(out, 128);
    return report(flags);
}
"""


def walked(
    tmp_path: pathlib.Path,
    src: str,
    lazy: bool,
    monkeypatch: pytest.MonkeyPatch,
    options: Options | None = None,
) -> tuple[TranslationUnit, set[str]]:
    """The unit and the names of the host functions whose bodies were built."""
    built: set[str] = set()
    real = walker._LazyBody._build

    def counted(self: Any) -> Any:
        built.add(str(self._owner.spelling))
        return real(self)

    monkeypatch.setattr(walker._LazyBody, "_build", counted)
    monkeypatch.setattr(walker, "LAZY_HOSTS", lazy)
    path = tmp_path / "t.cu"
    path.write_text(src)
    return parse_file(str(path), options or Options()), built


def test_the_lazy_walk_builds_only_the_host_functions_a_launch_reads(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lazy, built = walked(tmp_path, SOURCE, True, monkeypatch)
    eager, _ = walked(tmp_path, SOURCE, False, monkeypatch)
    assert lazy == eager
    assert {(x.kernel, x.block) for x in lazy.launches} == {
        ("k1", (64, 1, 1)),
        ("k1", (128, 1, 1)),
        ("k2", (128, 1, 1)),
    }
    # the launching functions, their callers (main, twice) and what main runs before
    # a launch (parse_args, for its value); not unrelated, nor report, called after
    # the last launch
    assert {"run1", "run2", "twice", "main", "parse_args"} <= built
    assert "unrelated" not in built and "report" not in built


def test_a_value_a_launch_reads_builds_its_host_function(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = SOURCE.replace("run2(out, 128);", "run2(out, block_of(argc));").replace(
        "void unrelated(void)",
        "int block_of(int argc) { return argc > 100 ? 64 : 32; }\nvoid unrelated(void)",
    )
    lazy, built = walked(tmp_path, src, True, monkeypatch)
    eager, _ = walked(tmp_path, src, False, monkeypatch)
    assert lazy == eager
    assert "block_of" in built and "unrelated" not in built and "report" not in built


@pytest.mark.parametrize(
    "change",
    [
        # a -D value that names something, a token-pasting macro, an #include in a body
        ("options", Options(defines=("RUN=run1",))),
        ("source", "#define CAT(a, b) a##b\n"),
        ("source", 'void from_file(void) {\n#include "nothing.h"\n}\n'),
    ],
)
def test_where_the_text_cannot_tell_every_host_function_is_followed(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, change: tuple[str, Any]
) -> None:
    (tmp_path / "nothing.h").write_text("")
    src = SOURCE + change[1] if change[0] == "source" else SOURCE
    options = change[1] if change[0] == "options" else None
    lazy, built = walked(tmp_path, src, True, monkeypatch, options)
    eager, _ = walked(tmp_path, src, False, monkeypatch, options)
    assert lazy == eager
    assert {"unrelated", "report"} <= built


def test_a_lazy_scan_that_fails_walks_again_eagerly(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = walker.Walker.scan_function
    walks: list[bool] = []

    def failing(self: Any, fn: Any) -> None:
        if fn.name == "run1" and self.lazy:
            raise RuntimeError("boom")
        real(self, fn)

    def counted_run(self: Any) -> Any:
        walks.append(self.lazy)
        return real_run(self)

    real_run = walker.Walker.run
    monkeypatch.setattr(walker.Walker, "scan_function", failing)
    monkeypatch.setattr(walker.Walker, "run", counted_run)
    lazy, _ = walked(tmp_path, SOURCE, True, monkeypatch)
    assert walks == [True, False]  # the lazy walk, then the eager one
    monkeypatch.setattr(walker.Walker, "scan_function", real)
    eager, _ = walked(tmp_path, SOURCE, False, monkeypatch)
    assert lazy == eager


def test_the_walk_pauses_the_collector_and_turns_it_back_on(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    seen: list[bool] = []
    real_run = walker.Walker.run

    def run(self: Any) -> Any:
        seen.append(gc.isenabled())
        return real_run(self)

    monkeypatch.setattr(walker.Walker, "run", run)
    assert gc.isenabled()
    walked(tmp_path, SOURCE, True, monkeypatch)
    assert seen == [False] and gc.isenabled()

    def failing(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(walker, "_walk", failing)
    with pytest.raises(RuntimeError):
        walker.walk_translation_unit(None, "t.cu", b"", [])  # type: ignore[arg-type]
    assert gc.isenabled()
    gc.disable()
    try:  # a caller that had it off keeps it off
        with pytest.raises(RuntimeError):
            walker.walk_translation_unit(None, "t.cu", b"", [])  # type: ignore[arg-type]
        assert not gc.isenabled()
    finally:
        gc.enable()
