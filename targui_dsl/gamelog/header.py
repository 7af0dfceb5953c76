"""A log's header, in one home: built from a game, sealed, and checked against a ruleset.

The header ties a log to what was played: ``sha256`` holds the content hash
of every ruleset source file (in ``files`` order) and ``seal`` a hash of the
header itself (:func:`seal`). A replay opens a file the header names only
when its hash matches (:func:`find_ruleset`), and checks the ruleset it
loaded against the header (:func:`header_problems`) without ever quoting a
file that does not match.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any

from targui_dsl.engine.told import encode_json, json_encoder
from targui_dsl.frontend.safefile import read_bounded
from targui_dsl.frontend.yamlload import MAX_BYTES

__all__ = ["LOG_FORMAT", "LOG_FORMATS", "RULESET_CAP", "build_header", "file_sha256", "header_line", "loaded_sha256",
           "seal", "seal_header", "seal_state", "find_ruleset", "header_problems"]

LOG_FORMAT = "targui-log/2"
#: Every format a log may have: format 1 lacks the events added in 2 (a game's
#: ``GamePackage.unlogged_in`` names them: for Targui, hooks and a ``deposit 0``).
LOG_FORMATS = ("targui-log/1", LOG_FORMAT)
#: No ruleset file is larger (the loader's cap): a file named in a header is hashed only up to it.
RULESET_CAP = MAX_BYTES


def build_header(game: Any, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The sealed header of a log of ``game``; ``extra`` fields (``targui play``'s ``seats``)
    are written after the engine's own and covered by the seal."""
    return seal_header(_unsealed(game, game.seed, extra))


def _unsealed(game: Any, seed: Any, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The header but for its seal, with ``seed`` as its seed."""
    ruleset = game.ruleset
    return {
        "type": "header",
        "format": LOG_FORMAT,
        "ruleset": ruleset.id,
        "title": ruleset.title,
        # absolute, so that a house rule's log replays from any directory
        "files": list(ruleset.paths),
        # what each file held when it was loaded, the rules played: a replay opens a file only if it
        # still holds this
        "sha256": loaded_sha256(ruleset),
        "players": game.players,
        "tribes": list(game.tribe_ids),
        "seed": seed,
        "explicit_chance": game.explicit_chance,
        **(extra or {}),
    }  # the seal binds the chance mode to the seed and the ruleset (docs/engine.md)


#: A seed no header holds: a header made with it, written, is cut there into the texts around a seed.
_SEED_MARK = 7_316_094_285_503_862_149
_SEAL_MARK = "~seal~"  # (a title may be this: a header whose text holds a mark twice is not cut)
#: The header's texts around its seed and seal, by all else it holds (a study logs thousands of
#: games of one ruleset and seating, each header sealed and written: some 0.03x of a game):
#: the seal's hash of the canonical text up to the seed, the canonical text after it, and the
#: line cut at the seed and at the seal. None: a header whose text holds a mark twice.
_CUT: dict[tuple[Any, ...], tuple[Any, bytes, str, str, str] | None] = {}
_CUT_CAP = 64


def header_line(game: Any, extra: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    """The sealed header of a log of ``game`` (:func:`build_header`) and its line: ``json.dumps(header,
    separators=(",", ":"))`` and a newline. A header without ``extra`` fields is written from its
    texts cut around the seed and seal, made once per ruleset files, their hashes and seating."""
    seed = game.seed
    if extra or type(seed) is not int:
        header = build_header(game, extra)
        return header, _encode(header) + "\n"
    body = _unsealed(game, _SEED_MARK)
    # (a number by its type too: 1 and True are equal keys, not equal texts)
    key = tuple([value if type(value) is str else tuple(value) if type(value) is list else (type(value), value)
                 for value in body.values()])
    if key not in _CUT:
        if len(_CUT) >= _CUT_CAP:
            _CUT.clear()
        _CUT[key] = _cut(body)
    cut = _CUT[key]
    body["seed"] = seed
    if cut is None:
        header = {**body, "seal": seal(body)}
        return header, _encode(header) + "\n"
    started, canonical_end, before_seed, before_seal, end = cut
    digest = started.copy()
    digest.update(str(seed).encode("ascii") + canonical_end)
    sealed = digest.hexdigest()
    body["seal"] = sealed
    return body, f"{before_seed}{seed}{before_seal}{sealed}{end}"


def _cut(body: dict[str, Any]) -> tuple[Any, bytes, str, str, str] | None:
    """:func:`header_line`'s texts of a header (``body``, its seed the mark, no seal), or None."""
    mark = str(_SEED_MARK)
    canonical = _canonical(body).split(mark)
    line = (_encode({**body, "seal": _SEAL_MARK}) + "\n").split(mark)
    if len(canonical) != 2 or len(line) != 2:
        return None
    sealed = line[1].split(_encode(_SEAL_MARK))
    if len(sealed) != 2:
        return None
    started = hashlib.sha256(_SEAL_PREFIX + canonical[0].encode("ascii"))
    return started, canonical[1].encode("ascii"), line[0], sealed[0] + '"', '"' + sealed[1]


#: A ruleset's files' bytes -> their sha256s: hashed at the first log of the ruleset, not loading it
#: (hashlib's import is 3% of `targui validate`), nor at every log.
_LOADED: dict[tuple[bytes | None, ...], list[str | None]] = {}
_LOADED_CAP = 64


def loaded_sha256(ruleset: Any) -> list[str | None]:
    """The sha256 of each of ``ruleset``'s files as it was loaded (``file_bytes``; None for a text
    not read from a file), in ``files`` order."""
    data = ruleset.file_bytes
    known = _LOADED.get(data)
    if known is None:
        if len(_LOADED) >= _LOADED_CAP:
            _LOADED.clear()
        known = _LOADED[data] = [None if raw is None else hashlib.sha256(raw).hexdigest() for raw in data]
    return known[:]


def file_sha256(path: str | os.PathLike) -> str | None:
    """The sha256 of a ruleset file's bytes; None when it cannot be read again
    (a pipe, already read; a file gone) or is larger than any ruleset."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        data = read_bounded(os.fspath(path), RULESET_CAP)
    except (OSError, ValueError):
        return None
    if len(data) > RULESET_CAP:
        return None
    return hashlib.sha256(data).hexdigest()


#: ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``, made once: the
#: header's canonical text (a log's every header is sealed, and a log of every game of a study).
_canonical = json_encoder(sort_keys=True)
_SEAL_PREFIX = b"targui-log-seal/1\n"  # what a seal's hash reads before the header's text
_encode = encode_json  # a header's line: json.dumps(header, separators=(",", ":"))


def seal(header: dict[str, Any]) -> str:
    """The header's seal: the sha256 of every other field of the header, written canonically.

    It binds the chance mode (``explicit_chance``) to the seed, the ruleset
    hashes and the players: a text edit of any of them (turning explicit
    chance on in a seeded log, say) no longer matches the seal, and
    ``replay --verify`` fails. It is a checksum, not a signature: whoever
    recomputes it can turn a seeded log into one with explicit chance, but
    such a log is never reported as verified.
    """
    body = {k: v for k, v in header.items() if k != "seal"}
    text = _canonical(body)
    return hashlib.sha256(_SEAL_PREFIX + text.encode("ascii")).hexdigest()


def seal_header(header: dict[str, Any]) -> dict[str, Any]:
    """``header`` with its seal (written last)."""
    body = {k: v for k, v in header.items() if k != "seal"}
    return {**body, "seal": seal(body)}


def seal_state(header: dict[str, Any]) -> str:
    """``sealed``, ``unsealed`` (an older log) or ``broken`` (edited since it was written)."""
    if "seal" not in header:
        return "unsealed"
    return "sealed" if header["seal"] == seal(header) else "broken"


def find_ruleset(header: dict[str, Any], log_path: str) -> str | None:
    """Where to load a log's ruleset from: the file the header names, only if its
    sha256 matches the header's (tried as written, then from the log's folder);
    else the built-in of that id; None if neither.

    A path in a header is never opened unless the header holds its hash, and
    then only read to compute the hash: a stranger's log cannot make targui
    read, let alone print, any other file.
    """
    from targui_dsl.frontend.resolve import is_builtin_name
    from targui_dsl.frontend.resources import builtin_ruleset_path

    files = header.get("files") or []
    hashes = header.get("sha256") or []
    if files and hashes and isinstance(hashes[0], str):
        first = Path(files[0])
        for candidate in (first, Path(log_path).resolve().parent / first):
            try:
                if file_sha256(candidate) == hashes[0]:
                    return str(candidate)
            except (OSError, ValueError):  # a name too long for the file system, a NUL byte
                continue
    ruleset = header["ruleset"]
    if is_builtin_name(ruleset):
        try:
            if builtin_ruleset_path(ruleset) is not None:
                return str(ruleset)
        except (OSError, ValueError):
            pass
    return None


def header_problems(ruleset: Any, header: dict[str, Any]) -> list[str]:
    """How the ruleset loaded differs from the one the header says the game was played
    with: its title, and the content of each source file (by hash, never quoting it).
    The id and the players are checked where the game is set up."""
    problems = []
    title = header.get("title")
    if title is not None and title != ruleset.title:
        problems.append(f"the log's title `{title}` is not the ruleset's title `{ruleset.title}`")
    logged = header.get("sha256")
    if logged is not None:
        files, now = list(ruleset.files), loaded_sha256(ruleset)
        if len(logged) != len(files):
            problems.append(f"the game was played with {len(logged)} ruleset file(s), the ruleset loaded has "
                            f"{len(files)}")
        else:
            for path, was, is_ in zip(files, logged, now, strict=True):
                if was is not None and is_ is not None and was != is_:  # None: not read from a file
                    problems.append(f"{path} is not the file the game was played with (its sha256 differs)")
    return problems
