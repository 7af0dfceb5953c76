"""`targui lsp`: the language server for ruleset files, for editors (docs/editors.md)."""

from __future__ import annotations

import click

from targui_cli.common import Failure, targui_version

INSTALL = "pip install '.[lsp]' in a checkout of targui (or pip install pygls)"
PROTOCOL_PACKAGES = {"pygls", "lsprotocol"}  # what the optional extra brings


def _address(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, int] | None:
    if value is None:
        return None
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(f"{value!r} is not HOST:PORT (e.g. 127.0.0.1:2087)")
    return host, int(port)


@click.command(short_help="Serve checks, hover, completion and definitions to editors.")
@click.option("--tcp", "address", metavar="HOST:PORT", callback=_address,
              help="Listen on a TCP address instead of standard input and output.")
def lsp(address: tuple[str, int] | None) -> None:
    """Run a language server (LSP) for ruleset files, for editors.

    An editor starts it and speaks the Language Server Protocol over
    standard input and output (or, with --tcp, over a TCP connection). While
    an author types, every open ruleset file is checked as `targui
    validate` checks it, on the unsaved text: each problem at its place,
    with its code and hint, and a problem in a file it extends on its
    `extends:` line. Hovering a key, a field, a name of the effect
    language, a kind, a card or a hook moment shows what it means;
    completion offers the keys of the ruleset's schema and, in effects and
    formulas, the names of its game; go to definition follows `extends:`
    and card and kind ids.

    It needs pygls: pip install '.[lsp]' in a checkout of targui (or pip
    install pygls). docs/editors.md shows how to set it up in VS Code,
    Neovim and Helix.

    \b
    Exit status: 0 when the editor ends the session, 1 when pygls is not
    installed, 2 for a usage error.

    \b
    Examples:
      targui lsp
      targui lsp --tcp 127.0.0.1:2087
    """
    try:
        from targui_dsl.lsp.server import serve
    except ImportError as err:
        if (err.name or "").split(".")[0] not in PROTOCOL_PACKAGES:
            raise
        raise Failure(f"`targui lsp` needs pygls, which is not installed ({err.name}): {INSTALL}") from None
    serve(targui_version(), address)
