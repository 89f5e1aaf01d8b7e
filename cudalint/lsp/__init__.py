"""``cudalint lsp``: a language server over stdio (the extra ``lsp``: ``pip install '.[lsp]'``).

:mod:`~cudalint.lsp.positions` converts positions and needs nothing;
:mod:`~cudalint.lsp.server` needs pygls 2 and is imported only by ``cudalint lsp``.
"""
