"""Text from a file or a config cannot drive the terminal or the CI log that shows it.

A report is read in a terminal, where ESC sequences retitle the window
(``ESC ] 0 ; … BEL``), erase lines already printed (``ESC [ 2K``, ``ESC [ 1A``) or
hide what follows (``ESC [ 8m``); and in a GitHub Actions log, where a line starting
with ``::`` (after any leading whitespace) is a workflow command (``::error``,
``::add-mask::``, ``::stop-commands::``), and so is ``##[command]`` anywhere in a
line. So every message quoting a file's text or a config value shows each control
character escaped, and no printed line can start a command. ``memcheck context``
shows what an agent loads without the secrets in it, and ``memcheck fix`` writes no
secret and no control character into MEMORY.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import git, memory, run_cli, write

# Every terminal trick of the attack at once: retitle the window, erase the line
# above, hide what follows.
ESCAPES = "\x1b]0;pwned\x07\x1b[2K\x1b[1A\x1b[8m"
# The same bytes percent-encoded, as a Markdown link target carries them, then the
# C1 CSI (U+009B, ESC [ in one character), NEL and the Unicode line separator, which
# json.dumps leaves raw.
ESCAPES_IN_LINK = "%1B%5D0%3Bpwned%07%1B%5B2K%1B%5B1A%1B%5B8m%C2%9B31m%C2%85%E2%80%A8"
# A line break, then a workflow command: the second line of the message would issue it.
COMMAND_IN_LINK = "%0A%3A%3Aerror%3A%3Aforged"
TOKEN = "ghp_" + "R4nd0mT0k3nV4lu3aBcDeFgHiJkLmNoPqRsTu"  # shaped like a GitHub token (40 characters)

# Every character a line may end at: Python's own list, which holds the runner's
# (LF, CR) and those of viewers that break at NEL and the Unicode separators.
_LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")  # what no report may hold raw (tab and LF are layout)


def commands_in(out: str) -> list[str]:
    """The lines GitHub's runner would take as workflow commands: ``::`` at the start
    after leading whitespace, or ``##[`` anywhere."""
    return [line for line in _LINE_BREAK.split(out) if line.lstrip().startswith("::") or "##[" in line]


def assert_inert(out: str) -> None:
    assert _TERMINAL.findall(out) == [], out
    assert commands_in(out) == [], out


# --------------------------------------------------------------------------
# A config value in a usage error


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("x\n::add-mask::x", id="add-mask-after-newline"),
        pytest.param("::error::forged\n::error::forged", id="error-after-newline"),
        pytest.param("x\r::stop-commands::pause", id="stop-commands-after-cr"),
        pytest.param("x\u2028::error::forged", id="unicode-line-separator"),
    ],
)
def test_a_baseline_value_in_the_config_issues_no_workflow_command(repo: Path, value: str) -> None:
    write(repo, ".memcheck.yaml", f"baseline: {json.dumps(value)}\n")
    proc = run_cli(repo, "check")
    assert proc.returncode == 2
    assert proc.stderr.startswith("memcheck: error: baseline ") and proc.stderr.count("\n") == 1, proc.stderr
    assert_inert(proc.stderr)
    assert "::error::forged" in proc.stderr or "::add-mask::x" in proc.stderr or "::stop-commands::" in proc.stderr  # still named, escaped


def test_a_baseline_on_the_command_line_shows_its_line_break_escaped(repo: Path) -> None:
    proc = run_cli(repo, "check", "--baseline", "x\n::error::forged")
    assert proc.returncode == 2
    assert_inert(proc.stderr)
    assert "x\\n::error::forged does not exist" in proc.stderr


# --------------------------------------------------------------------------
# File content in a finding's message


def _mem021(root: Path) -> None:
    write(root, ".memory/a.md", memory("a", "first", "user", body=f"See [notes]({ESCAPES_IN_LINK}.md) and [more]({COMMAND_IN_LINK}.md).\n"))


def _skl012(root: Path) -> None:
    write(
        root,
        ".claude/skills/deploy/SKILL.md",
        f"---\nname: deploy\ndescription: Deploys the app.\n---\n\nSee [notes]({ESCAPES_IN_LINK}.md) and [more]({COMMAND_IN_LINK}.md).\n",
    )


def _gdn013(root: Path) -> None:
    write(root, "AGENTS.md", f"# Project\n\nSee [notes]({ESCAPES_IN_LINK}.md) and [more]({COMMAND_IN_LINK}.md).\n")


def _mck002(root: Path) -> None:
    write(root, "AGENTS.md", f"# Project\n\n<!-- memcheck-disable-next-line {ESCAPES} -->\nRun the tests.\n")


def _gdn003(root: Path) -> None:
    # A guidance file that is not UTF-8, named with a line break and a command.
    write(root, ".github/instructions/a\n::error::forged.instructions.md", b"---\napplyTo: '**'\n---\n\xff\xfe bad\n")


@pytest.mark.parametrize(
    ("code", "setup"),
    [
        pytest.param("MEM021", _mem021, id="MEM021"),
        pytest.param("SKL012", _skl012, id="SKL012"),
        pytest.param("GDN013", _gdn013, id="GDN013"),
        pytest.param("MCK002", _mck002, id="MCK002"),
        pytest.param("GDN003", _gdn003, id="GDN003"),
    ],
)
def test_file_content_in_a_message_reaches_the_text_report_escaped(repo: Path, code: str, setup: object) -> None:
    setup(repo)  # type: ignore[operator]
    proc = run_cli(repo, "check", "--format", "text")
    assert proc.stderr == ""
    assert f" {code} " in proc.stdout, proc.stdout
    assert_inert(proc.stdout)
    # Still readable: each control character shown as its escape, on the finding's line.
    finding = next(line for line in proc.stdout.splitlines() if f" {code} " in line)
    assert "\\u001b" in finding or "\\n" in finding, finding


@pytest.mark.parametrize("setup", [_mem021, _skl012, _gdn013], ids=["MEM021", "SKL012", "GDN013"])
def test_file_content_in_a_message_reaches_json_and_sarif_as_json_escapes(repo: Path, setup: object) -> None:
    # json.dumps escapes ESC and the other C0 controls itself; the C1 controls, NEL and
    # U+2028 it leaves raw, and a terminal acts on U+009B as on ESC [.
    setup(repo)  # type: ignore[operator]
    for fmt in ("json", "sarif"):
        proc = run_cli(repo, "check", "--format", fmt)
        assert proc.returncode in (0, 1), proc.stderr
        assert_inert(proc.stdout)
        json.loads(proc.stdout)  # still JSON


def test_github_annotations_carry_file_content_as_escapes(repo: Path) -> None:
    _gdn013(repo)
    _mem021(repo)
    proc = run_cli(repo, "check", "--format", "github")
    lines = proc.stdout.split("\n")
    assert _TERMINAL.findall(proc.stdout) == []
    # Every line that is a command is one of memcheck's annotations; a line break in a
    # message is %0A, which GitHub shows inside the annotation.
    assert [line for line in commands_in(proc.stdout) if not line.startswith(("::error file=", "::warning file="))] == []
    assert any("%0A::error::forged" in line for line in lines)


# --------------------------------------------------------------------------
# A path that could be read as a command


def test_a_file_named_like_a_workflow_command_starts_no_line(repo: Path) -> None:
    write(repo, ".memory/::error::x.md", memory("x", "first", "user"))
    write(repo, ".memory/##[error]y.md", memory("y", "second", "user"))
    write(repo, "::error::g/AGENTS.md", "# Sub\n\nSee [gone](gone.md).\n")
    write(repo, "AGENTS.md", "# Project\n")
    check = run_cli(repo, "check")
    assert "GDN013" in check.stdout and "IDX001" in check.stdout, check.stdout
    assert_inert(check.stdout)
    assert any(
        line.startswith('"::error::g/AGENTS.md":3:') and " GDN013 " in line for line in check.stdout.splitlines()
    )  # quoted: read as a path
    for fmt in ("text", "github"):
        (repo / ".memory" / "MEMORY.md").unlink(missing_ok=True)
        fixed = run_cli(repo, "fix", "--format", fmt, "--fail-on", "never")
        assert fixed.returncode == 0, fixed.stderr
        assert "added 2" in fixed.stdout, fixed.stdout
        assert [line for line in commands_in(fixed.stdout) if not line.startswith(("::error file=", "::warning file="))] == [], fixed.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_guard_list_names_a_guarded_file_named_like_a_command_without_issuing_it(repo: Path, fmt: str) -> None:
    write(repo, "##[error]pwn.env", "A=1\n")
    write(repo, "::error::x/.env", "A=1\n")
    git(repo, "add", "-A")
    proc = run_cli(repo, "guard", "--list", "--format", fmt)
    assert proc.returncode == 0, proc.stderr
    assert "pwn.env" in proc.stdout and "::error::x/.env" in proc.stdout
    assert_inert(proc.stdout)
    if fmt == "json":
        paths = {row["path"] for rows in json.loads(proc.stdout)["categories"].values() for row in rows}
        assert {"##[error]pwn.env", "::error::x/.env"} <= paths  # the same paths to a JSON reader


def test_a_store_folder_named_like_a_command_starts_no_context_line(repo: Path) -> None:
    write(repo, "::error::pwn/.memory/a.md", memory("a", "first", "user"))
    write(repo, "AGENTS.md", "# Project\n")
    proc = run_cli(repo, "context", "::error::pwn")
    assert proc.returncode == 0, proc.stderr
    assert "::error::pwn/.memory/MEMORY.md" in proc.stdout
    assert_inert(proc.stdout)


# --------------------------------------------------------------------------
# memcheck context: what an agent loads, without its secrets or terminal tricks


def _cursor_rule(root: Path) -> None:
    write(root, "AGENTS.md", "# Project\n")
    write(root, ".cursor/rules/deploy.mdc", f'---\ndescription: "{ESCAPES} deploy with {TOKEN}"\nalwaysApply: false\n---\n\nDeploy.\n')


def test_context_shows_file_content_escaped(repo: Path) -> None:
    _cursor_rule(repo)
    proc = run_cli(repo, "context", ".", "--agent", "cursor")
    assert proc.returncode == 0, proc.stderr
    assert "a project rule (" in proc.stdout
    assert_inert(proc.stdout)
    assert "\\u001b]0;pwned\\u0007" in proc.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_context_redacts_a_secret_it_shows(repo: Path, fmt: str) -> None:
    _cursor_rule(repo)
    proc = run_cli(repo, "context", ".", "--agent", "cursor", "--format", fmt)
    assert proc.returncode == 0, proc.stderr
    assert TOKEN not in proc.stdout and TOKEN[4:] not in proc.stdout
    assert "ghp_\u2026[redacted]" in proc.stdout  # the kind of token still recognisable
    assert_inert(proc.stdout)


# --------------------------------------------------------------------------
# memcheck fix: MEMORY.md gets no secret and no control character


def _store_with_hostile_descriptions(root: Path) -> None:
    write(root, ".memory/deploy.md", memory("deploy", f"Deploy token {TOKEN} for CI", "project"))
    write(root, ".memory/shell.md", memory(f"shell{ESCAPES}", '"Shell \\e[8m hidden \\0 nul \\x9b csi"', "user"))
    write(root, ".memory/keys.md", memory("keys", "api_key = 'Zq8#kP2!mW9@tR4vXy7'", "reference"))


@pytest.mark.parametrize("style", ["grouped", "flat", "flat-emdash"])
def test_fix_writes_no_secret_or_control_character_into_the_index(repo: Path, style: str) -> None:
    _store_with_hostile_descriptions(repo)
    write(repo, ".memcheck.yaml", f"index:\n  style: {style}\n")
    proc = run_cli(repo, "fix", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    index = (repo / ".memory" / "MEMORY.md").read_bytes()
    text = index.decode("utf-8")
    assert TOKEN not in text and TOKEN[4:] not in text and "Zq8#kP2!mW9@tR4vXy7" not in text
    assert b"\x00" not in index and b"\x1b" not in index and "\x9b" not in text and "\x07" not in text
    # Nothing of a description holding a secret is copied, not even the token's kind:
    # the entry says what the memory's body starts with instead.
    assert "ghp_" not in text and "api_key" not in text
    assert "(deploy.md) - Body." in text.replace("\u2014", "-") and "(keys.md) - Body." in text.replace("\u2014", "-")
    # Each memory still has its entry, and the memory still gets its secret finding.
    check = run_cli(repo, "check", "--format", "json")
    problems = json.loads(check.stdout)["problems"]
    assert {(p["path"], p["code"]) for p in problems} >= {(".memory/deploy.md", "SEC002"), (".memory/keys.md", "SEC003")}
    assert [p for p in problems if p["path"] == ".memory/MEMORY.md"] == [], problems  # check agrees with what fix wrote


def test_fix_adds_an_entry_to_a_curated_index_without_the_secret(repo: Path) -> None:
    write(repo, ".memory/MEMORY.md", "# My notes\n\nWhat I keep here.\n\n- [a](a.md) - first\n")
    write(repo, ".memory/a.md", memory("a", "first", "user"))
    _store_with_hostile_descriptions(repo)
    proc = run_cli(repo, "fix", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    text = (repo / ".memory" / "MEMORY.md").read_text(encoding="utf-8")
    assert text.startswith("# My notes\n\nWhat I keep here.\n")  # a curated index: synced, not replaced
    assert TOKEN not in text and "\x1b" not in text and "\x00" not in text
    assert "deploy.md" in text and "shell.md" in text


def test_memcheck_index_prints_no_secret(repo: Path) -> None:
    _store_with_hostile_descriptions(repo)
    proc = run_cli(repo, "index", ".memory")
    assert proc.returncode == 0, proc.stderr
    assert TOKEN not in proc.stdout
    assert_inert(proc.stdout)
