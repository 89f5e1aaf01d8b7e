"""A ``__device__`` helper's access is reported once per kernel that calls it; where two
such findings would print the same line (the same array name in both kernels), the text,
concise and GitHub formats name the kernel of each; lines that differ anyway are left
alone. JSON and SARIF keep the ``kernel`` field as before."""

from __future__ import annotations

import json
import pathlib

import pytest
from factories import run_cli

_SOURCE = """\
__device__ void put(float *s, int i) { s[i * 2] = 1.0f; }
__global__ void first(float *out) {
    __shared__ float tile[64];
    put(tile, threadIdx.x);
    out[threadIdx.x] = tile[threadIdx.x];
}
__global__ void second(float *out) {
    __shared__ float tile[64];
    put(tile, threadIdx.x);
    out[threadIdx.x] = tile[threadIdx.x] * 2.0f;
}
int main() { first<<<1, 32>>>(nullptr); second<<<1, 32>>>(nullptr); }
"""


@pytest.mark.parametrize("fmt", ["concise", "text", "github"])
def test_each_kernel_is_named_where_lines_would_repeat(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    src = tmp_path / "helper.cu"
    src.write_text(_SOURCE)
    code, out, _ = run_cli(capsys, "--format", fmt, "--color", "never", str(src), isolated=True)
    assert code == 1
    assert "(in kernel first)" in out and "(in kernel second)" in out


def test_a_single_kernel_is_not_tagged(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "one.cu"
    one = _SOURCE[: _SOURCE.index("__global__ void second")]
    src.write_text(one + "int main() { first<<<1, 32>>>(nullptr); }\n")
    _, out, _ = run_cli(capsys, "--format", "concise", str(src), isolated=True)
    assert "CL001" in out and "(in kernel" not in out


def test_json_keeps_one_record_per_kernel(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "helper.cu"
    src.write_text(_SOURCE)
    _, out, _ = run_cli(capsys, "--format", "json", str(src), isolated=True)
    diags = json.loads(out)["diagnostics"]
    assert sorted(d["kernel"] for d in diags) == ["first", "second"]
    assert all("(in kernel" not in d["message"] for d in diags)


def test_different_lines_are_not_tagged(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "named.cu"
    src.write_text(
        _SOURCE.replace(
            "float tile[64];\n    put(tile", "float other[64];\n    put(other", 1
        ).replace("= tile[threadIdx.x];", "= other[threadIdx.x];", 1)
    )
    _, out, _ = run_cli(capsys, "--format", "concise", str(src), isolated=True)
    assert "'other'" in out and "'tile'" in out and "(in kernel" not in out
