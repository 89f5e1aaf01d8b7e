"""SARIF for GitHub code scanning: fingerprints, rule help URIs, category, repository-root URIs.

Runs the real pipeline (libclang) through the CLI on a small kernel in a temporary
repository (a directory holding ``.git``). The kernel, 1024 threads as 32 x 32:
``tile[threadIdx.x][...]`` with a row of 32 floats puts the 32 lanes of a warp
(threadIdx.x = 0..31) on words 0, 32, ..., 992, all in bank 0: a 32-way conflict on each
of the three accesses (the last two have the same source text).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_output_formats import validate_sarif

from cudalint.cli import main
from cudalint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """\
__global__ void __launch_bounds__(1024) columns(float *out) {
    __shared__ float tile[32][32];
    tile[threadIdx.x][threadIdx.y] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][0];
    out[threadIdx.y] = tile[threadIdx.x][0];
}
"""


def _repo(tmp_path: Path, source: str = KERNEL) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    (repo / "build" / "deep").mkdir(parents=True)
    (repo / "src" / "k.cu").write_text(source, encoding="utf-8")
    return repo


def _sarif(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["--isolated", "--format", "sarif", *args])
    out, err = capsys.readouterr()
    assert code == 1 and err == "", err
    document = json.loads(out)
    validate_sarif(document)
    return document


def _findings(document: dict[str, Any]) -> list[tuple[str, str, int, str]]:
    return [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["partialFingerprints"]["cudalintFingerprint/v1"],
        )
        for r in document["runs"][0]["results"]
    ]


def test_fingerprints_survive_lines_inserted_above(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)
    before = _findings(_sarif(capsys, "src/k.cu"))
    assert [(rule, uri, line) for rule, uri, line, _ in before] == [
        ("CL001", "src/k.cu", 3),
        ("CL001", "src/k.cu", 5),
        ("CL001", "src/k.cu", 6),
    ]
    prints = [fp for *_, fp in before]
    # distinct findings, even the two accesses with the same text (occurrence count)
    assert len(set(prints)) == 3 and all(re.fullmatch(r"[0-9a-f]{32}", p) for p in prints)

    (repo / "src" / "k.cu").write_text(
        "// a licence header\n#include <cstdio>\n\n" + KERNEL, encoding="utf-8"
    )
    after = _findings(_sarif(capsys, "src/k.cu"))
    assert [line for _, _, line, _ in after] == [6, 8, 9]
    assert [fp for *_, fp in after] == prints

    # the access text is part of the key: a changed access is a new finding
    (repo / "src" / "k.cu").write_text(
        KERNEL.replace("tile[threadIdx.x][threadIdx.y] =", "tile[threadIdx.x][threadIdx.z] ="),
        encoding="utf-8",
    )
    changed = _findings(_sarif(capsys, "src/k.cu"))
    assert changed[0][3] != prints[0] and [fp for *_, fp in changed[1:]] == prints[1:]


def test_uris_are_relative_to_the_repository_root_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)
    at_root = _sarif(capsys, "src/k.cu")
    monkeypatch.chdir(repo / "build" / "deep")
    from_subdir = _sarif(capsys, "../../src/k.cu")
    from_abs = _sarif(capsys, str(repo / "src" / "k.cu"))
    for document in (at_root, from_subdir, from_abs):
        run = document["runs"][0]
        assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": repo.as_uri() + "/"}}
        for result in run["results"]:
            location = result["locations"][0]["physicalLocation"]["artifactLocation"]
            assert location == {"uri": "src/k.cu", "uriBaseId": "%SRCROOT%"}
    assert _findings(from_subdir) == _findings(at_root) == _findings(from_abs)


def test_outside_a_repository_the_root_is_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "w" / "sub").mkdir(parents=True)
    (tmp_path / "w" / "sub" / "k.cu").write_text(KERNEL, encoding="utf-8")
    (tmp_path / "k.cu").write_text(KERNEL, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "w")
    run = _sarif(capsys, "sub/k.cu", "../k.cu")["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == (tmp_path / "w").as_uri() + "/"
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }
    # a file above the root cannot be named relative to it: an absolute file URI
    assert uris == {"sub/k.cu", (tmp_path / "k.cu").as_uri()}


def test_every_rule_has_a_help_uri_to_its_docs_anchor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cudalint.output import sarif

    monkeypatch.delenv("CUDALINT_DOCS_URL", raising=False)
    monkeypatch.delenv("CUDALINT_SARIF_CATEGORY", raising=False)
    # with no docs URL published, a source checkout points at its own docs/rules.md
    # (an installed package has none: then no helpUri, below)
    monkeypatch.setattr(sarif, "_LOCAL_RULES_DOC", ROOT / "docs" / "rules.md")
    monkeypatch.chdir(_repo(tmp_path))
    run = _sarif(capsys, "src/k.cu")["runs"][0]
    assert run["automationDetails"] == {"id": "cudalint/"}
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(RULES)
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in rules:
        uri, _, anchor = rule["helpUri"].partition("#")
        assert uri == (ROOT / "docs" / "rules.md").as_uri()
        # GitHub's anchor of the rule's heading in docs/rules.md
        heading = f"## {rule['id']} {rule['name']}"
        assert heading in doc.splitlines()
        assert anchor == heading[3:].lower().replace(" ", "-")

    monkeypatch.setattr(sarif, "_LOCAL_RULES_DOC", tmp_path / "no-docs" / "rules.md")
    rules = _sarif(capsys, "src/k.cu")["runs"][0]["tool"]["driver"]["rules"]
    assert rules and all("helpUri" not in r for r in rules)

    monkeypatch.setenv("CUDALINT_DOCS_URL", "https://example.org/cudalint/docs/")
    monkeypatch.setenv("CUDALINT_SARIF_CATEGORY", "cudalint/kernels/")
    run = _sarif(capsys, "src/k.cu")["runs"][0]
    assert run["automationDetails"] == {"id": "cudalint/kernels/"}
    assert run["tool"]["driver"]["rules"][0]["helpUri"] == (
        "https://example.org/cudalint/docs/rules.md#cl001-shared-bank-conflict"
    )


# --- the OASIS schema: the real output validates, and every required property counts --------

#: sha256 of tests/data/sarif/sarif-schema-2.1.0.json: byte for byte the OASIS SARIF 2.1.0
#: schema (errata 01) as published in oasis-tcs/sarif-spec, sarif-2.1/schema/. Pinned so
#: that the schema cannot be loosened to make an output pass.
OASIS_SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/definitions/"), ref
        node = schema["definitions"][ref.removeprefix("#/definitions/")]
    return node


def _required_slots(
    schema: dict[str, Any], node: dict[str, Any], instance: Any, path: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], str]]:
    """Every (object path, key) of ``instance`` that the schema marks required, walking
    the document and the schema together (``properties``, ``items``,
    ``additionalProperties``; ``$ref`` resolved)."""
    node = _resolve(schema, node)
    found: list[tuple[tuple[str | int, ...], str]] = []
    if isinstance(instance, dict):
        found += [(path, key) for key in node.get("required", ())]
        props = node.get("properties", {})
        extra = node.get("additionalProperties")
        for key, value in instance.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                found += _required_slots(schema, sub, value, (*path, key))
    elif isinstance(instance, list) and isinstance(node.get("items"), dict):
        for i, value in enumerate(instance):
            found += _required_slots(schema, node["items"], value, (*path, i))
    return found


def _at(document: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def _invalid(document: dict[str, Any]) -> bool:
    try:
        validate_sarif(document)
    except AssertionError:
        return True
    return False


def test_code_scanning_sarif_validates_and_every_required_property_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import copy
    import hashlib

    from test_output_formats import SARIF_SCHEMA

    schema_file = ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json"
    assert hashlib.sha256(schema_file.read_bytes()).hexdigest() == OASIS_SCHEMA_SHA256
    assert SARIF_SCHEMA["id"] == (
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    )

    monkeypatch.setenv("CUDALINT_DOCS_URL", "https://example.org/cudalint/docs/")
    monkeypatch.chdir(_repo(tmp_path))
    document = _sarif(capsys, "src/k.cu")  # validates against the OASIS schema
    run = document["runs"][0]
    # what code scanning needs is really there in the validated document
    assert run["automationDetails"]["id"] == "cudalint/"
    assert all("helpUri" in r for r in run["tool"]["driver"]["rules"])
    assert run["results"] and all(
        re.fullmatch(r"[0-9a-f]{32}", r["partialFingerprints"]["cudalintFingerprint/v1"])
        for r in run["results"]
    )
    assert any(r.get("fixes") for r in run["results"])

    slots = _required_slots(SARIF_SCHEMA, SARIF_SCHEMA, document)
    # the walk reaches every level the output has, fixes included
    for path, key in [
        ((), "version"),
        ((), "runs"),
        (("runs", 0), "tool"),
        (("runs", 0, "tool"), "driver"),
        (("runs", 0, "tool", "driver"), "name"),
        (("runs", 0, "tool", "driver", "rules", 0), "id"),
        (("runs", 0, "invocations", 0), "executionSuccessful"),
        (("runs", 0, "results", 0, "fixes", 0), "artifactChanges"),
        (("runs", 0, "results", 0, "fixes", 0, "artifactChanges", 0), "replacements"),
        (
            ("runs", 0, "results", 0, "fixes", 0, "artifactChanges", 0, "replacements", 0),
            "deletedRegion",
        ),
    ]:
        assert (path, key) in slots, (path, key)
    assert len(slots) >= 20
    for path, key in slots:
        broken = copy.deepcopy(document)
        del _at(broken, path)[key]
        assert _invalid(broken), f"removing required {'/'.join(map(str, path))}/{key} passed"
    # a message needs its text (anyOf text/id in the schema)
    broken = copy.deepcopy(document)
    del broken["runs"][0]["results"][0]["message"]["text"]
    assert _invalid(broken)

    # the code-scanning properties are checked for their types too
    for path, value in [
        (("runs", 0, "results", 0, "partialFingerprints", "cudalintFingerprint/v1"), 57),
        (("runs", 0, "results", 0, "partialFingerprints"), ["57a1"]),
        (("runs", 0, "tool", "driver", "rules", 0, "helpUri"), 1),
        (("runs", 0, "automationDetails"), "cudalint/"),
        (("runs", 0, "automationDetails", "id"), 1),
    ]:
        broken = copy.deepcopy(document)
        _at(broken, path[:-1])[path[-1]] = value
        assert _invalid(broken), path
