"""Suppression comments in Markdown and frontmatter, through the real CLI, and the
MCK rules about them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import check_json, invoke, memory, run_cli, write, write_guidance
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mentions import _old_closing_run, _old_run_length

from memcheck import suppression
from memcheck.suppression import directives
from memcheck.text import document

INDEX = "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n"
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"  # a GitHub token shape, not a real one


def _found(repo: Path, *args: str) -> list[tuple[str, int, str]]:
    return [(p["path"], p["line"], p["code"]) for p in check_json(repo, *args)]


@pytest.mark.parametrize(
    ("text", "expected"),
    (
        pytest.param("See @docs/a.md.\n", [("AGENTS.md", 1, "GDN009")], id="no-comment"),
        pytest.param("<!-- memcheck-disable-next-line GDN009 -->\nSee @docs/a.md.\n", [], id="next-line"),
        pytest.param("<!-- memcheck-disable-next-line GDN -->\nSee @docs/a.md.\n", [], id="next-line-prefix"),
        pytest.param("<!-- memcheck-disable-next-line -->\nSee @docs/a.md.\n", [], id="next-line-all-rules"),
        pytest.param(
            "<!-- memcheck-disable-next-line gdn009, GDN013 -->\nSee @docs/a.md and [b](b.md).\n", [], id="codes-with-commas-any-case"
        ),
        pytest.param("See @docs/a.md. <!-- memcheck-disable-line GDN009 -->\n", [], id="same-line"),
        pytest.param(
            "<!-- memcheck-disable-next-line GDN009 -->\n\nSee @docs/a.md.\n",
            [("AGENTS.md", 1, "MCK001"), ("AGENTS.md", 3, "GDN009")],
            id="next-line-is-only-the-next-line",
        ),
        pytest.param(
            "<!-- memcheck-disable GDN009 -->\n@a.md\n@b.md\n<!-- memcheck-enable GDN009 -->\n@c.md\n",
            [("AGENTS.md", 5, "GDN009")],
            id="disable-enable",
        ),
        pytest.param(
            "<!-- memcheck-disable -->\n@a.md\n[x](x.md)\n<!-- memcheck-enable -->\n@c.md\n",
            [("AGENTS.md", 5, "GDN009")],
            id="disable-enable-all",
        ),
        pytest.param("@a.md\n<!-- memcheck-disable GDN009 -->\n@b.md\n", [("AGENTS.md", 1, "GDN009")], id="disable-to-the-end"),
        # As markdownlint: enabling one code inside a bare disable turns that code back on.
        pytest.param(
            "<!-- memcheck-disable -->\n[x](x.md)\n<!-- memcheck-enable GDN013 -->\n@a.md [y](y.md)\n",
            [("AGENTS.md", 4, "GDN013")],
            id="bare-disable-then-enable-one-code",
        ),
        pytest.param(
            "<!-- memcheck-disable GDN -->\n<!-- memcheck-enable GDN009 -->\n@a.md [y](y.md)\n<!-- memcheck-enable -->\n@b.md\n",
            [("AGENTS.md", 3, "GDN009"), ("AGENTS.md", 5, "GDN009")],
            id="prefix-disable-then-enable-one-code",
        ),
        pytest.param("@a.md\n\n<!-- memcheck-disable-file GDN009 -->\n@b.md\n", [], id="disable-file-anywhere"),
        pytest.param("@a.md [x](x.md)\n<!-- memcheck-disable-file GDN013 -->\n", [("AGENTS.md", 1, "GDN009")], id="disable-file-one-code"),
        pytest.param(
            "```markdown\n<!-- memcheck-disable-file -->\n```\n@a.md\n",
            [("AGENTS.md", 4, "GDN009")],
            id="a-comment-in-a-code-fence-is-not-one",
        ),
        pytest.param("`<!-- memcheck-disable-file -->`\n@a.md\n", [("AGENTS.md", 2, "GDN009")], id="a-comment-in-a-code-span-is-not-one"),
    ),
)
def test_markdown_comments(repo: Path, text: str, expected: list[tuple[str, int, str]]) -> None:
    write_guidance(repo, text)
    assert _found(repo) == expected


def test_frontmatter_comments(repo: Path) -> None:
    text = memory(
        "prefs",
        "Prefers short answers",
        "user",
        extra="# memcheck-disable-next-line MEM010\ntpye: user\nnmae: prefs\n# memcheck-disable MEM010\nUpdated: 2026-01-01\nCreated: 2026-01-01\n# memcheck-enable MEM010\ndescripton: x\n",
    )
    write(repo, ".claude/memory/user_prefs.md", text)
    write(repo, ".claude/memory/MEMORY.md", INDEX)
    found = check_json(repo)
    assert [(p["line"], p["code"], p["message"].split(";")[0]) for p in found] == [
        (7, "MEM010", "frontmatter key 'nmae' looks like a misspelling of 'name': agents match keys exactly, so this setting is ignored"),
        (
            12,
            "MEM010",
            "frontmatter key 'descripton' looks like a misspelling of 'description': agents match keys exactly, so this setting is ignored",
        ),
    ]


def test_frontmatter_disable_file_and_an_unlisted_memory(repo: Path) -> None:
    # An unlisted memory is reported on its index; a disable-file comment in the
    # memory itself keeps it out of the index on purpose.
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", INDEX)
    write(repo, ".claude/memory/project_draft.md", memory("draft", "Not ready", "project", extra="# memcheck-disable-file IDX003\n"))
    write(repo, ".claude/memory/project_other.md", memory("other", "Also unlisted", "project"))
    assert _found(repo) == [(".claude/memory/MEMORY.md", 4, "IDX003")]
    assert "project_other.md" in check_json(repo)[0]["message"]


def test_an_unused_or_unknown_suppression_is_reported(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_guidance(repo, "<!-- memcheck-disable-next-line GDN009 GDN013 GND009 -->\nSee @docs/a.md.\n")
    found = check_json(repo)
    assert [(p["line"], p["col"], p["code"], p["severity"]) for p in found] == [(1, 1, "MCK001", "warning"), (1, 1, "MCK002", "warning")]
    assert found[0]["message"] == "the suppression of GDN013 suppresses nothing here; remove it"
    assert found[1]["message"] == "GND009 in this suppression names no rule; fix the code (`memcheck rules` lists them)"
    # Warnings: the commit passes. Rules that are off are not judged.
    assert run_cli(repo, "check").returncode == 0
    assert _found(repo, "--select", "GDN009,MCK") == [("AGENTS.md", 1, "MCK002")]
    assert _found(repo, "--ignore", "MCK") == []
    result = invoke(repo, "check", "--fail-on", "warning", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "MCK001" in result.output


def test_a_comment_may_name_mck001_to_keep_another_quiet(repo: Path) -> None:
    write_guidance(repo, "<!-- memcheck-disable-next-line MCK001 -->\n<!-- memcheck-disable-next-line GDN013 -->\ntext\n")
    assert _found(repo) == []


def test_secrets_are_never_suppressed(repo: Path) -> None:
    text = f"<!-- memcheck-disable-file -->\n<!-- memcheck-disable-next-line SEC002 -->\ntoken: {TOKEN}\n"
    write_guidance(repo, text)
    found = check_json(repo)
    assert [(p["line"], p["code"]) for p in found] == [(1, "MCK001"), (2, "MCK001"), (3, "SEC002")]
    assert "a secret cannot be suppressed by a comment" in found[1]["message"]
    assert TOKEN not in json.dumps(found)
    assert run_cli(repo, "check").returncode == 1  # the secret still fails the run
    # A test fixture is excluded in the config, where a reviewer sees it.
    write(repo, ".memcheck.yaml", "per-path-ignores:\n  AGENTS.md: [SEC002]\n")
    assert [p["code"] for p in check_json(repo)] == ["MCK001", "MCK001"]


def test_fix_honours_suppressions_in_what_is_left(repo: Path) -> None:
    write(
        repo,
        ".claude/memory/user_prefs.md",
        memory("prefs", "Prefers short answers", "user", extra="# memcheck-disable-next-line MEM010\ntpye: user\n"),
    )
    proc = run_cli(repo, "fix")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout == "Fixing .claude/memory/MEMORY.md: added 1 (user_prefs.md)\nNo problems found in 1 store (1 memory).\n"


# --- the parser -----------------------------------------------------------------


def _doc(text: str) -> document.Document:
    return document.parse("x.md", text.encode("utf-8"))


def test_directive_fields() -> None:
    found = directives(_doc("---\nname: x\n# memcheck-disable-file MEM010\n---\nbody <!-- memcheck-disable-line IDX001,idx002 -->\n"))
    assert [(d.line, d.col, d.kind, d.codes) for d in found] == [
        (3, 1, "disable-file", ("MEM010",)),
        (5, 6, "disable-line", ("IDX001", "IDX002")),
    ]


@pytest.mark.parametrize(
    "text",
    (
        "<!-- memcheck-disabled MEM010 -->\n",  # not a directive word
        "<!--memcheck-disable-next-lineMEM010-->\n",
        "  # memcheck-disable-file MEM010\n",  # a YAML comment form in the body is text
        "---\nname: x\nkey: v  # memcheck-disable-line MEM010\n---\n",  # part of the value to line parsers
        "~~~\n<!-- memcheck-disable-file -->\n~~~\n",
    ),
)
def test_not_directives(text: str) -> None:
    assert directives(_doc(text)) == []


lines_strategy = st.lists(
    st.one_of(
        st.sampled_from(["```", "~~~", "---", "`", "<!--", "-->", "# memcheck-disable-file", "<!-- memcheck-enable -->", ""]),
        st.builds(
            lambda kind, codes, pre: f"{pre}<!-- memcheck-{kind} {' '.join(codes)} -->",
            st.sampled_from(["disable", "enable", "disable-line", "disable-next-line", "disable-file"]),
            st.lists(st.sampled_from(["MEM010", "IDX", "GDN009", "X1", "sec001"]), max_size=3),
            st.sampled_from(["", "text ", "`code` ", "`"]),
        ),
        st.text(max_size=30),
    ),
    max_size=30,
)


@given(lines_strategy)
@settings(max_examples=300, deadline=None)
@pytest.mark.slow  # a property test: seconds of examples
def test_parser_is_total_and_finds_comments_only_where_they_are(lines: list[str]) -> None:
    doc = _doc("\n".join(lines))
    found = directives(doc)
    assert found == directives(doc)  # deterministic
    for d in found:
        line = doc.lines[d.line - 1]
        assert "memcheck-" + d.kind in line[d.col - 1 :]
        assert all(c == c.upper() and c for c in d.codes)


@pytest.mark.parametrize("args", (("--ignore", "GDN013"), ("--select", "GDN009,MCK"), ("--select", "GDN,MCK", "--ignore", "GDN013")))
def test_a_suppression_of_a_rule_that_is_off_is_not_unused(repo: Path, args: tuple[str, ...]) -> None:
    write_guidance(
        repo,
        "<!-- memcheck-disable-next-line -->\n[x](x.md)\n<!-- memcheck-disable-next-line GDN -->\n[y](y.md)\n"
        "<!-- memcheck-disable-next-line GDN013 -->\n[z](z.md)\n",
    )
    assert _found(repo) == []  # every comment is needed in a run with every rule on
    assert [p for p in _found(repo, *args) if p[2] == "MCK001"] == []


def _old_code_spans(line: str) -> list[tuple[int, int]]:
    """The code spans as they were found before backtick runs were indexed."""
    spans = []
    i = line.find("`")
    while i >= 0:
        run = _old_run_length(line, i)
        close = _old_closing_run(line, i + run, run)
        if close < 0:
            i = line.find("`", i + run)
            continue
        spans.append((i, close + run))
        i = line.find("`", close + run)
    return spans


# One line of code spans, backtick runs that close nothing, and whole and broken comments.
span_lines = st.lists(
    st.one_of(
        st.integers(1, 5).map(lambda k: "`" * k),
        st.sampled_from(["<!-- memcheck-disable-line GDN013 -->", "<!-- memcheck-enable -->", "<!--", "-->", "memcheck-", "x", " ", "\\"]),
    ),
    max_size=30,
).map(lambda parts: "x " + "".join(parts))  # "x ": never a fence or frontmatter


@given(span_lines)
@settings(max_examples=500, deadline=None)
@pytest.mark.slow  # a property test: seconds of examples
def test_comments_in_code_spans_are_skipped_as_before(line: str) -> None:
    spans = _old_code_spans(line)
    assert suppression._code_spans(line) == spans
    # Before, each comment was tested against every span on its line.
    expected = [
        m.start() + 1 for m in suppression._HTML.finditer(line, 0, line.rfind("-->") + 3) if not any(a <= m.start() < b for a, b in spans)
    ]
    assert [d.col for d in directives(_doc(line + "\n"))] == expected


def test_a_line_of_code_spans_and_comments_reads_every_comment() -> None:
    # The shape that took a pass over the spans per comment: `x` <!-- ... --> pairs,
    # and one comment inside a code span, which is not a comment.
    line = "`x` <!-- memcheck-disable-line GDN013 --> " * 2000 + "`<!-- memcheck-disable-file -->`"
    found = directives(_doc(line + "\n"))
    assert [d.col for d in found] == [5 + 42 * k for k in range(2000)]
    assert {d.kind for d in found} == {"disable-line"}
