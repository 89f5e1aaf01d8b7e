"""The VS Code extension in editors/vscode (issue 16, item 7).

The manifest checks need nothing. The others run in a copy of the extension's sources
(so that node_modules, out/ and the .vsix never land in the checkout), after ``npm ci``
(the npm registry: marked ``network``) and ``npm run compile`` (type-check, then the
esbuild bundle): the bundle, the launch code's choice of command, a session in which the
extension's own launch code (src/launch.ts, bundled into out/test/drive.js with the test
driver) starts ``cudalint lsp`` as the language client does, opens a document with two
32-way conflicts, takes the diagnostics, asks for fix-all and suppress-on-this-line and
applies their edits; src/extension.ts itself under stand-ins for ``vscode`` and the
language client (out/test/activate.js): the client it builds, restarts on settings
changes, the fix-all command, the message when the server cannot start; and ``npx
@vscode/vsce package`` with nothing to answer prompts. No VS Code is downloaded (none
can be here).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
SOURCES = (
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "esbuild.mjs",
    ".vscodeignore",
    "LICENSE",
    "README.md",
    "CHANGELOG.md",
    "src",
    "test",
)
MANIFEST: dict[str, Any] = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
LAUNCH = (EXTENSION / "src" / "launch.ts").read_text(encoding="utf-8")

# Column reads of a[32][32] and b[32][32] by lanes threadIdx.x = 0..31: words 32*i, all
# in bank 0: a 32-way conflict each. Padded to [32][33] (words 33*i: banks i): none.
KERNEL = """\
__global__ void two(float *out, const float *in) {
    __shared__ float a[32][32];
    __shared__ float b[32][32];
    a[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    b[threadIdx.y][threadIdx.x] = in[threadIdx.x * 32 + threadIdx.y];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.x][threadIdx.y] + b[threadIdx.x][threadIdx.y];
}

void launch(float *out, const float *in) {
    two<<<1, dim3(32, 32)>>>(out, in);
}
"""


# --- the manifest, without npm -------------------------------------------------------------


def test_manifest_bundles_and_packages() -> None:
    assert MANIFEST["main"] == "./out/extension.js"
    scripts = MANIFEST["scripts"]
    assert "esbuild.mjs --production" in scripts["vscode:prepublish"]
    assert scripts["compile"] == "npm run typecheck && npm run bundle"
    assert scripts["typecheck"].startswith("tsc") and "--noEmit" in scripts["typecheck"]
    assert scripts["package"] == "vsce package"
    assert "private" not in MANIFEST  # vsce refuses private packages
    assert "vscode-languageclient" in MANIFEST["dependencies"]
    for tool in ("esbuild", "@vscode/vsce", "typescript"):
        assert tool in MANIFEST["devDependencies"]
    lock = json.loads((EXTENSION / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"][""]["dependencies"] == MANIFEST["dependencies"]
    assert lock["packages"][""]["devDependencies"] == MANIFEST["devDependencies"]


def test_manifest_repository_and_license() -> None:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert MANIFEST["license"] == project["license"]["text"]
    assert (EXTENSION / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    repository = MANIFEST["repository"]
    assert repository["type"] == "git" and repository["url"].endswith("cudalint.git")
    assert repository["directory"] == "editors/vscode"


def test_vscodeignore_keeps_sources_and_modules_out() -> None:
    rules = {
        line
        for line in (EXTENSION / ".vscodeignore").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert {"src/**", "test/**", "out/test/**", "node_modules/**", "out/**/*.map"} <= rules
    ignored = (EXTENSION / ".gitignore").read_text().split()
    assert {"node_modules/", "out/", "*.vsix"} <= set(ignored)


def test_settings_and_restart() -> None:
    properties = MANIFEST["contributes"]["configuration"]["properties"]
    assert set(properties) == {
        "cudalint.path",
        "cudalint.interpreter",
        "cudalint.args",
        "cudalint.trace.server",
    }
    assert properties["cudalint.trace.server"]["enum"] == ["off", "messages", "verbose"]
    assert "-m cudalint lsp" in properties["cudalint.interpreter"]["markdownDescription"]
    # every setting but the trace (which the client applies itself) restarts the server
    block = re.search(r"RESTART_SETTINGS[^=]*=\s*\[(.*?)\]", LAUNCH, re.S)
    assert block is not None
    restart = set(re.findall(r'"([^"]+)"', block.group(1)))
    assert restart == set(properties) - {"cudalint.trace.server"}
    # the client's id is the settings section, so that it reads cudalint.trace.server
    assert 'SECTION = "cudalint"' in LAUNCH
    assert "new LanguageClient(SECTION," in (EXTENSION / "src" / "extension.ts").read_text()


def test_code_action_kinds_are_the_servers() -> None:
    pytest.importorskip("lsprotocol")
    from cudalint.lsp.server import FIX_ALL

    assert f'FIX_ALL = "{FIX_ALL}"' in LAUNCH
    contributed = [a["kind"] for c in MANIFEST["contributes"]["codeActions"] for a in c["actions"]]
    assert contributed == [FIX_ALL, "quickfix"]
    commands = {c["command"] for c in MANIFEST["contributes"]["commands"]}
    assert {"cudalint.restart", "cudalint.fixAll"} <= commands


def test_launch_module_runs_without_vscode() -> None:
    """The module the tests drive imports node's modules only; extension.ts, the only
    one that imports vscode, takes everything that starts the server from it."""
    imports = re.findall(r'^import .* from "([^"]+)";', LAUNCH, re.M)
    assert imports and all(m.startswith("node:") for m in imports), imports
    extension = (EXTENSION / "src" / "extension.ts").read_text(encoding="utf-8")
    assert "serverCommand(" in extension and '"./launch"' in extension
    assert "child_process" not in extension  # the client spawns what serverCommand built


# --- built with npm --------------------------------------------------------------------------


def _run(argv: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm is not installed")
    work = tmp_path_factory.mktemp("vscode") / "cudalint"
    work.mkdir()
    for name in SOURCES:
        source = EXTENSION / name
        if source.is_dir():
            shutil.copytree(source, work / name)
        else:
            shutil.copy(source, work / name)
    for step in (["ci", "--no-audit", "--no-fund"], ["run", "compile"]):
        proc = _run([npm, *step], work)
        assert proc.returncode == 0, f"npm {' '.join(step)}:\n{proc.stdout}\n{proc.stderr}"
    return work


def _drive(built: Path, mode: str, **payload: Any) -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None
    script = "activate.js" if mode == "activate" else "drive.js"
    proc = _run(
        [node, str(built / "out" / "test" / script), mode, json.dumps(payload)], built, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    return result


@pytest.mark.network
@pytest.mark.slow
def test_bundle_is_main_with_the_client_inside(built: Path) -> None:
    bundle = (built / "out" / "extension.js").read_text(encoding="utf-8")
    assert 'require("vscode")' in bundle  # provided by VS Code
    assert 'require("vscode-languageclient' not in bundle  # bundled, not a node_module
    assert "LanguageClient" in bundle and "source.fixAll.cudalint" in bundle
    assert re.search(r"activate:\s*\(\)\s*=>|activate:", bundle)
    assert (built / "out" / "extension.js").resolve() == (built / MANIFEST["main"]).resolve()


@pytest.mark.network
@pytest.mark.slow
def test_launch_chooses_the_command(built: Path) -> None:
    folder = "/work/project"
    venv = f"{folder}/.venv/bin/cudalint"

    def server(config: dict[str, Any], **host: Any) -> dict[str, Any]:
        result = _drive(built, "command", config=config, folder=folder, **host)
        return dict(result["server"])

    got = server(
        {
            "interpreter": "${workspaceFolder}/.venv/bin/python",
            "args": ["-p", "build"],
            "path": "/opt/cudalint",
        },
        existing=[venv],
    )
    assert (got["command"], got["args"], got["origin"]) == (
        f"{folder}/.venv/bin/python",
        ["-m", "cudalint", "lsp", "-p", "build"],
        "cudalint.interpreter",
    )
    assert got["options"]["cwd"] == folder
    got = server({"path": "tools/cudalint"}, existing=[venv])
    assert (got["command"], got["args"]) == (f"{folder}/tools/cudalint", ["lsp"])
    got = server({"path": "~/bin/cudalint", "args": "not a list"}, home="/home/u")
    assert (got["command"], got["args"]) == ("/home/u/bin/cudalint", ["lsp"])
    got = server({"interpreter": "${env:PY}"}, env={"PY": "/usr/bin/python3"})
    assert got["command"] == "/usr/bin/python3"
    got = server({}, existing=[venv])
    assert (got["command"], got["origin"]) == (venv, "workspace virtual environment")
    got = server({"interpreter": "  ", "path": 3})  # blank or mistyped: the default
    assert (got["command"], got["args"], got["origin"]) == ("cudalint", ["lsp"], "PATH")
    got = server(
        {}, platform="win32", existing=[f"{folder}/venv/Scripts/cudalint.exe".replace("/", "\\")]
    )
    assert got["origin"] == "workspace virtual environment"
    result = _drive(built, "command", config={}, folder=folder)
    assert result["restartOnTrace"] is False


@pytest.mark.network
@pytest.mark.slow
def test_extension_activates_restarts_and_reports(built: Path) -> None:
    """src/extension.ts under stand-ins for vscode and the language client
    (test/activate.ts): what it starts, when it restarts, what it says."""
    result = _drive(built, "activate")

    def clients(step: str) -> list[tuple[str, str, list[str]]]:
        return [(c["state"], c["run"]["command"], c["run"]["args"]) for c in result[step]]

    (first,) = result["activated"]
    assert first["id"] == "cudalint"  # reads cudalint.trace.server
    assert first["debugSame"] and first["run"]["cwd"] == "/work/project"
    assert first["documentSelector"][0] == {"scheme": "file", "language": "cuda-cpp"}
    tail = ["lsp", "--debounce-ms", "50"]
    assert clients("activated") == [("running", "cudalint", tail)]
    assert result["commands"] == ["cudalint.restart", "cudalint.fixAll", "cudalint.showOutput"]
    # cudalint.interpreter changed: the old server stopped, a new one started with it
    assert clients("interpreterChanged") == [
        ("stopped", "cudalint", tail),
        ("running", "/work/project/.venv/bin/python", ["-m", "cudalint", *tail]),
    ]
    # cudalint.trace.server (the client applies it) and other sections: no restart
    assert clients("traceChanged") == clients("interpreterChanged")
    assert result["otherChanged"] == 2
    assert result["fixAll"] == [
        ["editor.action.sourceAction", {"kind": "source.fixAll.cudalint", "apply": "first"}]
    ]
    # a server that cannot start: disposed, and the user told what to install and set
    assert clients("failed")[-1] == ("disposed", "/nowhere/cudalint", tail)
    (error,) = result["errors"]
    assert "spawn /nowhere/cudalint ENOENT" in error and "pip install '.[lsp]'" in error
    assert "cudalint.interpreter" in error
    # a later settings change starts one again; deactivate stops it
    assert clients("deactivated")[-1] == ("stopped", "cudalint", tail)
    assert [c[0] for c in clients("deactivated")].count("running") == 0


def _session(built: Path, folder: Path, config: dict[str, Any]) -> dict[str, Any]:
    source = folder / "two.cu"
    source.write_text(KERNEL, encoding="utf-8")
    return _drive(built, "session", config=config, folder=str(folder), file=str(source))


@pytest.mark.network
@pytest.mark.slow
def test_client_drives_cudalint_lsp(built: Path, tmp_path: Path) -> None:
    result = _session(built, tmp_path, {"interpreter": sys.executable})
    assert result["server"]["args"] == ["-m", "cudalint", "lsp"]
    assert result["capabilities"]["codeActionProvider"]["codeActionKinds"] == [
        "quickfix",
        "source.fixAll.cudalint",
    ]
    diagnostics = result["diagnostics"]
    assert [(d["code"], d["range"]["start"]["line"]) for d in diagnostics] == [
        ("CL001", 6),
        ("CL001", 6),
    ]
    assert diagnostics[0]["message"].startswith("32-way bank conflict on load of 'a'")
    assert result["fixAll"] == [
        {"title": "cudalint: fix all (2 safe fixes)", "kind": "source.fixAll.cudalint"}
    ]
    assert result["fixed"] == KERNEL.replace("[32][32];", "[32][33];")
    assert result["afterFixAll"] == []
    titles = [a["title"] for a in result["quick"] if a["kind"] == "quickfix"]
    assert titles == [
        "pad the last dimension: a[32][33] (+128 bytes per block)",
        "Suppress CL001 on this line",
    ]
    line = result["suppressed"].split("\n")[6]
    assert line.endswith("+ b[threadIdx.x][threadIdx.y];  // cudalint: ignore[CL001]")
    assert result["afterSuppress"] == []
    assert result["exitCode"] == 0 and "Traceback" not in result["stderr"]


@pytest.mark.network
@pytest.mark.slow
def test_client_finds_the_workspace_venv(built: Path, tmp_path: Path) -> None:
    """No settings: the cudalint of the workspace's .venv starts."""
    exe = Path(sys.executable).parent / "cudalint"
    if not exe.exists():
        pytest.skip("no cudalint executable beside this Python")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "cudalint").symlink_to(exe)
    result = _session(built, tmp_path, {})
    assert result["server"]["origin"] == "workspace virtual environment"
    assert [d["code"] for d in result["diagnostics"]] == ["CL001", "CL001"]


@pytest.mark.network
@pytest.mark.slow
def test_vsce_packages_without_prompts(built: Path) -> None:
    """Nothing to answer: vsce asks "Do you want to continue?" after each of its
    warnings (a missing repository or LICENSE, '*' activation) in a terminal, and
    answers yes itself without one, so no warning may be printed."""
    npx = shutil.which("npx")
    assert npx is not None
    env_ci = {**os.environ, "CI": "1"}
    proc = subprocess.run(
        [npx, "@vscode/vsce", "package"],
        cwd=built,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
        env=env_ci,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    (vsix,) = built.glob("*.vsix")
    assert vsix.name == f"cudalint-{MANIFEST['version']}.vsix"
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
    assert {
        "extension/package.json",
        "extension/out/extension.js",
        "extension/LICENSE.txt",
        "extension/readme.md",
    } <= names
    assert not [
        n
        for n in names
        if "node_modules" in n or n.endswith((".ts", ".map")) or "/src/" in n or "/test/" in n
    ], sorted(names)
    assert manifest["main"] == "./out/extension.js"
