"""The language server: the protocol (pygls) around :mod:`targui_dsl.lsp.analysis`.

Every open file is checked on open, change and save, on the editor's text, with the
unsaved text of every other open file (a parent being edited counts as written). A file
that extends an open file is checked again when that file changes. An error inside the
server is written to the client's log (window/logMessage) and the request answers
nothing; the server goes on.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import traceback
from typing import Any, Callable, TypeVar
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from targui_dsl.frontend.resolve import file_key
from targui_dsl.lsp.analysis import Analysis, Problem, Spot, analyse
from targui_dsl.lsp.knowledge import Offer
from targui_dsl.lsp.positions import Point, Text

NAME = "targui"

#: Seconds a changed text must stay unchanged before it is checked (hover and completion
#: never wait: they check the present text when it has not been checked yet).
SETTLE = 0.2

_KINDS = {
    "key": lsp.CompletionItemKind.Property,
    "field": lsp.CompletionItemKind.Field,
    "global": lsp.CompletionItemKind.Variable,
    "function": lsp.CompletionItemKind.Function,
    "procedure": lsp.CompletionItemKind.Method,
    "keyword": lsp.CompletionItemKind.Keyword,
    "parameter": lsp.CompletionItemKind.Variable,
    "id": lsp.CompletionItemKind.Constant,
    "value": lsp.CompletionItemKind.EnumMember,
}

_F = TypeVar("_F", bound=Callable[..., Any])


class RulesetServer(LanguageServer):
    """The server, with the last analysis of every open file."""

    def __init__(self, version: str) -> None:
        super().__init__(NAME, version, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.analyses: dict[str, Analysis] = {}  # by uri

    def encoding(self) -> str:
        """The position encoding agreed with the client (UTF-16 unless it offered another)."""
        chosen = self.workspace.position_encoding
        return str(chosen.value if isinstance(chosen, lsp.PositionEncodingKind) else chosen or "utf-16")

    def texts(self) -> dict[str, str]:
        """The text of every open file, by its absolute path."""
        return {_path(uri): document.source for uri, document in self.workspace.text_documents.items()}

    def check(self, uri: str) -> None:
        """Analyse an open file and publish its diagnostics, then those of the open files that
        extend it."""
        path = _path(uri)
        if unquote(uri) not in self.workspace.text_documents:
            return
        texts = self.texts()
        self._check_one(uri, path, texts)
        for other, analysis in list(self.analyses.items()):
            if other != uri and path in analysis.chain[1:]:
                if _path(other) in texts:
                    self._check_one(other, _path(other), texts)

    def _check_one(self, uri: str, path: str, texts: dict[str, str]) -> None:
        analysis = analyse(path, texts, self.encoding())
        self.analyses[uri] = analysis
        version = self.workspace.get_text_document(uri).version
        diagnostics = [self._diagnostic(analysis, problem) for problem in analysis.problems()]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    def _diagnostic(self, analysis: Analysis, problem: Problem) -> lsp.Diagnostic:
        d = problem.diagnostic
        related = None
        if problem.elsewhere is not None:
            related = [lsp.DiagnosticRelatedInformation(location=_location(problem.elsewhere),
                                                        message=d.message)]
        return lsp.Diagnostic(
            range=_range(analysis.text, problem.start, problem.end),
            message=problem.message,
            severity=lsp.DiagnosticSeverity.Error if d.is_error else lsp.DiagnosticSeverity.Warning,
            code=d.code,
            source=NAME,
            related_information=related,
        )

    def current(self, uri: str) -> Analysis | None:
        """The analysis of an open file's present text (made now if the text changed since); None
        for a file the editor has not opened (the server reads no file it was not given)."""
        analysis = self.analyses.get(uri)
        document = self.workspace.text_documents.get(unquote(uri))
        if document is None:
            return None
        if analysis is None or analysis.text.text != document.source:
            analysis = self.analyses[uri] = analyse(_path(uri), self.texts(), self.encoding())
        return analysis

    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Error) -> None:
        self.window_log_message(lsp.LogMessageParams(type=kind, message=message))


def _path(uri: str) -> str:
    """The file of a uri (an unsaved, untitled buffer: a file in the working directory)."""
    path = to_fs_path(uri)
    if path is None or not uri.startswith("file:"):
        name = os.path.basename(uri.split(":", 1)[-1]) or "untitled"
        path = os.path.join(os.getcwd(), name if name.endswith((".yaml", ".yml")) else name + ".yaml")
    return file_key(path)


def _uri(path: str) -> str:
    return from_fs_path(path) or path


def _position(text: Text, offset: int) -> lsp.Position:
    point = text.point(offset)
    return lsp.Position(line=point.line, character=point.character)


def _range(text: Text, start: int, end: int) -> lsp.Range:
    return lsp.Range(start=_position(text, start), end=_position(text, end))


def _location(spot: Spot) -> lsp.Location:
    return lsp.Location(uri=_uri(spot.path), range=_range(spot.text, spot.start, spot.end))


def _offset(analysis: Analysis, position: lsp.Position) -> int:
    return analysis.text.offset(Point(position.line, position.character))


def _guarded(function: _F) -> _F:
    """A handler whose errors are logged to the client, never raised: the server goes on."""

    @functools.wraps(function)
    def wrapper(server: RulesetServer, params: Any) -> Any:
        try:
            return function(server, params)
        except Exception as exc:  # noqa: BLE001 - a bug in the server must not end the session
            server.log(f"targui lsp: internal error in {function.__name__}: {type(exc).__name__}: {exc}\n"
                       + traceback.format_exc())
            return None

    return wrapper  # type: ignore[return-value]


def _item(offer: Offer) -> lsp.CompletionItem:
    return lsp.CompletionItem(
        label=offer.label,
        kind=_KINDS.get(offer.kind, lsp.CompletionItemKind.Text),
        detail=offer.detail or None,
        documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=offer.meaning) if offer.meaning else None,
        insert_text=offer.insert,
    )


def make_server(version: str) -> RulesetServer:
    """A server with every feature registered."""
    server = RulesetServer(version)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @_guarded
    def did_open(ls: RulesetServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulesetServer, params: lsp.DidChangeTextDocumentParams) -> None:
        # While the author types, wait until the text settles: one check for a burst of changes.
        uri, version = params.text_document.uri, params.text_document.version
        await asyncio.sleep(SETTLE)
        document = ls.workspace.text_documents.get(unquote(uri))
        if document is not None and document.version == version:
            _guarded(RulesetServer.check)(ls, uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    @_guarded
    def did_save(ls: RulesetServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded
    def did_close(ls: RulesetServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        closed = ls.analyses.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        # the files extending it read it from the disk now
        for other, analysis in list(ls.analyses.items()):
            if closed is not None and closed.path in analysis.chain[1:]:
                ls.check(other)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_guarded
    def hover(ls: RulesetServer, params: lsp.HoverParams) -> lsp.Hover | None:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return None
        offset = _offset(analysis, params.position)
        said = analysis.hover(offset)
        if said is None:
            return None
        place = analysis.place(offset)  # the word hovered, for the editor to highlight
        shown = _range(analysis.text, place.start, place.end) if place.start < place.end else None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=said), range=shown)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    @_guarded
    def completion(ls: RulesetServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return None
        offers = analysis.offers(_offset(analysis, params.position))
        return lsp.CompletionList(is_incomplete=False, items=[_item(offer) for offer in offers])

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @_guarded
    def definition(ls: RulesetServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return None
        return [_location(spot) for spot in analysis.definitions(_offset(analysis, params.position))] or None

    return server


def serve(version: str, tcp: tuple[str, int] | None = None) -> None:
    """Run the server on standard input and output, or on a TCP address, until the client ends it."""
    import sys

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    server = make_server(version)
    if tcp is not None:
        server.start_tcp(*tcp)
        return
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing printed by mistake may corrupt the protocol's stream
    server.start_io(stdin, stdout)


__all__ = ["RulesetServer", "make_server", "serve"]
