"""The block shapes an access is proved for: from ``--block-dim``, the kernel's
``// cudalint: block-dim`` annotation, the launches that reach it (known or partly known
``dim3``), or else the assumed shape (every legal shape whose ``blockDim.x`` is a
multiple of 32)."""

from __future__ import annotations

from dataclasses import dataclass

from cudalint.ir import Access, BlockDimSource, Kernel, TranslationUnit
from cudalint.model.arch import MAX_THREADS_PER_BLOCK
from cudalint.model.warps import Partial
from cudalint.options import Options

__all__ = ["Shape", "shapes_for"]


@dataclass(frozen=True)
class Shape:
    dims: tuple[int, int, int] | None
    source: BlockDimSource
    max_threads: int = MAX_THREADS_PER_BLOCK
    #: With ``dims`` None: the known components of the launch's shape (``(32, None, None)``
    #: for ``dim3(32, by, bz)``); the assumed enumeration is restricted to the legal shapes
    #: that agree with them. None: nothing is known (the assumed shape).
    fixed: Partial | None = None
    #: A shape of a set the host code bounds a run-time value to, and that set in
    #: words (``Launch.bound``); None: a shape a launch runs as such.
    bound: str | None = None
    #: Every bounded set (``Launch.bound``) the shape is one of, ``bound``'s among them
    #: where it is not None: a shape two launches' sets share (or a constant launch runs
    #: too) is one of each set's shapes when the set's costs are compared.
    sets: frozenset[str] = frozenset()

    @property
    def reported(self) -> Partial | None:
        return self.dims if self.dims is not None else self.fixed


def shapes_for(kernel: Kernel | None, tu: TranslationUnit, access: Access, options: Options
               ) -> list[Shape]:
    cap = kernel.max_threads if kernel and kernel.max_threads else MAX_THREADS_PER_BLOCK
    if options.block_dim is not None:
        return [Shape(options.block_dim, options.block_dim_source, cap)]
    if kernel is not None and kernel.annotated_block is not None:
        return [Shape(kernel.annotated_block, "annotation", cap)]
    dims = sorted(
        {
            launch.block
            for launch in tu.launches
            if launch.kernel == access.kernel
            and launch.block is not None
            and (launch.instantiation is None or access.instantiation is None
                 or launch.instantiation == access.instantiation)
        }
    )
    partial = sorted(
        {
            launch.partial
            for launch in tu.launches
            if launch.kernel == access.kernel
            and launch.block is None and launch.partial is not None
            and (launch.instantiation is None or access.instantiation is None
                 or launch.instantiation == access.instantiation)
        },
        key=lambda p: tuple(-1 if v is None else v for v in p),
    )
    if dims or partial:
        # a shape some launch runs as such is not a member of a bounded set only
        bounds: dict[tuple[int, int, int], str | None] = {}
        sets: dict[tuple[int, int, int], set[str]] = {}
        for launch in tu.launches:
            if launch.kernel == access.kernel and launch.block is not None \
                    and (launch.instantiation is None or access.instantiation is None
                         or launch.instantiation == access.instantiation):
                if launch.bound is None:
                    bounds[launch.block] = None
                else:
                    bounds.setdefault(launch.block, launch.bound)
                    sets.setdefault(launch.block, set()).add(launch.bound)
        # ``dim3(32, by, bz)``: every (by, bz) the hardware allows, each warp one row
        shapes = [Shape(d, "launch", cap, bound=bounds.get(d),
                        sets=frozenset(sets.get(d, ()))) for d in dims] + [
            Shape(None, "launch", cap, p) for p in partial
        ]
        # A launch whose shape is not known at all (``k<<<g, n>>>`` with a run-time n)
        # may run any shape: it adds the assumed ones, so the known launches alone
        # never prove the access.
        if any(launch.kernel == access.kernel and launch.block is None
               and launch.partial is None
               and (launch.instantiation is None or access.instantiation is None
                    or launch.instantiation == access.instantiation)
               for launch in tu.launches):
            shapes.append(Shape(None, "assumed", cap))
        return shapes
    return [Shape(None, "assumed", cap)]
