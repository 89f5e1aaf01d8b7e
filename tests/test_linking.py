"""Kernels launched from another file of their folder (cudalint.linking).

The fixture ``fixtures/headers/launch_other_file`` checks the linked numbers; these check
what is *not* linked: a launch in another folder, a template kernel, and a file analysed on
its own (the language server, one file on the command line).
"""

from __future__ import annotations

from pathlib import Path

from cudalint.api import check_paths
from cudalint.options import Options

# Block (16, 16): tile[tx][ty] -> bank ty in {2w, 2w+1}, 16 distinct words: 16/1.
# Assumed (a warp is tx = 0..31 of one row): bank ty, 32 distinct words: 32/1.
KERNEL = """\
extern "C" __global__ void cols(float *out) {
    __shared__ float tile[32][32];
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
"""
MAIN = """\
extern "C" __global__ void cols(float *out);
int main() { cols<<<1, dim3(16, 16)>>>(nullptr); return 0; }
"""


def _records(paths: list[Path]) -> list[tuple[str, int | None, str]]:
    reports = check_paths([str(p) for p in paths], Options())
    return [
        (Path(r.access.span.file).name, r.wavefronts, r.block_dim_source)
        for rep in reports
        for r in rep.results
    ]


def test_same_folder_links(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "main.cu").write_text(MAIN)
    assert _records([tmp_path]) == [("k.cu", 16, "launch")]


def test_other_folder_does_not_link(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "k.cu").write_text(KERNEL)
    (tmp_path / "b" / "main.cu").write_text(MAIN)
    assert _records([tmp_path]) == [("k.cu", 32, "assumed")]


def test_file_alone_keeps_assumed_shape(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "main.cu").write_text(MAIN)
    assert _records([tmp_path / "k.cu"]) == [("k.cu", 32, "assumed")]


def test_template_kernel_declaration_is_not_linked(tmp_path: Path) -> None:
    # A declared template records no launch: the defining file labels its own
    # instantiations, which a declaration elsewhere cannot be matched to.
    (tmp_path / "k.cu").write_text(
        "template <int N> __global__ void cols(float *out) {\n"
        "    __shared__ float tile[32][32];\n"
        "    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
        "}\n"
    )
    (tmp_path / "main.cu").write_text(
        "template <int N> __global__ void cols(float *out);\n"
        "int main() { cols<1><<<1, dim3(16, 16)>>>(nullptr); return 0; }\n"
    )
    assert _records([tmp_path]) == [("k.cu", 32, "assumed")]
