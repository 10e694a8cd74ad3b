"""The config schema ships with the package and describes the defaults."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from conftest import write

from memcheck import config


def test_defaults_validate_against_the_shipped_json_schema() -> None:
    schema = config.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(config.defaults(), schema)
    assert config.validate(config.defaults(), schema) == []


def test_every_schema_key_has_a_default_and_every_default_is_in_the_schema() -> None:
    def keys(node: dict, prefix: str = "") -> set[str]:  # type: ignore[type-arg]
        found = set()
        for key, sub in node.get("properties", {}).items():
            found.add(prefix + key)
            found |= keys(sub, prefix + key + ".")
        return found

    def default_keys(data: dict, prefix: str = "") -> set[str]:  # type: ignore[type-arg]
        found = set()
        for key, value in data.items():
            found.add(prefix + key)
            if isinstance(value, dict) and key != "per-path-ignores":
                found |= default_keys(value, prefix + key + ".")
        return found

    assert keys(config.schema()) == default_keys(config.defaults())


def _enums(node: dict, path: tuple[str, ...] = ()) -> dict[str, list]:  # type: ignore[type-arg]
    """Every enum of a schema, by the dotted key it is under ("[]": an array's items)."""
    found = {".".join(path): node["enum"]} if "enum" in node else {}
    for key, sub in node.get("properties", {}).items():
        found |= _enums(sub, (*path, key))
    if "items" in node:
        found |= _enums(node["items"], (*path, "[]"))
    return found


def test_every_enum_of_the_schema_is_the_list_the_code_defines() -> None:
    # The schema is a static file users' editors read: it repeats these lists, and
    # an enum this test does not know is a list the code may not agree with.
    from memcheck import choices
    from memcheck.guard.categories import categories
    from memcheck.index.plan import GENERATE, SYNC
    from memcheck.index.render import FLAT, FLAT_EMDASH, GROUPED

    assert _enums(config.schema()) == {
        "agents.[]": list(choices.AGENTS),
        "fail-on": list(choices.FAIL_ON),
        "index.mode": [GENERATE, SYNC, None],
        "index.style": [GROUPED, FLAT, FLAT_EMDASH, None],
        "guard.disable.[]": list(categories()),
        "guard.agents.add.[].kind": list(config.SIGNATURE_KINDS),
    }
    tiers = config.schema()["properties"]["guard"]["properties"]["tiers"]
    assert tiers["propertyNames"]["enum"] == [*categories(), "config"]
    assert tiers["additionalProperties"]["enum"] == ["secrets", "agents"]


def test_the_cli_the_defaults_the_model_and_the_reporters_read_one_list_each() -> None:
    import click

    from memcheck import agents, choices
    from memcheck.cli import cli
    from memcheck.output import REPORTER_BY_NAME

    def offered(command: str, name: str) -> tuple[str, ...]:
        (param,) = (p for p in cli.commands[command].params if p.name == name)
        assert isinstance(param.type, click.Choice)
        return tuple(param.type.choices)

    assert offered("context", "agent") == agents.ALL == choices.AGENTS
    assert tuple(config.defaults()["agents"]) == choices.AGENTS
    assert offered("check", "fail_on") == offered("fix", "fail_on") == choices.FAIL_ON
    assert tuple(REPORTER_BY_NAME) == choices.FORMATS
    for command in ("check", "fix", "guard"):
        assert offered(command, "fmt") == (*choices.FORMATS, "auto")


@pytest.mark.parametrize(
    "bad",
    [
        {"index": {"max-lines": "200"}},
        {"memory": {"types": []}},
        {"guard": {"case-sensitive": "no"}},
        {"unknown": 1},
        {"per-path-ignores": {"x": "MEM001"}},
    ],
)
def test_the_mini_validator_agrees_with_jsonschema_on_bad_values(bad: dict) -> None:  # type: ignore[type-arg]
    errors = config.validate(bad, config.schema())
    assert errors
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, config.schema())


def test_yaml_file_wins_over_pyproject(tmp_path: Path) -> None:
    write(tmp_path, ".memcheck.yaml", "index:\n  max-lines: 150\n")
    write(tmp_path, "pyproject.toml", "[tool.memcheck.index]\nmax-lines = 120\n")
    assert config.load(tmp_path).index.max_lines == 150
    (tmp_path / ".memcheck.yaml").unlink()
    loaded = config.load(tmp_path)
    assert loaded.index.max_lines == 120 and loaded.source == "pyproject.toml [tool.memcheck]"
