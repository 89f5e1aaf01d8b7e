"""A light, fully built cursor tree: one libclang visit per function instead of one per node.

The Python bindings guard every cursor method with a null check (a libclang call) and
build the child list with one callback round trip per node; walking a function body
through them costs more than parsing the file. ``build`` visits a subtree once with
``CXChildVisit_Recurse`` and links the nodes by the parent cursor's bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import clang.cindex as ci

from cudalint.frontend.types import canonical_kind

_RECURSE = 2
_CONTINUE = 1

_FIRST_EXPR = 100
_LAST_EXPR = 199

_FIRST_INVALID = 70
_LAST_INVALID = 73

UNSET = object()

_NULL_KIND = 70  # CXCursor_InvalidFile, the kind of clang_getNullCursor()


def _is_null(self: ci.Cursor) -> bool:
    """``Cursor.is_null`` without the libclang call: the bindings ask
    ``clang_equalCursors(self, null)`` before every guarded method (``kind``, ``type``,
    ``spelling``, ``semantic_parent``, ...), about 440k calls a ggml file. The null cursor
    is kind 70 (``CXCursor_InvalidFile``) with its three data pointers null, and
    ``clang_equalCursors`` compares the kind and those pointers (clearing ``data[1]`` of
    a declaration only, which kind 70 is not), so this is the same test
    (``tests/test_speed_cursor_null.py`` compares the two on every cursor of a unit)."""
    if self._kind_id != _NULL_KIND:
        return False
    data = self.data
    return not data[0] and not data[1] and not data[2]


ci.Cursor.is_null = _is_null


class Node:
    """One cursor, its kind as an int (``CursorKind.X.value``) and its children.

    ``spelling``, ``type`` and ``referenced`` are fetched once, straight from libclang
    (the bindings' own properties add a null check, itself a libclang call, to each).
    """

    __slots__ = ("_ckind", "_ref", "_spelling", "_type", "children", "cursor", "itype", "kind")

    def __init__(self, cursor: ci.Cursor, kind: int) -> None:
        self.cursor = cursor
        self.kind = kind
        self.children: list[Node] = []
        self._spelling: str | None = None
        self._type: Any = None
        self._ref: Any = UNSET
        #: Cache for the walker's integer type of this node (UNSET until computed).
        self.itype: Any = UNSET
        self._ckind = -1

    @property
    def is_expr(self) -> bool:
        return _FIRST_EXPR <= self.kind <= _LAST_EXPR

    @property
    def spelling(self) -> str:
        if self._spelling is None:
            try:
                self._spelling = str(self.cursor.spelling)
            except UnicodeDecodeError:  # an identifier or literal that is not UTF-8
                self._spelling = "?"
        return self._spelling

    @property
    def type(self) -> Any:
        if self._type is None:
            t = ci.conf.lib.clang_getCursorType(self.cursor)
            t._tu = self.cursor._tu
            self._type = t
        return self._type

    @property
    def ckind(self) -> int:
        """The kind of this node's canonical type (``TypeKind.X.value``)."""
        if self._ckind < 0:
            self._ckind = canonical_kind(self.type)
        return self._ckind

    @property
    def referenced(self) -> Any:
        """The declaration this expression names (a raw cursor), or None."""
        if self._ref is UNSET:
            ref = ci.conf.lib.clang_getCursorReferenced(self.cursor)
            if ref is None or _FIRST_INVALID <= ref._kind_id <= _LAST_INVALID:  # null cursor
                ref = None
            else:
                ref._tu = self.cursor._tu
            self._ref = ref
        return self._ref

    @property
    def extent(self) -> Any:
        return ci.conf.lib.clang_getCursorExtent(self.cursor)

    def expr_children(self) -> list[Node]:
        return [ch for ch in self.children if _FIRST_EXPR <= ch.kind <= _LAST_EXPR]

    def __repr__(self) -> str:
        return f"Node({ci.CursorKind.from_id(self.kind).name}, {len(self.children)} children)"


def cursor_key(c: ci.Cursor) -> int:
    """A hash identifying a declaration cursor (the same for a reference's target)."""
    return int(ci.conf.lib.clang_hashCursor(c))


def build(root: ci.Cursor, stand_in: Callable[[ci.Cursor], Node | None] | None = None
          ) -> Node:
    """The whole subtree under ``root`` as Nodes. ``stand_in``, asked for each direct
    child of ``root``: a Node it returns takes that child's place with its subtree
    unbuilt (a function's body, built when it is needed: ``build_under``)."""
    tu = root._tu
    top = Node(root, root._kind_id)
    by_bytes: dict[bytes, Node] = {bytes(root): top}

    def visit(child: ci.Cursor, parent: ci.Cursor, _: object) -> int:
        owner = by_bytes.get(bytes(parent))
        if owner is None:  # cannot happen with libclang's preorder visit; be safe
            return _CONTINUE
        child._tu = tu
        if stand_in is not None and owner is top:
            lazy = stand_in(child)
            if lazy is not None:
                top.children.append(lazy)
                return _CONTINUE
        node = Node(child, child._kind_id)
        owner.children.append(node)
        by_bytes[bytes(child)] = node
        return _RECURSE

    ci.conf.lib.clang_visitChildren(root, ci.cursor_visit_callback(visit), None)
    return top


def build_under(root: ci.Cursor, child: ci.Cursor) -> list[Node] | None:
    """The children of ``child``, a direct child of ``root``, as ``build(root)`` builds
    them: visited from ``root`` (a child visited on its own hands its children a parent
    cursor of another form). None when ``root`` has no such child."""
    tu = root._tu
    top, mine = bytes(root), bytes(child)
    holder = Node(child, child._kind_id)
    by_bytes: dict[bytes, Node] = {}

    def visit(c: ci.Cursor, parent: ci.Cursor, _: object) -> int:
        key = bytes(parent)
        if key == top:
            if bytes(c) == mine:
                by_bytes[mine] = holder
                return _RECURSE
            return _CONTINUE  # root's other children are not built
        owner = by_bytes.get(key)
        if owner is None:
            return _CONTINUE
        c._tu = tu
        node = Node(c, c._kind_id)
        owner.children.append(node)
        by_bytes[bytes(c)] = node
        return _RECURSE

    ci.conf.lib.clang_visitChildren(root, ci.cursor_visit_callback(visit), None)
    return holder.children if mine in by_bytes else None


def top_level(root: ci.Cursor) -> list[ci.Cursor]:
    """The direct children of ``root`` (without the bindings' per-call overhead)."""
    tu = root._tu
    out: list[ci.Cursor] = []

    def visit(child: ci.Cursor, parent: ci.Cursor, _: object) -> int:
        child._tu = tu
        out.append(child)
        return _CONTINUE

    ci.conf.lib.clang_visitChildren(root, ci.cursor_visit_callback(visit), None)
    return out


def subtree(n: Node) -> list[Node]:
    """``n`` and every node under it, lambdas' bodies included (pre-order from the
    last child: the order does not matter to its users)."""
    out: list[Node] = []
    stack = [n]
    while stack:
        x = stack.pop()
        out.append(x)
        stack.extend(x.children)
    return out
