"""`bgpi.rules` is the public API of the rules: a caller imports from the package, not its modules."""

import ast
from pathlib import Path

import pytest

import bgpi.rules

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", [
    # The list (28, part 6): what code using bgpi from outside still took from the modules.
    "decode_position_id", "Resignation", "board_id", "Offer",
    # A position as a user writes it, and the errors of the rules.
    "read_ids", "PositionIds", "RulesError", "CubeError", "SessionError", "ResultError", "SessionSettingsError",
])
def test_a_caller_of_the_rules_finds_it_in_the_package(name):
    assert name in bgpi.rules.__all__ and getattr(bgpi.rules, name) is not None


def test_every_name_the_package_exports_is_there():
    assert sorted(bgpi.rules.__all__) == sorted(set(bgpi.rules.__all__))
    for name in bgpi.rules.__all__:
        assert hasattr(bgpi.rules, name), name


def test_the_commands_take_the_rules_from_the_package():
    """What bgpi's own commands use of the rules, a caller from outside can use too."""
    missing = set()
    for path in sorted((ROOT / "bgpi" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bgpi.rules."):
                missing |= {f"{node.module}.{alias.name}" for alias in node.names
                            if alias.name not in bgpi.rules.__all__}
    # The batch's fast counting is the command's own business, not the rules' API.
    assert missing <= {"bgpi.rules.movegen.packed_results", "bgpi.rules.ids.result_ids",
                       "bgpi.rules.selfplay.random_game"}, missing
