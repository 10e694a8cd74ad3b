"""Large trees are checked by several processes: the findings and the output are
exactly those of one process, whatever the split."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import invoke, memory, run_cli, write

from memcheck.engine import queue

pytestmark = pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="memcheck only forks on Linux and the BSDs")


def _tree(repo: Path) -> None:
    """Problems in every kind of part: stores, the guidance files (checked by the
    parent while the children take stores), skills."""
    for s in range(6):
        folder = f"pkg{s}/.claude/memory"
        names = []
        for i in range(30):
            name = f"note_{i:02d}.md"
            kind = "project" if (s, i) != (2, 7) else "infra"  # MEM: a type agents do not know
            write(repo, f"{folder}/{name}", memory(f"Note {s}.{i}", f"What note {i} of store {s} says", kind))
            names.append(name)
        listed = names[:-1] if s % 2 else names  # IDX003 in every other store
        write(repo, f"{folder}/MEMORY.md", "".join(f"- [Note]({n}) \u2014 note\n" for n in listed))
    write(repo, "pkg3/.claude/memory/note_05.md", "no frontmatter at all\n")
    for g in range(230):
        body = "# Guide\n\nSee [the docs](docs/missing.md).\n" if g % 50 == 0 else "# Guide\n\nRun the tests.\n"
        write(repo, f"area{g:03d}/AGENTS.md", body)
    for k in range(4):
        name = "deploy" if k < 2 else f"skill-{k}"  # SKL009: one name, two skills
        scope = "" if k == 0 else f"team{k}/"  # the root's skills are seen from every folder
        write(repo, f"{scope}.claude/skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: Deploys things. Use when shipping.\n---\n\nSteps.\n")
    write(repo, "pkg5/.claude/memory/note_09.md", memory("Token", "CI token", "reference", body="The token is ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A" + "\n"))


def test_several_processes_find_exactly_what_one_finds(repo: Path) -> None:
    _tree(repo)
    runs = {jobs: run_cli(repo, "check", "--format", "json", env={"MEMCHECK_JOBS": jobs}) for jobs in ("1", "2", "3")}
    assert {p.returncode for p in runs.values()} == {1}
    assert {p.stderr for p in runs.values()} == {""}
    outputs = {p.stdout for p in runs.values()}
    assert len(outputs) == 1, "the output depends on how the work was split"
    text = outputs.pop()
    # Findings from every kind of part made it back, the children's included.
    for expected in ('"MEM007"', '"MEM002"', '"IDX003"', '"GDN013"', '"SKL009"', '"SEC002"', "pkg1/", "pkg5/", "area200/AGENTS.md"):
        assert expected in text, expected
    assert "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A" not in text


def test_text_output_is_the_same_through_click_and_with_processes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(repo)
    monkeypatch.setenv("MEMCHECK_JOBS", "2")
    split = invoke(repo, "check", monkeypatch=monkeypatch)
    monkeypatch.setenv("MEMCHECK_JOBS", "1")
    single = invoke(repo, "check", monkeypatch=monkeypatch)
    assert split.exit_code == single.exit_code == 1
    assert split.output == single.output


def test_how_many_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMCHECK_JOBS", "3")
    assert queue.jobs(files=10, parts=5) == 3
    assert queue.jobs(files=10, parts=2) == 2  # never more processes than parts
    monkeypatch.setenv("MEMCHECK_JOBS", "1")
    assert queue.jobs(files=100_000, parts=500) == 1
    monkeypatch.delenv("MEMCHECK_JOBS")
    assert queue.jobs(files=50, parts=5) == 1  # a hook run on a few files stays in one process


def test_a_bad_memcheck_jobs_is_a_one_line_error(repo: Path) -> None:
    _tree(repo)
    proc = run_cli(repo, "check", env={"MEMCHECK_JOBS": "many"})
    assert proc.returncode == 2
    assert proc.stderr == "memcheck: error: MEMCHECK_JOBS must be a whole number of processes, 1 or more, not 'many'\n"


# Linux gives a pipe 4 KiB rather than 64 KiB to a user past pipe-user-pages-soft; this
# runs memcheck with every pipe it makes shrunk so (F_SETPIPE_SZ, as the kernel does).
_SMALL_PIPES = """
import fcntl, os, sys
_pipe = os.pipe
def small_pipe():
    ends = _pipe()
    fcntl.fcntl(ends[1], fcntl.F_SETPIPE_SZ, 4096)
    return ends
os.pipe = small_pipe
from memcheck.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.e2e  # every pipe of the process shrunk, its children's included
@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's")
def test_a_queue_longer_than_a_small_pipe_holds_is_shared_out(repo: Path) -> None:
    """1,100 stores make a queue of 4,400 bytes, more than a 4 KiB pipe holds."""
    for s in range(1100):
        write(repo, f"s{s:04d}/.claude/memory/a.md", memory("A", "What a says", "project"))
        write(repo, f"s{s:04d}/.claude/memory/MEMORY.md", "" if s % 100 else "- [A](a.md) \u2014 What a says\n")
    runs = {}
    for jobs in ("1", "2"):
        runs[jobs] = subprocess.run(
            [sys.executable, "-c", _SMALL_PIPES, "check", "--format", "json"],
            cwd=repo, capture_output=True, text=True, timeout=120, env={**os.environ, "MEMCHECK_JOBS": jobs},
        )
    assert runs["1"].returncode == runs["2"].returncode == 1, runs["2"].stderr
    assert runs["1"].stdout == runs["2"].stdout
    assert runs["2"].stdout.count('"IDX003"') == 1089  # every store but every hundredth lists nothing
