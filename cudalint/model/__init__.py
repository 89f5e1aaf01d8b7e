"""The bank model: index algebra (sympy), warp composition and per-architecture bank rules."""
