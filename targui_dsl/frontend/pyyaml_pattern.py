"""Imported before PyYAML (``yamlload.py`` does so): PyYAML's reader compiles its pattern of the
characters YAML refuses, ``yaml.reader.Reader.NON_PRINTABLE``, when it is imported, and Python's
``re`` takes a tenth of `targui validate` to compile it: its class of allowed characters spans the
whole of Unicode, which ``re``'s compiler walks character by character, in Python. The same class
written as the characters it refuses compiles in a twelfth of that. This module compiles that one
and leaves it in ``re``'s cache of compiled patterns under PyYAML's pattern, so the reader is given
it: the same characters are found (tests/test_startup.py compares the two over every code point).

Nothing is read from a file: both patterns are written here. Where ``re`` keeps no such cache, or
PyYAML is loaded already, nothing is done and PyYAML compiles its own.
"""

from __future__ import annotations

import re
import sys

#: yaml/reader.py's pattern, character for character (PyYAML 5.1 to 6.x).
PYYAML_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
#: The characters it allows, refused: the same set of characters, as ranges of the refused ones.
REFUSED = "[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]"


def spare_pyyamls_pattern() -> bool:
    """Leave the quick-to-compile pattern where ``re.compile`` of PyYAML's will find it; whether done."""
    cache = getattr(re, "_cache", None)
    if "yaml.reader" in sys.modules or not isinstance(cache, dict):
        return False
    cache.setdefault((str, PYYAML_NON_PRINTABLE, 0), re.compile(REFUSED))
    return True


spare_pyyamls_pattern()
