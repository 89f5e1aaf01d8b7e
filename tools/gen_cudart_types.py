"""Regenerate cudalint's stand-ins for the CUDA runtime, driver and host-library APIs from a
CUDA toolkit's headers.

Each output holds only the facts code depends on: every enumerator with its value, every
struct's fields with their types, the handle typedefs, the flag and alias macros, the
header's include guard (code tests it: cuda-samples' helper_cuda.h defines an error-string
overload per library ``#ifdef CUBLAS_API_H_``) and the function names, as stubs that take
any arguments (host code only needs to parse; no device analysis reads them). It is
produced from clang's AST, not copied, and is committed, so cudalint never needs a toolkit
at run time. ``--cuda DIR`` is a toolkit root whose ``include/`` holds the headers (the
math libraries' headers come with their packages: put them in the same folder). Run it
when a new CUDA release adds names users hit:

    for api in runtime driver library_types cublas cublasLt cufft curand cusparse cusolver; do
        python tools/gen_cudart_types.py --cuda /usr/local/cuda --api $api \
            > cudalint/frontend/stdinc/$(python tools/gen_cudart_types.py --output $api)
    done
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass

import clang.cindex as ci


@dataclass(frozen=True)
class Api:
    #: Headers whose types, enums and macros are emitted.
    types: tuple[str, ...]
    #: Headers whose functions are stubbed, and the prefixes of those functions' names.
    functions: tuple[str, ...]
    prefixes: tuple[str, ...]
    #: Where the output goes, under cudalint/frontend/stdinc.
    output: str
    #: Our headers the output includes first (what the real one includes).
    includes: tuple[str, ...] = ()
    #: APIs whose definitions this one's headers repeat (left out, as the real guards do).
    after: tuple[str, ...] = ()


_TOP = ("#include <stddef.h>", "#include <stdint.h>")
APIS: dict[str, Api] = {
    "runtime": Api(
        ("driver_types.h", "texture_types.h", "surface_types.h"),
        ("cuda_runtime_api.h",),
        ("cuda",),
        "__cudalint/cudart_types.h",
    ),
    "driver": Api(
        ("cuda.h",), ("cuda.h",), ("cu",), "__cudalint/cuda_driver.h", after=("runtime",)
    ),
    "library_types": Api(("library_types.h",), (), (), "library_types.h"),
    "cublas": Api(
        ("cublas_api.h", "cublas_v2.h"),
        ("cublas_api.h",),
        ("cublas",),
        "__cudalint/cublas_api.h",
        ("<cuda_runtime.h>", "<cuComplex.h>", "<cuda_fp16.h>", "<library_types.h>"),
        ("runtime",),
    ),
    "cublasLt": Api(
        ("cublasLt.h",),
        ("cublasLt.h",),
        ("cublasLt",),
        "cublasLt.h",
        ("<cublas_api.h>",),
        ("runtime", "cublas"),
    ),
    "cufft": Api(
        ("cufft.h", "cufftXt.h"),
        ("cufft.h", "cufftXt.h"),
        ("cufft",),
        "__cudalint/cufft.h",
        ("<cuda_runtime.h>", "<cuComplex.h>", "<library_types.h>"),
        ("runtime",),
    ),
    "curand": Api(
        ("curand.h",), ("curand.h",), ("curand",), "curand.h", ("<cuda_runtime.h>",), ("runtime",)
    ),
    "cusparse": Api(
        ("cusparse.h",),
        ("cusparse.h",),
        ("cusparse",),
        "cusparse.h",
        ("<cuda_runtime.h>", "<cuComplex.h>", "<cuda_fp16.h>", "<library_types.h>"),
        ("runtime",),
    ),
    "cusolver": Api(
        ("cusolver_common.h", "cusolverDn.h"),
        ("cusolverDn.h",),
        ("cusolver",),
        "__cudalint/cusolver.h",
        ("<cuda_runtime.h>", "<cuComplex.h>", "<library_types.h>", "<cublas_api.h>"),
        ("runtime", "cublas"),
    ),
}

_NUMBER = r"\(?-?(?:0x[0-9a-fA-F]+|\d+)[uUlL]*\)?"
#: A flag (``#define cudaHostAllocMapped 0x02``, ``#define CUFFT_FORWARD -1``).
_FLAG = re.compile(rf"#define\s+([A-Za-z]\w+)\s+({_NUMBER})\s*$")
_CAST_FLAG = re.compile(r"#define\s+(\w+)\s+(\(\((?:cuda|CU)\w+\)\s*0x[0-9a-fA-F]+\))\s*$")
#: An alias (``#define cudaStreamAttrValue cudaLaunchAttributeValue``) and a versioned
#: name (``#define cuCtxCreate cuCtxCreate_v4``, ``#define cublasCreate cublasCreate_v2``).
_ALIAS = re.compile(r"#define\s+([A-Za-z]\w+)\s+([A-Za-z]\w+)\s*$")
#: A calling-convention macro (``#define CUSPARSEAPI``): code tests it to see whether the
#: library is included (helper_cuda.h's ``#ifdef CUSPARSEAPI``).
_EMPTY = re.compile(r"#\s*define\s+([A-Z_]*API)\s*$")
#: An include guard: ``#if !defined(CUBLAS_API_H_)`` or ``#ifndef CUFFT_H_``, then its
#: ``#define``.
_GUARD = re.compile(
    r"#\s*(?:if\s+!\s*defined\s*\(?\s*(\w+)\s*\)?|ifndef\s+(\w+))\s*\n\s*"
    r"#\s*define\s+(\w+)"
)


def _ours(cursor: ci.Cursor, headers: tuple[str, ...]) -> bool:
    f = cursor.location.file
    return f is not None and os.path.basename(f.name) in headers


def _record(c: ci.Cursor, indent: str) -> str:
    kw = "union" if c.kind == ci.CursorKind.UNION_DECL else "struct"
    name = "" if c.is_anonymous() else " " + c.spelling
    lines = [f"{kw}{name} {{"]
    pending: ci.Cursor | None = None

    def flush() -> None:
        # A nested record no field names: C11's anonymous struct/union member.
        if pending is not None and pending.is_anonymous():
            lines.append(f"{indent}  {_record(pending, indent + '  ')};")

    for f in c.get_children():
        if f.kind in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL):
            flush()
            pending = f
            continue
        if f.kind != ci.CursorKind.FIELD_DECL:
            continue
        decl = f.type.get_declaration()
        if pending is not None and decl == pending:
            inner = _record(pending, indent + "  ")
            lines.append(f"{indent}  {inner} {f.spelling};")
            pending = None
            continue
        flush()
        pending = None
        lines.append(f"{indent}  {_declarator(f.type, f.spelling)};")
    flush()
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def _declarator(t: ci.Type, name: str) -> str:
    dims = ""
    while t.kind == ci.TypeKind.CONSTANTARRAY:
        dims += f"[{t.get_array_size()}]"
        t = t.element_type
    spelling = t.spelling
    if t.kind == ci.TypeKind.POINTER and t.get_pointee().kind == ci.TypeKind.FUNCTIONPROTO:
        fn = t.get_pointee()
        args = ", ".join(a.spelling for a in fn.argument_types())
        return f"{fn.get_result().spelling} (*{name}{dims})({args})"
    return f"{spelling} {name}{dims}"


def _parse(cuda: str, headers: tuple[str, ...]) -> ci.TranslationUnit:
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.cpp")
        with open(src, "w") as fh:
            fh.write("".join(f"#include <{h}>\n" for h in headers))
        tu = ci.Index.create().parse(
            src,
            args=[
                "-x",
                "c++",
                "-std=c++17",
                "-nostdinc++",
                f"-I{cuda}/include",
                "-D__device_builtin__=",
                "-D__CUDA_DEPRECATED=",
                "-D__CUDACC__",
            ],
        )
    include = os.path.join(cuda, "include")
    # host_config.h's #error about libclang-ng's bundled libc++ does not affect the names.
    errors = [
        d.spelling
        for d in tu.diagnostics
        if d.severity >= 3
        and d.location.file is not None
        and os.path.realpath(d.location.file.name).startswith(os.path.realpath(include))
        and "libc++" not in d.spelling
    ]
    if errors:
        raise SystemExit(f"{', '.join(headers)}: " + "; ".join(errors)[:500])
    return tu


def _tops(tu: ci.TranslationUnit) -> list[ci.Cursor]:
    tops: list[ci.Cursor] = []
    for c in tu.cursor.get_children():
        tops += list(c.get_children()) if c.kind == ci.CursorKind.LINKAGE_SPEC else [c]
    return tops


def _enum_body(decl: ci.Cursor) -> str:
    return (
        "{\n"
        + ",\n".join(
            f"  {e.spelling} = {e.enum_value}"
            for e in decl.get_children()
            if e.kind == ci.CursorKind.ENUM_CONSTANT_DECL
        )
        + "\n}"
    )


def generate(cuda: str, api: str = "runtime") -> str:
    spec = APIS[api]
    skip: set[str] = set()
    for other in spec.after:
        skip |= _defined(generate(cuda, other))
    tu = _parse(cuda, spec.types)
    out = [
        f"/* Generated by tools/gen_cudart_types.py --api {api} from a CUDA toolkit's",
        f"   {', '.join(spec.types)}: its enums, structs, handle typedefs, flag",
        "   macros and function names. Do not edit by hand. */",
        "#pragma once",
        "#pragma clang system_header",
        *_TOP,
        *(f"#include {h}" for h in spec.includes),
    ]
    texts = {h: _read(cuda, h) for h in spec.types}
    for h in spec.types:
        m = _GUARD.search(texts[h])
        if m is not None and (m.group(1) or m.group(2)) == m.group(3):
            out.append(f"#define {m.group(3)}")
    out += ["#ifdef __cplusplus", 'extern "C" {', "#endif"]
    seen = skip
    for c in _tops(tu):
        if not _ours(c, spec.types):
            continue
        key = f"{c.kind}:{c.spelling}"
        if c.kind == ci.CursorKind.ENUM_DECL and c.is_definition() and not c.is_anonymous():
            if key in seen:
                continue
            seen.add(key)
            out.append(f"enum {c.spelling} {_enum_body(c)};")
        elif c.kind in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.UNION_DECL):
            if c.is_anonymous() or key in seen:
                continue
            seen.add(key)
            kw = "union" if c.kind == ci.CursorKind.UNION_DECL else "struct"
            out.append((_record(c, "") if c.is_definition() else f"{kw} {c.spelling}") + ";")
        elif c.kind == ci.CursorKind.TYPEDEF_DECL:
            if key in seen:
                continue
            seen.add(key)
            under = c.underlying_typedef_type
            decl = under.get_declaration()
            if (
                decl.kind
                in (ci.CursorKind.STRUCT_DECL, ci.CursorKind.ENUM_DECL, ci.CursorKind.UNION_DECL)
                and decl.is_anonymous()
            ):
                body = (
                    _record(decl, "")
                    if decl.kind != ci.CursorKind.ENUM_DECL
                    else "enum " + _enum_body(decl)
                )
                out.append(f"typedef {body} {c.spelling};")
            else:
                out.append(f"typedef {_declarator(under, c.spelling)};")
    out += ["#ifdef __cplusplus", "}", "#endif"]
    names = _names(tu)
    for h in spec.types:
        for raw in texts[h].splitlines():
            # a comment that runs on to the next line is cut here too
            line = re.sub(r"/\*.*?(\*/|$)|//.*", "", raw).strip()
            # a per-thread-stream name (``#define cuMemcpyHtoD
            # __CUDA_API_PTDS(cuMemcpyHtoD_v2)``): the default-stream one
            line = re.sub(r"^(#define\s+\w+\s+)__CUDA_API_PT(?:DS|SZ)\(\s*(\w+)\s*\)$",
                          r"\1\2", line)
            e = _EMPTY.match(line)
            if e is not None and f"#define {e.group(1)}" not in out:
                out.append(f"#define {e.group(1)}")
                continue
            m = _FLAG.match(line) or _CAST_FLAG.match(line) or _ALIAS.match(line)
            if m is None or m.group(1) in names:
                continue
            if m.re is _ALIAS and m.group(2) not in names and not m.group(2).startswith(m.group(1)):
                continue  # only aliases of names the API declares
            out.append(f"#define {m.group(1)} {m.group(2)}")
    if spec.functions:
        out += _functions(cuda, spec, api == "runtime")
    return "\n".join(out) + "\n"


def _read(cuda: str, header: str) -> str:
    with open(os.path.join(cuda, "include", header), encoding="utf-8", errors="replace") as fh:
        return fh.read()


def _names(tu: ci.TranslationUnit) -> set[str]:
    """What the headers declare (an alias or flag of that name would be a redefinition)."""
    out: set[str] = set()
    for c in _tops(tu):
        out.add(c.spelling)
        if c.kind == ci.CursorKind.ENUM_DECL:
            out |= {e.spelling for e in c.get_children()}
        if c.kind == ci.CursorKind.TYPEDEF_DECL:
            decl = c.underlying_typedef_type.get_declaration()
            if decl.kind == ci.CursorKind.ENUM_DECL:
                out |= {e.spelling for e in decl.get_children()}
    return out


def _defined(header: str) -> set[str]:
    """The keys ``generate`` gives the records, enums and typedefs a header defines."""
    keys = {
        f"{ci.CursorKind.STRUCT_DECL}:{n}" for n in re.findall(r"^struct (\w+) \{", header, re.M)
    }
    keys |= {
        f"{ci.CursorKind.UNION_DECL}:{n}" for n in re.findall(r"^union (\w+) \{", header, re.M)
    }
    keys |= {f"{ci.CursorKind.ENUM_DECL}:{n}" for n in re.findall(r"^enum (\w+) \{", header, re.M)}
    keys |= {
        f"{ci.CursorKind.TYPEDEF_DECL}:{n}"
        for n in re.findall(r"^(?:typedef|}) .*?(\w+)(?:\)\(.*\))?;$", header, re.M)
    }
    return keys


def _functions(cuda: str, spec: Api, runtime: bool) -> list[str]:
    """Every function of the API's function headers that the shim does not declare by
    hand (the runtime's in its source, the driver's in ``shim.DRIVER_API``), as a stub
    that takes any arguments."""
    from cudalint.frontend import shim

    declared = set(re.findall(r"\b(cuda\w+)\s*\(", shim.SHIM_SOURCE)) if runtime \
        else set(re.findall(r"\b(cu\w+)\s*\(", shim.DRIVER_API))
    tu = _parse(cuda, spec.functions)
    out = ["#include <__cudalint/stub.h>"]
    seen: set[str] = set()
    for c in _tops(tu):
        f = c.location.file
        if (
            c.kind != ci.CursorKind.FUNCTION_DECL
            or f is None
            or os.path.basename(f.name) not in spec.functions
        ):
            continue
        name = c.spelling
        if name in declared or name in seen or not name.startswith(spec.prefixes):
            continue
        seen.add(name)
        out.append(f"_CL_STUB_FN({c.result_type.spelling}, {name})")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--api", choices=sorted(APIS), default="runtime")
    ap.add_argument(
        "--output",
        metavar="API",
        choices=sorted(APIS),
        help="print where API's header goes (under cudalint/frontend/stdinc)",
    )
    args = ap.parse_args(argv)
    if args.output:
        print(APIS[args.output].output)
        return 0
    sys.stdout.write(generate(args.cuda, args.api))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
