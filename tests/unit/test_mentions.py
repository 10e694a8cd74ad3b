"""The @-mention and link tokenizer (SPEC §4): prose only, imports by the SPEC's test."""

from __future__ import annotations

import pytest
from conftest import cpu_limit
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.text import blocks, mentions
from memcheck.text.patterns import match as glob_match
from memcheck.text.patterns import problem as glob_problem

EXISTING = {"README.md", "docs", "docs/guide.md", "Makefile", "scripts/build"}


def _exists(path: str) -> bool:
    return path in EXISTING


def _imports(text: str, folder: str = "") -> list[tuple[str, str] | None]:
    lines = tuple(text.split("\n"))
    return [mentions.classify(t.text, folder, _exists) for t in mentions.mentions(mentions.body_lines(lines, 1))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("See @docs/guide.md.", [("path", "docs/guide.md")], id="extension-trailing-dot"),
        pytest.param("See @docs/missing-guide.md", [("path", "docs/missing-guide.md")], id="missing-still-an-import"),
        pytest.param("@./notes", [("path", "notes")], id="dot-slash"),
        pytest.param("@../up.md", [("outside", "../up.md")], id="climbs-out"),
        pytest.param("@/etc/rules.md", [("absolute", "/etc/rules.md")], id="absolute"),
        pytest.param("@~/.agents/base.md", [("home", "~/.agents/base.md")], id="home"),
        pytest.param("@Makefile", [("path", "Makefile")], id="existing-file-without-extension"),
        pytest.param("@docs", [("path", "docs")], id="existing-folder"),
        pytest.param("**@docs/guide.md**", [("path", "docs/guide.md")], id="bold"),
        pytest.param("(@README.md)", [("path", "README.md")], id="parenthesised"),
        pytest.param("@upstash/redis and @types/node", [None, None], id="package-scopes"),
        pytest.param("ask @id or @octocat", [None, None], id="bare-words"),
        pytest.param("@pytest.fixture and @app.route", [None, None], id="decorators"),
        pytest.param("@README", [None], id="missing-bare-word"),
    ],
)
def test_classify(text: str, expected: list[tuple[str, str] | None]) -> None:
    assert _imports(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("mail me at dev@example.com", id="email"),
        pytest.param("pin pkg@1.2.3", id="version-pin"),
        pytest.param("node_modules/@types/node.d.ts", id="inside-a-path"),
        pytest.param("escaped \\@docs/guide.md", id="escaped"),
        pytest.param("run `npm i @types/node.js`", id="code-span"),
        pytest.param("run ``a ` @docs/x.md``", id="double-backtick-span"),
        pytest.param("```bash\nnpm i @scope/pkg.js\n```", id="backtick-fence"),
        pytest.param("~~~\n@docs/x.md\n~~~", id="tilde-fence"),
        pytest.param("<!-- @docs/x.md -->", id="html-comment"),
        pytest.param("<!--\n@docs/x.md\n-->", id="multi-line-comment"),
        pytest.param("[//]: # (See @README.md and @package.json)", id="comment-idiom"),
        pytest.param('[comment]: <> "@docs/x.md"', id="comment-idiom-angle"),
        pytest.param("@", id="lone-at"),
    ],
)
def test_not_a_mention(text: str) -> None:
    assert [x for x in _imports(text) if x is not None] == []


def test_columns_survive_masking_and_unclosed_spans_are_text() -> None:
    lines = ("a `code` @docs/guide.md", "``` no fence: the info string holds `x` @b.md")
    found = [(t.line, t.col, t.text) for t in mentions.mentions(mentions.body_lines(lines, 1))]
    assert found == [(1, 10, "docs/guide.md"), (2, lines[1].index("@") + 1, "b.md")]


def test_fence_closes_only_on_its_own_kind_and_length() -> None:
    text = "````\n```\n@a.md\n````\n@b.md"
    assert _imports(text) == [("path", "b.md")]


def test_relative_to_the_mentioning_files_folder() -> None:
    assert _imports("@guide.md", folder="docs") == [("path", "docs/guide.md")]
    assert _imports("@../README.md", folder="docs") == [("path", "README.md")]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("docs/a.md", "docs/a.md"),
        ("./a.md#section", "a.md"),
        ("a%20b.md", "a b.md"),
        ("../../x.md", "../x.md"),
        ("\\.claude\\docs\\x.md", ".claude\\docs\\x.md"),
        ("https://example.com/a.md", None),
        ("mailto:a@b.c", None),
        ("#anchor", None),
        ("/site/absolute", None),
        ("{{ url }}", None),
    ],
)
def test_link_path(target: str, expected: str | None) -> None:
    assert mentions.link_path(target, "docs" if target.startswith("../") else "") == expected


def test_links_skip_code() -> None:
    text = "[a](a.md) `[b](b.md)`\n```\n[c](c.md)\n```\n[d]: d.md\n![img](i.png)"
    lines = tuple(text.split("\n"))
    assert [t.text for t in mentions.links(mentions.body_lines(lines, 1), blocks.definitions(lines))] == ["a.md", "d.md", "i.png"]


@pytest.mark.filterwarnings("error")  # a glob must never make `re` warn (nested sets, `--`, `&&`)
@given(st.text(alphabet=st.sampled_from("@`~<!->[]()#./\\ \naZ9_:*{},!&|^"), max_size=200))
@settings(max_examples=500, deadline=None)
def test_never_raises_and_keeps_columns(text: str) -> None:
    lines = tuple(text.split("\n"))
    masked = list(mentions.prose(lines))
    assert [len(m) for m in masked] == [len(ln) for ln in lines]
    for token in mentions.mentions(enumerate(masked, 1)):
        assert lines[token.line - 1][token.col - 1] == "@"
        mentions.classify(token.text, "d", _exists)
    for link in mentions.links(enumerate(masked, 1), blocks.definitions(lines)):
        mentions.link_path(link.text, "d")
    for pattern in text.split("\n"):
        glob_problem(pattern)
        glob_match(pattern, "a/b.md", "a")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]|#!ab \n`-", max_size=80))
def test_wiki_links_never_fail_and_give_bare_targets(text: str) -> None:
    lines = list(mentions.body_lines(tuple(text.split("\n")), 1))
    for token in mentions.wiki_links(lines):
        assert token.text == token.text.strip() and token.text
        assert not set(token.text) & set("[]|#\n")
        assert lines[token.line - 1][1][token.col - 1 :].startswith(token.text)


@pytest.mark.parametrize("line", ["[" * 100_000, "[a](" * 25_000, "\\[" * 50_000, "[a](" + " " * 100_000, "![" * 50_000, "[a](<" * 20_000])
def test_link_patterns_take_linear_time_on_any_line(line: str) -> None:
    from memcheck.index.links import links

    # These take some hundredths of a second; the old (quadratic) patterns took minutes.
    with cpu_limit(3.0, "the link patterns"):
        list(mentions.links([(1, line)], blocks.definitions([line])))
        links(line, 1)


@pytest.mark.parametrize(
    ("line", "targets"),
    [
        ("See [[deploy-notes]] and [[Review style|the style]].", ["deploy-notes", "Review style"]),
        ("![[diagram]] and [[notes#Steps]] and [[#only-heading]]", ["diagram", "notes"]),
        ("`[[in code]]` <!-- [[hidden]] --> [[ ]] [[a]b]]", []),
    ],
)
def test_wiki_links(line: str, targets: list[str]) -> None:
    assert [t.text for t in mentions.wiki_links(mentions.body_lines((line,), 1))] == targets


@pytest.mark.parametrize(
    ("line", "targets"),
    [
        ("see [a [b](x.md) c", ["x.md"]),  # the innermost brackets are the link, as in CommonMark
        ("not \\[a](x.md) a link", []),
        ("[a \\[b\\]](x.md)", ["x.md"]),
        ("[a](<y z.md>) and [b](  w.md  )", ["y z.md", "w.md"]),
    ],
)
def test_link_patterns_find_what_markdown_links(line: str, targets: list[str]) -> None:
    assert [t.text for t in mentions.links([(1, line)], {})] == targets


# --- code spans: the bisecting closer against the search it replaced ---------------


def _old_run_length(line: str, i: int) -> int:
    j = i
    while j < len(line) and line[j] == "`":
        j += 1
    return j - i


def _old_closing_run(line: str, start: int, run: int) -> int:
    """The closer as it was found before: searching the rest of the line (cubic on a
    line of runs of 1, 2, ... m backticks, each unmatched)."""
    i = line.find("`" * run, start)
    while i >= 0:
        if _old_run_length(line, i) == run:
            return i
        i = line.find("`" * run, i + _old_run_length(line, i))
    return -1


def _old_mask_line(line: str, in_comment: bool) -> tuple[str, bool]:
    """mask_line as it was before backtick runs were indexed: the reference."""
    if not in_comment and "`" not in line and "<!--" not in line:
        return line, False
    out = list(line)
    i, n = 0, len(line)
    search_from = 0
    while i < n:
        if in_comment:
            end = line.find("-->", max(i, search_from))
            stop = n if end < 0 else end + 3
            out[i:stop] = " " * (stop - i)
            i = stop
            in_comment = end < 0
            continue
        if line[i] == "\\":
            i += 2
            continue
        if line.startswith("<!--", i):
            in_comment = True
            search_from = i + 4
            continue
        if line[i] == "`":
            run = _old_run_length(line, i)
            close = _old_closing_run(line, i + run, run)
            if close < 0:
                i += run
                continue
            stop = close + run
            out[i:stop] = " " * (stop - i)
            i = stop
            continue
        i += 1
    return "".join(out), in_comment


# Lines of backtick runs (the shapes that open, close and fail to close code spans),
# escapes, comments, links and mentions: what masking decides about.
code_lines = st.lists(
    st.one_of(
        st.integers(1, 6).map(lambda k: "`" * k),
        st.sampled_from(["[", "]", "(x.md)", "[a](b.md)", "@a.md", "@", "<!--", "-->", "<", "\\", "\\`", " ", "x", "é"]),
    ),
    max_size=40,
).map("".join)


@given(code_lines, st.booleans())
@settings(max_examples=500, deadline=None)
@pytest.mark.slow  # a property test: seconds of examples
def test_masking_matches_the_search_it_replaced(line: str, in_comment: bool) -> None:
    assert mentions.mask_line(line, in_comment) == _old_mask_line(line, in_comment)
    runs = mentions.BacktickRuns(line)
    for i in range(len(line) + 1):
        if i == len(line) or line[i] != "`":
            for run in range(1, 8):
                assert runs.closer(i, run) == _old_closing_run(line, i, run), (i, run)
        assert runs.length_at(i) == _old_run_length(line, i)


def test_a_line_of_ever_longer_backtick_runs_masks_as_before() -> None:
    # The shape that took the old search cubic time: runs of 1, 2, ... m backticks,
    # then a @-mention and the same runs again. The first backtick opens a span the
    # second copy's first one closes; every longer run is never closed: text.
    runs = " ".join("`" * k for k in range(1, 121))
    line = f"[x](AGENTS.md) {runs} @a.md {runs}"
    masked, _ = mentions.mask_line(line, False)
    assert masked == _old_mask_line(line, False)[0]
    assert masked.startswith("[x](AGENTS.md)  ") and "@a.md" not in masked
    assert masked.endswith("  " + " ".join("`" * k for k in range(2, 121)))


_PROSE_PIECES = st.sampled_from(
    ["text", " ", "\n", "`", "```", "~~~", "<!--", "-->", "[//]: # (x)", "[a]: b", "@x.md", "[l](y.md)", "\\", "    ", "]:"]
)


@settings(max_examples=300)
@given(st.lists(_PROSE_PIECES, max_size=30), st.integers(min_value=1, max_value=4))
def test_body_lines_given_the_body_reads_as_prose_does(pieces: list[str], body_line: int) -> None:
    # Given the body's text, body_lines skips the line-by-line masking where nothing can be masked.
    lines = tuple("".join(pieces).split("\n"))
    body = "\n".join(lines[max(body_line, 1) - 1 :])
    assert list(mentions.body_lines(lines, body_line, body)) == list(mentions.body_lines(lines, body_line))
