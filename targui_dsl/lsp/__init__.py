"""`targui lsp`: a language server for ruleset files (docs/editors.md).

It names no game: the ruleset's ``game:`` picks the package whose vocabulary and
schema it offers (:func:`targui_dsl.games.game_package`). ``positions``, ``outline``
and ``knowledge`` need nothing but the standard library and the front end;
``server`` speaks the protocol through pygls (the ``lsp`` extra).
"""
