"""What the README and the reference pages show is what memcheck does: the sample run
is reproduced byte for byte, and the configurations and comments they tell users to
copy are accepted as they stand."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import REPO_ROOT, git, memory, run_cli, write

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
DOCS = REPO_ROOT / "docs"
STORE = ".claude/memory"


def _block(text: str, after: str, lang: str) -> str:
    """The first ```lang block after the line that holds ``after``."""
    m = re.search(rf"{re.escape(after)}.*?\n```{lang}\n(.*?)```", text, re.S)
    assert m, f"no ```{lang} block after {after!r}"
    return m.group(1)


def _transcript(console: str) -> list[tuple[str, str]]:
    """(command, its output) for each `$ memcheck ...` of a console block."""
    runs: list[tuple[str, str]] = []
    for line in console.splitlines(keepends=True):
        if line.startswith("$ "):
            runs.append((line[2:].strip(), ""))
        else:
            command, out = runs[-1]
            runs[-1] = (command, out + line)
    return runs


def test_the_readme_sample_run_is_what_memcheck_prints(repo: Path) -> None:
    # The repository the sample run describes: an index that misses one memory and
    # lists a deleted one, and an AGENTS.md importing a file that does not exist.
    write(repo, f"{STORE}/project_deploy.md", memory("Deploy", "How we deploy", "project"))
    write(repo, f"{STORE}/user_role.md", memory("Role", "The user's role", "user"))
    write(repo, f"{STORE}/MEMORY.md", "# Memory\n\n- [Role](user_role.md) — The user's role\n\n- [Old](old_notes.md) — old notes\n")
    write(repo, "AGENTS.md", "# Agents\n\nSee @docs/style.md before editing.\n")
    git(repo, "add", "-A")
    runs = _transcript(_block(README, "## What a run looks like", "console"))
    assert [command for command, _ in runs] == ["memcheck check", "memcheck fix"]
    for command, shown in runs:
        proc = run_cli(repo, *command.split()[1:])
        assert (proc.stdout, proc.stderr, proc.returncode) == (shown, "", 1), command


def test_the_readme_configuration_is_accepted(repo: Path) -> None:
    write(repo, ".memcheck.yaml", _block(README, "## Configuration", "yaml"))
    proc = run_cli(repo, "check")
    assert (proc.returncode, proc.stderr) == (0, "")


def test_the_minimal_configuration_of_the_reference_is_accepted(repo: Path) -> None:
    write(repo, ".memcheck.yaml", _block((DOCS / "configuration.md").read_text(encoding="utf-8"), "A minimal `.memcheck.yaml`", "yaml"))
    assert run_cli(repo, "check", "--write-baseline", ".memcheck-baseline.json").returncode == 0
    proc = run_cli(repo, "check")
    assert (proc.returncode, proc.stderr) == (0, "")


def test_the_frontmatter_suppression_example_suppresses_what_it_says(repo: Path) -> None:
    page = (DOCS / "suppression-and-baselines.md").read_text(encoding="utf-8")
    example = _block(page, "write the same as a YAML comment line", "markdown")
    write(repo, f"{STORE}/project_deploy.md", example + "\nHow we deploy.\n")
    write(repo, f"{STORE}/MEMORY.md", "- [Deploy notes](project_deploy.md) - How we deploy\n")
    git(repo, "add", "-A")
    # The comment is needed (without it the key is reported) and used (no MCK001).
    assert run_cli(repo, "check", "-q").stdout == ""
    write(repo, f"{STORE}/project_deploy.md", example.replace("# memcheck-disable-next-line MEM010\n", "") + "\nHow we deploy.\n")
    assert " MEM010 " in run_cli(repo, "check", "-q").stdout
