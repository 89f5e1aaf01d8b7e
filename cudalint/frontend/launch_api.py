"""Launch sites: a ``<<<>>>`` expression, or a call of the runtime's or the driver's launch
functions, taken apart into what ``host.HostLaunches`` evaluates.

- ``k<<<grid, block, smem, stream>>>(args...)``;
- ``cudaLaunchKernel(k, grid, block, args, smem, stream)`` and
  ``cudaLaunchCooperativeKernel`` (the same arguments): ``k`` cast to ``void *`` or
  ``const void *``, or not (the C++ template overload), or a function-pointer variable;
  ``args`` a ``void *args[] = {&a, &b}`` array;
- ``cudaLaunchKernelEx(&config, k, args...)`` and ``cudaLaunchKernelExC(&config, k,
  args)``: the block shape is ``config.blockDim`` (``host._Flow`` follows the
  assignments to it, as it follows a ``dim3`` local's components);
- ``cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra)`` and
  ``cuLaunchCooperativeKernel`` (without ``extra``): ``f`` is a ``CUfunction`` that only a
  ``cuModuleGetFunction(&f, module, "name")`` with a literal name sets, the name of a
  kernel of the unit (its mangled name, or its plain one when it is ``extern "C"``).

A call is a launch only when it calls the toolkit's function (declared in cudalint's
stand-in or in a system header: a real toolkit's), not a project's function or method of the
same name (a mock of the runtime).
"""

from __future__ import annotations

from dataclasses import dataclass

import clang.cindex as ci

from cudalint.frontend.consteval import UO_ADDR_OF, unary_operator_kind
from cudalint.frontend.cursors import K, N, arguments, strip
from cudalint.frontend.execute import LAUNCH_CONFIG_CALLS, call_name, overloaded_callee
from cudalint.frontend.shim import SHIM_DIR
from cudalint.frontend.tree import Node

#: ``(kernel, grid, block, args, smem, stream)``.
RUNTIME_LAUNCHES = frozenset({"cudaLaunchKernel", "cudaLaunchCooperativeKernel"})
#: ``(&config, kernel, args...)`` (C++) and ``(&config, kernel, void **args)`` (C).
EX_LAUNCHES = frozenset({"cudaLaunchKernelEx", "cudaLaunchKernelExC"})
#: ``(f, gx, gy, gz, bx, by, bz, smem, stream, params[, extra])``.
DRIVER_LAUNCHES = frozenset({"cuLaunchKernel", "cuLaunchCooperativeKernel"})
API_LAUNCHES = RUNTIME_LAUNCHES | EX_LAUNCHES | DRIVER_LAUNCHES
#: The driver call that names the kernel a ``CUfunction`` holds.
MODULE_GET_FUNCTION = "cuModuleGetFunction"
#: Text that a function holding a launch contains (``walker._Words.may_launch``): ``<<<``
#: or the start of one of the launch functions' names.
LAUNCH_TEXT = (b"<<<", b"cudaLaunch", b"cuLaunch")

CASTS = frozenset({
    K.CSTYLE_CAST_EXPR.value, K.CXX_STATIC_CAST_EXPR.value,
    K.CXX_REINTERPRET_CAST_EXPR.value, K.CXX_CONST_CAST_EXPR.value,
})


def launches_text(text: bytes | str) -> bool:
    """Whether ``text`` may hold a launch (see ``LAUNCH_TEXT``)."""
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    return any(t in data for t in LAUNCH_TEXT)


def config_call(call: Node) -> Node | None:
    """The launch-configuration call of a ``<<<>>>`` expression, or None if ``call`` is not
    one."""
    for ch in call.children:
        if ch.kind == N.CALL and ch.spelling in LAUNCH_CONFIG_CALLS:
            return ch
    return None


def api_launch(call: Node) -> str | None:
    """The name of the toolkit's launch function ``call`` calls, or None. In a template
    body a call with dependent arguments (``cudaLaunchKernelEx(&cfg, kernel, args...)``
    with ``kernel`` of a parameter type) is resolved only when instantiated: it counts
    when every declaration of the name it may call is the toolkit's."""
    if call.kind != N.CALL:
        return None
    name = call_name(call)
    if name not in API_LAUNCHES:
        return None
    ref = call.referenced
    if ref is None:
        over = overloaded_callee(call)
        if over is None:
            return None
        lib = ci.conf.lib
        decls = [lib.clang_getOverloadedDecl(over, i)
                 for i in range(lib.clang_getNumOverloadedDecls(over))]
        return name if decls and all(_toolkit(d) for d in decls) else None
    if ref.kind != K.FUNCTION_DECL:
        return None  # a method
    return name if _toolkit(ref) else None


def _toolkit(decl: ci.Cursor) -> bool:
    """Whether ``decl`` is declared by the toolkit (cudalint's stand-in or a system
    header), not by the project (a function of the same name, a mock)."""
    try:
        loc = decl.location
        return bool(loc.is_in_system_header) or (
            loc.file is not None and str(loc.file.name).startswith(SHIM_DIR + "/"))
    except Exception:  # no location
        return False


def is_launch(call: Node) -> bool:
    """Whether ``call`` launches a kernel (``<<<>>>`` or a launch function)."""
    return call.kind == N.CALL and (config_call(call) is not None
                                    or api_launch(call) is not None)


def unwrap(n: Node) -> Node:
    """``n`` without parentheses, implicit conversions, casts and ``&``: what
    ``(void *)&k<4>`` or ``reinterpret_cast<const void *>(k)`` names."""
    for _ in range(16):
        n = strip(n)
        if n.kind in CASTS:
            kids = n.expr_children()
            if not kids:
                break
            n = kids[-1]
        elif n.kind == N.UNARY and len(n.children) == 1 \
                and unary_operator_kind(n.cursor) == UO_ADDR_OF:
            n = n.children[0]
        else:
            break
    return n


@dataclass(frozen=True)
class Site:
    """The parts of one launch site (``site``); a part the form does not have is None."""

    #: What names the kernel: a function (``k``, ``k<4>``) or a function-pointer
    #: variable, casts and ``&`` removed; None for the driver's launches and for a
    #: ``<<<>>>`` whose callee is not a plain reference.
    kernel: Node | None
    #: The block shape, a ``dim3`` or an integer.
    block: Node | None
    #: The driver's ``blockDimX``, ``blockDimY``, ``blockDimZ``.
    components: tuple[Node, Node, Node] | None
    #: ``cudaLaunchKernelEx``'s configuration: the object ``&config`` points to.
    config: Node | None
    #: The kernel's arguments by position, where the call passes them itself.
    args: tuple[Node, ...] | None
    #: The ``void **`` argument array (``void *args[] = {&a, &b}``), where they are in one.
    arg_array: Node | None
    #: The driver's ``CUfunction``.
    function: Node | None
    #: The launch function's name; None for ``<<<>>>``.
    api: str | None = None


def site_of(call: Node) -> Site | None:
    """``call`` taken apart, or None when it is not a launch."""
    config = config_call(call)
    if config is not None:
        callee = strip(call.children[0]) if call.children else None
        cargs = arguments(config)
        return Site(callee if callee is not None and callee.kind == N.DECL_REF else None,
                    cargs[1] if len(cargs) > 1 else None, None, None,
                    tuple(arguments(call)), None, None)
    api = api_launch(call)
    if api is None:
        return None
    a = arguments(call)
    if api in RUNTIME_LAUNCHES:
        if len(a) < 4:
            return None
        return Site(_named(a[0]), a[2], None, None, None, a[3], None, api)
    if api in EX_LAUNCHES:
        if len(a) < 2:
            return None
        cfg = strip(a[0])
        target = cfg.children[0] if cfg.kind == N.UNARY and len(cfg.children) == 1 \
            and unary_operator_kind(cfg.cursor) == UO_ADDR_OF else None
        if api == "cudaLaunchKernelExC":
            return Site(_named(a[1]), None, None, target, None,
                        a[2] if len(a) > 2 else None, None, api)
        return Site(_named(a[1]), None, None, target, tuple(a[2:]), None, None, api)
    if len(a) < 10:
        return None
    return Site(None, None, (a[4], a[5], a[6]), None, None, a[9], strip(a[0]), api)


def _named(n: Node) -> Node | None:
    k = unwrap(n)
    return k if k.kind == N.DECL_REF else None


def string_literal(n: Node) -> str | None:
    """The text of a plain string literal argument (``"kernel"``), or None."""
    n = strip(n)
    if n.kind != K.STRING_LITERAL.value:
        return None
    s = n.spelling
    if len(s) < 2 or not s.startswith('"') or not s.endswith('"') or "\\" in s:
        return None
    return s[1:-1]


def mangled_name(cursor: ci.Cursor) -> str | None:
    """The symbol a function declaration defines (its plain name when ``extern "C"``)."""
    try:
        name = cursor.mangled_name
    except Exception:
        return None
    return str(name) if name else None
