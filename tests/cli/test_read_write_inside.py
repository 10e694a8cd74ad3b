"""Settings and baselines are read only from inside the repository; reports and
baselines are written only to a real file in a real folder, never through a link.

A pull request can commit symlinks: `.memcheck.yaml -> ~/.git-credentials` must not
put the token into a public CI log through a config error, and `reports ->
~/.ssh` must not make `-o reports/x.sarif` write into the runner's home. What a
user names on the command line outside the repository (`--config ~/shared.yaml`,
`-o /tmp/report.sarif`) is their own choice and still works.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git, run_cli, store_with_unlisted, write

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


# --- reading: config, pyproject.toml, baseline ---------------------------------------


@pytest.mark.parametrize(
    "secret",
    (CREDENTIALS, f"{TOKEN}: x\n", f"fail-on: {TOKEN}\n"),
    ids=("git-credentials", "token-as-key", "token-as-value"),
)
def test_config_linked_out_of_the_repository_is_refused_without_quoting_it(repo: Path, outside: Path, secret: str) -> None:
    write(outside, "secret.txt", secret)
    (repo / ".memcheck.yaml").symlink_to(outside / "secret.txt")
    _committed(repo)
    proc = run_cli(repo, "check")
    shown = proc.stdout + proc.stderr
    assert proc.returncode == 2
    assert (
        proc.stderr
        == "memcheck: error: .memcheck.yaml is a symlink out of the repository; memcheck reads its settings only from inside the repository\n"
    )
    assert _leaks(shown) == []
    assert "secret.txt" not in shown and str(outside) not in shown


def test_pyproject_linked_out_of_the_repository_is_refused(repo: Path, outside: Path) -> None:
    write(outside, "creds.toml", f'tool = "{TOKEN}"\n')
    (repo / "pyproject.toml").symlink_to(outside / "creds.toml")
    _committed(repo)
    proc = run_cli(repo, "check")
    shown = proc.stdout + proc.stderr
    assert proc.returncode == 2
    assert "pyproject.toml is a symlink out of the repository" in proc.stderr
    assert _leaks(shown) == [] and "creds.toml" not in shown and str(outside) not in shown


def test_every_command_that_reads_settings_refuses_the_link(repo: Path, outside: Path) -> None:
    write(outside, "secret.txt", CREDENTIALS)
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n")
    (repo / ".memcheck.yaml").symlink_to(outside / "secret.txt")
    for args in (("fix",), ("index", ".claude/memory"), ("context", ".claude/memory/MEMORY.md"), ("guard", "--list"), ("guard", ".env")):
        proc = run_cli(repo, *args)
        assert proc.returncode == 2, args
        assert ".memcheck.yaml is a symlink out of the repository" in proc.stderr, args
        assert _leaks(proc.stdout + proc.stderr) == [], args


def test_config_linked_within_the_repository_is_read(repo: Path) -> None:
    write(repo, "config/memcheck.yaml", "fail-on: never\n")
    (repo / ".memcheck.yaml").symlink_to("config/memcheck.yaml")
    store_with_unlisted(repo)
    assert run_cli(repo, "check").returncode == 0  # fail-on: never came through the link


def test_config_option_through_a_folder_link_out_of_the_repository_is_refused(repo: Path, outside: Path) -> None:
    write(outside, "memcheck.yaml", CREDENTIALS)
    (repo / "conf").symlink_to(outside)
    proc = run_cli(repo, "check", "--config", "conf/memcheck.yaml")
    assert proc.returncode == 2
    assert (
        "conf/memcheck.yaml: conf is a symlink out of the repository; memcheck reads its settings only from inside the repository"
        in proc.stderr
    )
    assert _leaks(proc.stdout + proc.stderr) == [] and str(outside) not in proc.stderr


def test_guard_config_option_through_a_folder_link_is_not_read_from_outside(repo: Path, outside: Path) -> None:
    write(outside, "memcheck.yaml", CREDENTIALS)
    write(repo, "README.md", "x\n")
    (repo / "conf").symlink_to(outside)
    _committed(repo)
    write(repo, ".env", "A=1\n")
    git(repo, "add", ".env")
    proc = run_cli(repo, "guard", "--config", "conf/memcheck.yaml")
    assert proc.returncode == 2
    assert "conf/memcheck.yaml" in proc.stderr and "symlink out of the repository" in proc.stderr
    assert _leaks(proc.stdout + proc.stderr) == []


def test_config_option_outside_the_repository_is_the_users_choice(repo: Path, outside: Path) -> None:
    shared = write(outside, "shared.yaml", "fail-on: never\n")
    store_with_unlisted(repo)
    assert run_cli(repo, "check").returncode == 1
    assert run_cli(repo, "check", "--config", str(shared)).returncode == 0


def test_a_path_linked_to_another_repository_does_not_bring_its_settings(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    write(other, ".memcheck.yaml", CREDENTIALS)
    write(other, "notes/a.md", "# Notes\n")
    (repo / "notes").symlink_to(other / "notes")
    write(repo, "README.md", "x\n")
    proc = run_cli(repo, "check", "notes")
    assert _leaks(proc.stdout + proc.stderr) == []
    assert ".memcheck.yaml" not in proc.stderr  # this repository has none; the other's is not read


VALID_BASELINE = json.dumps(
    {"version": 1, "findings": [{"path": ".claude/memory/MEMORY.md", "code": "IDX003", "message": TOKEN, "count": 1}]}
)


@pytest.mark.parametrize("how", ("config", "option"))
def test_baseline_linked_out_of_the_repository_is_refused(repo: Path, outside: Path, how: str) -> None:
    write(outside, "baseline.json", VALID_BASELINE)
    (repo / "link.json").symlink_to(outside / "baseline.json")
    store_with_unlisted(repo)
    if how == "config":
        write(repo, ".memcheck.yaml", "baseline: link.json\n")
        proc = run_cli(repo, "check")
    else:
        proc = run_cli(repo, "check", "--baseline", "link.json")
    assert proc.returncode == 2
    assert "baseline link.json is a symlink out of the repository" in proc.stderr
    assert _leaks(proc.stdout + proc.stderr) == [] and str(outside) not in proc.stderr


def test_baseline_through_a_folder_link_out_of_the_repository_is_refused(repo: Path, outside: Path) -> None:
    write(outside, "baseline.json", VALID_BASELINE)
    (repo / "ci").symlink_to(outside)
    write(repo, ".memcheck.yaml", "baseline: ci/baseline.json\n")
    store_with_unlisted(repo)
    proc = run_cli(repo, "check")
    assert proc.returncode == 2
    assert (
        "baseline ci/baseline.json: ci is a symlink out of the repository; memcheck reads a baseline only from inside the repository"
        in proc.stderr
    )


@pytest.mark.parametrize("where", ("absolute", "parent"))
def test_config_baseline_outside_the_repository_is_refused(repo: Path, outside: Path, where: str) -> None:
    target = write(outside, "baseline.json", VALID_BASELINE)
    value = str(target) if where == "absolute" else os.path.relpath(target, repo)
    write(repo, ".memcheck.yaml", f"baseline: {value}\n")
    store_with_unlisted(repo)
    proc = run_cli(repo, "check")
    assert proc.returncode == 2
    assert "baseline: must be a path inside the repository" in proc.stderr


def test_baseline_option_outside_the_repository_is_the_users_choice(repo: Path, outside: Path) -> None:
    store_with_unlisted(repo)
    written = outside / "accepted.json"
    assert run_cli(repo, "check", "--write-baseline", str(written)).returncode == 0
    assert run_cli(repo, "check", "--baseline", str(written)).returncode == 0


def test_baseline_linked_within_the_repository_is_read(repo: Path) -> None:
    store_with_unlisted(repo)
    assert run_cli(repo, "check", "--write-baseline", "ci/baseline.json").returncode == 0
    (repo / "baseline.json").symlink_to("ci/baseline.json")
    write(repo, ".memcheck.yaml", "baseline: baseline.json\n")
    assert run_cli(repo, "check").returncode == 0


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


# --- writing: reports, baselines -----------------------------------------------------


@pytest.mark.parametrize("option", ("-o", "--write-baseline"))
def test_no_write_through_a_folder_link_out_of_the_repository(repo: Path, outside: Path, option: str) -> None:
    store_with_unlisted(repo)
    (repo / "reports").symlink_to(outside)
    _committed(repo)
    proc = run_cli(repo, "check", option, "reports/x.sarif")
    assert proc.returncode == 2
    assert proc.stderr.startswith("memcheck: error: ") and "reports/x.sarif" in proc.stderr
    assert "out of the repository" in proc.stderr
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("option", ("-o", "--write-baseline"))
def test_no_write_through_a_file_link(repo: Path, outside: Path, option: str) -> None:
    key = write(outside, "authorized_keys", "ssh-ed25519 AAAA... me\n")
    store_with_unlisted(repo)
    (repo / "r.txt").symlink_to(key)
    _committed(repo)
    proc = run_cli(repo, "check", option, "r.txt")
    assert proc.returncode == 2
    assert "r.txt is a symlink; not writing through it" in proc.stderr
    assert key.read_text() == "ssh-ed25519 AAAA... me\n"
    assert (repo / "r.txt").is_symlink()  # the link is left as it is, not replaced
    assert sorted(p.name for p in outside.iterdir()) == ["authorized_keys"]


def test_fix_report_is_not_written_through_a_link(repo: Path, outside: Path) -> None:
    store_with_unlisted(repo)
    (repo / "reports").symlink_to(outside)
    proc = run_cli(repo, "fix", "-o", "reports/fix.txt")
    assert proc.returncode == 2 and "reports/fix.txt" in proc.stderr
    assert list(outside.iterdir()) == []


def test_report_outside_the_repository_is_the_users_choice(repo: Path, outside: Path) -> None:
    store_with_unlisted(repo)
    proc = run_cli(repo, "check", "-o", str(outside / "sub" / "report.txt"))
    assert proc.returncode == 1, proc.stderr
    assert "IDX003" in (outside / "sub" / "report.txt").read_text()


def test_report_replaces_the_old_file_whole_and_keeps_its_mode(repo: Path) -> None:
    store_with_unlisted(repo)
    old = write(repo, "out/report.txt", "old report\n" * 10_000)
    os.chmod(old, 0o640)
    hard = repo / "old-copy.txt"
    os.link(old, hard)  # a second name of the old file: it keeps the old bytes
    proc = run_cli(repo, "check", "-o", "out/report.txt")
    assert proc.returncode == 1
    new = (repo / "out/report.txt").read_text()
    assert "IDX003" in new and "old report" not in new
    assert stat.S_IMODE(os.stat(repo / "out/report.txt").st_mode) == 0o640
    assert hard.read_text() == "old report\n" * 10_000  # replaced, not truncated and rewritten
    assert sorted(p.name for p in (repo / "out").iterdir()) == ["report.txt"]  # no temporary file left
    umask = os.umask(0o022)
    try:  # a new file gets the mode any new file gets, not a temporary file's 0600
        assert run_cli(repo, "check", "-o", "out/new.txt").returncode == 1
    finally:
        os.umask(umask)
    assert stat.S_IMODE(os.stat(repo / "out/new.txt").st_mode) == 0o644


def test_fix_writes_the_index_as_every_file_is_written_and_removes_what_a_killed_write_left(repo: Path) -> None:
    # fix writes MEMORY.md through safe_files.replacing, as a report is written: the
    # old index is replaced whole (a second name keeps its bytes) and keeps its mode.
    store_with_unlisted(repo)
    index = repo / ".claude/memory/MEMORY.md"
    os.chmod(index, 0o640)
    hard = repo / "old-index.md"
    os.link(index, hard)
    old = index.read_bytes()
    assert run_cli(repo, "fix").returncode == 0
    assert index.read_bytes() != old and hard.read_bytes() == old
    assert stat.S_IMODE(index.stat().st_mode) == 0o640
    # A writer killed mid-write (no cleanup ran) leaves the temporary file replacing
    # names; the next fix knows it for its own and removes it.
    killed = subprocess.run(
        [sys.executable, "-c", "import os, sys; from memcheck.safe_files import replacing\n"
         "with replacing(sys.argv[1], None) as out:\n    out.write('half an index')\n    out.flush()\n    os._exit(0)", str(index)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert killed.returncode == 0, killed.stderr
    (left,) = [p for p in index.parent.iterdir() if p.name.startswith(".MEMORY.md.")]
    proc = run_cli(repo, "fix")
    assert proc.returncode == 0, proc.stderr
    assert not left.exists() and f"removed .claude/memory/{left.name}, left by an interrupted fix" in proc.stderr
