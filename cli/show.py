"""`targui show`, `targui schema` and `targui rulesets`: look at rulesets."""

from __future__ import annotations

from typing import Any

import click
import yaml  # dumping only: files are read with targui_dsl.frontend.yamlload

from targui_cli.common import (
    RULESET_HELP,
    complete_ruleset,
    echo_json,
    format_option,
    load_or_exit,
    package_of,
    wants_json,
)
from targui_dsl.frontend.resolve import builtin_rulesets, example_rulesets
from targui_dsl.frontend.resources import ruleset_schema_path, shown_file
from targui_dsl.frontend.text import visible


def _plain(value: Any) -> Any:
    """Mapping proxies and tuples as dicts and lists, for dumping."""
    if hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@click.command(epilog=RULESET_HELP)
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("--resolved", "view", flag_value="resolved", default=True,
              help="The ruleset after `extends:` is merged (the default).")
@click.option("--compiled", "view", flag_value="compiled",
              help="What every formula, hook and card effect compiled to, as Python.")
@format_option
def show(ruleset: str, view: str, output_format: str, as_json: bool) -> None:
    """Show a ruleset after `extends:` is merged, or what its effects compiled to.

    With --resolved (the default) the merged ruleset is printed as YAML: what
    the engine plays, whichever files it came from; its first line, a
    comment, names the files. With --compiled every formula, hook and card effect
    is shown as written, with its file and line, and as the Python code it
    was compiled to. With --format json the same is printed as JSON. An
    abstract base (`base`) cannot be shown: it is only ever extended.

    \b
    Exit status:
      0  shown
      1  the ruleset has errors (its diagnostics are printed)
      2  the command line itself is wrong

    \b
    Examples:
      targui show original-dutch
      targui show my-house-rule.yaml --compiled
      targui show swedish-12 --json
    """
    rs = load_or_exit(ruleset)
    if view == "resolved":
        data = _plain(rs.resolved)
        if wants_json(output_format, as_json):
            echo_json(data)
        else:
            click.echo(visible(f"# {rs.id}: merged from {' <- '.join(shown_file(f) or f for f in rs.files)}"))
            click.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), nl=False)
        return

    snippets = package_of(rs).drawing.snippets(rs)
    if wants_json(output_format, as_json):
        echo_json([{"name": name, "source": code.source, "python": code.python,
                    "file": shown_file(code.file), "line": code.line} for name, code in snippets])
        return
    for name, code in snippets:
        where = f"  ({shown_file(code.file)}:{code.line})" if code.file else ""
        click.echo(click.style(f"== {visible(name)}", bold=True) + visible(where))
        click.echo("   " + visible(code.source.strip(), keep_newlines=True).replace("\n", "\n   "))
        click.echo(visible(code.python.rstrip(), keep_newlines=True))
        click.echo()


@click.command()
def schema() -> None:
    """Print the JSON Schema (2020-12) of ruleset files, for editors and CI.

    Built-in rulesets name it on their first line for yaml-language-server:

    \b
      # yaml-language-server: $schema=../schemas/ruleset.schema.json

    The schema checks the shape of a file only; `targui validate` checks
    its meaning too.

    \b
    Exit status: 0 (2 for a usage error).

    \b
    Examples:
      targui schema > ruleset.schema.json
      targui schema | python -m json.tool
    """
    click.echo(ruleset_schema_path().read_text(encoding="utf-8"), nl=False)


@click.command()
@click.option("--all", "-a", "show_all", is_flag=True,
              help="Also list the example house rules (rulesets/examples/), after the built-in rulesets.")
@format_option
def rulesets(show_all: bool, output_format: str, as_json: bool) -> None:
    """List the built-in rulesets with their titles (with --all, the examples too).

    One line per ruleset: its name, to give as RULESET to the other
    commands, and its title. Abstract bases, which are only extended, are
    left out. With --all the example house rules follow the built-in
    rulesets; an example is reached by its name too (`targui validate
    salt-caravan`) unless a built-in ruleset has that name. With --format
    json: name, title, the ruleset it extends, the path of its file and
    its kind (built-in or example).

    \b
    Exit status: 0 (2 for a usage error).

    \b
    Examples:
      targui rulesets
      targui rulesets --all
      targui rulesets --json
    """
    listed = [(r, "built-in") for r in builtin_rulesets() if not r.abstract]
    if show_all:
        listed += [(r, "example") for r in example_rulesets()]
    rows = [{"name": r.name, "title": r.title, "extends": r.extends, "path": str(r.path), "kind": kind}
            for r, kind in listed]
    if wants_json(output_format, as_json):
        echo_json(rows)
        return
    width = max((len(str(r["name"])) for r in rows), default=0)
    for row in rows:
        kind = "  (example)" if show_all and row["kind"] == "example" else ""
        click.echo(f"{row['name']:<{width}}  {visible(str(row['title']))}{kind}")
