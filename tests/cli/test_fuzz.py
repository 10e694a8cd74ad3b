"""Fuzzing: hypothesis writes hostile frontmatter, Markdown and configs, and memcheck
checks each through its real command line code (in this process, for speed) within
a time bound: a finding or a clean pass, never a traceback, a crash or a hang, and
the other files' findings still there.

The default budget is small enough for every CI run. To fuzz for longer:

    MEMCHECK_FUZZ_EXAMPLES=5000 python -m pytest tests/cli/test_fuzz.py

(tests/cli/test_hostile.py keeps the classic hostile files, and whatever the fuzzer found,
as fixed cases through the command line.)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest
from conftest import cpu_limit, memory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcheck import config
from memcheck.cli import main

EXAMPLES = int(os.environ.get("MEMCHECK_FUZZ_EXAMPLES", "20"))
# A hang guard, not a speed test (bench/ measures speed): CPU seconds one command
# may take on an example, ten times what it takes on a busy machine. A check of the
# small tree below takes some hundredths; the hangs fuzzing found took minutes.
# Plus time linear in the bytes written: a file of 40,000 links to nowhere
# (hypothesis made one) is 40,000 findings to make, sort and print, about 2
# microseconds a byte; the quadratic scans fuzzing found took minutes on 100 KB.
SECONDS = 20.0
SECONDS_PER_BYTE = 5e-5
# Fuzzing takes seconds a test: out of the fast subset.
pytestmark = pytest.mark.slow
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One repository for every example (a git init per example costs more than the
    check): a store, guidance and a skill, each with a file whose finding must
    survive whatever the fuzzed files hold."""
    root = tmp_path_factory.mktemp("fuzz") / "repo"
    root.mkdir()
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=root, check=True, env=env)
    for rel, text in {
        ".memory/good.md": memory("Good", "A good memory", "userx"),  # MEM007
        "AGENTS.md": "# Root\n\nSee [the guide](docs/missing.md).\n",  # GDN013
        ".claude/skills/good/SKILL.md": "---\nname: other-name\ndescription: Does things. Use when testing.\n---\nBody.\n",  # SKL005
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    yield root


SURVIVORS = {(".memory/good.md", "MEM007"), ("AGENTS.md", "GDN013"), (".claude/skills/good/SKILL.md", "SKL005")}
FUZZED = (".memory/fuzzed.md", "pkg/AGENTS.md", ".claude/skills/fuzzed/SKILL.md")


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _check_all_ways(root: Path, texts: dict[str, bytes]) -> None:
    for rel, data in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / ".memory/MEMORY.md").unlink(missing_ok=True)
    budget = SECONDS + SECONDS_PER_BYTE * sum(map(len, texts.values()))
    with cpu_limit(budget * 4, "check, fix and context on fuzzed files"):  # four commands
        _run_all_ways(root)


def _run_all_ways(root: Path) -> None:
    code, out, err = _run("check", "--format", "json", str(root))
    assert code in (0, 1) and err == "", err
    found = {(p["path"], p["code"]) for p in json.loads(out)["problems"]}
    assert SURVIVORS <= found, SURVIVORS - found
    code, out, err = _run("fix", "--format", "json", str(root))
    assert code in (0, 1) and "error" not in err, err
    for path in ("pkg/AGENTS.md", ".memory/fuzzed.md"):
        code, out, err = _run("context", str(root / path), "--format", "json")
        assert code in (0, 1) and err == "", err
        json.loads(out)


# ---------------------------------------------------------------- frontmatter

_WORDS = st.sampled_from(
    [
        "x",
        "a b",
        "# memcheck-disable MEM005",
        "x # memcheck-disable-next-line",
        "name",
        "type",
        "user",
        "1",
        "1:2:3",
        "2025-01-10",
        "~",
        "yes",
        "<<",
        "'q'",
        '"q\\t"',
        "",
        "@x",
        "[]",
        "{}",
        "!!str",
        "!!binary aGk=",
        "!!set",
        "!!omap",
        "!!timestamp 2025-13-45",
    ]
)
_ODD = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=("Cs",)), max_size=8)
_RUN = st.builds(
    lambda piece, n: piece * n,
    st.sampled_from(["[", "{", "- ", "  ", " ", "a", ":", "&a ", "*a ", "\\", "'", '"', "#", "1:", "? ", ",", "]", "\t"]),
    st.integers(1, 30_000),
)


@st.composite
def _yaml_value(draw: st.DrawFn, depth: int = 0) -> str:
    choice = draw(st.integers(0, 9 if depth < 6 else 2))
    if choice <= 1:
        return draw(_WORDS)
    if choice == 2:
        return draw(_ODD) if draw(st.booleans()) else draw(_RUN)
    if choice == 3:
        return "[" + ", ".join(draw(st.lists(_yaml_value(depth + 1), max_size=3))) + "]"
    if choice == 4:
        return "{" + ", ".join(f"{draw(_WORDS)}: {v}" for v in draw(st.lists(_yaml_value(depth + 1), max_size=3))) + "}"
    if choice == 5:
        return f"&{draw(st.sampled_from('abc'))} {draw(_yaml_value(depth + 1))}"
    if choice == 6:
        return f"*{draw(st.sampled_from('abc'))}"
    if choice == 7:
        n = draw(st.integers(1, 5_000))
        return "[" * n + draw(_WORDS) + "]" * draw(st.integers(0, n))
    if choice == 8:
        levels = draw(st.integers(2, 12))
        width = draw(st.integers(2, 9))
        leaf = "x" * draw(st.sampled_from([1, 1, 1_000, 300_000]))  # a long one: a bomb by characters
        return f"&b0 [{leaf}]" + "".join(f" , &b{i} [" + ", ".join([f"*b{i - 1}"] * width) + "]" for i in range(1, levels))
    return "\n" + "".join(f"{'  ' * (i + 1)}k{i}:\n" for i in range(draw(st.integers(1, 400)))) + "  " * 402 + "v"


@st.composite
def _frontmatter(draw: st.DrawFn) -> str:
    lines = [
        f"{key}: {draw(_yaml_value())}"
        for key in draw(
            st.lists(st.sampled_from(["name", "description", "type", "metadata", "a", "<<", "triggers", "globs"]), min_size=1, max_size=6)
        )
    ]
    return "\n".join(lines)


@FUZZ
@given(_frontmatter(), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_fuzzed_frontmatter(tree: Path, fm: str, newline: str, bom: bool) -> None:
    text = ("\ufeff" if bom else "") + f"---{newline}{fm.replace(chr(10), newline)}{newline}---{newline}Body.{newline}"
    data = text.encode("utf-8", "surrogatepass")
    _check_all_ways(tree, {path: data for path in FUZZED})


# ---------------------------------------------------------------- Markdown

_MARKDOWN_PIECES = st.sampled_from(
    [
        "[",
        "]",
        "(",
        ")",
        "[a](",
        "[a](b)",
        "](",
        "![",
        "\\[",
        "<",
        ">",
        "[a](<",
        "`",
        "```",
        "~~~",
        "<!--",
        "-->",
        "@",
        "@a.md",
        "@./x/",
        "@~/",
        "@../../x.md",
        "#",
        "- ",
        "* ",
        "1. ",
        "|",
        " ",
        "\t",
        "\u00a0",
        "\u2028",
        "\x0b",
        "[[w]]",
        "[x]: ",
        "http://a",
        "a@b.c",
        "-----BEGIN RSA PRIVATE KEY-----",
        "ghp_",
        "sk-",
        "AKIA",
        "=",
        "key=",
        "${",
        "{{",
        "\\",
        '"',
        "'",
        "\x85",
        "\ufeff",
        "é",
        "<!-- memcheck-disable ",
        "<!-- memcheck-disable-next-line MEM013 -->",
        "<!-- memcheck-enable -->",
        "<!-- memcheck-disable-file",
    ]
)


@st.composite
def _markdown(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        pieces = draw(
            st.lists(st.tuples(_MARKDOWN_PIECES, st.integers(1, 40_000) if draw(st.integers(0, 4)) == 0 else st.just(1)), max_size=12)
        )
        lines.append("".join(piece * n for piece, n in pieces))
    return "\n".join(lines)


@FUZZ
@given(_markdown(), _markdown())
def test_fuzzed_markdown(tree: Path, body: str, index: str) -> None:
    data = body.encode("utf-8", "surrogatepass")
    texts = {
        ".memory/fuzzed.md": b"---\nname: F\ndescription: d\ntype: user\n---\n" + data,
        "pkg/AGENTS.md": data,
        ".claude/skills/fuzzed/SKILL.md": b"---\nname: fuzzed\ndescription: Does it. Use when fuzzing.\n---\n" + data,
    }
    _check_all_ways(tree, texts)
    (tree / ".memory/MEMORY.md").write_bytes(index.encode("utf-8", "surrogatepass"))
    code, out, err = _run("check", "--format", "json", str(tree))
    assert code in (0, 1) and err == "", err


# ---------------------------------------------------------------- config

_CONFIG_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 10**6)
    | st.floats(allow_nan=True)
    | st.sampled_from(["", "x", "*.md", "foo\\", "[z-a]", "[[:alpha:]]", "!x", "/", "**", "MEM", "ALL", "generate", "flat"])
    | st.dates(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(inner.filter(lambda v: not isinstance(v, (list, dict, float))), inner, max_size=3)
    ),
    max_leaves=8,
)
_CONFIG_KEYS = st.sampled_from(
    [
        "select",
        "ignore",
        "per-path-ignores",
        "exclude",
        "memory",
        "memory.stores",
        "memory.types",
        "memory.description-max-length",
        "index.mode",
        "index.warn-ratio",
        "index.max-lines",
        "guidance.filenames",
        "guidance.max-import-depth",
        "skills.roots",
        "context.max-tokens",
        "guard.patterns",
        "guard.allow",
        "guard.disable",
        "guard.case-sensitive",
        "unknown",
    ]
)


@pytest.fixture(scope="module")
def bare_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cfg") / "repo"
    root.mkdir()
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=root, check=True)
    (root / ".memory").mkdir()
    (root / ".memory/a.md").write_text(memory("A", "d", "user"))
    return root


@FUZZ
@given(st.dictionaries(_CONFIG_KEYS, _CONFIG_VALUES, max_size=4))
def test_fuzzed_config_is_a_config_or_one_error(bare_repo: Path, values: dict[str, object]) -> None:
    import yaml

    data: dict[str, object] = {}
    for key, value in values.items():
        section, _, name = key.partition(".")
        if name:
            target = data.setdefault(section, {})
            if isinstance(target, dict):
                target[name] = value
        else:
            data[section] = value
    (bare_repo / ".memcheck.yaml").write_text(yaml.safe_dump(data))
    try:
        config.load(bare_repo)
    except config.ConfigError as e:
        assert "\n" not in str(e)
        return
    # Valid settings: every command runs with them.
    code, out, err = _run("check", "--format", "json", str(bare_repo))
    assert code in (0, 1) and err == "", err
    cwd = os.getcwd()
    os.chdir(bare_repo)
    try:
        code, out, err = _run("guard", "--paths-from", os.devnull)
    finally:
        os.chdir(cwd)
    assert code in (0, 1) and err == "", err
