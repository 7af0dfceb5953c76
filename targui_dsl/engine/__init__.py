"""What every game shares: seeded chance (:mod:`.chance`) and the game loop (:mod:`.loop`).

A game's own rules, state and observation live in its package under
:mod:`targui_dsl.games`; see ``docs/engine.md``.
"""
