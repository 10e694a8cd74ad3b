"""The cache of findings kept between runs (engine/cache.py): never an answer that a
run without it would not give, whatever happened to the tree, the settings, memcheck
itself or the cache folder in between."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
from conftest import commit_all, full_index, git, memory, run_cli, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcheck.engine import content_keys as cache_module

STORE = ".claude/memory"


def cache_folder(root: Path) -> Path:
    return root / ".git" / "memcheck" / "cache"


def entries(root: Path) -> list[Path]:
    return sorted(p for p in cache_folder(root).rglob("*") if p.is_file())


def report(root: Path, *args: str) -> tuple[int, str, str]:
    proc = run_cli(root, "check", "--format", "json", *args)
    return proc.returncode, proc.stdout, proc.stderr


def same_with_and_without_cache(root: Path, *args: str) -> tuple[int, str, str]:
    """The report of a cached run, after checking that a run without the cache gives
    the same to the byte."""
    cached = report(root, *args)
    fresh = report(root, "--no-cache", *args)
    assert cached == fresh
    return cached


def a_store(root: Path, count: int = 3) -> None:
    lines = ["# Memory", ""]
    for i in range(count):
        name = f"project_topic_{i}.md"
        write(root, f"{STORE}/{name}", memory(f"topic {i}", f"notes on topic {i}", "project", f"See [[topic {(i + 1) % count}]].\n"))
        lines.append(f"- [topic {i}]({name}) - notes on topic {i}")
    write(root, f"{STORE}/MEMORY.md", "\n".join(lines) + "\n")
    write(root, "CLAUDE.md", f"# Project\n\n@{STORE}/MEMORY.md\n")


def parts_kept(root: Path, *args: str) -> str:
    """What `check -v` says of the cache."""
    proc = run_cli(root, "check", "-v", *args)
    return next((line for line in proc.stderr.splitlines() if "cache" in line), "")


def test_second_run_takes_every_part_from_the_cache(repo: Path) -> None:
    a_store(repo)
    commit_all(repo)
    first = same_with_and_without_cache(repo)
    assert entries(repo), "the first run keeps its findings"
    assert parts_kept(repo, "--no-cache") == "memcheck: cache: off (--no-cache)"
    kept = parts_kept(repo)
    assert kept.startswith("memcheck: cache: 2 of 2 parts"), kept
    assert report(repo) == first


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_first_run_keeps_discovery_and_a_second_writes_nothing(repo: Path, jobs: str) -> None:
    """What discovery found and the families' catalogue are worked out before the
    checking processes are forked, and written by the parent alone once they are
    (in one process: with its parts; see Cache._deferred); a second run finds them
    all and writes nothing new."""
    for package in ("pkg1", "pkg2", "pkg3"):
        for i in range(3):
            write(repo, f"{package}/{STORE}/project_topic_{i}.md", memory(f"topic {i}", f"notes on topic {i}", "project"))
        write(repo, f"{package}/CLAUDE.md", "# Package\n")
    write(repo, "CLAUDE.md", "# Project\n")
    commit_all(repo)
    two = {"MEMCHECK_JOBS": jobs}
    first = subprocess.run(
        [sys.executable, "-m", "memcheck", "check", "--format", "json"], cwd=repo, capture_output=True, text=True, env={**os.environ, **two}
    )
    bodies = {p: json.loads(p.read_bytes().partition(b"\n")[2]) for p in entries(repo) if p.parent.name in ("parts", "values")}
    assert sum("targets" in b for b in bodies.values()) == 1, "what discovery found: one entry"
    assert sum("families" in b for b in bodies.values()) == 1
    assert sum("findings" in b for b in bodies.values()) == 4, "the guidance files and three stores"
    names = [p.name for p in entries(repo)]
    again = subprocess.run(
        [sys.executable, "-m", "memcheck", "check", "--format", "json", "-v"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **two},
    )
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout) == report(repo, "--no-cache")[:2]
    assert "cache: 4 of 4 parts kept" in again.stderr
    assert [p.name for p in entries(repo)] == names


def test_a_context_of_many_questions_is_written_whole_and_believed(repo: Path) -> None:
    """A context's questions are written in pieces (see cache._questions_json): with
    more of them than a piece holds (a question per skill folder here), the file is
    still one JSON document, its questions in order, and the next run keeps every part."""
    for i in range(300):
        write(
            repo,
            f".claude/skills/skill-{i:03d}/SKILL.md",
            f"---\nname: skill-{i:03d}\ndescription: Use for part {i}.\n---\n\nDo part {i}.\n",
        )
    write(repo, "CLAUDE.md", "# Project\n")
    commit_all(repo)
    first = report(repo)
    contexts = [json.loads(p.read_bytes().partition(b"\n")[2]) for p in entries(repo) if p.parent.name == "contexts"]
    asked = max((c["questions"] for c in contexts), key=len)
    assert len(asked) > 300
    assert asked == sorted(asked)
    assert "cache: 2 of 2 parts kept" in parts_kept(repo)
    assert report(repo) == first == report(repo, "--no-cache")


def test_a_part_whose_context_was_never_written_is_checked_again(repo: Path) -> None:
    """A part's entry is written as soon as the part is checked, its process's context
    at the end (see Cache.keep): a run that ended between the two leaves entries that
    are never believed."""
    a_store(repo)
    commit_all(repo)
    first = same_with_and_without_cache(repo)
    for entry in entries(repo):
        if entry.parent.name == "contexts":
            entry.unlink()
    assert parts_kept(repo).startswith("memcheck: cache: 0 of 2 parts")
    assert same_with_and_without_cache(repo) == first
    assert parts_kept(repo).startswith("memcheck: cache: 2 of 2 parts")


def test_a_first_run_reads_no_key_from_gits_index(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Discovery writes its entry before the parts are looked up: the parts' lookup must
    # still know the run is a first one (else it reads git's whole index for keys that
    # no entry can match: time, and on a large tree megabytes of the peak).
    a_store(repo)
    commit_all(repo)
    asked: list[int] = []
    blob_ids = cache_module.FileKeys._blob_ids

    def counted(self: cache_module.FileKeys) -> dict[str, str]:
        asked.append(1)
        return blob_ids(self)

    monkeypatch.setattr(cache_module.FileKeys, "_blob_ids", counted)
    first = report(repo)
    assert asked == []
    assert parts_kept(repo).startswith("memcheck: cache: 2 of 2 parts"), "the next run finds them"
    assert asked, "and the next run keys the files by git's index"
    assert report(repo) == first


def test_an_edit_is_seen(repo: Path) -> None:
    a_store(repo)
    commit_all(repo)
    clean = same_with_and_without_cache(repo)
    write(repo, f"{STORE}/project_topic_1.md", memory("topic 1", "notes on topic 1", "project", "See [[nothing here]].\n"))
    edited = same_with_and_without_cache(repo)
    assert edited != clean and "MEM" in edited[1]
    # ...staged, and then committed: each state judged as a run without the cache judges it
    git(repo, "add", "-A")
    same_with_and_without_cache(repo, "--changed")
    git(repo, "commit", "-qm", "edit")
    assert same_with_and_without_cache(repo) == edited


def test_a_commit_of_one_memory_works_out_that_memory_alone(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit hook's case: one memory of a store changed and staged. The other
    memories' links and cited paths, and the index (whose memories' names and
    descriptions did not change), are taken from the last run, not worked out again;
    and what is taken is still what a run without the cache finds."""
    from memcheck.agents import links
    from memcheck.checks import index
    from memcheck.checks.references import stale_reference

    a_store(repo, count=6)
    write(repo, "src/app.py", "x = 1\n")
    for i in range(6):
        body = f"Notes on topic {i} for the team.\n\nSee [the app](src/app.py), [gone](src/gone.py) and `src/app.py`, `src/gone_{i}.py`.\n"
        write(repo, f"{STORE}/project_topic_{i}.md", memory(f"topic {i}", f"notes on topic {i}", "project", body))
    commit_all(repo)
    # The commits before, whose hooks' runs fill the cache: a run that finds it empty
    # keeps whole parts only, and a later one that finds the store changed keeps its
    # memories' pieces too.
    for i, change in enumerate(("See [the app](src/app.py).", "See [the app](src/app.py) again.")):
        write(
            repo,
            f"{STORE}/project_topic_5.md",
            memory("topic 5", "notes on topic 5", "project", f"Notes on topic 5 for the team.\n\n{change}\n"),
        )
        git(repo, "add", "-A")
        report(repo, "--changed")
        git(repo, "commit", "-qm", f"before {i}", "--no-verify")
    write(
        repo,
        f"{STORE}/project_topic_3.md",
        memory("topic 3", "notes on topic 3", "project", "Notes on topic 3 for the team.\n\nNow [elsewhere](src/elsewhere.py).\n"),
    )
    git(repo, "add", "-A")
    worked: dict[str, list[str]] = {"links": [], "paths": [], "index": []}

    def counting(kind: str, work: Callable[..., object]) -> Callable[..., object]:
        def counted(ws: object, what: object, *args: object, **kwargs: object) -> object:
            worked[kind].append(getattr(what, "path", None) or what.folder)  # type: ignore[attr-defined]  # a memory, or a store
            return work(ws, what, *args, **kwargs)

        return counted

    for module, name, kind in ((links, "dead_links", "links"), (stale_reference, "missing_in", "paths"), (index, "judged", "index")):
        monkeypatch.setattr(module, name, counting(kind, getattr(module, name)))
    cached = report(repo, "--changed")
    assert worked == {"links": [f"{STORE}/project_topic_3.md"], "paths": [], "index": []}
    assert "src/elsewhere.py" in cached[1] and cached == report(repo, "--changed", "--no-cache")
    # A change to what an index entry shows (a description) is judged afresh.
    write(repo, f"{STORE}/project_topic_4.md", memory("topic 4", "new notes", "project", "Topic 4.\n"))
    git(repo, "add", "-A")
    worked["index"].clear()
    cached = report(repo, "--changed")
    assert worked["index"] == [STORE]
    assert cached == report(repo, "--changed", "--no-cache")


def test_a_first_commit_hook_works_out_each_memory_the_change_leaves_alone_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No cache yet (a clone's first commit): the hook checks the store as HEAD has it,
    then as the commit would leave it. A memory the commit leaves alone has the same
    content in both, and is worked out once; what the run reports is what a run
    without the cache reports."""
    from memcheck.agents import links

    a_store(repo, count=5)
    commit_all(repo)
    write(
        repo,
        f"{STORE}/project_topic_2.md",
        memory("topic 2", "notes on topic 2", "project", "Notes on topic 2.\n\nSee [gone](src/gone.py).\n"),
    )
    git(repo, "add", "-A")
    worked: list[str] = []

    def counted(ws: object, doc: object, *args: object, **kwargs: object) -> object:
        worked.append(doc.path)  # type: ignore[attr-defined]  # a Document
        return dead_links(ws, doc, *args, **kwargs)

    dead_links = links.dead_links
    monkeypatch.setattr(links, "dead_links", counted)
    first = report(repo, "--changed")
    assert sorted(worked) == sorted([*(f"{STORE}/project_topic_{i}.md" for i in range(5)), f"{STORE}/project_topic_2.md"])
    assert "src/gone.py" in first[1] and first == report(repo, "--changed", "--no-cache")


def test_a_wiki_link_to_an_excluded_file_is_judged_again_when_the_file_goes(repo: Path) -> None:
    """A [[wiki]] link names a file of a folder the config excludes from checking (a
    note vault); the file is deleted: the cached check says the link names nothing,
    as a check without the cache does (found by an outside attacker)."""
    write(repo, f"{STORE}/zeta.md", memory("zeta", "d zeta", "project", "See [[alpha]].\n"))
    write(repo, f"{STORE}/MEMORY.md", "- [zeta](zeta.md) - d zeta\n")
    write(repo, "notes/alpha.md", "alpha\n")
    write(repo, ".memcheck.yaml", 'exclude: ["notes/"]\n')
    commit_all(repo)
    assert "MEM021" not in same_with_and_without_cache(repo)[1]
    (repo / "notes/alpha.md").unlink()
    same_with_and_without_cache(repo)  # (git's index still lists it)
    git(repo, "add", "-A")
    assert "MEM021" in same_with_and_without_cache(repo)[1]


def test_the_skills_and_guidance_are_judged_again_when_the_settings_turn_a_plugin_on_or_off(repo: Path) -> None:
    """SKL017 and GDN021 say nothing of an agent whose plugins the settings turn on,
    and GDN015 leaves an extension's context file: an edit to those JSON files alone
    (the skills and guidance files unchanged) is seen by the cached check."""
    write(repo, ".agents/skills/ship/SKILL.md", "---\nname: ship\ndescription: Ships. Use when asked.\ncontext: fork\n---\n\nShip.\n")
    write(repo, "CLAUDE.md", "Use the `ship` skill to ship.\n")
    write(repo, ".claude/settings.json", '{"enabledPlugins": {"ship@team": false}}\n')
    write(repo, "AGENTS.md", "# Contributing\n")
    write(repo, "GEMINI.md", "# The extension\n")
    write(repo, "gemini-extension.json", '{"name": "x", "contextFileName": "OTHER.md"}\n')
    commit_all(repo)
    told = {("SKL017", ".agents/skills/ship/SKILL.md"), ("GDN021", "CLAUDE.md"), ("GDN015", "GEMINI.md")}
    codes = lambda: {(p["code"], p["path"]) for p in json.loads(same_with_and_without_cache(repo)[1])["problems"]}  # noqa: E731
    assert told <= codes()
    write(repo, ".claude/settings.json", '{"enabledPlugins": {"ship@team": true}}\n')
    write(repo, "gemini-extension.json", '{"name": "x", "contextFileName": "GEMINI.md"}\n')
    assert not told & codes()


def test_a_cited_path_to_an_excluded_file_is_judged_again_for_every_memory(repo: Path) -> None:
    """Memories cite a file in a folder the config excludes; each memory's REF work is
    kept by its content. Once the file is gone, every memory that cites it says so,
    not only the one whose work first listed the tree."""
    for name in ("a", "b", "c"):
        write(repo, f"{STORE}/{name}.md", memory(name, f"d {name}", "project", f"Topic {name}. See `notes/x.py`.\n"))
    write(repo, "notes/x.py", "x\n")
    write(repo, "notes/old/x.py", "y\n")
    write(repo, ".memcheck.yaml", 'exclude: ["notes/"]\n')
    run_cli(repo, "fix")
    commit_all(repo)
    report(repo)
    for edit in ("One.", "Two."):  # the store changed: its memories' work is kept one by one
        write(repo, f"{STORE}/a.md", memory("a", "d a", "project", f"Topic a. See `notes/x.py`.\n{edit}\n"))
        git(repo, "add", "-A")
        report(repo)
    (repo / "notes/x.py").unlink()
    git(repo, "add", "-A")
    found = same_with_and_without_cache(repo)[1]
    assert all(f"{STORE}/{name}.md" in found for name in ("a", "b", "c")) and found.count("REF001") == 3


def test_line_endings_git_converts_are_seen_by_a_hook(repo: Path) -> None:
    """`*.md text eol=crlf` at the root: the checkout holds CRLF, git's blobs LF, and git
    calls the files unchanged. A hook lists the changed store's folder only, and must
    still know that git converts there: else an unchanged memory's findings, kept from
    its LF blob, stood for the CRLF file (MEM018 named one file of three)."""
    a_store(repo)
    write(repo, ".gitattributes", "*.md text eol=crlf\n")
    commit_all(repo)
    (repo / ".git" / "index").unlink()
    git(repo, "checkout", "-f", "-q", "HEAD", "--", ".")
    git(repo, "reset", "-q")
    assert b"\r\n" in (repo / STORE / "project_topic_0.md").read_bytes()
    report(repo)
    for i, line in enumerate(("More.", "Still more.")):
        with open(repo / STORE / f"project_topic_{i + 1}.md", "a", newline="") as f:
            f.write(line + "\r\n")
        git(repo, "add", "-A")
        checked = same_with_and_without_cache(repo, "--changed")
        assert "MEM018" in checked[1]
        git(repo, "commit", "-qm", f"edit {i}", "--no-verify")


def test_no_cache_writes_nothing(repo: Path) -> None:
    a_store(repo)
    report(repo, "--no-cache")
    assert not cache_folder(repo).exists()


def test_clean_removes_the_cache(repo: Path) -> None:
    a_store(repo)
    report(repo)
    assert cache_folder(repo).exists()
    proc = run_cli(repo, "clean")
    assert proc.returncode == 0 and "removed the cache" in proc.stderr
    assert not cache_folder(repo).exists()
    again = run_cli(repo, "clean")
    assert again.returncode == 0 and "no cache" in again.stderr


def test_clean_that_cannot_remove_the_cache_says_so(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A cache folder the user may not write to (another user's, or read-only): the
    # next run would still read what is left, so clean fails rather than claim it
    # removed it (found by an outside attacker). Root may delete anything, so the
    # removal that fails is shutil's.
    a_store(repo)
    report(repo)
    monkeypatch.setattr(shutil, "rmtree", lambda *args, **kwargs: None)
    proc = run_cli(repo, "clean")
    assert proc.returncode == 1 and "could not remove all of the cache" in proc.stderr and "parts" in proc.stderr
    assert "removed the cache" not in proc.stderr and cache_folder(repo).exists()


def test_cache_dir_from_the_environment_and_the_settings(repo: Path, tmp_path: Path) -> None:
    a_store(repo)
    elsewhere = tmp_path / "kept"
    run_cli(repo, "check", env={"MEMCHECK_CACHE_DIR": str(elsewhere)})
    assert any(p.is_file() for p in elsewhere.rglob("*")) and not cache_folder(repo).exists()
    write(repo, ".memcheck.yaml", "cache-dir: .cache/memcheck\n")
    run_cli(repo, "check")
    assert any(p.is_file() for p in (repo / ".cache" / "memcheck").rglob("*"))


@pytest.mark.parametrize("where", ["../outside", "/tmp/anywhere", ".git/hooks"])
def test_settings_never_put_the_cache_outside_the_repository(repo: Path, where: str) -> None:
    a_store(repo)
    write(repo, ".memcheck.yaml", f"cache-dir: {where}\n")
    proc = run_cli(repo, "check")
    assert proc.returncode == 2 and "cache-dir" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("where", ["src", "src/parts"])
def test_a_cache_dir_that_holds_other_files_is_never_written_or_emptied(repo: Path, where: str) -> None:
    # A `cache-dir` naming a folder of the project's own (found by an outside
    # attacker): memcheck wrote `src/.gitignore` (`*`, hiding every new file there
    # from `git add -A`) and `memcheck clean` removed the tracked `src/parts`, an
    # uncommitted edit with it.
    a_store(repo)
    write(repo, "src/parts/engine.py", "code\n")
    write(repo, ".memcheck.yaml", f"cache-dir: {where}\n")
    commit_all(repo)
    write(repo, "src/parts/engine.py", "code\nwork in progress\n")
    before = sorted(str(p.relative_to(repo)) for p in (repo / "src").rglob("*"))
    assert run_cli(repo, "check").returncode in (0, 1)
    assert run_cli(repo, "clean").stderr.strip() == "memcheck: no cache to remove"
    assert sorted(str(p.relative_to(repo)) for p in (repo / "src").rglob("*")) == before
    assert (repo / "src/parts/engine.py").read_text(encoding="utf-8") == "code\nwork in progress\n"
    assert same_with_and_without_cache(repo)[0] in (0, 1)


def test_a_cache_dir_made_by_memcheck_is_used_and_cleaned(repo: Path) -> None:
    a_store(repo)
    write(repo, ".memcheck.yaml", "cache-dir: .cache/memcheck\n")
    report(repo)
    kept = repo / ".cache" / "memcheck"
    assert (kept / ".gitignore").read_bytes() == b"# Written by memcheck: its cache, never committed.\n*\n"
    assert run_cli(repo, "clean").returncode == 0 and not kept.exists()


def test_settings_cache_dir_through_a_symlink_out_is_no_cache(repo: Path, tmp_path: Path) -> None:
    a_store(repo)
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / "kept").symlink_to(outside)
    write(repo, ".memcheck.yaml", "cache-dir: kept\n")
    assert same_with_and_without_cache(repo)[0] in (0, 1)
    assert not any(outside.iterdir()), "nothing is written through a symlink out of the repository"


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: text[: len(text) // 2], id="truncated"),
        pytest.param(lambda text: "", id="empty"),
        pytest.param(lambda text: "\x00\xff not json", id="garbage"),
        pytest.param(lambda text: json.dumps({**json.loads(text), "format": 999}), id="another-format"),
        pytest.param(
            lambda text: json.dumps({**json.loads(text), "findings": [["x", 1, 1, "MEM001", "forged", "error", False, ""]]}),
            id="forged-findings",
        ),
        pytest.param(lambda text: json.dumps({**json.loads(text), "reads": {"../../etc/passwd": "b0"}}), id="read-outside"),
        pytest.param(lambda text: json.dumps({**json.loads(text), "questions": [["is_file", "/etc/passwd", True]]}), id="question-outside"),
        pytest.param(
            lambda text: json.dumps({**json.loads(text), "questions": [["is_file", "..\\..\\etc\\passwd", True]]}),
            id="question-up-by-backslashes",
        ),
        pytest.param(lambda text: json.dumps({**json.loads(text), "findings": [[1, 2, 3]]}), id="bad-finding"),
        pytest.param(lambda text: "[" * 100000, id="deep"),
    ],
)
def test_a_damaged_or_hostile_cache_is_never_believed(repo: Path, damage: object) -> None:
    a_store(repo)
    write(repo, f"{STORE}/project_topic_2.md", memory("topic 2", "notes on topic 2", "project", "See [[missing note]].\n"))
    commit_all(repo)
    expected = report(repo, "--no-cache")
    report(repo)
    for entry in entries(repo):
        if entry.parent.name not in ("parts", "contexts", "values"):
            continue
        seal, _, body = entry.read_bytes().partition(b"\n")
        try:
            damaged = damage(body.decode()).encode()  # type: ignore[operator]
        except ValueError:  # a store's values, marshalled: damaged as bytes (cut in half, where the damage is JSON's)
            try:
                damaged = damage(body.decode("latin-1")).encode("latin-1")  # type: ignore[operator]
            except ValueError:
                damaged = body[: len(body) // 2]
        entry.write_bytes(seal + b"\n" + damaged)
    assert report(repo) == expected
    assert report(repo) == expected  # and written anew


def test_a_cache_from_another_clone_is_not_believed(repo: Path, tmp_path: Path) -> None:
    """A cache folder inside the repository, committed with forged findings (a pull
    request's): a fresh clone seals entries with its own key, and believes none of them."""
    a_store(repo)
    write(
        repo,
        f"{STORE}/project_topic_2.md",
        memory("topic 2", "notes", "project", "Key: ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n"),
    )
    write(repo, ".memcheck.yaml", "cache-dir: .cache/memcheck\n")
    report(repo)
    for entry in (repo / ".cache" / "memcheck").rglob("*"):
        if entry.is_file() and "parts" in entry.parts:
            seal, _, body = entry.read_text().partition("\n")
            entry.write_text(seal + "\n" + json.dumps({**json.loads(body), "findings": []}))
    commit_all(repo)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    code, out, _ = report(clone)
    assert code == 1 and "SEC" in out
    assert (code, out) == report(clone, "--no-cache")[:2]


def test_a_cache_of_another_memcheck_is_not_used(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a_store(repo)
    commit_all(repo)
    report(repo)
    monkeypatch.setattr(cache_module, "_CODE_DIGEST", "another version")
    assert parts_kept(repo).startswith("memcheck: cache: 0 of 2 parts")


def test_two_runs_at_once(repo: Path) -> None:
    """Two processes filling the same cache at once (a hook and the editor): neither
    fails, and what they leave behind gives the same report."""
    for n in range(4):
        folder = f"pkg{n}/{STORE}"
        for i in range(30):
            write(repo, f"{folder}/project_t{i}.md", memory(f"t{n} {i}", f"notes {i}", "project", f"See [[t{n} {(i + 7) % 31}]].\n"))
    commit_all(repo)
    expected = report(repo, "--no-cache")
    command = [sys.executable, "-m", "memcheck", "check", "--format", "json"]
    for _ in range(3):
        for entry in entries(repo):
            entry.unlink()
        runs = [subprocess.Popen(command, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [(p.wait(), *p.communicate()) for p in runs]
        for code, out, err in results:
            assert (code, out, err) == expected
        assert report(repo) == expected
    assert not [p for p in cache_folder(repo).rglob(".tmp-*")], "no half-written file is left"


# --- cached and uncached agree over any sequence of changes ------------------------

NAMES = [f"{kind}_{topic}.md" for kind in ("project", "feedback") for topic in ("api", "queue", "deploy")]
BODIES = [
    "Plain notes.\n",
    "See [[project api]] and [[nowhere]].\n",
    "Read `src/app.py` and docs/guide.md.\n",
    "Key: ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n",
    # Links a memory's check looks up in the tree, past a first sentence that stays.
    "First sentence. See [the guide](docs/guide.md), [app](../../src/app.py) and `src/app.py`.\n",
    "First sentence. Then [a link](nowhere/at/all.md) and [[project_api]].\n",
]
FRONTMATTERS = [
    lambda stem: memory(stem.replace("_", " "), f"about {stem}", stem.split("_")[0]),
    lambda stem: f"---\nname: {stem}\ndescription: broken: value: here\ntype: project\n---\n",
    lambda stem: f"---\nname: {stem}\n---\n",
    lambda stem: "no frontmatter at all\n",
]
CONFIGS = ["", "ignore: [MEM]\n", "select: [IDX, REF]\n", "memory:\n  stores: [notes]\n", "exclude: ['pkg/**']\n"]

step = st.one_of(
    st.tuples(
        st.just("write"),
        st.sampled_from(["", "pkg/"]),
        st.sampled_from(NAMES),
        st.integers(0, len(FRONTMATTERS) - 1),
        st.integers(0, len(BODIES) - 1),
    ),
    st.tuples(st.just("delete"), st.sampled_from(["", "pkg/"]), st.sampled_from(NAMES)),
    st.tuples(st.just("rename"), st.sampled_from(["", "pkg/"]), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("index"), st.sampled_from(["", "pkg/"]), st.lists(st.sampled_from(NAMES), max_size=4)),
    st.tuples(st.just("guidance"), st.sampled_from(["", "@.claude/memory/MEMORY.md\n", "See docs/guide.md and @src/app.py\n"])),
    st.tuples(st.just("source"), st.sampled_from(["src/app.py", "docs/guide.md"]), st.booleans()),
    st.tuples(st.just("config"), st.integers(0, len(CONFIGS) - 1)),
    st.tuples(st.just("stage")),
    st.tuples(st.just("commit")),
    st.tuples(st.just("version")),
)


def apply(root: Path, change: tuple[object, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    kind = change[0]
    if kind == "write":
        _, prefix, name, fm, body = change
        stem = str(name)[:-3]
        write(root, f"{prefix}{STORE}/{name}", FRONTMATTERS[int(fm)](stem).rstrip("\n") + "\n" + BODIES[int(body)])  # type: ignore[call-overload]
    elif kind == "delete":
        _, prefix, name = change
        (root / f"{prefix}{STORE}" / str(name)).unlink(missing_ok=True)
    elif kind == "rename":
        _, prefix, old, new = change
        source = root / f"{prefix}{STORE}" / str(old)
        if source.exists():
            source.replace(root / f"{prefix}{STORE}" / str(new))
    elif kind == "index":
        _, prefix, names = change
        lines = ["# Memory", ""] + [f"- [{n[:-3]}]({n}) - about it" for n in names]  # type: ignore[union-attr]
        write(root, f"{prefix}{STORE}/MEMORY.md", "\n".join(lines) + "\n")
    elif kind == "guidance":
        write(root, "CLAUDE.md", f"# Rules\n\n{change[1]}")
    elif kind == "source":
        _, path, present = change
        if present:
            write(root, str(path), "print('hi')\n")
        else:
            (root / str(path)).unlink(missing_ok=True)
    elif kind == "config":
        write(root, ".memcheck.yaml", CONFIGS[int(change[1])])  # type: ignore[call-overload]
    elif kind == "stage":
        git(root, "add", "-A")
    elif kind == "commit":
        git(root, "add", "-A")
        git(root, "commit", "-qm", "step", "--allow-empty", "--no-verify")
    elif kind == "version":
        monkeypatch.setattr(cache_module, "_CODE_DIGEST", f"{cache_module.code_digest()}+")


@pytest.mark.slow
@settings(
    max_examples=int(os.environ.get("MEMCHECK_CACHE_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=8))
def test_cached_and_uncached_agree(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, steps: list[tuple[object, ...]]
) -> None:
    root = tmp_path_factory.mktemp("repo")
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    a_store(root)
    write(root, f"pkg/{STORE}/project_api.md", memory("project api", "about the api", "project"))
    commit_all(root)
    with monkeypatch.context() as patch:
        same_with_and_without_cache(root)
        for change in steps:
            apply(root, change, patch)
            # A first commit hook (no cache yet): its check at HEAD keeps pieces for its
            # check of the commit.
            first = run_cli(
                root, "check", "--format", "json", "--changed", env={"MEMCHECK_CACHE_DIR": str(tmp_path_factory.mktemp("first-cache"))}
            )
            assert (first.returncode, first.stdout, first.stderr) == report(root, "--changed", "--no-cache")
            same_with_and_without_cache(root)
            same_with_and_without_cache(root, "--changed")
            fix_alike(root, tmp_path_factory)


def tree_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def fix_alike(root: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The pre-commit hooks' fix, after their check, on two copies of the repository:
    with the cache the check filled, and without one; the same report, the same files."""
    results = []
    for args in ((), ("--no-cache",)):
        copy = tmp_path_factory.mktemp("copy") / "repo"
        shutil.copytree(root, copy, symlinks=True)
        run_cli(copy, "check", "--changed", *args)
        proc = run_cli(copy, "fix", "--changed", "--exit-non-zero-on-fix", *args)
        results.append((proc.returncode, proc.stdout, proc.stderr, tree_of(copy), git(copy, "diff", "--cached", "--name-only")))
    assert results[0] == results[1]


def test_fix_after_check_judges_the_index_it_wrote(repo: Path) -> None:
    """`--changed` with nothing staged judges the index fix writes from the disk, while
    git's index still holds the old one: the cache keys it by what is read, not by the
    index (found by test_cached_and_uncached_agree)."""
    a_store(repo)
    write(repo, f"pkg/{STORE}/project_api.md", memory("project api", "about the api", "project"))
    commit_all(repo)
    run_cli(repo, "check", "--changed")
    proc = run_cli(repo, "fix", "--changed", "--exit-non-zero-on-fix")
    assert "Fixing pkg/.claude/memory/MEMORY.md" in proc.stdout
    assert "No problems found" in proc.stdout, proc.stdout


def test_an_index_on_disk_but_not_staged_is_seen(repo: Path) -> None:
    """The staged tree's check looks at the disk for an index not yet staged: the cache
    notes that answer too (found by test_cached_and_uncached_agree)."""
    a_store(repo)
    write(repo, f"pkg/{STORE}/project_api.md", memory("project api", "about the api", "project"))
    commit_all(repo)
    first = same_with_and_without_cache(repo, "--changed")
    write(repo, f"pkg/{STORE}/MEMORY.md", "# Memory\n\n- [project api](project_api.md) - about the api\n")
    then = same_with_and_without_cache(repo, "--changed")
    assert "is not staged" in then[1] and then != first


def test_what_no_run_used_for_a_week_is_pruned(repo: Path) -> None:
    a_store(repo)
    commit_all(repo)
    report(repo)
    in_use = [p for p in entries(repo) if p.parent.name in ("parts", "contexts")]
    stale = cache_folder(repo) / "parts" / ("ab" + "0" * 38)  # of content no tree holds any more
    # where an earlier release kept its entries: in a folder per two first characters
    stale_sharded = cache_folder(repo) / "parts" / "cd" / ("cd" + "0" * 38)
    stale_sharded.parent.mkdir(parents=True, exist_ok=True)
    for path in (stale, stale_sharded):
        path.write_text("old\n{}")
    week_ago = time.time() - 8 * 24 * 3600
    for path in [*in_use, stale, stale_sharded, cache_folder(repo) / "pruned"]:
        os.utime(path, (week_ago, week_ago))
    report(repo)  # finds every part kept: their time moves on
    write(repo, "CLAUDE.md", "# Project, edited\n")  # a run that writes, and so prunes
    assert same_with_and_without_cache(repo)[0] in (0, 1)
    assert not stale.exists() and not stale_sharded.exists()
    assert all(p.exists() for p in in_use), "what the last run found is kept"


# --- what an outside attack on the cache found: each a test --------------------------

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.mark.parametrize("flag", ["--assume-unchanged", "--skip-worktree"])
def test_an_edit_git_is_told_not_to_look_at_is_seen(repo: Path, flag: str) -> None:
    a_store(repo)
    commit_all(repo)
    report(repo)
    git(repo, "update-index", flag, f"{STORE}/project_topic_1.md")
    write(repo, f"{STORE}/project_topic_1.md", memory("topic 1", "notes on topic 1", "project", f"Key: {TOKEN}\n"))
    code, out, _ = same_with_and_without_cache(repo)
    assert code == 1 and "SEC002" in out


def test_what_git_converts_on_its_way_in_is_judged_as_read(repo: Path) -> None:
    """A clean filter (or line-ending conversion) makes the disk's bytes differ from the
    blob while git calls the file unchanged: the cache keys what was read."""
    git(repo, "config", "filter.strip.clean", "grep -v ghp_")
    git(repo, "config", "filter.strip.smudge", "cat")
    write(repo, ".gitattributes", f"{STORE}/*.md filter=strip\n")
    a_store(repo)
    write(repo, f"{STORE}/project_topic_1.md", memory("topic 1", "notes on topic 1", "project", f"Key: {TOKEN}\n"))
    commit_all(repo)
    assert git(repo, "status", "--porcelain") == ""  # git sees no change
    code, out, _ = same_with_and_without_cache(repo)
    assert code == 1 and "SEC002" in out
    assert same_with_and_without_cache(repo)[:2] == (code, out)


def test_crlf_written_over_a_clean_file_is_seen(repo: Path) -> None:
    git(repo, "config", "core.autocrlf", "true")
    a_store(repo)
    commit_all(repo)
    first = same_with_and_without_cache(repo)
    path = repo / STORE / "project_topic_0.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert git(repo, "diff", "--name-only") == ""  # git converts it back: the same blob to git
    after = same_with_and_without_cache(repo)
    assert "MEM018" in after[1] and "MEM018" not in first[1]


def test_a_finding_that_counts_days_is_found_again_the_next_day(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime

    from memcheck.workspace import tracking

    write(repo, ".memcheck.yaml", "memory:\n  stale-after-days: 10\n")
    a_store(repo)
    write(repo, f"{STORE}/project_topic_1.md", memory("topic 1", "notes on topic 1", "project", extra="updated: 2026-01-01\n"))
    commit_all(repo)
    monkeypatch.setattr(tracking, "today", lambda: datetime.date(2026, 1, 10))
    assert "MEM016" not in same_with_and_without_cache(repo)[1]
    monkeypatch.setattr(tracking, "today", lambda: datetime.date(2026, 1, 12))
    assert "MEM016" in same_with_and_without_cache(repo)[1]


def test_a_file_read_twice_with_other_content_keeps_nothing() -> None:
    from memcheck.workspace.tracking import Tracker

    tracker = Tracker()
    with tracker.part():
        tracker.read("a.md", "b1")
        tracker.read("a.md", "b1")
    assert not tracker.unsteady
    tracker.read("a.md", "b2")  # written while memcheck ran
    assert tracker.unsteady


def test_a_cache_folder_in_the_checked_tree_is_never_checked(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "cache-dir: .claude/skills/cache\n")
    write(repo, ".claude/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Use when deploying.\n---\n\nDeploy.\n")
    a_store(repo)
    commit_all(repo)
    runs = [same_with_and_without_cache(repo) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2] and "SKL016" not in runs[0][1]
    assert parts_kept(repo).startswith("memcheck: cache: 3 of 3 parts")


@pytest.mark.parametrize("link", ["parts", "contexts", "values", "pruned", ".gitignore"])
def test_a_committed_symlink_in_the_cache_folder_leads_nowhere(repo: Path, tmp_path: Path, link: str) -> None:
    outside = tmp_path / "outside"
    (outside / "ab").mkdir(parents=True)
    precious = outside / "ab" / "thesis.txt"
    precious.write_text("mine")
    week_ago = time.time() - 8 * 24 * 3600
    os.utime(precious, (week_ago, week_ago))
    write(repo, ".memcheck.yaml", "cache-dir: .mc\n")
    (repo / ".mc").mkdir()
    (repo / ".mc" / link).symlink_to(outside if link in ("parts", "contexts", "values") else outside / "x")
    a_store(repo)
    commit_all(repo)
    for _ in range(2):
        same_with_and_without_cache(repo)
    stamp = repo / ".mc" / "pruned"
    if stamp.is_file() and not stamp.is_symlink():
        os.utime(stamp, (week_ago, week_ago))
    same_with_and_without_cache(repo)
    assert precious.read_text() == "mine"
    assert sorted(p.name for p in outside.rglob("*")) == ["ab", "thesis.txt"]


def test_a_cache_dir_into_the_git_folder_is_no_cache(repo: Path) -> None:
    a_store(repo)
    (repo / ".mc-cache").symlink_to(".git")
    write(repo, ".memcheck.yaml", "cache-dir: .mc-cache\n")
    same_with_and_without_cache(repo)
    run_cli(repo, "clean")
    assert (repo / ".git" / "HEAD").is_file() and git(repo, "status", "--porcelain") != ""


def test_clean_removes_only_what_memcheck_wrote(repo: Path, tmp_path: Path) -> None:
    a_store(repo)
    write(repo, "src/app.py", "x = 1\n")
    write(repo, ".memcheck.yaml", "cache-dir: src\n")
    report(repo)
    # A folder of other files is no cache of memcheck's: nothing written there, nothing removed.
    assert not (repo / "src" / "parts").exists() and not (repo / "src" / ".gitignore").exists()
    assert run_cli(repo, "clean").returncode == 0
    assert sorted(p.name for p in (repo / "src").iterdir()) == ["app.py"] and (repo / "src" / "app.py").read_text() == "x = 1\n"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    proc = run_cli(repo, "clean", env={"MEMCHECK_CACHE_DIR": str(mine)})
    assert proc.returncode == 0 and "no cache" in proc.stderr and (mine / "notes.txt").read_text() == "keep"


def test_special_files_in_the_cache_folder_never_hang_or_crash(repo: Path, tmp_path: Path) -> None:
    a_store(repo)
    commit_all(repo)
    expected = report(repo, "--no-cache")
    report(repo)
    key = repo / ".git" / "memcheck" / "key"
    key.unlink()
    os.mkfifo(key)
    entry = next(p for p in entries(repo) if p.parent.name == "parts")
    entry.unlink()
    entry.symlink_to("/dev/zero")
    proc = subprocess.run(
        [sys.executable, "-m", "memcheck", "check", "--format", "json"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == expected


@pytest.mark.parametrize("what", ["file", "fifo", "symlink", "home of nobody", "long"])
def test_odd_cache_folders_give_a_clean_run(repo: Path, tmp_path: Path, what: str) -> None:
    a_store(repo)
    place = tmp_path / "cache"
    if what == "file":
        place.write_text("x")
    elif what == "fifo":
        os.mkfifo(place)
    elif what == "symlink":
        place.symlink_to(tmp_path / "nowhere")
    given = {"home of nobody": "~nosuchuser/x", "long": str(tmp_path / ("d" * 300) / ("e" * 300))}.get(what, str(place))
    env = {"MEMCHECK_CACHE_DIR": given}

    def memcheck(*args: str) -> subprocess.CompletedProcess[str]:
        if what != "fifo":
            return run_cli(repo, *args, env=env)
        # A real process, ended if it blocks on the FIFO (in this one it would hang the run).
        command = [sys.executable, "-m", "memcheck", *args]
        return subprocess.run(command, cwd=repo, capture_output=True, text=True, timeout=60, env={**os.environ, **env})

    expected = report(repo, "--no-cache")
    for _ in range(2):
        proc = memcheck("check", "--format", "json")
        assert (proc.returncode, proc.stdout, proc.stderr) == expected
    cleaned = memcheck("clean")
    assert cleaned.returncode == 0 and "Traceback" not in cleaned.stderr


def test_a_windows_path_linked_from_a_file_is_still_kept(repo: Path) -> None:
    """A link to `\\.claude\\docs\\README.md` (a real repository's CLAUDE.md) asks
    whether that name exists: a question asked again, not refused as a path out of the
    tree (which had every run of that repository check afresh)."""
    a_store(repo)
    write(repo, "CLAUDE.md", "# Project\n\n- [docs](\\.claude\\docs\\README.md) for more.\n")
    commit_all(repo)
    same_with_and_without_cache(repo)
    assert parts_kept(repo).startswith("memcheck: cache: 2 of 2 parts")


def test_an_edit_to_a_store_s_own_document_is_seen(repo: Path) -> None:
    # SOUL.md beside the memories: no memory, but the store's check reads it.
    a_store(repo)
    write(repo, f"{STORE}/SOUL.md", "# Soul\n\nBe kind.\n")
    commit_all(repo)
    clean = same_with_and_without_cache(repo)
    write(repo, f"{STORE}/SOUL.md", "# Soul\n\nBe kind.\nDeploy with ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n")
    edited = same_with_and_without_cache(repo)
    assert edited != clean and f'"path": "{STORE}/SOUL.md"' in edited[1] and "SEC002" in edited[1]
    git(repo, "add", "-A")
    assert same_with_and_without_cache(repo, "--changed")[0] == 1


def _sealed(root: Path, body: bytes) -> bytes:
    """``body`` sealed as this clone seals a cache file (see Cache.secret)."""
    key = (root / ".git" / "memcheck" / "key").read_bytes()
    return hashlib.blake2b(body, key=key, digest_size=32).hexdigest().encode() + b"\n" + body


def test_a_discovery_entry_without_the_stores_own_documents_is_not_believed(repo: Path) -> None:
    """What discovery found, kept as a memcheck that knew no store's own documents kept
    it (each store without them), sealed by this clone: believed, SOUL.md would go
    unread; it is of another shape, so a miss, and discovery is done again."""
    a_store(repo)
    write(repo, f"{STORE}/SOUL.md", "# Soul\n\nDeploy with ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n")
    commit_all(repo)
    expected = report(repo, "--no-cache")
    assert "SEC002" in expected[1]
    report(repo)
    (found,) = [p for p in entries(repo) if p.parent.name == "parts" and b'"targets"' in p.read_bytes()]
    body = json.loads(found.read_bytes().partition(b"\n")[2])
    assert [store[6] for store in body["targets"]["stores"]] == [[f"{STORE}/SOUL.md"]]
    body["targets"]["stores"] = [store[:6] for store in body["targets"]["stores"]]
    found.write_bytes(_sealed(repo, json.dumps(body).encode()))
    for part in entries(repo):  # the parts' findings too: discovery alone decides what is read
        if part.parent.name == "parts" and part != found:
            part.unlink()
    assert report(repo) == expected


def test_a_memory_type_is_judged_again_when_the_instructions_stop_listing_it(repo: Path) -> None:
    """MEM007 leaves a type that CLAUDE.md's memory template lists; an edit to
    CLAUDE.md alone (the memory unchanged) that drops it from the list is seen by the
    cached check, as by a check without the cache."""
    write(repo, f"{STORE}/why_queue.md", memory("why queue", "why we queue", "decision"))
    write(repo, f"{STORE}/MEMORY.md", "- [why queue](why_queue.md) - why we queue\n")
    write(repo, "CLAUDE.md", "# Memory\n\n    type: {user, feedback, project, decision, reference}\n")
    commit_all(repo)
    assert "MEM007" not in same_with_and_without_cache(repo)[1]
    write(repo, "CLAUDE.md", "# Memory\n\n    type: {user, feedback, project, reference}\n")
    assert "MEM007" in same_with_and_without_cache(repo)[1]
    git(repo, "add", "-A")
    assert "MEM007" in same_with_and_without_cache(repo)[1]


def test_a_memory_brought_back_from_the_archive_has_its_paths_judged_again(repo: Path) -> None:
    """REF001 leaves the paths of a memory only MEMORY-archive.md lists; an edit to
    MEMORY.md alone that links it again is seen by the cached check."""
    write(repo, f"{STORE}/session_old.md", memory("old session", "the port fix", "project", "Fixed `improv/server/ws.ts`.\n"))
    write(repo, f"{STORE}/MEMORY-archive.md", "- [Old](session_old.md) - the port fix\n- [a](a.md) - a\n- [b](b.md) - b\n")
    write(repo, f"{STORE}/MEMORY.md", "# Memory\n")
    write(repo, "justify/server/ws.ts", "")
    commit_all(repo)
    assert "REF001" not in same_with_and_without_cache(repo)[1]
    write(repo, f"{STORE}/MEMORY.md", "# Memory\n\n- [Old](session_old.md) - the port fix\n")
    assert "REF001" in same_with_and_without_cache(repo)[1]


def test_a_prompt_file_is_judged_again_when_the_agent_it_runs_loses_its_prompt(repo: Path) -> None:
    """AGT015 leaves a prompt file that runs a custom agent with a prompt; an edit to
    the agent alone that empties its body is seen by the cached check."""
    prompt = ".github/prompts/review.prompt.md"
    write(repo, prompt, "---\nagent: reviewer\n---\n")
    write(repo, ".github/agents/reviewer.agent.md", "---\ndescription: Reviews.\n---\n\nReview the change.\n")
    commit_all(repo)
    assert "AGT015" not in same_with_and_without_cache(repo)[1]
    write(repo, ".github/agents/reviewer.agent.md", "---\ndescription: Reviews.\n---\n\n<!-- later -->\n")
    found = json.loads(same_with_and_without_cache(repo)[1])["problems"]
    assert [p["path"] for p in found if p["code"] == "AGT015"] == [prompt]


def test_a_skill_is_judged_again_when_its_folder_becomes_a_copy_of_the_home_claude_folder(repo: Path) -> None:
    """SKL004 leaves a skill without `name` in the skills/ of a copy of ~/.claude
    (CLAUDE.md and settings.json beside it); adding or removing the settings file alone,
    the skill untouched, is seen by the cached check."""
    skill = "skills/deploy/SKILL.md"
    write(repo, skill, "---\ndescription: Deploys the site. Use when asked to deploy.\n---\n\nRun the deploy script.\n")
    write(repo, "CLAUDE.md", "# My instructions\n\nBe brief.\n")
    commit_all(repo)
    assert [p["path"] for p in json.loads(same_with_and_without_cache(repo)[1])["problems"] if p["code"] == "SKL004"] == [skill]
    write(repo, "settings.json", '{"permissions": {"allow": ["Bash(ls)"]}}\n')
    commit_all(repo)
    assert "SKL004" not in same_with_and_without_cache(repo)[1]
    (repo / "settings.json").unlink()
    assert [p["path"] for p in json.loads(same_with_and_without_cache(repo)[1])["problems"] if p["code"] == "SKL004"] == [skill]


def test_the_memories_an_index_has_no_room_for_are_one_finding_with_the_cache_as_without(repo: Path) -> None:
    """One finding names the memories MEMORY.md has no room for: a cached check names
    the same ones as a check without the cache as one is added, one goes, and one of
    them gets a comment that turns the rule off for it."""
    for rel, text in full_index(["a_plan", "b_plan"], STORE).items():
        write(repo, rel, text)
    commit_all(repo)

    def left_out() -> list[list[str]]:
        found = json.loads(same_with_and_without_cache(repo)[1])["problems"]
        return [[f.rsplit("/", 1)[1] for f in p["files"]] for p in found if p["code"] == "IDX003"]

    assert left_out() == [["a_plan.md", "b_plan.md"]]
    write(repo, f"{STORE}/c_plan.md", memory("c_plan", "about c_plan", "project"))
    assert left_out() == [["a_plan.md", "b_plan.md", "c_plan.md"]]
    (repo / STORE / "a_plan.md").unlink()
    assert left_out() == [["b_plan.md", "c_plan.md"]]
    write(repo, f"{STORE}/b_plan.md", memory("b_plan", "about b_plan", "project", "<!-- memcheck-disable-file IDX003 -->\n"))
    assert left_out() == [["c_plan.md"]]


def test_a_skill_is_judged_again_when_the_home_copys_settings_change_alone(repo: Path) -> None:
    """The settings.json beside skills/ decides whether the folder copies ~/.claude:
    made an application's, a link out of the repository, or a file git ignores, the
    skill without `name` is reported, by the cached check as by a check without it."""
    skill = "skills/deploy/SKILL.md"
    write(repo, skill, "---\ndescription: Deploys the site. Use when asked to deploy.\n---\n\nRun the deploy script.\n")
    write(repo, "CLAUDE.md", "# My instructions\n\nBe brief.\n")
    write(repo, "settings.json", '{"permissions": {"allow": ["Bash(ls)"]}}\n')
    commit_all(repo)

    def reported() -> list[str]:
        return [p["path"] for p in json.loads(same_with_and_without_cache(repo)[1])["problems"] if p["code"] == "SKL004"]

    assert reported() == []
    write(repo, "settings.json", '{"port": 8080}\n')
    assert reported() == [skill]
    write(repo, "settings.json", '{"permissions": {"allow": ["Bash(ls)"]}}\n')
    assert reported() == []
    (repo / "settings.json").unlink()
    (repo / "settings.json").symlink_to("/etc/hostname")
    assert reported() == [skill]
    (repo / "settings.json").unlink()
    write(repo, "settings.json", '{"permissions": {"allow": ["Bash(ls)"]}}\n')
    git(repo, "rm", "-q", "--cached", "settings.json")
    write(repo, ".gitignore", "settings.json\n")
    assert reported() == [skill]


@pytest.mark.parametrize("link", [".agents/skills", ".github/skills"])
def test_a_copy_of_homes_skills_another_agents_folder_links_are_that_agents_too(repo: Path, link: str) -> None:
    """A copy of ~/.claude whose skills/ an agent folder of the repository links
    (`.agents/skills -> ../skills`): that agent loads the skills here and needs `name`."""
    skill = "skills/deploy/SKILL.md"
    write(repo, skill, "---\ndescription: Deploys the site. Use when asked to deploy.\n---\n\nRun the deploy script.\n")
    write(repo, "CLAUDE.md", "# My instructions\n\nBe brief.\n")
    write(repo, "settings.json", '{"permissions": {"allow": ["Bash(ls)"]}}\n')
    (repo / link).parent.mkdir(parents=True, exist_ok=True)
    (repo / link).symlink_to("../skills")
    commit_all(repo)
    found = json.loads(same_with_and_without_cache(repo)[1])["problems"]
    assert skill in [p["path"] for p in found if p["code"] == "SKL004"]
