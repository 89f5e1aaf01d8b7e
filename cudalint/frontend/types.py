"""Every question the frontend asks of a clang type, by name.

clang's Type API (``TypeKind``, ``get_canonical``, ``get_pointee``, ``element_type``,
``get_size``, ``get_offset`` ...) is used here and nowhere else in the frontend's
interpreter: the walker (``walker.py``), the executor (``execute.py``) and the host-launch
evaluator (``host.py``) ask these functions (tests/test_type_api.py checks it). Like
hawkmoth's ``DocCursor`` over clang's cursors, one module owns the quirks: which
questions libclang crashes on (the size of an overloaded function's type), how an
integral template argument reads, what a type looks like as spelled and as canonical.

Two readings of a type's kind, kept apart by the names:

- ``is_reference(t)``, ``is_array(t)``, ``is_constant_array(t)`` ... ask the type *as
  spelled* (``t.kind``: a typedef of an array is not an array here);
- ``*_kind(k)`` functions ask an int kind, which the frontend holds for the canonical
  type (``Node.ckind``, :func:`canonical_kind`).

This module imports nothing of the frontend: ``tree.py`` and ``cursors.py`` build on it.
"""

from __future__ import annotations

from typing import Any

import clang.cindex as ci

from cudalint.ir import INT, IntType

TK = ci.TypeKind

ARRAY_TYPES = frozenset(
    [TK.CONSTANTARRAY, TK.DEPENDENTSIZEDARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY]
)
SIGNED_KINDS = frozenset(
    [TK.CHAR_S, TK.SCHAR, TK.SHORT, TK.INT, TK.LONG, TK.LONGLONG, TK.INT128, TK.WCHAR]
)
UNSIGNED_KINDS = frozenset(
    [TK.CHAR_U, TK.UCHAR, TK.USHORT, TK.UINT, TK.ULONG, TK.ULONGLONG, TK.UINT128,
     TK.CHAR16, TK.CHAR32]
)
#: Kinds (ints) of a type a template leaves open.
DEPENDENT_KINDS = frozenset([TK.DEPENDENT.value, TK.UNEXPOSED.value])
BOOL_KIND: int = TK.BOOL.value
ENUM_KIND: int = TK.ENUM.value
_POINTER: int = TK.POINTER.value
_RECORD: int = TK.RECORD.value
_REFERENCES = (TK.LVALUEREFERENCE.value, TK.RVALUEREFERENCE.value)
_REFERENCE_KINDS = (TK.LVALUEREFERENCE, TK.RVALUEREFERENCE)
_ARRAY_IDS = tuple(t.value for t in ARRAY_TYPES)
_POINTER_OR_ARRAY = (_POINTER, *_ARRAY_IDS)
#: Result kinds a function's value may still be an integer behind (``auto``, a template's).
_OPEN_RESULTS = (TK.AUTO, TK.DEPENDENT, TK.UNEXPOSED)


# --- kinds (ints): what Node.ckind and canonical_kind hold ---------------------------------


def canonical_kind(t: ci.Type) -> int:
    """The canonical type's kind as an int (``TypeKind.X.value``)."""
    return int(ci.conf.lib.clang_getCanonicalType(t)._kind_id)


def is_pointer_kind(k: int) -> bool:
    return k == _POINTER


def is_array_kind(k: int) -> bool:
    """Any array kind: constant, dependent-sized, incomplete, variable."""
    return bool(TK.from_id(k) in ARRAY_TYPES)


def is_pointer_or_array_kind(k: int) -> bool:
    return k in _POINTER_OR_ARRAY


def is_reference_kind(k: int) -> bool:
    """An lvalue or rvalue reference."""
    return k in _REFERENCES


def is_pointer_or_reference_kind(k: int) -> bool:
    return k == _POINTER or k in _REFERENCES


def is_dependent_kind(k: int) -> bool:
    """A type a template leaves open (dependent or unexposed)."""
    return k in DEPENDENT_KINDS


def is_record_kind(k: int) -> bool:
    return k == _RECORD


def is_bool_kind(k: int) -> bool:
    return k == BOOL_KIND


_FLOATING = frozenset(t.value for t in (
    TK.HALF, TK.FLOAT16, TK.BFLOAT16, TK.FLOAT, TK.DOUBLE, TK.LONGDOUBLE, TK.FLOAT128))


def is_floating_kind(k: int) -> bool:
    """A floating-point scalar (``float``, ``double``, ``__half``'s built-in ``_Float16``)."""
    return k in _FLOATING


# --- one type: as spelled ------------------------------------------------------------------


def may_take_several_initializers(t: ci.Type) -> bool:
    """Whether a field of type ``t`` may take several values of a braced list (brace
    elision): an array or a class, or a type clang leaves dependent or unexposed."""
    return canonical_kind(t) in _ELIDABLE


_ELIDABLE = frozenset(k.value for k in (
    ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY, ci.TypeKind.RECORD,
    ci.TypeKind.DEPENDENT, ci.TypeKind.UNEXPOSED))


def kind_id(t: ci.Type) -> int:
    """The kind of ``t`` as spelled, as an int."""
    return int(t.kind.value)


def is_reference(t: ci.Type) -> bool:
    return t.kind in _REFERENCE_KINDS


def is_array(t: ci.Type) -> bool:
    return t.kind in ARRAY_TYPES


def is_constant_array(t: ci.Type) -> bool:
    return bool(t.kind == TK.CONSTANTARRAY)


def is_incomplete_array(t: ci.Type) -> bool:
    """``T a[]``."""
    return bool(t.kind == TK.INCOMPLETEARRAY)


def is_record(t: ci.Type) -> bool:
    return bool(t.kind == TK.RECORD)


def is_dependent(t: ci.Type) -> bool:
    """Spelled with a type a template leaves open (``TypeKind.DEPENDENT`` only)."""
    return bool(t.kind == TK.DEPENDENT)


def is_void(t: ci.Type) -> bool:
    return bool(t.kind == TK.VOID)


def is_open_result(t: ci.Type) -> bool:
    """``auto``, dependent or unexposed: a function result an instantiation decides."""
    return t.kind in _OPEN_RESULTS


def is_const(t: ci.Type) -> bool:
    return bool(t.is_const_qualified())


def is_volatile(t: ci.Type) -> bool:
    return bool(t.is_volatile_qualified())


def spelling(t: ci.Type) -> str:
    """``t`` as clang spells it (typedefs and template parameters kept)."""
    return str(t.spelling)


def bare_spelling(t: ci.Type) -> str:
    """``t``'s spelling without ``const``/``volatile``: how a template's bound type
    parameters are looked up (``const T`` → ``T``)."""
    return str(t.spelling).replace("volatile ", "").replace("const ", "").strip()


# --- related types -------------------------------------------------------------------------


def canonical(t: ci.Type) -> ci.Type:
    """``t`` with typedefs, aliases and template arguments resolved."""
    return t.get_canonical()


def canonical_spelling(t: ci.Type) -> str:
    return str(t.get_canonical().spelling)


def pointee(t: ci.Type) -> ci.Type:
    """What a pointer or reference ``t`` points at (invalid for anything else)."""
    return t.get_pointee()


def names_function(t: ci.Type) -> bool:
    """Whether a value of type ``t`` may name a function: a function or a pointer to one,
    an overload set (``k<4>`` before it is resolved), or a dependent type."""
    canon = t.get_canonical()
    if canon.kind == TK.POINTER:
        canon = canon.get_pointee().get_canonical()
    return canon.kind in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO, TK.OVERLOAD, TK.DEPENDENT)


def record_fields(t: ci.Type) -> list[tuple[str, str]]:
    """The fields of the struct ``t`` is (or refers to), in declaration order: each
    name with its canonical type's spelling; [] for anything else."""
    canon = t.get_canonical()
    if canon.kind in (TK.LVALUEREFERENCE, TK.RVALUEREFERENCE):
        canon = canon.get_pointee().get_canonical()
    if canon.kind != TK.RECORD:
        return []
    return [(str(f.spelling), str(f.type.get_canonical().spelling))
            for f in canon.get_declaration().get_children()
            if f.kind == ci.CursorKind.FIELD_DECL]


def element(t: ci.Type) -> ci.Type:
    """An array's (or vector's) element type (invalid for anything else)."""
    return t.element_type


def array_length(t: ci.Type) -> int:
    """A constant array's length."""
    return int(t.element_count)


def pointee_of_pointer(t: ci.Type) -> ci.Type | None:
    """What ``t`` points at where its canonical type is a pointer (the pointee as spelled
    when ``t`` itself is spelled as a pointer, else the canonical one); None otherwise."""
    canon = t.get_canonical()
    if canon.kind == TK.POINTER:
        return t.get_pointee() if t.kind == TK.POINTER else canon.get_pointee()
    return None


def array_element(t: ci.Type) -> ci.Type:
    """The element type of an array type ``t``: as spelled where ``t`` is spelled as an
    array, else the canonical array's."""
    return t.element_type if t.kind in ARRAY_TYPES else t.get_canonical().element_type


def canonical_element(t: ci.Type) -> ci.Type:
    """The canonical array's element type; the spelled one where the canonical type has
    none (a dependent row ``s[i]``)."""
    elem = t.get_canonical().element_type
    return t.element_type if elem.kind == TK.INVALID else elem


def scalar(t: ci.Type | None) -> ci.Type | None:
    """``t`` without its array dimensions (what an address into it points at)."""
    while t is not None and t.get_canonical().kind in ARRAY_TYPES:
        t = array_element(t)
    return t


def declaration(t: ci.Type) -> ci.Cursor:
    """The declaration of a record, enum or typedef type (a null cursor for others)."""
    return t.get_declaration()


def is_pointer_result(cursor: ci.Cursor) -> bool:
    """Whether a function's (or conversion operator's) result is, canonically, a pointer."""
    return bool(cursor.result_type.get_canonical().kind == TK.POINTER)


def points_to_const(t: ci.Type) -> bool:
    """Whether a pointer or reference ``t`` points at a ``const`` object."""
    return bool(t.get_pointee().is_const_qualified())


def is_reference_to_mutable(t: ci.Type) -> bool:
    """A reference (as spelled) to non-const: a parameter through which a call may
    change the caller's variable."""
    return t.kind in _REFERENCE_KINDS and not t.get_pointee().is_const_qualified()


# --- layout ----------------------------------------------------------------------------------

#: Types whose size libclang must never be asked for: clang_Type_getSizeOf crashes the
#: process (SIGSEGV) on placeholder types such as ``<overloaded function type>``, which
#: a broken or mutated file hands to a call's argument (bench/faults.py found it).
_SIZELESS_KINDS = frozenset(k.value for k in (TK.OVERLOAD, TK.DEPENDENT, TK.INVALID))


def type_size(t: ci.Type) -> int:
    """``t.get_size()`` (bytes; negative when clang has no size), never asking libclang
    for the size of a type it crashes on."""
    if t.kind.value in _SIZELESS_KINDS or canonical_kind(t) in _SIZELESS_KINDS:
        return -1
    return int(t.get_size())


def alignment(t: ci.Type) -> int:
    """``alignof(t)`` in bytes (negative when clang has none)."""
    return int(t.get_align())


def field_offset(record: ci.Type, name: str) -> int:
    """The offset of field ``name`` in ``record``, in bits (negative when unknown)."""
    return int(record.get_offset(name))


def fields(record: ci.Type) -> Any:
    """The field declarations of a record type, in order."""
    return record.get_fields()


# --- integers ----------------------------------------------------------------------------------

_int_type_cache: dict[int, IntType | None] = {}


def int_type(t: ci.Type) -> IntType | None:
    """The IR integer type of a clang type; None for anything that is not an integer.

    ``bool`` maps to ``int``: its values are 0 and 1 and comparisons yield it.
    """
    ct = ci.conf.lib.clang_getCanonicalType(t)
    ct._tu = t._tu
    kind = ct._kind_id
    if kind == ENUM_KIND:
        decl = ct.get_declaration()
        return int_type(decl.enum_type) if decl is not None else INT
    if kind in _int_type_cache:
        return _int_type_cache[kind]
    result: IntType | None
    tk = TK.from_id(kind)
    if tk == TK.BOOL:
        result = INT
    elif tk in SIGNED_KINDS or tk in UNSIGNED_KINDS:
        result = IntType(ct.get_size() * 8, tk in SIGNED_KINDS)
    else:
        result = None
    _int_type_cache[kind] = result
    return result


# --- template arguments ------------------------------------------------------------------------


def template_argument_count(t: ci.Type) -> int:
    """How many template arguments a specialization's type has (-1: not one)."""
    return int(t.get_num_template_arguments())


def template_argument_type(t: ci.Type, i: int) -> ci.Type | None:
    """Type argument ``i`` of a specialization's type; None where it is not a type."""
    at = t.get_template_argument_type(i)
    return None if at.kind == TK.INVALID else at


def template_argument_value(t: ci.Type, i: int) -> int | None:
    """Integral argument ``i`` of a specialization's *type*: always None. libclang's Type
    API has no such query (only a Cursor's ``get_template_argument_value``), so the
    caller reads the argument's text."""
    return None


def template_type_argument(spec: ci.Cursor, i: int) -> ci.Type:
    """Type argument ``i`` of the specialization ``spec`` (a declaration cursor); an
    invalid type where it is not a type."""
    return spec.get_template_argument_type(i)


def template_int_argument(spec: ci.Cursor, i: int, type_kind: int | None) -> int:
    """The value of integral template argument ``i`` of ``spec`` for a parameter of the
    canonical type kind ``type_kind``, as C++ reads it: libclang gives the sign-extended
    bits, so ``true`` of a ``bool`` parameter reads -1, a large unsigned one negative."""
    v = int(spec.get_template_argument_value(i))
    if type_kind == TK.BOOL.value:
        return int(v != 0)
    if v < 0 and type_kind is not None and TK.from_id(type_kind) in UNSIGNED_KINDS:
        return int(spec.get_template_argument_unsigned_value(i))
    return v
