"""MCK003 nested-config: a memcheck config below the repository root is not read."""

from __future__ import annotations

from conftest import example, findings, lint

CONFIG = "firmware/.memcheck.yaml"


def _files(config: str) -> dict[str, str]:
    # The doc's example names its file in a first comment line.
    return {CONFIG: config, "firmware/AGENTS.md": "# Firmware\n\nBuild with make.\n"}


def test_the_docs_example_nested_config_is_reported_and_not_read() -> None:
    files = _files(example("MCK003"))
    assert lint(files) == [(CONFIG, 1, "MCK003")]
    (found,) = findings(files)
    assert 'per-path-ignores ("firmware/**")' in found.message


def test_the_docs_use_instead_the_root_config_is_not_reported() -> None:
    root_config = example("MCK003", "Use instead")
    assert lint({".memcheck.yaml": root_config, "firmware/AGENTS.md": "# Firmware\n\nBuild with make.\n"}) == []


def test_a_pyproject_below_the_root_counts_only_with_a_memcheck_table() -> None:
    files = {
        "services/api/pyproject.toml": '[project]\nname = "api"\n\n[tool.memcheck.index]\nmax-lines = 100\n',
        "services/web/pyproject.toml": '[project]\nname = "web"\n',
        "AGENTS.md": "# A\n\nRun it.\n",
    }
    assert lint(files) == [("services/api/pyproject.toml", 4, "MCK003")]
