"""The `targui` command: one click group, one small module per subcommand."""

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="targui")
def main() -> None:
    """targui: play, check and study Targui and its variants, written as data."""
