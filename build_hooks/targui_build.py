"""setuptools' build backend, asking for mypy (mypyc) only when ``TARGUI_COMPILE`` is set (see setup.py)."""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the backend's other hooks, as setuptools has them)
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

# mypyc type-checks what it compiles: it needs the modules those import, typed
COMPILE_REQUIRES = ["mypy>=1.8", "pyyaml>=6.0", "lark>=1.1.9", "jsonschema>=4.18", "click>=8.1"]


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    if os.environ.get("TARGUI_COMPILE", "").strip().lower() in ("1", "yes", "true", "on"):
        requires += COMPILE_REQUIRES
    return requires
