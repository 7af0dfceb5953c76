"""`targui lsp` driven as an editor drives it: a real LSP client (pygls's) starts
`python -m targui_cli.main lsp` and speaks the protocol over its standard input and output.

Timeouts here only keep a broken server from hanging the suite; nothing is timed.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

import targui_cli  # noqa: E402
import targui_dsl  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: Where the server finds targui: where these tests found it (the checkout, or CI's install), so the
#: server and the test name the same built-in files.
SERVER_PATH = [str(Path(targui_dsl.__file__).resolve().parent.parent), str(Path(targui_cli.__file__).parent.parent)]
HANG = 120  # seconds: only a hung server takes this long

HOUSE_RULE = """\
extends: original-dutch
id: typo-rule
title: A house rule with a typo
cards:
  drought:
    effect: for t in territories where t.kind == gueltaa { t.camels = 0 }
"""


class Session:
    """A client with the server started, collecting the diagnostics it publishes."""

    def __init__(self) -> None:
        self.client = LanguageClient("targui-test", "1")
        self.published: dict[str, list[lsp.PublishDiagnosticsParams]] = {}
        self.logged: list[str] = []
        self.arrived = asyncio.Condition()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            async with self.arrived:
                self.published.setdefault(params.uri, []).append(params)
                self.arrived.notify_all()

        @self.client.feature(lsp.WINDOW_LOG_MESSAGE)
        def log(params: lsp.LogMessageParams) -> None:
            self.logged.append(params.message)

    async def start(self, folder: Path) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(SERVER_PATH))
        await self.client.start_io(sys.executable, "-m", "targui_cli.main", "lsp", env=env, cwd=str(folder))
        await asyncio.wait_for(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(folder)))), HANG)
        self.client.initialized(lsp.InitializedParams())

    async def diagnostics(self, uri: str, count: int) -> list[lsp.Diagnostic]:
        """The diagnostics of the ``count``-th publication for ``uri`` (from 1)."""
        async with self.arrived:
            await asyncio.wait_for(self.arrived.wait_for(lambda: len(self.published.get(uri, [])) >= count), HANG)
        return self.published[uri][count - 1].diagnostics

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path))
        assert uri is not None
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def change(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    async def hover(self, uri: str, line: int, character: int) -> str | None:
        found = await asyncio.wait_for(self.client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line, character))), HANG)
        if found is None:
            return None
        assert isinstance(found.contents, lsp.MarkupContent)
        # the word hovered is the range
        assert found.range is not None and found.range.start.line == found.range.end.line == line
        assert found.range.start.character <= character <= found.range.end.character
        return found.contents.value

    async def complete(self, uri: str, line: int, character: int) -> list[lsp.CompletionItem]:
        found = await asyncio.wait_for(self.client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line, character))), HANG)
        return found.items if isinstance(found, lsp.CompletionList) else list(found or [])

    async def definition(self, uri: str, line: int, character: int) -> list[lsp.Location]:
        found: Any = await asyncio.wait_for(self.client.text_document_definition_async(lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line, character))), HANG)
        return found if isinstance(found, list) else [found] if found else []

    async def stop(self) -> None:
        await asyncio.wait_for(self.client.shutdown_async(None), HANG)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), HANG)


def run(test: Any, folder: Path) -> None:
    """Run ``test(session)`` against a fresh server whose working directory is ``folder``."""

    async def main() -> None:
        session = Session()
        await session.start(folder)
        try:
            await test(session)
        finally:
            await session.stop()

    asyncio.run(main())


def position_of(text: str, needle: str, into: int = 0) -> tuple[int, int]:
    """(line, character) from 0 of ``needle`` (plus ``into`` characters) in ``text``."""
    index = text.index(needle) + into
    line = text.count("\n", 0, index)
    return line, index - (text.rfind("\n", 0, index) + 1)


def test_a_typo_is_reported_at_its_range_with_its_hint_and_clears_when_fixed(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text(HOUSE_RULE, encoding="utf-8")

    async def test(session: Session) -> None:
        uri = session.open(path, HOUSE_RULE)
        (diagnostic,) = await session.diagnostics(uri, 1)
        line, character = position_of(HOUSE_RULE, "gueltaa")
        assert diagnostic.range == lsp.Range(lsp.Position(line, character), lsp.Position(line, character + 7))
        assert diagnostic.code == "E0502" and diagnostic.severity == lsp.DiagnosticSeverity.Error
        assert "unknown name `gueltaa`" in diagnostic.message
        assert "did you mean `guelta`?" in diagnostic.message  # the hint
        # the unsaved buffer is what is checked: the file on disk keeps its typo
        session.change(uri, 2, HOUSE_RULE.replace("gueltaa", "guelta"))
        assert list(await session.diagnostics(uri, 2)) == []

    run(test, tmp_path)


def test_a_problem_in_an_extended_file_shows_on_the_extends_line(tmp_path):
    parent = tmp_path / "parent.yaml"
    parent_text = "extends: original-dutch\nid: parent\ntitle: Parent\ncamels:\n  box: many\n"
    parent.write_text(parent_text, encoding="utf-8")
    child_text = "extends: parent.yaml\nid: child\ntitle: Child\n"

    async def test(session: Session) -> None:
        uri = session.open(tmp_path / "child.yaml", child_text)
        (diagnostic,) = await session.diagnostics(uri, 1)
        assert diagnostic.range.start == lsp.Position(0, 9)  # the value of `extends:`
        assert diagnostic.message.startswith("in `parent.yaml` line 5: ")
        assert diagnostic.code == "E0301"
        (related,) = diagnostic.related_information or []
        assert related.location.uri == from_fs_path(str(parent))
        assert related.location.range.start == lsp.Position(4, 7)
        # the parent opened and fixed in the editor, unsaved: the child is checked again against it
        parent_uri = session.open(parent, parent_text)
        assert [d.code for d in await session.diagnostics(parent_uri, 1)] == ["E0301"]
        assert [d.code for d in await session.diagnostics(uri, 2)] == ["E0301"]  # checked again with it
        session.change(parent_uri, 2, parent_text.replace("many", "300"))
        assert list(await session.diagnostics(parent_uri, 2)) == []
        assert list(await session.diagnostics(uri, 3)) == []

    run(test, tmp_path)


def test_hover_tells_what_a_name_means(tmp_path):
    from targui_dsl.effects.names import FUNCTIONS
    from targui_dsl.games import game_package

    vocabulary = game_package("targui").vocabulary
    text = ("extends: original-dutch\nid: hover\ntitle: Hover\nhooks:\n  turn_start:\n"
            "    - player.cash += count(t in player.territories where t.kind == erg)\n")

    async def test(session: Session) -> None:
        uri = session.open(tmp_path / "hover.yaml", text)
        assert list(await session.diagnostics(uri, 1)) == []
        field = await session.hover(uri, *position_of(text, ".cash", 2))
        assert field is not None and vocabulary.fields[next(iter(vocabulary.fields))] is not None
        assert any(f.meaning in field for fields in vocabulary.fields.values() for n, f in fields.items()
                   if n == "cash")
        function = await session.hover(uri, *position_of(text, "count", 1))
        assert function is not None and FUNCTIONS["count"] in function
        moment = await session.hover(uri, *position_of(text, "turn_start", 1))
        assert moment is not None and vocabulary.hook_meanings["turn_start"] in moment
        kind = await session.hover(uri, *position_of(text, "erg)", 1))
        assert kind is not None and "territory kind" in kind and "Erg (sand dunes)" in kind
        key = await session.hover(uri, *position_of(text, "hooks", 1))
        assert key is not None and "Hooks" in key
        assert await session.hover(uri, 1, 0) is not None  # `id`, from the schema
        assert await session.hover(uri, *position_of(text, "+=", 0)) is None

    run(test, tmp_path)


def test_completion_offers_the_games_names_and_the_schemas_keys(tmp_path):
    from targui_dsl.games import game_package

    vocabulary = game_package("targui").vocabulary
    text = "extends: original-dutch\nid: done\ntitle: Done\ncombat:\n  att\nlevy: sum(t.econ for t in player.ter\n"

    async def test(session: Session) -> None:
        uri = session.open(tmp_path / "complete.yaml", text)
        await session.diagnostics(uri, 1)
        keys = {item.label for item in await session.complete(uri, *position_of(text, "att", 3))}
        assert keys == {"defender_loses", "attacker_loses"}
        fields = {item.label for item in await session.complete(uri, *position_of(text, "econ", 4))}
        assert "economic" in fields and "territories" in fields and "sum" not in fields
        names = {item.label: item for item in await session.complete(uri, *position_of(text, "sum", 1))}
        assert set(vocabulary.globals) <= set(names) and {"sum", "roll", "player", "erg", "kel_ress"} <= set(names)
        assert "die" not in names  # a combat formula's parameter, not the levy's
        top = {item.label for item in await session.complete(uri, 5, 0)}
        assert {"cards", "deck", "hooks", "combat"} <= top

    run(test, tmp_path)


def test_go_to_definition_of_extends_and_of_a_card(tmp_path):
    from targui_dsl.frontend.resources import builtin_ruleset_path

    (tmp_path / "mine.yaml").write_text("extends: original-dutch\nid: mine\ntitle: Mine\n", encoding="utf-8")
    text = "extends: mine.yaml\nid: child\ntitle: Child\ndeck:\n  remove: [spring]\n  add: []\n"

    async def test(session: Session) -> None:
        uri = session.open(tmp_path / "child.yaml", text)
        await session.diagnostics(uri, 1)
        (parent,) = await session.definition(uri, 0, 12)
        assert parent.uri == from_fs_path(str(tmp_path / "mine.yaml"))
        found = await session.definition(uri, *position_of(text, "spring", 2))
        base = builtin_ruleset_path("base")
        assert base is not None
        assert from_fs_path(str(base)) in [location.uri for location in found]
        base_text = base.read_text(encoding="utf-8")
        (at_base,) = [location for location in found if location.uri == from_fs_path(str(base))]
        assert at_base.range.start == lsp.Position(*position_of(base_text, "\n  spring:", 3))

    run(test, tmp_path)


def test_a_file_that_is_not_yaml_is_a_diagnostic_and_the_server_goes_on(tmp_path):
    broken = "extends: original-dutch\nid: [unclosed\n"

    async def test(session: Session) -> None:
        uri = session.open(tmp_path / "broken.yaml", broken)
        (diagnostic,) = await session.diagnostics(uri, 1)
        assert diagnostic.code.startswith("E01")
        # hover and completion on a file that does not parse still answer
        assert await session.complete(uri, 1, 0)
        session.change(uri, 2, "extends: original-dutch\nid: fixed\ntitle: Fixed\n")
        assert list(await session.diagnostics(uri, 2)) == []

    run(test, tmp_path)


def test_without_pygls_the_command_says_how_to_install_it(tmp_path):
    """An interpreter in which pygls cannot be imported: a one-line error naming the extra."""
    import subprocess

    blocker = tmp_path / "pygls"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('no pygls here', name='pygls')\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *SERVER_PATH]))
    done = subprocess.run([sys.executable, "-m", "targui_cli.main", "lsp"], capture_output=True, text=True,
                          env=env, timeout=HANG, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert "pip install '.[lsp]'" in done.stderr and "Traceback" not in done.stderr
    helped = subprocess.run([sys.executable, "-m", "targui_cli.main", "lsp", "--help"], capture_output=True,
                            text=True, env=env, timeout=HANG)
    assert helped.returncode == 0 and "--tcp HOST:PORT" in helped.stdout


def test_a_file_the_editor_did_not_open_is_not_read_and_the_server_goes_on(tmp_path):
    (tmp_path / "never-opened.yaml").write_text(HOUSE_RULE, encoding="utf-8")
    text = "extends: original-dutch\nid: open\ntitle: Open\n"

    async def test(session: Session) -> None:
        unopened = from_fs_path(str(tmp_path / "never-opened.yaml"))
        assert unopened is not None
        assert await session.hover(unopened, 5, 50) is None
        assert await session.complete(unopened, 0, 0) == []
        uri = session.open(tmp_path / "open.yaml", text)
        assert list(await session.diagnostics(uri, 1)) == []
        assert unopened not in session.published
        assert await session.hover(uri, 1, 0) is not None

    run(test, tmp_path)


def test_an_error_in_a_handler_goes_to_the_clients_log_and_the_answer_is_empty():
    from targui_dsl.lsp.server import RulesetServer, _guarded

    server = RulesetServer("test")
    logged: list[lsp.LogMessageParams] = []
    server.window_log_message = logged.append  # type: ignore[method-assign]  # the client's log, kept

    def hover(ls: RulesetServer, params: Any) -> str:
        raise KeyError("a bug")

    assert _guarded(hover)(server, None) is None
    (entry,) = logged
    assert entry.type == lsp.MessageType.Error
    assert "internal error in hover: KeyError" in entry.message and "Traceback" in entry.message


def test_over_tcp_the_same_diagnostics(tmp_path):
    import socket
    import subprocess

    with socket.socket() as probe:  # a free port, for the server to take
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(SERVER_PATH))
    server = subprocess.Popen([sys.executable, "-m", "targui_cli.main", "lsp", "--tcp", f"127.0.0.1:{port}"],
                              env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)

    async def main() -> None:
        session = Session()
        for _ in range(HANG * 10):  # until the server listens
            try:
                await session.client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.1)
        await asyncio.wait_for(session.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities())), HANG)
        session.client.initialized(lsp.InitializedParams())
        uri = session.open(tmp_path / "typo.yaml", HOUSE_RULE)
        (diagnostic,) = await session.diagnostics(uri, 1)
        assert diagnostic.code == "E0502" and "did you mean `guelta`?" in diagnostic.message
        await asyncio.wait_for(session.client.shutdown_async(None), HANG)
        session.client.exit(None)

    try:
        asyncio.run(main())
        assert server.wait(timeout=HANG) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
