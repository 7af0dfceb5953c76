"""What every game shares: seeded chance (:mod:`.chance`), the game loop (:mod:`.loop`), and what a
game's package gives the toolkit (:mod:`.protocol`, its bots declared as :mod:`.bots` says).

A game's own rules, state and observation live in its package under
:mod:`targui_dsl.games`; see ``docs/engine.md``.
"""
