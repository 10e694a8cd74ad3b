"""Shared fixtures: real git repositories in temporary folders, an isolated $HOME
and git config, and the CLI: in this process (``run_cli``, ``invoke``) and, where
the process itself is tested, as a subprocess (``run_process``).

Three tiers, one folder each: ``tests/unit`` (functions on text and trees, no
command line), ``tests/cli`` (``main(argv)`` in this process, on real git
repositories), ``tests/e2e`` (real processes: signals, encodings, lazy imports,
console scripts, pre-commit, the Action, the wheel). Every test under tests/e2e is
marked ``e2e``; ``python -m pytest tests/unit`` runs one tier. Without a repository:
the rules judge files held in memory through ``lint()``, the guard judges changed
paths held in memory through ``judge_paths()``.

The suite runs on every CPU (pytest-xdist's ``-n auto``, set in pyproject.toml;
``-n0`` for one process). Tests marked ``e2e`` run memcheck, pre-commit or a
virtualenv as real processes; ``slow`` ones take seconds (property tests, fuzzing,
large trees, virtualenv builds). The fast subset (docs/development.md says how long
each takes):

    python -m pytest -m "not slow and not e2e"
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator, NamedTuple, Sequence

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from memcheck.changes import SYMLINK_MODE, Change
from memcheck.cli import cli, main
from memcheck.problem import WARNING, Problem

# Property tests draw the same examples on every machine and run, so the suite's
# verdict is the same everywhere (CI included); `HYPOTHESIS_PROFILE=explore` draws
# fresh examples each run, to look for new failures.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# Whether this run leaves out the slow tests (-m "not slow ..."): see ``examples``.
_FAST_RUN = False


def pytest_configure(config: pytest.Config) -> None:
    global _FAST_RUN
    _FAST_RUN = re.search(r"\bnot\s+slow\b", config.getoption("markexpr") or "") is not None


def examples(stated: int) -> int:
    """A property test's budget: the ``stated`` number of examples in the full suite
    (and so in CI), a tenth of it (20 at least) in a run that leaves out the slow tests,
    the fast subset a change is tried with. The fast subset runs every property on its
    first examples; the full suite searches as far as each test says.

    Applied to every property test at collection (``_fast_budget``): a test states its
    full budget in its own ``@settings(max_examples=...)``."""
    return min(stated, max(stated // 10, 20)) if _FAST_RUN else stated


def _fast_budget(item: pytest.Item) -> None:
    """``examples()`` applied to the budget a property test states. Hypothesis reads a
    test's settings from this attribute when the test runs (its own pytest plugin reads
    it too); the stateful machines' ``TestCase.settings`` are left as they are."""
    test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
    stated = getattr(test, "_hypothesis_internal_use_settings", None)
    if stated is None or getattr(test, "_memcheck_stated_examples", None) is not None:
        return  # not a property test, or one parametrized case of it already done
    test._memcheck_stated_examples = stated.max_examples
    test._hypothesis_internal_use_settings = settings(stated, max_examples=examples(stated.max_examples))


REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
FILELISTS = SHARED / "filelists"
SCHEMAS = SHARED / "schemas"


# Each test's $HOME and ``tmp_path`` are made by ``tempfile.mkdtemp``, a new name
# each, under one folder of pytest's temporary folder, not by ``tmp_path_factory.mktemp``:
# that numbers a new folder by reading every name already in pytest's temporary folder,
# which holds two more for each test run so far (the fast subset's 2,400 tests a
# process read about 6 million names, and more with each test).


@pytest.fixture(scope="session")
def _homes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder that holds every test's $HOME in this process."""
    return tmp_path_factory.mktemp("homes")


@pytest.fixture(scope="session")
def _test_folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder that holds every test's ``tmp_path`` in this process."""
    return tmp_path_factory.mktemp("tests")


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, _test_folders: Path) -> Path:
    """pytest's ``tmp_path``: a new, empty folder for the test, named after it."""
    return Path(tempfile.mkdtemp(prefix=re.sub(r"\W", "_", request.node.name)[:30], dir=_test_folders))


@pytest.fixture(autouse=True)
def isolated_env(_homes: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    home = Path(tempfile.mkdtemp(prefix="home", dir=_homes))
    gitconfig = home / ".gitconfig-empty"
    gitconfig.write_bytes(b"")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name, value in {
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.com",
    }.items():
        monkeypatch.setenv(name, value)
    for name in (
        "GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "MEMCHECK_JOBS",
        "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "PRE_COMMIT_REMOTE_NAME", "PRE_COMMIT_REMOTE_URL", "PRE_COMMIT_REMOTE_BRANCH", "PRE_COMMIT_LOCAL_BRANCH",
        "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "CODEX_HOME",
    ):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    # The tests run as a person, even from an agent's shell (Claude Code sets CLAUDECODE=1):
    # a test of an agent's change sets the variable itself.
    from memcheck.guard.tiers import shipped_signatures

    for signature in shipped_signatures():
        if signature.kind == "env":
            monkeypatch.delenv(signature.variable, raising=False)
    yield


def corpus_frontmatter() -> Iterator[tuple[Path, str]]:
    """(file, the text between its fences) for every corpus file with frontmatter."""
    from memcheck.text.document import parse

    for path in sorted(CORPUS.rglob("*.md")):
        if path.is_symlink() or not path.is_file():
            continue
        doc = parse(str(path), path.read_bytes())
        if doc.frontmatter is not None:
            yield path, "\n".join(doc.lines[1 : doc.frontmatter.end_line - 1])


def counting_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, logged: str) -> Path:
    """A ``git`` first on PATH that writes down each command (``logged``: a shell
    snippet that appends to "$GIT_CALLS_LOG") and runs the real git; returns the log."""
    real = shutil.which("git")
    assert real is not None
    folder = tmp_path / "counting-bin"
    folder.mkdir()
    log = tmp_path / "git-calls.log"
    script = folder / "git"
    script.write_text(f'#!/bin/sh\n{logged}\nexec "{real}" "$@"\n')
    script.chmod(0o755)
    monkeypatch.setenv("GIT_CALLS_LOG", str(log))
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return log


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


def symlink_as_text(root: Path, rel: str, target: str) -> None:
    """A symlink as git checks it out with core.symlinks=false (Windows, some CI):
    a plain file holding the target's path, which the index records as a link (mode 120000)."""
    write(root, rel, target)
    blob = git(root, "hash-object", "-w", "--", rel).strip()
    git(root, "update-index", "--add", "--cacheinfo", f"120000,{blob},{rel}")


def memory(name: str, description: str, kind: str, body: str = "Body.\n", extra: str = "") -> str:
    """A memory file as seed 003's write_file writes it."""
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n{extra}---\n\n{body}"


@pytest.fixture(scope="session")
def _new_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What `git init` makes, made once per process (the settings ``isolated_env``
    gives each test: no global or system config, branch main)."""
    root = tmp_path_factory.mktemp("template") / "repo"
    root.mkdir()
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=root, check=True, env=env)
    # git never runs a sample hook: without the 13 of them a copy is 4 files, not 17,
    # to write and later to delete.
    for sample in (root / ".git" / "hooks").glob("*.sample"):
        sample.unlink()
    return root


@pytest.fixture(scope="session")
def _new_repo_files(_new_repo: Path) -> tuple[list[str], dict[str, bytes]]:
    """What ``_new_repo`` holds: its folders, parents first, and its files' bytes."""
    folders, files = [], {}
    for folder, _, names in os.walk(_new_repo):
        rel = os.path.relpath(folder, _new_repo)
        folders.append(rel)
        for name in names:
            files[os.path.join(rel, name)] = Path(folder, name).read_bytes()
    return folders, files


@pytest.fixture
def repo(tmp_path: Path, _new_repo_files: tuple[list[str], dict[str, bytes]]) -> Path:
    """A new, empty git repository: what `git init` made once, written again file for
    file but the sample hooks (a third of the CPU of ``shutil.copytree``'s copy, 0.5
    against 1.3 ms, which reads each file and copies its times; starting git takes
    3.4 ms; this runs about 2,000 times a run)."""
    root = tmp_path / "repo"
    folders, files = _new_repo_files
    for folder in folders:
        os.mkdir(root / folder)
    for rel, data in files.items():
        (root / rel).write_bytes(data)
    return root


def run_cli(root: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI in this process: ``memcheck.cli.main(args)`` run from ``root``, with
    ``input`` on standard input and ``env`` added to the environment for the call,
    its output captured as a subprocess's would be (text, universal newlines).

    Used wherever the process itself is not what is tested; see ``run_process``."""
    runner = _runner()
    with runner.isolation(input=input, env=env) as streams:
        # Only the first two are needed: click 8.2+ adds a third, both mixed.
        stdout, stderr = streams[0], streams[1]
        here = os.getcwd()
        os.chdir(root)
        try:
            code = main(list(args))
        finally:
            os.chdir(here)
        sys.stdout.flush()
        sys.stderr.flush()
        out, err = stdout.getvalue(), stderr.getvalue()
    return subprocess.CompletedProcess([sys.executable, "-m", "memcheck", *args], code, _text(out), _text(err))


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:  # click 8.2+: stderr is always apart
        return CliRunner()


def _text(raw: bytes) -> str:
    """``raw`` read as ``subprocess.run(text=True)`` reads a child's output."""
    return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", newline=None).read()


def run_process(root: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it: a real ``python -m memcheck`` subprocess in the
    repository. Only for tests of the process itself (mark them ``e2e``)."""
    return subprocess.run(
        [sys.executable, "-m", "memcheck", *args],
        cwd=root,
        capture_output=True,
        text=True,
        input=input,
        env={**os.environ, **(env or {})},
    )


def invoke(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    """The CLI through click's runner, from inside the repository."""
    monkeypatch.chdir(root)
    return _runner().invoke(cli, list(args), catch_exceptions=False)


def check_json(root: Path, *args: str) -> list[dict[str, Any]]:
    """`memcheck check --format json` (in this process): its problems, after checking
    that it ran cleanly (exit 0 or 1, nothing on stderr)."""
    proc = run_cli(root, "check", "--format", "json", *args)
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    problems: list[dict[str, Any]] = json.loads(proc.stdout)["problems"]
    # Exit 1 when an error is found; warnings are shown but pass (the default fail-on).
    assert (proc.returncode == 1) == any(p["severity"] == "error" for p in problems)
    return problems


def codes_at(root: Path, path: str, *args: str) -> list[str]:
    """The codes `memcheck check` reports on one file, sorted."""
    return sorted(str(p["code"]) for p in check_json(root, *args) if p["path"] == path)


def codes_in(problems: list[dict[str, Any]], path: str) -> set[str]:
    """The codes among ``problems`` (a JSON report's) on one file."""
    return {str(p["code"]) for p in problems if p["path"] == path}


def fix_json(root: Path, *args: str) -> tuple[int, dict[str, Any]]:
    """`memcheck fix --format json` (in this process): its exit code and report, after
    checking that it ran cleanly (exit 0 or 1, nothing on stderr)."""
    proc = run_cli(root, "fix", "--format", "json", *args)
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    return proc.returncode, report


def index_findings(root: Path, index: str, code: str | None = None) -> list[dict[str, Any]]:
    """What `check` reports about one MEMORY.md (only ``code``'s findings, if given)."""
    return [p for p in check_json(root) if p["path"] == index and (code is None or p["code"] == code)]


def full_index(unlisted: Sequence[str], store: str = ".claude/memory") -> dict[str, str]:
    """A store whose MEMORY.md is at its 200-line cap (a heading, a blank line and 198
    entries, each beside its memory), and the ``unlisted`` memories (names without
    `.md`) that it has no room for: `check` reports those as one IDX003 finding."""
    files = {f"{store}/note{i:03d}.md": memory(f"Note {i}", f"note {i}", "project") for i in range(198)}
    lines = ["# Memory", "", *(f"- [Note {i}](note{i:03d}.md) \u2014 note {i}" for i in range(198))]
    files[f"{store}/MEMORY.md"] = "\n".join(lines) + "\n"
    files.update({f"{store}/{name}.md": memory(name, f"about {name}", "project") for name in unlisted})
    return files


def unlisted(root: Path, index: str) -> set[str]:
    """The memory files `check` reports the index does not list (IDX003): one finding
    each, or those it has no room for, one finding with their files."""
    prefix, suffix = "memory file ", " is not listed in "
    found = set()
    for p in index_findings(root, index, "IDX003"):
        if "files" in p:
            found.update(path.rsplit("/", 1)[-1] for path in p["files"])
        else:
            found.add(str(p["message"]).removeprefix(prefix).partition(suffix)[0])
    return found


# --- Hand-written real-world shapes, and the extra run on ../shared -------------------

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# tests/shared/ runs on ../shared/ (real repositories' files, not part of the project):
# collected only where that folder is beside the checkout, so a clone without it runs
# every other test and shows no skip. Every behaviour it checks is also checked on the
# hand-written shapes under tests/ (test_real_world_shapes.py and others).
collect_ignore = [] if SHARED.is_dir() else ["shared"]


def fixture_frontmatter() -> Iterator[tuple[Path, str]]:
    """(file, the text between its fences) for every hand-written frontmatter shape
    in tests/fixtures/frontmatter."""
    from memcheck.text.document import parse

    for path in sorted((FIXTURES / "frontmatter").glob("*.md")):
        doc = parse(str(path), path.read_bytes())
        if doc.frontmatter is not None:
            yield path, "\n".join(doc.lines[1 : doc.frontmatter.end_line - 1])


# The root of what is judged in memory: a folder that does not exist.
IN_MEMORY = Path("/nonexistent/memcheck-in-memory")


def lint(
    files: dict[str, str], select: str | None = None, root: Path | None = None, config: dict[str, Any] | None = None
) -> list[tuple[str, int, str]]:
    """The findings for files held in memory, as yamllint's ``RuleTestCase.check``
    gives them: no process, no git, and (with ``root`` None) no disk, the root being a
    folder that does not exist. ``(path, line, code)``, sorted. With ``root``, the
    same files are read from there instead; ``config``, settings over the defaults
    (``{"memory": {"types": [...]}}``), as a config file would give them."""
    return sorted((p.path, p.line, p.code) for p in findings(files, select, root, config))


def findings(
    files: dict[str, str], select: str | None = None, root: Path | None = None, config: dict[str, Any] | None = None
) -> list[Problem]:
    """``lint``'s findings whole (messages, columns, what a finding is about), in the
    order a report shows them."""
    from memcheck import config as settings_of
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.memory import MemorySource

    data: Any = _merged(settings_of.defaults(), config or {})
    if select:
        data["select"] = select.split(",")
    if root is None:
        settings = settings_of.from_mapping(IN_MEMORY, data)
        ws = Workspace(settings, MemorySource({path: text.encode() for path, text in files.items()}))
    else:
        for path, text in files.items():
            write(root, path, text)
        ws = Workspace(settings_of.from_mapping(root, data))
    return collect(ws, targets_for(ws, None))  # sorted, as a report shows them


class Judged(NamedTuple):
    """What ``memcheck guard --format json`` shows for a change: its exit code, and each
    finding's path, code and message, in the report's order."""

    exit_code: int
    problems: list[tuple[str, str, str]]

    @property
    def found(self) -> list[tuple[str, str]]:
        return [(path, code) for path, code, _ in self.problems]

    def message(self, path: str) -> str:
        """The message of the one finding at ``path``."""
        (message,) = [message for at, _, message in self.problems if at == path]
        return message


def link_added(path: str, target: str) -> Change:
    """A symlink staged at ``path`` holding ``target``, as git's diff gives it once
    its blob is read."""
    return Change("A", path, new_mode=SYMLINK_MODE, target=target)


def judge_paths(
    *changes: Change | str,
    settings: str | None = None,
    env: dict[str, str] | None = None,
    links: dict[str, str] | None = None,
    commit: str | None = None,
    root: Path = IN_MEMORY,
) -> Judged:
    """The guard's judgement of changed paths held in memory, as ``lint()`` is the
    rules': the guard's own engine, no repository, no git. A ``str`` is a file staged
    as new. ``settings``: the text of HEAD's .memcheck.yaml (None: no such file);
    ``links``: the symlinks the index holds besides those staged (path -> target),
    which a change may lie under; ``root``, the repository's own path (no folder need be there).

    Without ``commit``, the changes are staged and judged as the commit being made,
    from a shell with the variables ``env`` (an agent's, or a person's). With it (a
    commit object's text, as ``git cat-file commit`` prints it), they are that
    commit's in a range (``--base``), its agent known by its author, committer and
    trailers. How git's diff, its commits and their settings become this data is
    tested on real repositories in tests/cli/test_guard*.py."""
    from memcheck.config import load_text
    from memcheck.guard.engine import judge_changes, judge_staged
    from memcheck.guard.tiers import authorship, recogniser

    config = load_text(root, ".memcheck.yaml", settings, "HEAD:.memcheck.yaml")
    made = [Change("A", c, new_mode="100644") if isinstance(c, str) else c for c in changes]
    if commit is None:
        # The index's links: HEAD's, and those staged (a change may lie under one too).
        index = {**(links or {}), **{c.path: c.target for c in made if c.is_symlink and c.target is not None and c.status != "D"}}
        problems = judge_staged(made, config, recogniser(config.guard).of_shell(env or {}), index)
    else:
        assert env is None and links is None, "a range is judged by what its commits name"
        sha = hashlib.sha1(commit.encode()).hexdigest()  # (no commit object is written: any name will do)
        agent = recogniser(config.guard).of_commit(authorship(commit.encode()))
        problems = judge_changes([c._replace(commit=sha) for c in made], config, lambda change: agent)
    failed = any(p.severity != WARNING for p in problems)
    return Judged(int(failed), [(p.path, p.code, p.message) for p in problems])


def commit_text(message: str, author: str = "A U Thor <author@example.com>", committer: str | None = None) -> str:
    """A commit object's text, as git stores it: ``author`` and ``committer`` (the
    author's, unless named) as ``Name <email>``, and the message below."""
    stamp = "1700000000 +0000"
    return f"tree {'0' * 40}\nauthor {author} {stamp}\ncommitter {committer or author} {stamp}\n\n{message}\n"


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        merged[key] = _merged(merged[key], value) if isinstance(value, dict) and isinstance(merged.get(key), dict) else value
    return merged


def example(code: str, heading: str = "Example", nth: int = 1) -> str:
    """The first fenced block (the ``nth``, where the example is two files) under
    ``heading`` (*Example*, *Use instead*) in the doc of the rule ``code``: what its
    page shows a user, run as a test."""
    from memcheck.checks import all_rules

    fences = fenced_blocks(all_rules()[code].doc, heading)
    assert len(fences) >= nth, f"{code}'s doc has no fenced block {nth} under {heading}"
    return fences[nth - 1]


_FENCE = re.compile(r"^(```+|~~~+)[^\n]*\n(.*?)^\1[ \t]*$", re.M | re.S)


def fenced_blocks(doc: str, heading: str) -> list[str]:
    """The fenced blocks of a rule doc's section ``heading``, each block's text: the
    section ends at the next `## ` heading outside a block (an index's `## User`
    inside one is the example's, not the doc's)."""
    start = doc.find(f"## {heading}\n")
    if start < 0:
        return []
    section = doc[start + len(heading) + 4 :]
    found, at = [], 0
    for fence in _FENCE.finditer(section):
        if re.search(r"^## ", section[at : fence.start()], re.M):
            break
        found.append(fence.group(2))
        at = fence.end()
    return found


E2E = Path(__file__).resolve().parent / "e2e"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The folder is the tier: a test under tests/e2e is marked e2e, so the fast subset
    # (-m "not e2e") leaves it out without each file saying so.
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.e2e)
        if _FAST_RUN:
            _fast_budget(item)


def pytest_report_header(config: pytest.Config) -> str:
    if SHARED.is_dir():
        return f"{SHARED} is beside this checkout: tests/shared/ runs on real repositories too"
    count = sum(
        isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        for path in sorted((Path(__file__).resolve().parent / "shared").glob("test_*.py"))
        for node in ast.parse(path.read_text("utf-8")).body
    )
    return f"../shared/ is not beside this checkout: {count} tests on real repositories (tests/shared/) not collected"


# --- Hang guards ------------------------------------------------------------------------


class HangGuardTripped(AssertionError):
    """The guarded block used more CPU than its hang guard allows."""


@contextlib.contextmanager
def cpu_limit(seconds: float, what: str) -> Iterator[None]:
    """Stop the block, failing the test, once it has used ``seconds`` of CPU time.

    A hang guard, not a speed test (bench/ measures speed): ``seconds`` is ten times
    and more what the block takes on a busy machine, while what it guards against
    (backtracking, exponential spelling-out) takes minutes or hours. CPU time of this
    process, so other work on the machine never trips it; and it stops the block when
    the limit passes (at the next Python instruction), rather than timing it after."""

    def trip(signum: int, frame: object) -> None:
        raise HangGuardTripped(f"{what}: still running after {seconds:g} s of CPU (a hang)")

    previous = signal.signal(signal.SIGVTALRM, trip)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


@functools.cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def source_tree(path: Path) -> ast.Module:
    """A Python file of this checkout, parsed once a process and shared: several tests
    walk the whole of memcheck's source (its layers, its regular expressions, where
    each rule is defined), and parsing it takes most of a second of CPU each time."""
    return _parsed(path.resolve())


def load_script(path: Path) -> ModuleType:
    """A script of this repository that is not a package module (bench/, .ci/, the
    Action's run.py), imported from its file under its own name."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- Shared by the in-process tests and their real-process twins (tests/e2e) ------


def store_with_unlisted(repo: Path, name: str = "project_b.md") -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    write(repo, f".claude/memory/{name}", memory("b", "About b", "project", extra="tpye: user\n"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](project_a.md) - About a\n")


def commit_all(root: Path, message: str = "base") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)


def tracked(root: Path, *files: str) -> None:
    """A first commit holding the given files (and a README)."""
    write(root, "README.md", "# project\n")
    for name in files:
        write(root, name, f"content of {name}\n")
    commit_all(root)


def adding(name: str) -> Callable[[Path], None]:
    """A setup that stages a new file after a first commit."""

    def setup(root: Path) -> None:
        tracked(root)
        write(root, name, f"secret in {name}\n")
        git(root, "add", "-f", name)

    setup.__name__ = f"add {name}"
    return setup


add_env = adding(".env")


def commit(root: Path, files: dict[str, str] | None = None, message: str = "change") -> str:
    for rel, text in (files or {}).items():
        write(root, rel, text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return _head(root)


_HEX40 = re.compile(r"[0-9a-f]{40}\n?")


def _head(root: Path) -> str:
    """The commit HEAD names, as `git rev-parse HEAD` gives it. Read from the files a
    commit has just written (HEAD, and its branch's loose ref), which git reads the same
    way: the fast subset commits about 800 times and few callers use the answer, which
    cost a third git process each time (a quarter of the processes the tests' own setup
    starts). Anything else (a .git file, a packed or missing ref) asks git."""
    gitdir = root / ".git"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        head = (gitdir / "HEAD").read_text("ascii")
        if head.startswith("ref: refs/heads/"):
            head = (gitdir / head[5:].strip()).read_text("ascii")
        if _HEX40.fullmatch(head):
            return head.strip()
    return git(root, "rev-parse", "HEAD").strip()


def alias_bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x,x,x,x,x,x,x,x,x]"] + [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


# name -> (frontmatter lines before name/description, the code's message says)
HOSTILE_FRONTMATTER = {
    "alias-bomb": (alias_bomb(), "aliases expand it to more than"),
    "deep-flow": ("metadata: " + "[" * 50_000 + "]" * 50_000 + "\n", "more than 64 levels deep"),
    "unclosed-flow": ("metadata: " + "[" * 50_000 + "\n", "more than 64 levels deep"),
    "nesting-1000": ("metadata: " + "{a: " * 1_000 + "x" + "}" * 1_000 + "\n", "more than 64 levels deep"),
    "deep-block": ("metadata:\n" + "".join(" " * i + "k:\n" for i in range(1, 500)), "more than 64 levels deep"),
    "recursive-alias": ("metadata: &m {self: *m}\n", "recursive alias"),
    # Few values, but each alias a string of 900 KB: quoting or matching each took
    # minutes and gigabytes (a memory's agent_name quoted, AGENTS.md globs matched).
    "alias-characters": (
        "big: &b " + "x" * 900_000 + "\nagent_name: [" + ", ".join(["*b"] * 300) + "]\nglobs: [" + ", ".join(["*b"] * 300) + "]\n",
        "more than 2,097,152 characters",
    ),
    "long-number": ("metadata: 1" + ":1" * 100_000 + "\n", "characters, over the 4,300"),
}

# The ones that take a second of CPU each, left to the full suite: flow collections
# 50,000 deep (the nesting bound keeps two fast cases, nesting-1000 and deep-block) and
# 300 aliases of 900 KB (the character bound keeps long-number).
SLOW_HOSTILE = {"deep-flow", "unclosed-flow", "alias-characters"}


# Bodies that took minutes or hours: runs that every start of a link pattern scanned again.
HOSTILE_BODIES = {
    "brackets": "[" * 200_000,
    "image-openers": "![" * 100_000,
    "escaped-brackets": "\\[" * 100_000,
    "spaces-in-link": "[a](" + " " * 200_000,
    "unclosed-suppressions": "<!-- memcheck-disable-next-line MEM001 -->" + "<!-- memcheck-disable " * 40_000,
}


def frontmatter_of(extra: str, name: str, kind: str) -> str:
    if kind == "memory":
        return f"---\n{extra}name: {name}\ndescription: d\ntype: user\n---\nBody.\n"
    return f"---\n{extra}name: {name}\ndescription: Does {name}. Use when testing.\n---\nBody.\n"


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def write_guidance(repo: Path, text: str) -> None:
    write(repo, "AGENTS.md", text)


# A guard finding opens with its remedy ("unstage it (...) and rotate any secret it
# holds (guarded in every change, ...). added: guarded by category env ..."): tests of
# what was found, and where, read what follows it.
_GUARD_REMEDY = re.compile(r"(\bGRD00\d(?: |::))[^\n]*?\)\. ")


def plain(text: str) -> str:
    """Guard output without the remedies its findings open with."""
    return _GUARD_REMEDY.sub(r"\1", text)


def plain_message(message: str) -> str:
    """One guard finding's message without its remedy."""
    return plain("GRD000 " + message)[len("GRD000 ") :]


# --- Old findings and new work (check --new-since, the hooks, the Action) -------------

OLD_FINDINGS = 20


def old_findings() -> dict[str, str]:
    """A tree with 20 findings: an AGENTS.md importing 10 files that do not exist
    (GDN009, errors), and a listed store of 10 memories with an unknown key (MEM010,
    warnings)."""
    files = {"AGENTS.md": "# Agents\n\n" + "".join(f"Read @docs/missing-{i}.md first.\n" for i in range(10))}
    entries = []
    for i in range(10):
        files[f".claude/memory/user_m{i}.md"] = memory(f"m{i}", f"About m{i}", "user", extra="tpye: user\n")
        entries.append(f"- [m{i}](user_m{i}.md) - About m{i}\n")
    files[".claude/memory/MEMORY.md"] = "# Memory\n\n## User\n" + "".join(entries)
    return files


def one_bad_memory() -> dict[str, str]:
    """What a change adds to ``old_findings``: a memory without a description, listed
    in the index: one finding (MEM006)."""
    index = old_findings()[".claude/memory/MEMORY.md"]
    return {
        ".claude/memory/project_x.md": "---\nname: x\ntype: project\n---\n\nBody.\n",
        ".claude/memory/MEMORY.md": index + "\n## Project\n- [x](project_x.md)\n",
    }


# ---- agent files for the AGT and GDN rule tests ----------------------------------------


def with_frontmatter(keys: str, body: str) -> str:
    """A Markdown file: ``keys`` (YAML lines, each ending in a newline) between fences, then ``body``."""
    return "---\n" + keys + "---\n" + body


def subagent(keys: str, name: str = "reviewer") -> str:
    """A Claude Code subagent with its two required keys, then ``keys`` (from line 4)."""
    return with_frontmatter(f"name: {name}\ndescription: Reviews code.\n" + keys, "You review code.\n")
