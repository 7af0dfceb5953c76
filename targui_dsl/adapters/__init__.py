"""Adapters to the frameworks people already use (each needs its extra installed):

* :mod:`.openspiel`: registers ``python_targui`` with pyspiel (``pip install '.[openspiel]'``).
* :mod:`.pettingzoo`: ``env(ruleset, players)``, an AEC environment (``pip install '.[pettingzoo]'``).

See ``docs/adapters.md``. Nothing here is imported by ``targui_dsl`` itself.
"""
