"""Every diagnostic code the shared stages can give, with what it means: the one table.

``docs/diagnostics.md`` is tested against it, and it against the code
(tests/test_docs_diagnostics.py): a code raised anywhere in the library is
here, a code here is raised somewhere, and the docs list each one. A game's
own meaning checks (E04xx) have their table in the game's package
(``games/<game>/codes.py``), since they speak the game's words.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

#: code -> what it reports, in a line (the docs give the full story).
CODES: Mapping[str, str] = MappingProxyType({
    # the report itself
    "E0001": "an abstract base named as the ruleset to play",
    "E0002": "and N more problems, not shown",
    # loading YAML (frontend/yamlload.py)
    "E0101": "a YAML syntax error, or a character YAML forbids, or a number too long to read",
    "E0102": "an anchor or an alias",
    "E0103": "the same key twice in one mapping",
    "E0104": "a plain value YAML 1.1 and YAML 1.2 read differently",
    "E0105": "a key that is not text",
    "E0106": "the file is too large",
    "E0107": "lists and mappings nested too deep",
    "E0108": "the file cannot be read",
    "E0109": "the file is not UTF-8",
    "E0110": "the file is empty, its top level is not a mapping, or it holds a second document",
    "E0111": "a tag that is not allowed, or a value that does not fit its tag",
    "E0112": "the file holds too many values",
    # extends chains (frontend/resolve.py)
    "E0201": "the parent does not exist",
    "E0202": "the extends chain makes a cycle",
    "E0203": "extends is not text",
    "E0204": "the extends chain is too long",
    "E0205": "a deck edit (add/remove) that cannot be applied",
    # the game and the schema (frontend/build.py, frontend/schema.py)
    "E0301": "a value of the wrong type",
    "E0302": "an unknown key",
    "E0303": "a setting a complete ruleset must have is missing",
    "E0304": "a value that is not allowed",
    "E0305": "`game:` names a game targui does not play",
    # the effect language (effects/)
    "E0501": "a syntax error",
    "E0502": "an unknown name or function",
    "E0503": "an unknown field",
    "E0504": "a type mismatch",
    "E0505": "something that cannot be changed is assigned",
    "E0506": "wrong arguments to a function",
    "E0507": "`/` used",
    "E0508": "`this round` on a value that cannot be changed for one round",
    "E0509": "a formula giving the wrong type",
    "E0510": "a local name reusing a name already bound",
    "E0511": "over a limit: a number too large, or nesting too deep",
    "E0520": "a die thrown where the snippet cannot pause",
    "E0521": "a die with a number of sides outside 1-100",
    "E0522": "a choice over too large a range or list",
    "E0523": "a snippet that can ask more choices in one run than a run may ask (warning)",
    "E0524": "an `end game` reason that is empty, too long or not one line of text",
    "E0525": "`break` outside a `for` loop",
    "E0526": "an unknown procedure, or wrong arguments to one",
    "E0530": "over a size cap",
    "E0531": "a snippet too costly to run",
    "E0532": "a division that can be by zero",
    # declared memory (effects/memory.py)
    "E0540": "a memory name that clashes with a name already given, or memory in a game that keeps none",
    "E0541": "memory bounds or a start value that do not fit",
    "E0542": "`visible: owner` on memory no player owns",
})
