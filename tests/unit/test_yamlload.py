"""Bounded YAML loading: what PyYAML's safe loader gives on ordinary documents, and a
quick refusal, never a crash or a hang, on documents built to exhaust a parser; and
the same findings whether or not PyYAML has libyaml compiled in (libyaml reads YAML
differently, and 0.2.6 brought a nesting bound and a message of its own)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from conftest import fixture_frontmatter, invoke, write
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memcheck.text import yamlload, yamltext

pytestmark = pytest.mark.smoke


def _tree(node: Any) -> Any:
    """A node tree as plain values: tag, value, style, where it starts and ends."""
    if isinstance(node, yaml.ScalarNode):
        return (
            "scalar",
            node.tag,
            node.value,
            node.style,
            node.start_mark.line,
            node.start_mark.column,
            node.end_mark.line,
            node.end_mark.column,
        )
    children = [(_tree(k), _tree(v)) for k, v in node.value] if isinstance(node, yaml.MappingNode) else [_tree(n) for n in node.value]
    return (type(node).__name__, node.tag, node.flow_style, node.start_mark.line, node.end_mark.line, node.end_mark.column, children)


def _pyyaml(text: str) -> tuple[Any, Any]:
    """(node tree, data) from PyYAML's own safe loader, or (the error's class, None).
    The tree as construction leaves it (merge keys are flattened into the mapping)."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None and _cyclic(node, set()):
            # A recursive alias: PyYAML builds a cycle, or, through a merge key of a
            # mapping into itself (`&c {<<: *c, k: a}`), quietly drops it.
            return "recursive", None
        data = loader.construct_document(node) if node is not None else None
        return (_tree(node) if node is not None else None), data
    except yaml.YAMLError as e:
        return type(e), None
    except RecursionError:
        return "recursive", None
    finally:
        loader.dispose()


def _cyclic(node: Any, open_nodes: set[int]) -> bool:
    """Whether ``node`` contains itself (the documents here are small)."""
    if id(node) in open_nodes:
        return True
    if isinstance(node, yaml.ScalarNode):
        return False
    open_nodes.add(id(node))
    children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) else node.value
    found = any(_cyclic(child, open_nodes) for child in children)
    open_nodes.discard(id(node))
    return found


def _ours(text: str, events: bool) -> tuple[Any, Any]:
    """The same through yamlload; ``events``: by composing the events here even where
    a short document would go to the C composer."""
    try:
        if events:
            loader = yamlload.Loader(text)
            try:
                node = yamlload.compose(loader).node
                data = loader.construct_document(node) if node is not None else None
                return (_tree(node) if node is not None else None), data
            finally:
                loader.dispose()
        node, data, _ = yamlload.load(text)
        return (_tree(node) if node is not None else None), data
    except yaml.YAMLError as e:
        return type(e) if not isinstance(e, yamlload.TooComplex) else "too complex", None


_SCALARS = st.sampled_from(
    ["a", "b", "1", "2025-01-10", "~", "yes", '"q"', "'it''s'", "x y", "<<", "0x1F", "|\n  block\n", ">-\n  folded\n"]
)


@st.composite
def _documents(draw: st.DrawFn, depth: int = 0) -> str:
    """Small YAML documents: block and flow collections, nested, with anchors and
    aliases (some undefined, some repeated), merge keys and tags."""
    anchors: list[str] = []

    def value(level: int) -> str:
        kind = draw(st.sampled_from(["scalar", "flow-seq", "flow-map", "alias", "anchored"] if level < 4 else ["scalar", "alias"]))
        if kind == "scalar":
            text = draw(_SCALARS)
            return text if "\n" not in text or level == 0 else '"multi"'
        if kind == "alias":
            return f"*{draw(st.sampled_from(anchors))}" if anchors and draw(st.booleans()) else f"*{draw(st.sampled_from('abc'))}"
        if kind == "anchored":
            name = draw(st.sampled_from("abcd"))
            inner = value(level + 1)
            anchors.append(name)
            return f"&{name} {inner}"
        items = [value(level + 1) for _ in range(draw(st.integers(0, 3)))]
        if kind == "flow-seq":
            return "[" + ", ".join(items) + "]"
        keys = draw(st.lists(st.sampled_from(["k", "j", "<<", "1"]), min_size=len(items), max_size=len(items)))
        return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items)) + "}"

    lines = []
    for _ in range(draw(st.integers(1, 5))):
        key = draw(st.sampled_from(["name", "metadata", "a", "a", "<<", "list"]))
        if draw(st.booleans()):
            lines.append(f"{key}: {value(0)}")
        else:
            lines.append(f"{key}:")
            for _ in range(draw(st.integers(1, 3))):
                lines.append(f"  - {value(2)}" if draw(st.booleans()) else f"  {draw(st.sampled_from(['x', 'y', 'x']))}: {value(2)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_both_composers_give_what_pyyaml_gives(text: str) -> None:
    expected = _pyyaml(text)
    for events in (False, True):
        got = _ours(text, events)
        if expected[0] == "recursive":
            assert got[0] == "too complex", text  # refused, where PyYAML builds a cycle
        elif isinstance(expected[0], type):
            # An error for PyYAML is one for us (a recursive alias before it may be the first we see).
            assert got[0] == "too complex" or (isinstance(got[0], type) and issubclass(got[0], yaml.YAMLError)), (text, got)
        else:
            assert got == expected, text


def _walked_duplicates(text: str) -> list[tuple[str, int]]:
    """Repeated keys found by walking PyYAML's tree, each node once, in document order."""
    loader = yaml.SafeLoader(text)
    node = loader.get_single_node()
    found: list[tuple[str, int]] = []
    seen: set[int] = set()

    def walk(node: Any, prefix: str) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else ""
                if isinstance(key, yaml.ScalarNode):
                    if name in keys:
                        found.append((prefix + name, key.start_mark.line))
                    keys.add(name)
                walk(key, prefix)
                walk(value, f"{prefix}{name}.")
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item, prefix)

    if node is not None:
        walk(node, "")
    return found


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_repeated_keys_are_found_once_each_by_both_composers(text: str) -> None:
    try:
        expected = _walked_duplicates(text)
    except (yaml.YAMLError, RecursionError):
        return
    for events in (False, True):
        loader = yamlload.Loader(text)
        try:
            composed = yamlload.compose(loader) if events else None
            got = composed.duplicates if composed is not None else yamlload.load(text).duplicates
        except yaml.YAMLError:
            continue
        finally:
            loader.dispose()
        assert list(got) == expected, text


def _bomb(levels: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _merge_bomb(levels: int) -> str:
    lines = ["m0: &m0 {k: v}"]
    lines += [f"m{i}: &m{i} {{<<: [" + ", ".join([f"*m{i - 1}"] * 9) + "]}" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "says", "where"),
    [
        pytest.param(_bomb(9), "aliases expand it to more than 20,000 values", (4, 14), id="alias-bomb"),
        pytest.param(_bomb(30), "aliases expand it to more than 20,000 values", (4, 14), id="alias-bomb-30-levels"),
        pytest.param(_merge_bomb(9), "aliases expand it to more than 20,000 values", (4, 49), id="merge-key-bomb"),
        pytest.param("k: " + "[" * 50_000 + "]" * 50_000 + "\n", "more than 64 levels deep", (0, 66), id="flow-50000"),
        pytest.param("k: " + "[" * 500_000 + "\n", "more than 64 levels deep", (0, 66), id="unclosed-flow-500000"),
        pytest.param("k: " + "{a: " * 1_000 + "\n", "more than 64 levels deep", (0, 255), id="flow-mappings-1000"),
        pytest.param("".join("  " * i + "k:\n" for i in range(2_000)), "more than 64 levels deep", (64, 128), id="block-2000"),
        pytest.param("k:\n  " + "- " * 5_000 + "x\n", "more than 64 levels deep", (1, 128), id="compact-sequences-5000"),
        pytest.param(
            "a: &a [[[[[[[[x]]]]]]]]\nb: " + "[" * 60 + "*a" + "]" * 60 + "\n", "more than 64 levels deep", (1, 63), id="alias-deepens"
        ),
        pytest.param("m: &m {self: *m}\n", "recursive alias", (0, 13), id="recursive-mapping"),
        pytest.param("s: &s [a, [b, *s]]\n", "recursive alias", (0, 14), id="recursive-sequence"),
        pytest.param("".join(f"k{i}: {i}\n" for i in range(20_001)), "holds more than 20,000 values", (9999, 7), id="wide"),
        pytest.param("s: &s " + "x" * 700_000 + "\nk: [*s, *s]\n", "more than 2,097,152 characters", (1, 8), id="long-string-named-twice"),
        pytest.param(
            "s: &s [" + ", ".join(["x" * 1_000] * 600) + "]\nk: [*s, *s, *s]\n",
            "more than 2,097,152 characters",
            (1, 12),
            id="long-list-named-thrice",
        ),
        pytest.param(
            "s: &s\n  ? " + "x" * 800_000 + "\n  : 1\nk: [*s, *s]\n", "more than 2,097,152 characters", (3, 8), id="long-key-named-twice"
        ),
    ],
)
def test_documents_past_a_bound_are_refused_at_once(text: str, says: str, where: tuple[int, int]) -> None:
    # Refused where the bound is crossed (line and column from 0), with memcheck's own
    # message: not where a parser's own limit happens to stop it.
    with pytest.raises(yamlload.TooComplex) as caught:
        yamlload.load(text)
    assert says in caught.value.problem
    mark = caught.value.problem_mark
    assert (mark.line, mark.column) == where


@pytest.mark.parametrize("number", ["1" + ":1" * 160_000, "1" * 5_000, "1.5" + "0" * 5_000, "1" + ":1" * 3_000 + ".5"])
def test_over_long_numbers_are_refused_like_pythons_own_limit(number: str) -> None:
    # PyYAML's base-60 ints (1:1:1...) cost time quadratic in their length (13 s at 320 KB):
    # the length is judged before PyYAML converts anything.
    with pytest.raises(ValueError, match=f"number of {len(number):,} characters"):
        yamlload.load(f"k: {number}\n")


def test_within_the_bounds_aliases_and_depth_still_load() -> None:
    deepest = "k: " + "[" * 63 + "x" + "]" * 63 + "\n"  # the top-level mapping is the 64th level
    data = yamlload.load_data(deepest)["k"]
    for _ in range(62):
        data = data[0]
    assert data == ["x"]
    with pytest.raises(yamlload.TooComplex):
        yamlload.load_data("k: " + "[" * 64 + "x" + "]" * 64 + "\n")
    shared = yamlload.load_data(_bomb(4))  # 9^3 leaves: well inside
    assert shared["a3"][0][0][0] == ["x"] * 9


class Extremes(NamedTuple):
    read: int  # documents that load
    deepest: int
    most: int  # values
    aliases: int
    longest: int  # characters


def extremes(documents: Iterable[tuple[Path, str]]) -> Extremes:
    """How far real frontmatter goes towards each bound (none may cross one)."""
    deepest = most = aliases = longest = read = 0
    for path, text in documents:
        loader = yamlload.Loader(text)
        try:
            composed = yamlload.compose(loader)
        except yaml.YAMLError as e:
            assert not isinstance(e, yamlload.TooComplex), path
            continue
        finally:
            loader.dispose()
        read += 1
        deepest, most, aliases = max(deepest, composed.depth), max(most, composed.values), max(aliases, composed.aliases)
        longest = max(longest, composed.characters)
    return Extremes(read, deepest, most, aliases, longest)


def test_real_world_shapes_stay_far_from_every_bound() -> None:
    # Hand-written shapes of real agent files (tests/fixtures/frontmatter); the same
    # check on real repositories' files is in tests/shared/ (run where ../shared is).
    found = extremes(fixture_frontmatter())
    # Not vacuous: nearly every shape loads, and they nest (metadata:, config: build:).
    assert found.read >= 40 and found.deepest >= 3
    assert found.deepest * 10 < yamlload.MAX_DEPTH and found.most * 100 < yamlload.MAX_VALUES and found.aliases == 0
    assert found.longest * 1000 < yamlload.MAX_CHARACTERS


def test_the_rule_docs_give_the_bounds() -> None:
    from memcheck.checks import all_rules

    for code in ("MEM003", "GDN004", "SKL003"):
        doc = " ".join(all_rules()[code].doc.split())
        assert f"{yamlload.MAX_DEPTH} levels" in doc and f"{yamlload.MAX_VALUES:,} values" in doc, code
        assert f"{yamlload.MAX_CHARACTERS:,} characters" in doc, code


_HOSTILE_FRONTMATTER = {
    "flow-50000": "k: " + "[" * 50_000 + "]" * 50_000,
    "unclosed-flow-500000": "k: " + "[" * 500_000,
    "flow-1001-short": "k: " + "[" * 1_001,  # short enough for the C composer
    "flow-mappings-1000": "k: " + "{a: " * 1_000,
    "block-200": "\n".join("  " * i + "k:" for i in range(200)),
}


@pytest.mark.parametrize("name", _HOSTILE_FRONTMATTER)
def test_a_frontmatter_nested_too_deep_gets_the_nesting_finding(name: str, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a user sees: MEM003 naming memcheck's bound, on the line where it is crossed,
    # never a parser's own message (PyYAML 6.0.4's libyaml says "exceeded maximum
    # nesting depth", and the quoting hint MEM004 followed from it).
    write(repo, ".claude/memory/deep.md", f"---\nname: deep\ndescription: d\ntype: user\n{_HOSTILE_FRONTMATTER[name]}\n---\n\nBody.\n")
    result = invoke(repo, "check", "--format", "json", "--select", "MEM003,MEM004", monkeypatch=monkeypatch)
    problems = [(p["path"], p["code"]) for p in json.loads(result.stdout)["problems"]]
    assert problems == [(".claude/memory/deep.md", "MEM003")], result.stdout
    (problem,) = json.loads(result.stdout)["problems"]
    assert f"more than {yamlload.MAX_DEPTH} levels deep" in problem["message"]
    assert result.exit_code == 1


@pytest.mark.parametrize("escape", ["\\UFFFFFFFF", "\\U00110000"])
def test_an_escape_past_unicode_is_described_the_same_on_every_python(escape: str, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Python says "chr() arg not in range(0x110000)" from 3.13 on, and raised an
    # OverflowError with other words before: a baseline written on one Python must
    # match on another.
    write(repo, ".claude/memory/m.md", f'---\nname: m\ndescription: "x{escape}"\ntype: user\n---\n\nBody.\n')
    result = invoke(repo, "check", "--format", "json", "--select", "MEM", monkeypatch=monkeypatch)
    messages = [p["message"] for p in json.loads(result.stdout)["problems"] if p["path"] == ".claude/memory/m.md"]
    assert any("an escape names no Unicode character (the last is \\U0010FFFF)" in m for m in messages), messages
    assert not any("chr()" in m or "C int" in m for m in messages), messages


# libyaml's errors in the Python parser's words. The Python parser is the reference
# (see yamlload): where libyaml reads a text, its error is translated, and whatever
# the translation gives must be what the Python parser says, on the line memcheck
# reports (text/frontmatter_reading.py: the problem mark's line, else the context mark's, no
# further than the last line).
needs_libyaml = pytest.mark.skipif(not yamlload._LIBYAML, reason="PyYAML without libyaml: the Python parser reads everything")


def _python_parser(text: str) -> yamlload.Loaded:
    return yamlload._load(yamlload.Loader(text), text)


def _outcome(read: Any, text: str) -> tuple[Any, ...]:
    """What memcheck takes from reading ``text``: the tree and data, or the error's
    words and line."""
    try:
        node, data, duplicates = read(text)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        return ("error", e.problem or str(e).splitlines()[0], min(mark.line, text.count("\n")) if mark is not None else None)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as e:
        return ("error", type(e).__name__, str(e))
    # (Without a last newline, libyaml ends a collection on the line after the text,
    # the Python parser on its last line; memcheck reads no collection's end.)
    tree = _tree(node) if node is not None and text.endswith("\n") else None
    return ("read", tree, data, duplicates)


# The lines frontmatter is made of, and the slips made in them.
_FM_KEYS = st.sampled_from(["name", "description", "type", "metadata", "tags", "k", "é", '"q"', "'q'", "&a k", "*a", "? k"])
_FM_VALUES = st.sampled_from(
    ["x", "a b", "a: b", "'q'", '"q"', '"q', "'q", '"q" r', "'q' r", "- x", "|", ">", "&a x", "*a", "x # c", "`x", "@x", "a:b", "%x", "",
     "? x", ": x", "x\\y", '"a\\qb"', "'it''s'", "x: y: z", "2025-13-01", "--- x", "... x", "x ]", "x }", "é: ü", '"q": r', "- - x", "-x",
     "?x", ":x", "k: &a", "x #: y", "x:#", '"a\\"b" c', "'a''b' c: d", "!t x", "!!str 5", "x\ty", "x:\ty", '"\tq"']
)  # fmt: skip
_FM_INDENT = st.sampled_from(["", "", "  ", "    ", " ", "   ", "\t", " \t", "\t "])
_FM_LINE = (
    st.builds(lambda i, k, c, v: f"{i}{k}:{c}{v}", _FM_INDENT, _FM_KEYS, st.sampled_from([" ", "", "  "]), _FM_VALUES)
    | st.builds(lambda i, d, v: f"{i}{d}{v}", _FM_INDENT, st.sampled_from(["- ", "? ", ": "]), _FM_VALUES)
    | st.builds(lambda i, v: f"{i}{v}", _FM_INDENT, _FM_VALUES)
    | st.sampled_from(["", "# c", "---", "...", "  # c", "key", "- ", "-", ":", "?", "%YAML 1.1"])
)
_FRONTMATTER = st.builds(lambda lines, end: "\n".join(lines) + end, st.lists(_FM_LINE, min_size=1, max_size=6), st.sampled_from(["", "\n"]))
# Any text of YAML's punctuation.
_SNIPPETS = st.lists(st.sampled_from(list("ab:-?#'\"&*!|>%@`\\é., \n") + ["\n  ", ": ", "- ", "k: ", "---", "..."]), max_size=30).map(
    "".join
)


@needs_libyaml
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(_FRONTMATTER | _SNIPPETS)
def test_what_libyaml_reads_is_what_the_python_parser_reads_errors_included(text: str) -> None:
    # (Texts with what libyaml reads otherwise go to the Python parser alone, but for
    # a tab that indents a line (see yamlload._raise_tab_error); and libyaml reads some tags otherwise,
    # `k: !` as "" where the Python parser gives None: a text with a tag that either
    # rejects goes to the Python parser, see test_the_python_parser_reads_...)
    assume(not yamlload._PYTHON_ONLY.search(text.replace("\t", " ")) and "!" not in text)
    assert _outcome(yamlload.load, text) == _outcome(_python_parser, text), text


_FLAT_HEAD = st.lists(
    st.sampled_from(["name: n", "description: Deploy notes, see the runbook", "type: user", "k: it's (a) b/c", "x_y-z: a  b "]),
    min_size=1,
    max_size=3,
).map(lambda lines: "\n".join(lines) + "\n")
_FLOW_LINE = st.builds(
    lambda k, v: f"{k}: {v}",
    st.sampled_from(["tags", "k", "é", "a b"]),
    st.sampled_from(
        [
            "[a, b",
            "[a, b]",
            "{a: b",
            "[a",
            "[rollout, storage, sync",
            "[a,",
            "[a,, b",
            "[ a b ,c  ",
            "[a, 2025-13-01",
            "[a, b #c",
            "[a, -b",
            "[a,\n  b]",
            "[a\n b",
            "{a: [b",
            "[&x a, *x]",
            "[a, 1]",
            "[a]: b",
            "[a, b] c",
            "\t[a]",
        ]
    ),
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(_FLAT_HEAD, st.lists(_FLOW_LINE | _FM_LINE, min_size=1, max_size=4).map("\n".join), st.sampled_from(["", "\n"]))
def test_after_a_flat_head_the_python_parser_reads_the_rest_alone_to_the_same_error(head: str, rest: str, end: str) -> None:
    # A rejected text the Python parser must read (a flow collection) is read from
    # after its flat `key: words` lines (see yamlload._raise_after_flat_head): the
    # same words, on the same line, as when it reads the whole.
    text = head + rest + end
    assert _outcome(yamlload.load, text) == _outcome(_python_parser, text), text
    # What the text alone tells (yamltext.slip_problem, which spares a frontmatter
    # PyYAML's import) is what the Python parser says.
    told = yamltext.slip_problem(text)
    if told is not None:
        assert _outcome(_python_parser, text) == ("error", *told), text


_ONE_LINE = st.lists(
    st.sampled_from(list("ab ,[]{}:?#'\"-&*!|>%@`\\.é\t") + ["x y", ", ", "1", "~", "true", "2025-13-01", "&a", "*a"]), max_size=14
).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["", "[", "{", "'", '"']), _ONE_LINE)
def test_a_value_is_valid_alone_as_the_python_parser_says(start: str, rest: str) -> None:
    value = (start + rest).strip()
    assert yamlload.valid_value(value) == (_outcome(_python_parser, f"k: {value}\n")[0] == "read"), value


# Frontmatter as it is written wrong (bench/generate.py's M-broken store makes the
# same slips), and what the Python parser says of each.
_SLIPS = {
    "colon-in-value": ("name: n\ndescription: Deploy notes: see the runbook\ntype: user", "mapping values are not allowed here", 1),
    "unclosed-quote": ('name: n\ndescription: "Deploy notes\ntype: user', "found unexpected end of stream", 2),
    "stray-list-item": ("name: n\ndescription: d\ntype: user\n- remember this", "expected <block end>, but found '-'", 3),
    "text-after-quotes": ('name: n\ndescription: "Deploy" notes\ntype: user', "expected <block end>, but found '<scalar>'", 1),
    "indented-key": ('name: n\ndescription: "d"\n  type: user', "expected <block end>, but found '<block mapping start>'", 2),
    "unknown-escape": ('name: n\ndescription: "C:\\Documents"\ntype: user', "found unknown escape character 'D'", 1),
    "short-escape": (
        'name: n\ndescription: "C:\\Users"\ntype: user',
        "expected escape sequence of 8 hexadecimal numbers, but found 's'",
        1,
    ),
    "backquote": ("name: n\ndescription: `d`\ntype: user", "found character '`' that cannot start any token", 1),
    "undefined-alias": ("name: n\ndescription: *d\ntype: user", "found undefined alias 'd'", 1),
    "tab-indent": ("name: n\ndescription: d\nmetadata:\n\ttype: user", "found character '\\t' that cannot start any token", 3),
}


@needs_libyaml
@pytest.mark.parametrize("slip", _SLIPS)
def test_the_usual_slips_are_told_without_the_python_parser(slip: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text, says, line = _SLIPS[slip]
    assert _outcome(_python_parser, text) == ("error", says, line)
    monkeypatch.setattr(yamlload, "Loader", None)  # the Python parser: not there
    assert _outcome(yamlload.load, text) == ("error", says, line)


def _marked(e: yaml.MarkedYAMLError) -> tuple[Any, ...]:
    """All of an error the Python parser gives: its class, words and both marks."""

    def at(mark: yaml.Mark | None) -> tuple[int, int, int] | None:
        return None if mark is None else (mark.index, mark.line, mark.column)

    return (type(e), e.context, at(e.context_mark), e.problem, at(e.problem_mark))


def _python_error(text: str) -> tuple[Any, ...] | None:
    try:
        _python_parser(text)
    except yaml.MarkedYAMLError as e:
        return _marked(e)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError):
        return ("other",)
    return None


@pytest.mark.parametrize("slip", ["colon-in-value", "unclosed-quote", "stray-list-item", "text-after-quotes", "tab-indent"])
def test_the_usual_slips_are_told_from_their_lines(slip: str) -> None:
    # Neither parser reads them (see yamltext._USUAL_SLIP): what the Python parser
    # would say, words and marks, told from the line.
    text = _SLIPS[slip][0]
    with pytest.raises(yaml.MarkedYAMLError) as told:
        yamlload._raise_usual_slip(text)
    assert _marked(told.value) == _python_error(text)


_SLIP_LINE = st.sampled_from(
    ["d: Deploy notes: see", "d: a b :", "d: a:", "d: a:b: c", "d: a: ", 'd: "q', "d: 'q", 'd: "q" r', "d: 'q' r s", "d: 'q' r: s", 'd: "q"  r#x',
     "- x", "-", "- ", "-x", "\tk: v", "k:\n\tv: x", "k:\n\t", " \tk", 'd: "a\\"b', "d: 'it''s", "d: 'it''s' x", 'd: "x" y', "k: v #c: d"]
)  # fmt: skip
_SLIP_TAIL = st.sampled_from(
    [
        "\ntype: user",
        "\n  more",
        "\n- x",
        "\n--- x",
        "\n...",
        "\n\ttab",
        '\n"',
        "\n'",
        '\nk: "',
        "\n\\",
        "\n# c",
        "\n",
        "\nk: v: w",
        '\n "x',
        "\x01",
        "\n%x",
        "\n[a",
        " é",
        "\u2028",
    ]
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(["name: n", "description: Deploy notes, see the runbook", "type: user", "k: it's (a) b/c", "x_y-z: a  b "]),
        max_size=3,
    ),
    _SLIP_LINE | _FM_LINE,
    st.lists(_SLIP_TAIL | _FM_LINE.map(lambda line: "\n" + line), max_size=3).map("".join),
)
def test_a_slip_told_from_its_line_is_what_the_python_parser_says(head: list[str], slip: str, tail: str) -> None:
    text = "\n".join([*head, slip]) + tail
    try:
        yamlload._raise_usual_slip(text)
    except yaml.MarkedYAMLError as e:
        assert _marked(e) == _python_error(text), text


def _findings(files: dict[str, str]) -> list[tuple[str, int, str, str]]:
    from memcheck import config
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.memory import MemorySource

    settings = config.from_mapping(Path("/nonexistent/memcheck-in-memory"), config.defaults())
    ws = Workspace(settings, MemorySource({path: text.encode() for path, text in files.items()}))
    return sorted((p.path, p.line, p.code, p.message) for p in collect(ws, targets_for(ws, None)))


_BROKEN = {
    **{slip: text for slip, (text, _, _) in _SLIPS.items()},
    # What only the Python parser reads (see yamlload._PYTHON_ONLY), or tells (a tag).
    "tab-between-tokens": "name:\tn\ndescription: d: e\ntype: user",
    "unclosed-bracket": "name: n\ndescription: d\ntype: user\ntags: [a, b",
    "flow-lists-before-the-slip": "name: n\ntags: [a, b]\npaths: ['x', y]\ndescription: Deploy: now\ntype: user",
    "tag": "name: !x n\ndescription: d: e\ntype: user",
}


@pytest.mark.parametrize("slip", _BROKEN)
def test_the_python_parser_reads_a_broken_frontmatter_once_at_most(slip: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted, not timed: the Python parser takes ten to twenty times libyaml's time,
    # and a store with hundreds of broken frontmatters spent most of its check there.
    files = {".claude/memory/MEMORY.md": "- [N](m.md) - d\n", ".claude/memory/m.md": f"---\n{_BROKEN[slip]}\n---\n\nBody.\n"}
    reads: list[str] = []

    class Counted(yamlload.Loader):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str) -> None:
            if stream:  # (text/frontmatter_reading.py keeps an empty one for its constructors)
                reads.append(stream)
            super().__init__(stream)

    monkeypatch.setattr(yamlload, "Loader", Counted)
    found = _findings(files)
    assert any(code in ("MEM003", "MEM004") for _, _, code, _ in found), found
    assert len(reads) <= (1 if yamlload._LIBYAML else 99), reads
    if yamlload._LIBYAML and slip in _SLIPS:
        assert reads == []
    if slip == "unclosed-bracket":  # told from its last line (see yamltext._UNCLOSED_LIST), libyaml or not
        assert reads == []
    monkeypatch.setattr(yamlload, "Loader", Counted.__bases__[0])
    monkeypatch.setattr(yamlload, "_LIBYAML", False)  # every reading by the Python parser: the same findings
    assert _findings(files) == found


def _closing_quote_char_by_char(quoted: str) -> int | None:
    quote, i = quoted[0], 1
    while i < len(quoted):
        if quote == '"' and quoted[i] == "\\":
            i += 2
        elif quoted[i] == quote and quote == "'" and quoted[i + 1 : i + 2] == "'":
            i += 2
        elif quoted[i] == quote:
            return i
        else:
            i += 1
    return None


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(["'", '"']), st.text(alphabet=st.sampled_from(list("ab '\"\\\\é")), max_size=12))
def test_the_closing_quote_is_the_one_a_reading_char_by_char_finds(quote: str, rest: str) -> None:
    assert yamlload.closing_quote(quote + rest) == _closing_quote_char_by_char(quote + rest)


def test_the_slips_are_told_with_the_pattern_the_simple_reader_compiles() -> None:
    # One pattern text, so that re compiles it once a process (see yamltext._NOT_PLAIN_TEXT).
    from memcheck.text import frontmatter_reading

    assert yamltext._NOT_PLAIN_TEXT.pattern == frontmatter_reading._NOT_SIMPLE.pattern


def test_the_text_alone_reads_as_long_a_flat_head_as_the_loader() -> None:
    # yamltext tells a list never closed after a flat head only where load would (see
    # yamlload._raise_after_flat_head): the same bound on the text's length.
    assert yamltext.HEAD_MOST_CHARS == yamlload.MAX_VALUES // 2


@pytest.mark.parametrize(
    "text", [*(text for text, _, _ in _SLIPS.values()), "name: n\ndescription: d\ntags: [a, b", "name: n\ntags: [a, b c\n"]
)
def test_a_slip_told_from_the_text_alone_is_what_the_python_parser_says(text: str) -> None:
    told = yamltext.slip_problem(text)
    if told is not None:
        assert _outcome(_python_parser, text) == ("error", *told)
    elif "[" in text:
        raise AssertionError(f"a list never closed after a flat head is told from the text: {text!r}")
