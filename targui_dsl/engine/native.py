"""Whether a module runs compiled.

The compiled build (``TARGUI_COMPILE=1 pip install .``, setup.py's COMPILED) makes C
extensions of some modules, with the pure-Python source as the fallback. A module that
takes another road when compiled asks about itself: ``COMPILED = compiled(__file__)``.
"""

from __future__ import annotations


def compiled(path: str) -> bool:
    """Whether the module at ``path`` (its ``__file__``) is a compiled extension: a mypyc
    module's file is the extension, not its source or its bytecode."""
    return not path.endswith((".py", ".pyc"))
