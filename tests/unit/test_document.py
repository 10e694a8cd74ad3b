"""Reading a file once: frontmatter with line numbers, and no traceback on bad input."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import cpu_limit, fixture_frontmatter
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.text import frontmatter_reading
from memcheck.text.document import MAX_BYTES, parse, read
from memcheck.text.frontmatter_reading import Frontmatter, _simple_frontmatter, _yaml_frontmatter


def test_frontmatter_lines_duplicates_and_body() -> None:
    doc = parse("a.md", b"---\nname: A\ntype: user\ntype: feedback\n---\n\nBody\n")
    fm = doc.frontmatter
    assert fm is not None
    assert fm.key_lines == {"name": 2, "type": 3}
    assert fm.duplicates == (("type", 4),)
    assert fm.data["type"] == "feedback"  # what PyYAML keeps
    assert (doc.body, doc.body_line) == ("\nBody\n", 6)


def test_bom_and_crlf_are_tolerated_and_recorded() -> None:
    doc = parse("a.md", b"\xef\xbb\xbf---\r\nname: A\r\n---\r\nBody\r\n")
    assert (doc.bom, doc.crlf) == (True, True)
    assert doc.frontmatter is not None and doc.frontmatter.data == {"name": "A"}
    assert doc.body == "Body\n"


def test_key_value_fallback_reads_like_the_agents_line_parsers() -> None:
    doc = parse("a.md", b"---\nname: A\ndescription: Deploy: Railway, not Vercel\nmetadata:\n  type: project\n---\n")
    fm = doc.frontmatter
    assert fm is not None and fm.fallback and fm.yaml_error
    assert fm.data == {"name": "A", "description": "Deploy: Railway, not Vercel", "metadata": {"type": "project"}}
    assert fm.display("description") == "Deploy: Railway, not Vercel"


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        pytest.param(b"a\x00b", "binary", id="binary"),
        pytest.param(b"caf\xe9", "not valid UTF-8", id="latin-1"),
        pytest.param(b"x" * (MAX_BYTES + 1), "larger than", id="huge"),
    ],
)
def test_unreadable_content_becomes_an_error_not_an_exception(raw: bytes, error: str) -> None:
    doc = parse("a.md", raw)
    assert doc.error is not None and error in doc.error


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=400).map(lambda t: ("---\n" + t + "\n---\n").encode("utf-8", "surrogatepass")))
def test_parse_never_raises(raw: bytes) -> None:
    doc = parse("a.md", raw)
    assert doc.error is not None or isinstance(doc.text, str)
    if doc.frontmatter is not None:
        assert isinstance(doc.frontmatter.data, dict)


# The line reader for simple frontmatter must read exactly what PyYAML reads: the
# same data (types included), key lines, raw values, plain keys and duplicates.
def _both_readings(text: str) -> tuple[Frontmatter | None, Frontmatter]:
    lines = tuple(text.split("\n"))
    return _simple_frontmatter(lines, 2), _yaml_frontmatter(lines, 2)


def _same(simple: Frontmatter, full: Frontmatter) -> None:
    assert full.yaml_error is None and not full.fallback
    assert simple.data == full.data
    assert {k: type(v) for k, v in simple.data.items()} == {k: type(v) for k, v in full.data.items()}
    assert simple.key_lines == full.key_lines
    assert simple.raw_values == full.raw_values
    assert simple.plain_keys == full.plain_keys
    assert sorted(simple.duplicates) == sorted(full.duplicates)
    assert simple.end_line == full.end_line
    for key in full.data:
        assert simple.display(key) == full.display(key)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("name: A\ndescription: Deploy to staging\ntype: project", id="seed-003"),
        pytest.param('name: A\ndescription: "quoted: with # inside"\ncreated: 2025-01-10\n', id="quoted-and-date"),
        pytest.param("name: A\nmetadata:\n  type: project\n  node_type: memory\n", id="nested"),
        pytest.param("name: yes\ncount: 0o17\nratio: .5\nnothing: ~\nempty:\nflag: off", id="resolved-scalars"),
        pytest.param("# a comment\nname: A\n\ntype: user\ntype: feedback", id="comments-and-duplicates"),
        pytest.param("metadata:\n  type: a\n  type: b\nname: x's issue#4 [draft]", id="nested-duplicate"),
        pytest.param("name: 'single \"quoted\"'   \ndescription: trailing spaces   ", id="single-quoted"),
        pytest.param('name:\nname: "q"', id="duplicate-plain-then-quoted"),
        pytest.param("a: x\na:\n  b: 1", id="duplicate-plain-then-nested"),
        pytest.param("description: d\nalwaysApply: false\nglobs: ['**/*.md', '**/README.md']", id="flow-list-of-globs"),
        pytest.param('tags: [a, b c,d, "e"]\nnone: []\nblank: [ ]', id="flow-lists"),
        pytest.param('paths:\n  - "src/**/*.py"\n  - "**/README.md"\ndescription: d', id="block-list-of-paths"),
        pytest.param("paths:\n- a\n\n- b c\nother:\n    - 'd'", id="block-lists-at-the-margin-and-indented"),
    ],
)
def test_simple_frontmatter_reads_what_pyyaml_reads(text: str) -> None:
    simple, full = _both_readings(text)
    assert simple is not None, "this shape should take the line reader"
    _same(simple, full)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("description: Deploy: Railway", id="colon-space"),
        pytest.param("name: A # comment", id="comment-after-value"),
        pytest.param("tags: [a, [b]]", id="nested-flow"),
        pytest.param("tags: [a, ]", id="flow-trailing-comma"),
        pytest.param("tags: [1, a]", id="flow-number"),
        pytest.param("globs: [*.md]", id="flow-alias"),
        # PyYAML without libyaml fails on this one, and libyaml reads it: not the line reader's to settle.
        pytest.param("globs: [src/?.js]", id="flow-question-mark"),
        pytest.param("paths:\n  - a\n    - b", id="block-list-continued"),
        pytest.param("paths:\n  - a: b", id="block-list-of-mappings"),
        pytest.param("paths:\n  - a\n  x: 1", id="block-list-then-mapping"),
        pytest.param("paths: v\n  - a", id="block-list-after-a-value"),
        pytest.param("description: >\n  folded", id="block-scalar"),
        pytest.param("tags:\n  - 1\n  - b", id="list-of-a-number"),
        pytest.param('name: "esc\\"aped"', id="escape"),
        pytest.param("name: A\n  continued", id="continuation"),
        pytest.param("created: 2025-02-30", id="bad-date"),
        pytest.param("yes: A", id="bool-key"),
        pytest.param("name: *alias", id="alias"),
        pytest.param("name:\tA", id="tab"),
        pytest.param("a:\n  b:\n    c: 1", id="two-levels"),
    ],
)
def test_other_frontmatter_goes_to_pyyaml(text: str) -> None:
    simple, _ = _both_readings(text)
    assert simple is None


_KEYS = st.sampled_from(
    ["name", "description", "type", "metadata", "yes", "on", "created", "a-b", "x_1", "no", "Null", "n", "y", "off_", "_"]
)
_VALUES = st.sampled_from(
    [
        "",
        "A",
        "plain text",
        "it's",
        "issue#4",
        "a #b",
        "a: b",
        "a:b",
        "1",
        "-1",
        "0o17",
        "1_000",
        "1.5",
        ".inf",
        "~",
        "null",
        "true",
        "Yes",
        "2025-01-10",
        "2025-13-40",
        '"q"',
        "'q'",
        '"a\\tb"',
        "'it''s'",
        "[x]",
        "{a: 1}",
        "&a x",
        "*a",
        "!tag x",
        "|",
        ">-",
        "@x",
        "`x`",
        "%x",
        "=",
        "<<",
        "-",
        "- x",
        "?",
        "x:",
        "caf\u00e9",
        "\u00a0x",
        "x\u2028y",
        "x\x85y",
        "'unterminated",
        '"a" b',
        "0x1F",
        "1:20",
        "+1",
        "T",
        "no",
        "NO",
        "Off",
        "on",
        "y",
        "n",
        "N",
        "Null",
        "nothing",
        "feedback",
        "False",
        "tomorrow",
        "Yesterday",
        "ON!",
        "2025-1-05",
        "2025-01-10 10:00",
        "2025-01-10T10:00:00Z",
        "2025-02-30",
        "0000-00-00",
        "12345-01-01",
        "2025-01-10x",
        "[]",
        "[ ]",
        "[a]",
        "[a, b]",
        "[a,b]",
        "[ a , b ]",
        "['**/*.md', '**/README.md']",
        "[\"a\", 'b', c d]",
        "[a, ]",
        "[,]",
        "[a,,b]",
        "[a, [b]]",
        "[{a: 1}]",
        "[a:b]",
        "[a: b]",
        "[a #b]",
        "[a#b]",
        "[yes, y, n, on]",
        "[1, x]",
        "[.md]",
        "[~]",
        "['it''s']",
        '["a\\tb"]',
        "[it's]",
        "[*.md]",
        "['*.md']",
        "[&a x]",
        "[!t x]",
        "[-x]",
        "[- x]",
        "[?x]",
        "[a]x",
        "[a] #c",
        "['a,b']",
        "['[x]']",
        "[caf\u00e9, \u00a0x]",
        "[a, b]:",
        "[`x`]",
        "[%x]",
        "[@x]",
        "[a b  c]",
        "[Yes, Yesterday]",
        "[a]]",
    ]
)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["", "  ", "   "]), _KEYS, st.sampled_from([": ", ":", ":  "]), _VALUES, st.sampled_from(["", " "]))
        | st.sampled_from([("", "# c", "", "", ""), ("", "", "", "", "")]),
        min_size=1,
        max_size=6,
    )
)
@pytest.mark.slow  # a property test: seconds of examples
def test_simple_frontmatter_agrees_with_pyyaml_on_generated_lines(parts: list[tuple[str, str, str, str, str]]) -> None:
    text = "\n".join(indent + key + sep + value + tail for indent, key, sep, value, tail in parts)
    simple, full = _both_readings(text)
    if simple is not None:
        _same(simple, full)


# Items of one-line lists, which the line reader takes when every item is surely a
# string (`globs: ['src/**', 'lib/*.js']`) and leaves to PyYAML otherwise.
_FLOW_ITEMS = st.sampled_from(
    [
        "a",
        "b c",
        "src/**",
        "'**/*.md'",
        '"lib/*.js"',
        "''",
        '""',
        "1",
        "-1",
        "1.5",
        ".md",
        "~",
        "yes",
        "Yes",
        "y",
        "n",
        "on",
        "off",
        "null",
        "No",
        "nope",
        "2025-01-10",
        "<<",
        "=",
        "*.md",
        "&a x",
        "!t x",
        "-x",
        "- x",
        "?x",
        "`x`",
        "%x",
        "@x",
        "a:b",
        "a: b",
        "a #b",
        "a#b",
        "it's",
        "'it''s'",
        '"a\\tb"',
        "'a,b'",
        "'[x]'",
        "[b]",
        "{a: 1}",
        "",
        " ",
        "caf\u00e9",
        "\u00a0x",
        "a  b",
        "'unterminated",
        '"q" r',
        "x]",
        "[x",
    ]
)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(_FLOW_ITEMS, max_size=5),
    st.sampled_from([", ", ",", " , "]),
    st.sampled_from(["", " "]),
    st.sampled_from(["", ",", " #c", "x"]),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_simple_frontmatter_reads_one_line_lists_as_pyyaml_does(items: list[str], comma: str, pad: str, after: str) -> None:
    text = f"name: A\nglobs: [{pad}{comma.join(items)}{pad}]{after}"
    simple, full = _both_readings(text)
    if simple is not None:
        _same(simple, full)
    elif (
        full.yaml_error is None
        and all(i.strip(" ") and i.strip(" ")[0] in "'\"" and i.strip(" ")[1:-1].isalnum() for i in items)
        and items
        and not after
    ):
        raise AssertionError(f"{text!r}: a list of quoted words should take the line reader")


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["", "  ", "    ", " "]), st.sampled_from(["- ", "-  ", "-", "  - "]), _FLOW_ITEMS), max_size=4),
    st.sampled_from(["", "name: B", "  x: 1", "# c", "", "other:"]),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_simple_frontmatter_reads_block_lists_as_pyyaml_does(items: list[tuple[str, str, str]], after: str) -> None:
    lines = [f"{indent}{dash}{item}" for indent, dash, item in items]
    text = "\n".join(["name: A", "paths:", *lines, after])
    simple, full = _both_readings(text)
    if simple is not None:
        _same(simple, full)


def test_simple_frontmatter_agrees_with_pyyaml_on_real_world_shapes() -> None:
    # Hand-written shapes of real agent files (tests/fixtures/frontmatter); the same
    # check runs on real repositories' files in tests/shared/ where ../shared is present.
    taken = compared = 0
    for path, text in fixture_frontmatter():
        compared += 1
        simple, full = _both_readings(text)
        if simple is not None:
            taken += 1
            _same(simple, full)
        # A BOM and CRLF line endings change nothing that is read.
        other = parse(path.name, b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n")).frontmatter
        assert other is not None and (other.data, other.key_lines) == (full.data, full.key_lines), path.name
    # Not vacuous: most real frontmatter takes the line reader, and the rest (folded and
    # literal text, nesting two deep, flow mappings, values cut by a comment) does not.
    assert compared >= 40 and compared // 2 < taken < compared


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_reported_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")  # open() without O_NONBLOCK would block here forever
    doc = read(tmp_path, "pipe.md")
    assert doc.error == "is a FIFO, not a regular file; not read"


def test_read_gives_the_whole_file_and_stops_past_the_limit(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"---\nname: A\n---\n" + b"x" * 100_000)
    assert read(tmp_path, "a.md").body == "x" * 100_000
    (tmp_path / "big.md").write_bytes(b"x" * (MAX_BYTES + 10))
    big = read(tmp_path, "big.md")
    # not read past the cap, but its size is the file's own, never the read's
    assert big.error is not None and "larger than" in big.error and big.size == MAX_BYTES + 10


def test_the_resolver_table_is_pyyamls() -> None:
    # frontmatter_reading.py reads most plain scalars without PyYAML, from a copy of what its
    # implicit resolvers look at; the copy must be PyYAML's own.
    import yaml

    resolvers = yaml.resolver.Resolver.yaml_implicit_resolvers
    looked_at = {first for first in resolvers if first}
    # (Indicators such as `!`, `&` and `*` never reach the resolver on the simple path.)
    assert frontmatter_reading._RESOLVED_FIRST <= looked_at <= frontmatter_reading._RESOLVED_FIRST | frontmatter_reading._INDICATORS
    word_tags = {tag for first in frontmatter_reading._WORD_FIRST for tag, _ in resolvers[first]}
    assert word_tags == {"tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}
    for word in frontmatter_reading._BOOL_AND_NULL_WORDS:
        assert yaml.safe_load(f"k: {word}")["k"] in (True, False, None), word


@settings(max_examples=1000, deadline=None)
@given(
    st.text(alphabet="yYnNtTfFoOeEsSrRuUlLaAx_-", min_size=1, max_size=6)
    | st.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[ T0-9:.Z+-]{0,6}", fullmatch=True)
)
@pytest.mark.slow  # a property test: seconds of examples
def test_plain_words_and_dates_read_as_pyyaml_reads_them(word: str) -> None:
    for text in (f"{word}: x", f"k: {word}", f"m:\n  {word}: {word}"):
        simple, full = _both_readings(text)
        if simple is not None:
            _same(simple, full)


_OLD_KEY_LINE = re.compile(r"^([^\s:#][^:]*?)\s*:(?:\s+(.*)|)$")  # quadratic on a long run of spaces
_OLD_SIMPLE_ITEM = re.compile(r"( *)([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*[^ ]))? *|#.*| *")  # quadratic on `key:` and spaces


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=" \t\u00a0:#-ab_'\"[x", max_size=14))
@pytest.mark.slow  # a property test: seconds of examples
def test_the_linear_line_patterns_match_what_the_old_ones_matched(line: str) -> None:

    old, new = _OLD_KEY_LINE.match(line), frontmatter_reading._KEY_LINE.match(line)
    assert (old and old.groups()) == (new and new.groups())
    old, new = _OLD_SIMPLE_ITEM.fullmatch(line), frontmatter_reading._SIMPLE_ITEM.fullmatch(line)
    assert (old and old.groups()) == (new and new.groups())


@pytest.mark.parametrize("line", ["a" + " " * 100_000 + "x", "name:" + " " * 100_000, "k: x" + " " * 100_000 + "y:", " " * 100_000 + "a"])
def test_the_line_patterns_take_linear_time(line: str) -> None:

    # On 100,000 characters these patterns take well under a millisecond; a pattern
    # that backtracks (quadratic) takes minutes.
    with cpu_limit(1.0, "the key-line patterns"):
        frontmatter_reading._KEY_LINE.match(line)
        frontmatter_reading._SIMPLE_ITEM.fullmatch(line)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(_KEYS, st.sampled_from([": ", ":  ", ":"]), _VALUES, st.sampled_from(["", " ", "  "])), min_size=0, max_size=6))
@pytest.mark.slow  # a property test: seconds of examples
def test_flat_frontmatter_is_read_as_line_by_line(parts: list[tuple[str, str, str, str]]) -> None:
    # Frontmatter of margin keys and plain values is read by one regex over the whole
    # text (frontmatter_reading._flat_frontmatter): the same reading as the line-by-line one.

    lines = [key + sep + value + tail for key, sep, value, tail in parts]
    text = "\n".join(lines)
    flat = frontmatter_reading._flat_frontmatter(lines, 2, text)
    if flat is None or frontmatter_reading._NOT_SIMPLE.search(text):
        return  # (a text with what YAML reads specially never reaches the flat reading)
    saved = frontmatter_reading._flat_frontmatter
    frontmatter_reading._flat_frontmatter = lambda *args: None
    try:
        # (False: the line-by-line reading gives up too.)
        assert _simple_frontmatter(lines, 2, text) == (flat or None)
    finally:
        frontmatter_reading._flat_frontmatter = saved


@pytest.mark.parametrize(
    "raw",
    [
        b"---\nname: A\n---\nBody\n",
        b"plain text, no frontmatter\n",
        b"",
        "caf\u00e9 \u2603\n".encode(),
        b"\xef\xbb\xbf---\nname: A\n---\n",  # a BOM
        b"---\r\nname: A\r\n---\r\nBody\r\n",  # CRLF
        b"one\rtwo\n",  # a lone CR, kept
        b"\xff\xfe not UTF-8\n",
        b"bin\x00ary\n",
    ],
)
def test_a_files_key_is_gits_blob_id_of_its_bytes(tmp_path: Path, raw: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether the blob id is worked out as the file is read (a cache is kept, or its
    text differs from its bytes) or when a key is first asked (see parse), it is git's own."""
    import subprocess

    from memcheck.text import document

    (tmp_path / "f.md").write_bytes(raw)
    blob = subprocess.run(["git", "hash-object", str(tmp_path / "f.md")], capture_output=True, text=True, check=True).stdout.strip()
    for asked in (False, True):
        monkeypatch.setattr(document, "_keys_asked", asked)
        doc = parse("f.md", raw)
        assert doc.key == document.content_key(doc) == "b" + blob
    # A checking process of a first run hashes with OpenSSL (fast_blob_ids): the same ids.
    from memcheck.text import blobs

    monkeypatch.setattr(blobs, "_blob_sha1", blobs._blob_sha1)
    blobs.fast_blob_ids()
    for asked in (False, True):
        monkeypatch.setattr(document, "_keys_asked", asked)
        doc = parse("f.md", raw)
        assert doc.key == document.content_key(doc) == "b" + blob
