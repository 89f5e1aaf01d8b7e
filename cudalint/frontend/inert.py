"""Functions a call can skip: nothing they do reaches shared memory or waits at a barrier.

Inlining a helper runs its whole body at each call. For the configuration helpers of
large kernel libraries (a ``constexpr`` function of a type, a tile width and a flag
that is a chain of a few hundred ``if (type == X && J == 16 ...) return config(...);``,
ggml's ``mmq-config-*.cuh``) that is most of a file's time when the conditions are not
constants, and it can find nothing: such a function has no ``__shared__`` array, takes
only scalars by value, and reads nothing but its own locals and scalar constants. The
executor then reads its arguments and goes on (``Executor.call_stmt``) without running
it. Everything here is decided on the definition alone (no template argument changes
it), once per function (``Function.shared_inert``).
"""

from __future__ import annotations

import clang.cindex as ci

from cudalint.frontend import types as ty
from cudalint.frontend.consteval import is_from_project
from cudalint.frontend.cursors import ATOMICS, Function, N, arguments, key_of
from cudalint.frontend.program import Program
from cudalint.frontend.tree import Node
from cudalint.frontend.types import canonical_kind, int_type

K = ci.CursorKind
_CALLABLE = (K.FUNCTION_DECL.value, K.CONSTRUCTOR.value, K.FUNCTION_TEMPLATE.value)
_REJECT = frozenset([N.ASM, N.MS_ASM, K.LAMBDA_EXPR.value, K.CXX_THIS_EXPR.value])
#: Calls outside the project that touch shared memory or order it (``execute.py``'s
#: barrier, copy and fragment tables, and the atomics).
_SHARED_CALLS = frozenset([
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
    "__syncwarp", "__threadfence", "__threadfence_block", "__threadfence_system",
    "__barrier_sync", "sync", "barrier_sync", "__pipeline_commit", "__pipeline_wait_prior",
    "arrive_and_wait", "wait", "producer_commit", "consumer_wait", "consumer_release",
    "producer_acquire", "memcpy_async", "__nanosleep", "__pipeline_memcpy_async",
    "__cp_async", "load_matrix_sync", "store_matrix_sync", *ATOMICS,
])


def _scalar(t: ci.Type) -> bool:
    """An integer, enum, bool or floating type by value (never a pointer, reference,
    array, class or dependent type)."""
    return int_type(t) is not None or ty.is_floating_kind(canonical_kind(t))


def shared_inert(program: Program, fn: Function) -> bool:
    """Whether no call of ``fn`` can access shared memory or wait at a barrier, so that
    running its body finds nothing (see the module's docstring)."""
    got = fn.shared_inert
    if got is None:
        fn.shared_inert = False  # while deciding: a recursive call is not inert
        got = fn.shared_inert = _decide(program, fn)
    return got


def _decide(program: Program, fn: Function) -> bool:
    if fn.body is None or fn.is_kernel or fn.arrays:
        return False
    kind = fn.node.kind
    if kind not in _CALLABLE:  # methods read members through ``this``
        return False
    params = [ch for ch in fn.node.children if ch.kind == N.PARM_DECL]
    if not all(_scalar(p.type) for p in params):
        return False
    own = {key_of(p.cursor) for p in params}
    stack = list(fn.node.children)
    nodes: list[Node] = []
    while stack:  # the definition's own declarations first: a use may precede none
        n = stack.pop()
        nodes.append(n)
        if n.kind == N.VAR_DECL:
            if not _scalar(n.type) or any(ch.kind == N.CUDASHARED for ch in n.children):
                return False  # shared itself, or a pointer, array or object that may be
            own.add(key_of(n.cursor))
        stack.extend(n.children)
    for n in nodes:
        if n.kind in _REJECT:
            return False
        if n.kind == N.DECL_REF:
            ref = n.referenced
            if ref is None:
                return False
            if ref.kind in (K.VAR_DECL, K.PARM_DECL):
                k = key_of(ref)
                if k not in own and (k in program.file_arrays or not _scalar(ref.type)):
                    return False
        elif n.kind == N.MEMBER_REF and not n.expr_children() \
                and kind != K.CONSTRUCTOR.value:
            return False  # a member of ``this`` (a constructor's is the new object)
        elif n.kind == N.CALL and not _call_inert(program, n):
            return False
    return True


def _call_inert(program: Program, call: Node) -> bool:
    ref = call.referenced
    if ref is None or ref.kind.value not in _CALLABLE:
        return False  # unresolved, through a pointer, a method
    name = str(ref.spelling)
    args = arguments(call)
    if not all(_scalar(a.type) for a in args):
        return False
    if name in _SHARED_CALLS:
        return False
    if not is_from_project(ref):
        return True  # math and conversion functions of scalars
    target = program.function_for(ref, name, len(args))
    if target is None:  # a constructor without a body here, as the executor has it
        return bool(ref.kind == K.CONSTRUCTOR)
    return shared_inert(program, target)
