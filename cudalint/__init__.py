"""cudalint: prove shared-memory bank conflicts in CUDA sources, statically."""

__version__ = "0.1.0"
