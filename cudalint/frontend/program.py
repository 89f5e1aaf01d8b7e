"""What the executor and the host-launch evaluator ask of the translation unit around them.

The walker (``walker.py``) collects a unit's functions, shared arrays, constants and
macros, then runs function bodies through the executor (``execute.py``) and launch sites
through the host evaluator (``host.py``). Those two need the walker's tables and a few of
its services back: source text and spans, the function a call resolves to, a template
call's arguments, constants named in text. :class:`Program` names exactly that, so the
executor and the host evaluator depend on this protocol and never on the walker (no
import of ``walker.py``, not even for typing; tests/test_layering.py checks it). The
walker implements it; mypy checks the match structurally where the walker hands itself
to an ``Executor`` or to ``HostLaunches``.
"""

from __future__ import annotations

from typing import Protocol

import clang.cindex as ci

from cudalint.frontend.cursors import ArrayDecl, Env, Function
from cudalint.frontend.tree import Node
from cudalint.ir import IntType, Kernel, Note, SharedArray, Span


class Program(Protocol):
    """One translation unit as the walker has collected it."""

    # --- the unit and its options ---------------------------------------------------------

    #: The parsed unit (its cursor is the top level).
    tu: ci.TranslationUnit
    #: The target (``sm_XX``): how nvcc lowers wmma fragment accesses depends on it.
    arch: str
    #: Diagnostics about the analysis itself (calls too deep, constructs not modelled).
    notes: list[Note]

    # --- source text ----------------------------------------------------------------------

    def span(self, extent: ci.SourceRange) -> Span:
        """Where ``extent`` is, as reported (in the main file or a project header)."""
        ...

    def slice(self, extent: ci.SourceRange) -> str:
        """The source text of ``extent``."""
        ...

    def bytes_at(self, loc: ci.SourceLocation) -> bytes:
        """The bytes of the file ``loc`` is in (offsets of locations index them)."""
        ...

    def project_texts(self) -> list[str]:
        """The main file's text and each project header's, main file first."""
        ...

    # --- functions ------------------------------------------------------------------------

    #: Every function with a body in the unit, in source order.
    functions: list[Function]
    functions_by_key: dict[int, Function]
    functions_by_name: dict[str, list[Function]]
    kernels_by_name: dict[str, Function]
    #: Member functions the executor runs for their value (conversion operators).
    member_functions: dict[int, Function | None]
    #: A class template's explicit and partial specializations (by key of the template).
    class_specializations: dict[int, list[ci.Cursor]]

    def function_for(self, ref: ci.Cursor | None, name: str, nargs: int) -> Function | None:
        """The function with a body in this unit that a call resolves to, if any."""
        ...

    def scan_function(self, fn: Function) -> None:
        """Record ``fn``'s variables and every write to them (before it is run)."""
        ...

    def kernel_record(self, fn: Function) -> Kernel:
        """The IR record of kernel ``fn`` (name, span, launch bounds)."""
        ...

    # --- template arguments ---------------------------------------------------------------

    def call_env(self, call: Node, target: Function, caller: Env) -> Env:
        """The template arguments of a call to the template device function ``target``."""
        ...

    def spec_env(self, callee: Node, kernel: Function) -> Env | None:
        """The template arguments of the specialization a reference names."""
        ...

    def deducible(self, target: Function) -> set[str]:
        """The identifiers the types of ``target``'s parameters name (a template
        parameter among them may be deduced, and then takes no default)."""
        ...

    def text_env(self, kernel: Function, args: list[str]) -> Env | None:
        """The template arguments ``args`` (as written) of ``kernel``."""
        ...

    def function_argument(self, text: str, caller: Env) -> str | None:
        """The device function with a body here that the template argument ``text``
        names (``f``, ``&ns::f``, or a parameter ``caller`` binds to one), by name."""
        ...

    # --- shared arrays --------------------------------------------------------------------

    #: File-scope ``__shared__`` declarations, by key.
    file_arrays: dict[int, ArrayDecl]

    def add_array(self, rec: SharedArray) -> None:
        """Record a shared array of the unit's IR (the first record of a key stays)."""
        ...

    # --- constants and types named in text ------------------------------------------------

    #: The C types of the macros evaluated so far, by name.
    macro_types: dict[str, IntType]
    #: Canonical spellings of the file-scope typedefs (``uint`` → ``unsigned int``),
    #: filled on first use by whoever needs it.
    typedef_canon: dict[str, str] | None

    def named_consts(self) -> dict[str, int]:
        """The unit's integer constants and macros with a constant value, by name."""
        ...

    def eval_text(self, text: str) -> int | None:
        """The value of the C constant expression ``text`` with the unit's constants."""
        ...

    def type_size(self, text: str) -> int | None:
        """The size in bytes of the type named ``text``, if the unit defines it."""
        ...

    def type_align(self, text: str) -> int | None:
        """The alignment in bytes of the type named ``text``, if the unit defines it."""
        ...

    def note_type(self, name: str, t: ci.Type) -> None:
        """Make ``type_size``/``type_align`` of ``name`` those of ``t``: a type clang
        resolved that the executor knows by its canonical name (``c10::complex<float>``
        of ``using complex_t = c10::complex<float>;``)."""
        ...

    def member_type(self, spelled: str) -> ci.Type | None:
        """``typename vec4<float>::Type``: that member type of a specialization."""
        ...
