"""`targui validate`: tell an author everything that is wrong with their rulesets."""

from __future__ import annotations

import gc

import click

from targui_cli.common import (
    EXIT_BAD_INPUT,
    complete_ruleset,
    echo_json,
    exit_with,
    format_option,
    render_diagnostics,
    use_colour,
    wants_json,
)
from targui_dsl.frontend.build import build
from targui_dsl.frontend.diagnostics import sort_key


@click.command()
@click.argument("rulesets", metavar="PATH|NAME...", nargs=-1, required=True, shell_complete=complete_ruleset)
@format_option
@click.option("--quiet", "-q", is_flag=True, help="Print nothing for valid rulesets (text format).")
def validate(rulesets: tuple[str, ...], output_format: str, as_json: bool, quiet: bool) -> None:
    """Check rulesets and report every problem found, not only the first.

    Each argument is a built-in name (`targui rulesets` lists them) or a path
    to a YAML file. Every file in its `extends:` chain is checked: the YAML
    itself, the schema, the meaning (references, counts, board geometry,
    deck, seating) and every effect and formula.

    Problems are printed as `path:line:col: error[CODE]: message`, with the
    line as written, a caret under the problem and a hint where one helps.
    `docs/diagnostics.md` explains every code.

    \b
    Exit status:
      0  every ruleset is valid (warnings allowed)
      1  at least one ruleset has an error
      2  the command line itself is wrong

    \b
    Examples:
      targui validate original-dutch swedish-12 rulesets/examples/harsh-desert.yaml
      targui validate my-house-rule.yaml --format json
    """
    results = []
    # Checking makes many small objects that reference counting frees (a file is at most 256 KiB
    # and 5,000 values) and loads the game's front end: the cyclic garbage collector, walking the
    # young objects again and again, is off meanwhile (a hundredth of the command), then as it was.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for ref in rulesets:
            report = build(ref)
            diagnostics = sorted(report.diagnostics, key=sort_key)
            results.append((ref, report, diagnostics))
    finally:
        if collecting:
            gc.enable()

    failed = any(not report.ok for _, report, _ in results)
    if wants_json(output_format, as_json):
        echo_json([dict(d.to_json(), ruleset=ref) for ref, _, diagnostics in results for d in diagnostics])
    else:
        colour = use_colour()
        for ref, report, diagnostics in results:
            if diagnostics:
                click.echo(render_diagnostics(diagnostics, report.sources, color=colour))
                click.echo()
            if report.ok and not quiet:
                what = "abstract base, valid" if report.abstract else "valid"
                mark = click.style("ok", fg="green", bold=True) if colour else "ok"
                click.echo(f"{mark}  {ref} ({what})")
            elif not report.ok:
                mark = click.style("FAIL", fg="red", bold=True) if colour else "FAIL"
                count = sum(1 for d in diagnostics if d.is_error)
                click.echo(f"{mark}  {ref} ({count} error{'s' if count != 1 else ''})")
    if failed:
        exit_with(EXIT_BAD_INPUT)
