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
