"""Settings and baselines are read only from inside the repository; reports and
baselines are written only to a real file in a real folder, never through a link.

A pull request can commit symlinks: `.memcheck.yaml -> ~/.git-credentials` must not
put the token into a public CI log through a config error, and `reports ->
~/.ssh` must not make `-o reports/x.sarif` write into the runner's home. What a
user names on the command line outside the repository (`--config ~/shared.yaml`,
`-o /tmp/report.sarif`) is their own choice and still works.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, run_cli, write

# A GitHub token as ~/.git-credentials holds one: 36 characters after the prefix.
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
CREDENTIALS = f"https://octocat:{TOKEN}@github.com\n"


def _leaks(text: str, secret: str = TOKEN) -> list[str]:
    """The 8-character runs of ``secret`` that ``text`` shows."""
    return [secret[i : i + 8] for i in range(len(secret) - 7) if secret[i : i + 8] in text]


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the repository: the runner's home, say."""
    folder = tmp_path / "runner-home"
    folder.mkdir()
    return folder


def _committed(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pull request")


# --- config errors quote a short, redacted excerpt ------------------------------------


PASSWORD = "Zx9#kLm2$pQr7!vWz4&"


@pytest.mark.parametrize(
    ("text", "secret"),
    (
        (f"select: !{TOKEN} x\n", TOKEN),  # YAML: an unknown tag, quoted by PyYAML
        (f"{TOKEN}: 1\n", TOKEN),  # an unknown key
        (f"{TOKEN}: 1\n{TOKEN}: 2\n", TOKEN),  # a key given twice
        (f"fail-on: {TOKEN}\n", TOKEN),  # a value not in the list
        (f"select: [{TOKEN}]\n", TOKEN),  # not a rule code
        (f"index:\n  max-lines: {TOKEN}\n", TOKEN),  # a value of the wrong type
        (f"exclude: ['[[:alpha:]]{TOKEN}']\n", TOKEN),  # a pattern memcheck cannot match
        (f"per-path-ignores:\n  '{TOKEN}': [NOPE]\n", TOKEN),  # a key in a message's key path
        (f"fail-on: 'password={PASSWORD}'\n", PASSWORD),
        (f"memory: 'https://octocat:{PASSWORD}@example.com'\n", PASSWORD),
    ),
    ids=("yaml-tag", "unknown-key", "duplicate", "enum", "selector", "type", "pattern", "key-path", "password", "url"),
)
def test_config_errors_redact_secrets(repo: Path, text: str, secret: str) -> None:
    write(repo, ".memcheck.yaml", text)
    proc = run_cli(repo, "check")
    assert proc.returncode == 2 and proc.stderr.startswith("memcheck: error: .memcheck.yaml")
    assert _leaks(proc.stderr, secret) == [], proc.stderr
    if secret == TOKEN:
        assert "ghp_…" in proc.stderr  # says what kind of secret it took out


@pytest.mark.parametrize(
    "text",
    (
        "k" * 300 + ": 1\n",
        "select: !" + "k" * 300 + " x\n",
        "fail-on: " + "k" * 300 + "\n",
        "memory:\n  " + "k" * 300 + ": 1\n",
        "exclude: ['[[:alpha:]]" + "k" * 300 + "']\n",
        "select: [" + "K" * 300 + "]\n",
    ),
    ids=("key", "yaml-tag", "value", "nested-key", "pattern", "selector"),
)
def test_config_errors_quote_at_most_a_short_excerpt(repo: Path, text: str) -> None:
    write(repo, ".memcheck.yaml", text)
    proc = run_cli(repo, "check")
    assert proc.returncode == 2
    assert "k" * 41 not in proc.stderr.lower(), proc.stderr
    assert "…" in proc.stderr


def test_pyproject_errors_redact_secrets(repo: Path) -> None:
    write(repo, "pyproject.toml", f'[tool.memcheck]\n"{TOKEN}" = 1\n')
    proc = run_cli(repo, "check")
    assert proc.returncode == 2 and "pyproject.toml" in proc.stderr
    assert _leaks(proc.stderr) == []
