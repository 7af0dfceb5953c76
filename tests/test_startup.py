"""Start-up: a command imports what it runs, no more (issue 22: `targui validate` spent 164 ms importing
the CLI). Each check runs a fresh interpreter, so what is imported is what a user's command imports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DUTCH = str(ROOT / "rulesets" / "original-dutch.yaml")


def modules_after(code: str) -> set[str]:
    """The modules imported once ``code`` ran in a fresh interpreter (it may print what it likes)."""
    script = code + "\nimport sys\nprint('\\n'.join(['--modules--', *sys.modules]))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ.copy(),
                          cwd=ROOT, timeout=120, check=True)
    return set(done.stdout.split("--modules--\n", 1)[1].split())


def test_validate_imports_no_study_log_or_bot_search():
    loaded = modules_after(
        "from targui_cli.main import cli\n"
        f"try:\n    cli.main(['validate', {DUTCH!r}], prog_name='targui')\nexcept SystemExit as e:\n"
        "    assert e.code == 0, e.code\n")
    assert "targui_dsl.frontend.build" in loaded  # it did validate
    assert not {m for m in loaded if m.startswith(("targui_dsl.study", "targui_dsl.gamelog", "targui_cli.simulate",
                                                   "targui_cli.play", "targui_cli.replay"))}
    assert "hashlib" not in loaded  # a ruleset's files are hashed at its first log, not as they are read


@pytest.mark.parametrize("ruleset, game, other", [(DUTCH, "targui", "targi"),
                                                  (str(ROOT / "rulesets" / "targi.yaml"), "targi", "targui")])
def test_validate_loads_the_games_front_end_only_and_no_schema_or_parser_library(ruleset, game, other):
    loaded = modules_after(
        "from targui_cli.main import cli\n"
        f"try:\n    cli.main(['validate', {ruleset!r}], prog_name='targui')\nexcept SystemExit as e:\n"
        "    assert e.code == 0, e.code\n")
    assert f"targui_dsl.games.{game}.frontend" in loaded  # it did check the ruleset
    assert not {m for m in loaded if m.startswith((f"targui_dsl.games.{other}", "targui_dsl.engine.loop",
                                                   "targui_dsl.agents", f"targui_dsl.games.{game}.package",
                                                   f"targui_dsl.games.{game}.state", "jsonschema", "lark",
                                                   # the engine's protocol and drawing hooks: the front
                                                   # end's own hooks are targui_dsl.engine.front
                                                   "targui_dsl.engine.protocol", "targui_dsl.engine.drawing",
                                                   "numpy", "pickle", "logging", "difflib",
                                                   # Lark's generated parser: only for a snippet
                                                   # the quick parser leaves to it (an error)
                                                   "targui_dsl.effects._lalr"))}


def test_the_engine_protocol_alone_loads_no_front_end():
    loaded = modules_after("import targui_dsl.engine.protocol")
    assert "targui_dsl.frontend.build" not in loaded and "targui_dsl.effects.parser" not in loaded


def test_the_protocol_still_offers_the_front_end_and_a_front_end_is_read_only():
    from targui_dsl.engine import protocol
    from targui_dsl.games import front_end, game_package

    assert protocol.FrontEnd is type(front_end("targi"))
    front, package = front_end("targui"), game_package("targui")
    assert (front.name, front.schema, front.check, front.snippets, front.build, front.vocabulary) == (
        package.name, package.schema, package.check, package.snippets, package.build, package.vocabulary)
    with pytest.raises(AttributeError):
        front.schema = "other.schema.json"  # type: ignore[misc]
    assert front.schema == "ruleset.schema.json" and "targui" in repr(front)


def test_the_package_still_offers_its_names():
    loaded = modules_after("from targui_dsl import Game, load_ruleset\n"
                           "state = Game(load_ruleset('swedish-12'), players=3, seed=1).new_initial_state()\n"
                           "assert not state.is_terminal() and state.legal_actions()")
    assert "targui_dsl.games.targui.state" in loaded


def test_the_group_lists_every_command_before_loading_any():
    loaded = modules_after("from targui_cli.main import cli\nassert len(cli.commands) == 14, sorted(cli.commands)")
    assert "targui_cli.validate" not in loaded and "targui_cli.simulate" not in loaded


def test_help_lists_every_command_without_loading_any():
    loaded = modules_after("from targui_cli.main import cli\n"
                           "try:\n    cli.main(['--help'], prog_name='targui')\nexcept SystemExit as e:\n"
                           "    assert e.code == 0, e.code\n")
    assert not {m for m in loaded if m.startswith("targui_cli.") and m not in ("targui_cli.main", "targui_cli.common")}
    assert not {m for m in loaded if m.startswith(("targui_dsl.frontend.build", "targui_dsl.games.targui",
                                                   "targui_dsl.study", "jsonschema", "lark", "yaml",
                                                   "targui_dsl.engine.protocol", "targui_dsl.engine.drawing"))}


def test_the_help_lines_are_each_commands_own_at_every_width():
    from targui_cli.main import COMMAND_LINES, COMMAND_MODULES, LazyCommands, cli

    assert set(COMMAND_LINES) == set(COMMAND_MODULES)
    for name in COMMAND_MODULES:
        stand_in = LazyCommands(COMMAND_MODULES).listed(name)
        real = cli.commands[name]
        assert stand_in is not None and stand_in is not real and not real.hidden
        for limit in (12, 20, 30, 45, 60, 80, 94, 200):
            assert stand_in.get_short_help_str(limit) == real.get_short_help_str(limit), (name, limit)
        assert LazyCommands(COMMAND_MODULES).listed(name) is not None
        assert cli.commands.listed(name) is real  # loaded: listed as itself


@pytest.mark.skipif(not __import__("yaml").__with_libyaml__, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("ruleset", ["original-dutch", "targi", "rulesets/examples/harsh-desert.yaml"])
def test_validate_reads_rulesets_with_libyaml_not_pyyamls_pure_python_parser(ruleset):
    # PyYAML's pure-Python parser was a fifth of `targui validate`; it is the fall-back for texts
    # libyaml reads otherwise (tests/test_load_libyaml.py), which no shipped ruleset is.
    loaded = modules_after(
        "import yaml\n"
        "def refuse(self, *args):\n    raise AssertionError('the pure-Python parser was used')\n"
        "yaml.SafeLoader.__init__ = refuse\n"
        "from targui_cli.main import cli\n"
        f"try:\n    cli.main(['validate', {ruleset!r}], prog_name='targui')\nexcept SystemExit as e:\n"
        "    assert e.code == 0, e.code\n")
    assert "yaml._yaml" in loaded and "targui_dsl.frontend.build" in loaded


def test_the_process_leaves_its_objects_to_the_exit_not_to_a_last_garbage_collection():
    # main() freezes the objects alive at the end (gc.freeze): the interpreter's last collection,
    # which walked them all, was a tenth of `targui validate`. An exit hook sees them frozen.
    script = ("import atexit, gc, sys\n"
              "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
              "sys.argv = ['targui', 'validate', 'original-dutch']\n"
              "from targui_cli.main import main\nmain()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ.copy(),
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "frozen True" and "ok  original-dutch" in done.stdout


def test_a_syntax_error_is_still_told_by_lark_s_parser(tmp_path):
    # the quick parser leaves a snippet it cannot parse to the generated Lark parser, which says why
    house = tmp_path / "house.yaml"
    house.write_text("extends: original-dutch\nid: house\ntitle: House\n"
                     "cards:\n  flash_flood:\n    effect: 'p.cash += 1 +'\n", encoding="utf-8")
    loaded = modules_after(
        "from targui_cli.main import cli\n"
        f"try:\n    cli.main(['validate', {str(house)!r}], prog_name='targui')\nexcept SystemExit as e:\n"
        "    assert e.code == 1, e.code\n")
    assert "targui_dsl.effects._lalr" in loaded


def test_pyyamls_reader_refuses_the_same_characters_with_the_pattern_given_it():
    # pyyaml_pattern leaves PyYAML's reader a pattern that compiles in a twelfth of the time of its
    # own (a tenth of `targui validate`): it must find exactly the characters PyYAML's own finds.
    import ast
    import re._compiler  # PyYAML's pattern compiled afresh, past re's cache

    import yaml.reader

    from targui_dsl.frontend import pyyaml_pattern

    tree = ast.parse(Path(yaml.reader.__file__).read_text(encoding="utf-8"))
    written = [node.value.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and getattr(node.targets[0], "id", "") == "NON_PRINTABLE"]
    assert written == [pyyaml_pattern.PYYAML_NON_PRINTABLE]  # PyYAML's own, as this PyYAML writes it
    own = re._compiler.compile(pyyaml_pattern.PYYAML_NON_PRINTABLE, 0)
    given = re.compile(pyyaml_pattern.REFUSED)
    every = "".join(map(chr, range(0x110000)))
    assert [m.start() for m in given.finditer(every)] == [m.start() for m in own.finditer(every)]
    assert len(given.findall(every)) == 29 + 32 + 0x800 + 2  # C0 but tab and breaks, C1 but NEL, surrogates, 2
    loaded = modules_after(
        "from targui_dsl.frontend import yamlload\nimport yaml\n"
        "from targui_dsl.frontend.pyyaml_pattern import REFUSED\n"
        "assert yaml.reader.Reader.NON_PRINTABLE.pattern == REFUSED\n"
        "doc = yamlload.load_yaml_text('a: \\x07', 'f.yaml')\n"
        "assert [d.code for d in doc.diagnostics] == ['E0101'] and 'U+0007' in doc.diagnostics[0].message\n")
    assert "targui_dsl.frontend.pyyaml_pattern" in loaded


def test_the_collector_is_paused_only_while_start_up_loads():
    # cli/main.py pauses the cyclic garbage collector while click and the command's modules load
    # (what they make lives to the end, and is then frozen); a program that imports the module
    # gets the collector back as it had it, and the command itself runs with it.
    script = ("import gc, sys, importlib, click\n"
              "gc.disable()\nimport targui_cli.main as cli_main\nprint('kept off', not gc.isenabled())\n"
              "gc.enable()\nimportlib.reload(cli_main)\nprint('back on', gc.isenabled())\n"
              "@click.command()\ndef probe():\n"
              "    print('command runs with it', gc.isenabled(), gc.get_freeze_count() > 0)\n"
              "cli_main.cli.commands['probe'] = probe\n"
              "sys.argv = ['targui', 'probe']\ncli_main.main()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=os.environ.copy(),
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["kept off True", "back on True", "command runs with it True True"]
