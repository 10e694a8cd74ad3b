"""Large trees are checked by several processes: the findings and the output are
exactly those of one process, whatever the split."""

from __future__ import annotations

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
        write(
            repo,
            f"{scope}.claude/skills/{name}/SKILL.md",
            f"---\nname: {name}\ndescription: Deploys things. Use when shipping.\n---\n\nSteps.\n",
        )
    write(
        repo,
        "pkg5/.claude/memory/note_09.md",
        memory("Token", "CI token", "reference", body="The token is ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A" + "\n"),
    )


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


def test_a_first_run_forks_once_the_stores_are_found(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole tree's first run (an empty cache, or none) starts its checking processes
    as soon as discovery has found the stores: they check stores while this process
    looks for the guidance files. A warm run looks its parts up first."""
    from memcheck.workspace import guidance

    _tree(repo)
    seen: list[str] = []
    fork, find = queue.Workers.fork, guidance.find_guidance
    monkeypatch.setattr(queue.Workers, "fork", lambda self, *args: (seen.append("fork"), fork(self, *args))[1])
    monkeypatch.setattr(guidance, "find_guidance", lambda ws: (seen.append("guidance"), find(ws))[1])
    monkeypatch.setenv("MEMCHECK_JOBS", "2")
    first = invoke(repo, "check", monkeypatch=monkeypatch)
    assert seen == ["fork", "guidance"]
    seen.clear()
    again = invoke(repo, "check", monkeypatch=monkeypatch)
    assert seen == []  # every part kept, and what discovery found: nothing forked, nothing looked for
    assert (again.exit_code, again.output) == (first.exit_code, first.output) == (1, again.output)
    seen.clear()
    uncached = invoke(repo, "check", "--no-cache", monkeypatch=monkeypatch)
    assert seen == ["fork", "guidance"]
    assert uncached.output == first.output
    seen.clear()
    monkeypatch.setenv("MEMCHECK_JOBS", "1")
    single = invoke(repo, "check", "--no-cache", monkeypatch=monkeypatch)
    assert seen == ["guidance"]
    assert single.output == first.output


def test_a_first_run_imports_pyyaml_only_where_a_frontmatter_needs_it(repo: Path) -> None:
    """Forked as soon as the stores are found, each process imports PyYAML itself if
    one of its frontmatters needs it: none here (every frontmatter is flat), and with
    one that does, the findings are those of one process."""
    import json
    import os
    import subprocess

    _tree(repo)
    probe = (
        "import sys\n"
        "from memcheck.cli import main\n"
        "try:\n"
        "    main(['check', '--format', 'json'])\n"
        "finally:\n"
        "    print('YAML=' + str('yaml' in sys.modules))\n"
    )

    runs = iter(range(3))

    def run(jobs: str) -> tuple[list[object], str]:  # each a first run: a cache of its own
        env = {**os.environ, "MEMCHECK_JOBS": jobs, "MEMCHECK_CACHE_DIR": str(repo.parent / f"cache-{next(runs)}")}
        proc = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, env=env)
        out, _, loaded = proc.stdout.rpartition("YAML=")
        return json.loads(out)["problems"], loaded.strip()

    assert run("2")[1] == "False"
    write(
        repo,
        "pkg4/.claude/memory/note_03.md",
        "---\nname: Nested\ndescription: A nested frontmatter\nmetadata:\n  type: project\n---\n\nBody.\n",
    )
    write(repo, "area007/AGENTS.md", "---\ndescription: >\n  folded\n---\n\n# Guide\n")
    split, single = run("2"), run("1")
    assert split[0] == single[0]
    assert split[1] == "True"
