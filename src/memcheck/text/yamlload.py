"""Load YAML from files anyone may write, at a cost bounded by the text's size, with
the same result on every install.

PyYAML alone is not safe for that. Its C composer recurses once per nesting level
and exhausts the C stack (a segmentation fault) at some tens of thousands of
``[``; its Python constructor and every walk over the result recurse too; and an
alias is a shared node, so a "billion laughs" of 400 bytes composes in
microseconds into a document that anything walking it as a tree (duplicate keys,
messages quoting a value) sees as 9^9 values. PyYAML has no option that limits
any of this.

So the events come from PyYAML's parser (a state machine with its stack in a list,
which never recurses), and the nodes are composed here, without recursion, counting
as it goes. A document past a bound is rejected as soon as it crosses it, long
before the parser has read much of a hostile text; an alias counts as the whole of
what it points to, so the count is the size of the document as a tree. The bounded
node tree is then handed to PyYAML's own safe constructor, which builds mappings and
lists without recursing.

Findings must not depend on how PyYAML was installed, and libyaml (PyYAML's C
parser, where it is compiled in) reads YAML differently from PyYAML's Python parser:
over random snippets of YAML's punctuation, about 1 in 300 is valid for one and not
the other (a tab, a byte-order mark or line separator inside the text, `|#`, a
multi-line plain value inside `[...]`); their errors differ in words ("mapping values
are not allowed here" or "... in this context") and at times in line; and libyaml's
own limits change between releases (0.2.6, bundled by PyYAML 6.0.4, stops at 1,000
nesting levels with a message of its own). The Python parser is the reference: its
reader, scanner and parser are the same from PyYAML 5.1 to 6.0.4 but for one
misspelt word in a message. libyaml, ten to twenty times faster, reads only a text
where the two agree: one without flow collections (`[`, `{`) or the characters and
block headers they read differently (``_PYTHON_ONLY``). Any other text goes to the
Python parser. (No disagreement among 64,000 random snippets that libyaml found
valid once those are set aside; tests/unit/test_yamlload.py compares the two on
generated documents.)

They also reject the same of those texts (none of 120,000 random ones, but for tags:
libyaml takes `!?!`), and where they reject one, on the same line; but the Python
parser's message is what memcheck reports, and libyaml words it otherwise ("mapping
values are not allowed in this context" for "... here", "did not find expected key"
for "expected <block end>, but found '-'"). So libyaml's error is put in the Python
parser's words (``_in_python_words``): renamed, or with what the Python parser names
(the character, the token found) read from the text at libyaml's mark. Frontmatter
written by hand is often rejected (a colon in a value, an unclosed quote, a list
item under a key that has a value): before this, each rejected one cost the Python
parser's reading, several times the rest of its check. An error whose words cannot
be told from the line (a token whose kind hangs on what the scanner read before it),
or a text with a tag, still goes to the Python parser: once. So does a text with
what only the Python parser reads right, but for a tab that indents a line (the
usual slip): libyaml stops there too, with the same error (``_raise_tab_error``).
The usual slips after a few `key: words` lines (``_USUAL_SLIP``) neither parser
reads: what the Python parser says of them is told from their line.
"""

from __future__ import annotations

from typing import Any, Callable

import yaml
from yaml.events import (
    AliasEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from memcheck import lazy_regex
from memcheck.records import NamedTuple
from memcheck.text.yamltext import (
    FLAT_HEAD,
    SCANNER,
    UNCLOSED_LIST_PROBLEM,
    closing_quote,
    slip_problem,
    unclosed_list,
    usual_slip,
    value_told,
)

__all__ = ["closing_quote", "slip_problem"]  # (told from the text alone: see yamltext.py)

# The bounds. Over the 401 frontmatter blocks of the test corpus (581 real agent
# files), the deepest nests 5 levels, the largest holds 35 values (1,165 characters)
# and none uses an alias (tests/unit/test_yamlload.py measures it again whenever the
# corpus is there).
# The bounds are more than ten times the depth and 500 times the size, and low
# enough that whatever reads the result stays cheap: a walk over 20,000 values
# takes milliseconds; at 64 levels a recursive reader (repr, the config's schema
# check) stays far from Python's recursion limit; and the scanner, whose cost per
# token grows with the nesting of flow collections (libyaml's: quadratic, 10 s for
# 40,000 '['), stops after a few thousand tokens at most.
MAX_DEPTH = 64  # collections inside collections, aliases expanded
MAX_VALUES = 20_000  # scalars and collections, each alias counted as all it stands for
# The characters of every scalar, keys included, each alias counted as all it stands
# for: 20,000 values within the bound above can still be one string of 900 KB named
# 20,000 times, which anything quoting or matching each value reads 20,000 times
# (a list of them in a memory's name took minutes and gigabytes to quote). Without
# aliases the scalars cannot hold more characters than the text, and no file
# memcheck reads is over 1 MiB: only an alias can cross this.
MAX_CHARACTERS = 2 << 20

# Python converts at most 4,300 digits to an int (sys.get_int_max_str_digits) and
# raises ValueError past that, which the callers report like any value YAML cannot
# build. PyYAML's sexagesimal numbers (``1:2:3``) get no such limit and cost time
# quadratic in their length (13 s for 320 KB): the same limit applies to them.
MAX_NUMBER_LENGTH = 4300


class Loader(yaml.SafeLoader):  # type: ignore[misc]
    """PyYAML's safe loader in Python (the reference, see above), refusing numbers
    longer than MAX_NUMBER_LENGTH characters."""


# Any: one of two classes, known only at run time; mypy takes no other computed base.
_CLoaderBase: Any = getattr(yaml, "CSafeLoader", Loader)


class _CLoader(_CLoaderBase):  # type: ignore[misc]
    """The same with libyaml's parser, where PyYAML has it."""


_LIBYAML = hasattr(yaml, "CSafeLoader")
# What libyaml and the Python parser read differently (see above): flow collections,
# a tab, a carriage return, NEL, line and paragraph separators, a byte-order mark, a
# block scalar header followed by `#`. A text with any of them goes to the Python
# parser. Flow collections are rare in what reaches PyYAML (memcheck's line reader
# takes one-line lists of strings), so this costs little.
_PYTHON_ONLY = lazy_regex.compile(r"[\[{\t\r\x85\u2028\u2029\ufeff]|[|>][-+0-9]*#")

# Below this many characters and without anchors, a document libyaml may read is
# composed by PyYAML's C composer (composing the events here costs a third more): it
# can nest at most 2,048 levels, which costs the C stack some 700 KB (it runs out at
# about 25,000 levels in the usual 8 MiB), and with no alias it is a plain tree, which
# ``_measure`` then checks against the bounds before anything reads it. Every real
# frontmatter that needs the full parser is shorter (the longest in the corpus, 690
# characters).
MAX_C_COMPOSED = 2048


_Construct = Callable[[Loader, ScalarNode], object]  # one of a loader's yaml_constructors


def _bounded_number(construct: _Construct) -> _Construct:
    def construct_number(loader: Loader, node: ScalarNode) -> object:
        if len(node.value) > MAX_NUMBER_LENGTH:
            raise ValueError(f"a number of {len(node.value):,} characters, over the {MAX_NUMBER_LENGTH:,} memcheck reads")
        return construct(loader, node)

    return construct_number


# (Without libyaml, _CLoader is a Loader and inherits its constructors.)
_LOADERS: list[type[Loader]] = [Loader] if issubclass(_CLoader, Loader) else [Loader, _CLoader]
for _loader in _LOADERS:
    for _tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        _loader.add_constructor(_tag, _bounded_number(_loader.yaml_constructors[_tag]))


class TooComplex(yaml.MarkedYAMLError):  # type: ignore[misc]
    """The document crosses a bound: it is rejected, not read."""


class Loaded(NamedTuple):
    node: Node | None  # None for an empty document
    data: object  # what PyYAML's safe constructor builds
    duplicates: tuple[tuple[str, int], ...]  # see Composed


class Composed(NamedTuple):
    node: Node | None
    values: int  # as a tree: each alias counted as all it stands for
    aliases: int
    depth: int  # deepest nesting of collections, aliases expanded
    duplicates: tuple[tuple[str, int], ...]  # (dotted key, line from 0) of each key repeated in its mapping
    characters: int = 0  # of all scalars as a tree: each alias counted as all it stands for


def load(text: str) -> Loaded:
    """The single document in ``text``, as a node tree and as data.

    Raises ``yaml.YAMLError`` (``TooComplex`` past a bound) and whatever PyYAML's
    constructor raises on a value it cannot build (ValueError for a date out of
    range, and the like). A syntax error is the Python parser's, in its words and
    on its line.
    """
    _raise_usual_slip(text)
    if _LIBYAML:
        if not _PYTHON_ONLY.search(text):
            try:
                return _load(_CLoader(text), text)
            except TooComplex:
                pass  # libyaml's node tree crossed a bound: the Python parser says where, or finds an error before it
            except yaml.MarkedYAMLError as e:
                # libyaml and the Python parser reject the same texts (of those libyaml
                # reads), but for tags: libyaml takes some the Python parser rejects
                # (`!?!`). Only the words can differ, and most of libyaml's say the
                # Python parser's once translated (PyYAML's own constructor, given
                # the nodes the Python parser gives too, says the same). The rest go
                # to the Python parser, ten to twenty times slower, once.
                if "!" not in text and (isinstance(e, yaml.constructor.ConstructorError) or _in_python_words(e, text)):
                    raise
        elif _TAB_INDENT.search(text) and not _PYTHON_ONLY.search(text.replace("\t", " ")):
            _raise_tab_error(text)
    _raise_after_flat_head(text)
    return _load(Loader(text), text)


def _raise_usual_slip(text: str) -> None:
    """Raise what the Python parser raises on ``text`` if it is a usual slip (see
    yamltext.usual_slip)."""
    slip = usual_slip(text)
    if slip is not None:
        kind, context, context_at, problem, at = slip
        error = yaml.scanner.ScannerError if kind == SCANNER else yaml.parser.ParserError
        raise error(context, None if context_at is None else _mark(text, context_at), problem, _mark(text, at))


def _mark(text: str, index: int) -> yaml.Mark:
    line_start = text.rfind("\n", 0, index) + 1
    return yaml.Mark("<unicode string>", index, text.count("\n", 0, index), index - line_start, None, None)


def _raise_after_flat_head(text: str) -> None:
    """Raise the Python parser's error on ``text`` when its lines after a flat head
    (``yamltext.FLAT_HEAD``) hold one, read by the Python parser from there alone; else
    return, and the whole text is the Python parser's.

    A rejected frontmatter whose error libyaml cannot be trusted with (an unclosed
    `[`: flow collections are read by the Python parser alone) cost that parser's
    reading of every line (400 us a file, on bench/'s M-broken tree six times a good
    file's whole reading); most such texts are a few `name: ...` lines and the one
    slip. After a flat head the scanner and parser are in the state the rest's first
    key puts them in at the start of a document, but for the mapping's start token,
    so the rest fails where the whole fails, in the same words. The head makes no
    alias, anchor or nesting and so cannot bring a bound closer (the text is kept
    well below MAX_VALUES, with no alias, so that only nesting could cross one, and
    nesting is the rest's own)."""
    head = FLAT_HEAD.match(text)
    if head is None or len(text) > MAX_VALUES // 2 or "*" in text:
        return
    start = head.end()
    if unclosed_list(text, start):
        # The rest is one `key: [words, words` line: the list never closes, and the
        # Python parser says so where the text ends, without being asked.
        lines, last = text.count("\n"), text.rfind("\n") + 1
        end = yaml.Mark("<unicode string>", len(text), lines, len(text) - last, None, None)
        raise yaml.parser.ParserError("while parsing a flow sequence", None, UNCLOSED_LIST_PROBLEM, end)
    try:
        _load(Loader(text[start:]), text[start:])
    except TooComplex:
        return
    except yaml.MarkedYAMLError as e:
        lines = text.count("\n", 0, start)
        e.problem_mark = _shifted(e.problem_mark, start, lines)
        e.context_mark = _shifted(e.context_mark, start, lines)
        raise
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError):
        return


def _shifted(mark: yaml.Mark | None, index: int, lines: int) -> yaml.Mark | None:
    return None if mark is None else yaml.Mark(mark.name, mark.index + index, mark.line + lines, mark.column, None, None)


# A tab in a line's indentation: the slip YAML rejects most often after a colon in a value.
_TAB_INDENT = lazy_regex.compile(r"(?:^|\n) *\t")


def _raise_tab_error(text: str) -> None:
    """Raise the Python parser's error on ``text`` if libyaml stops at its first
    tab, which is in a line's indentation; else return.

    libyaml skips a tab between tokens, where the Python parser stops at it, so
    their errors part at a text's first tab; but up to that tab they read the same
    text, and where libyaml stops there too (a tab cannot indent), the Python
    parser does, with the same error. Any other outcome is the Python parser's to
    tell, after libyaml's reading (a few per cent of it) is thrown away.
    """
    try:
        _load(_CLoader(text), text)
    except yaml.MarkedYAMLError as e:
        first = text.index("\t")
        mark = e.problem_mark
        if (
            e.problem == "found character that cannot start any token"
            and mark is not None
            and (mark.line, mark.column) == (text.count("\n", 0, first), first - text.rfind("\n", 0, first) - 1)
        ):
            e.problem = "found character '\\t' that cannot start any token"
            raise
    except (yaml.YAMLError, ValueError, TypeError, OverflowError):
        pass


def _load(loader: Loader, text: str) -> Loaded:
    try:
        if isinstance(loader, _CLoader) and len(text) <= MAX_C_COMPOSED and "&" not in text:
            node = loader.get_single_node()
            composed = _measure(node) if node is not None else Composed(None, 0, 0, 0, ())
        else:
            composed = compose(loader)
        node = composed.node
        return Loaded(node, loader.construct_document(node) if node is not None else None, composed.duplicates)
    finally:
        loader.dispose()


# libyaml's errors that say what the Python parser says, in other words. (Measured
# on random documents made of the lines frontmatter is made of, broken ones among
# them: tests/unit/test_yamlload.py holds every translation to the Python parser's
# words and line.) An error not here, or whose words name what libyaml does not say
# and ``_token_id`` cannot tell, goes to the Python parser.
_SAME_WORDS = frozenset({"found unexpected end of stream", "but found another document"})
_RENAMED = {
    "mapping values are not allowed in this context": "mapping values are not allowed here",
    "block sequence entries are not allowed in this context": "sequence entries are not allowed here",
    "mapping keys are not allowed in this context": "mapping keys are not allowed here",
    "found unexpected document indicator": "found unexpected document separator",
}
# The parser's errors that name the token it found, which libyaml's do not:
# (libyaml's context, libyaml's problem) -> the Python parser's words.
_FOUND = {
    ("while parsing a block mapping", "did not find expected key"): "expected <block end>, but found %r",
    ("while parsing a block collection", "did not find expected '-' indicator"): "expected <block end>, but found %r",
    (None, "did not find expected <document start>"): "expected '<document start>', but found %r",
}
# compose()'s own errors on libyaml's events, in the words it gives the Python
# parser's (libyaml's composer says "found undefined alias", without the name).
_COMPOSED_WORDS = ("found undefined alias '", "found duplicate anchor '")
_HEX_ESCAPES = {"\\x": 2, "\\u": 4, "\\U": 8}
_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")
_ALIAS_NAME = lazy_regex.compile(r"\*([0-9A-Za-z_-]+)")
# Where a plain scalar ends, in a block collection: the colon of a key, or a comment.
_PLAIN_END = lazy_regex.compile(r": |:$| #")
_VALUE_NEXT = lazy_regex.compile(r" *:( |$)")  # a key's colon next on the line


def _in_python_words(e: yaml.MarkedYAMLError, text: str) -> bool:
    """Put libyaml's error ``e`` in the Python parser's words (its marks are on the
    Python parser's lines already); False when that cannot be told from ``e`` and
    the text."""
    problem = e.problem
    if problem is None:
        return False
    if problem in _SAME_WORDS or problem.startswith(_COMPOSED_WORDS):
        return True
    renamed = _RENAMED.get(problem)
    if renamed is not None:
        e.problem = renamed
        return True
    mark = e.problem_mark
    if mark is None:
        return False
    lines = text.split("\n")  # libyaml and the Python parser end lines only at \n here (see _PYTHON_ONLY)
    line = lines[mark.line] if mark.line < len(lines) else ""
    rest = line[mark.column :]
    if problem == "found character that cannot start any token" and rest:
        e.problem = f"found character {rest[0]!r} that cannot start any token"
        return True
    if problem == "found unknown escape character" and rest[:1] == "\\" and len(rest) > 1:
        # libyaml points at the backslash, the Python parser at the character after it.
        e.problem = f"found unknown escape character {rest[1]!r}"
        e.problem_mark = yaml.Mark(mark.name, mark.index + 1, mark.line, mark.column + 1, None, None)
        return True
    if problem == "did not find expected hexdecimal number" and mark.column >= 2 and line[mark.column - 2 : mark.column] in _HEX_ESCAPES:
        # (`"C:\Users"`.) Both point past the escape's letter; the Python parser names
        # how many digits it wants and the first character that is not one.
        wanted = _HEX_ESCAPES[line[mark.column - 2 : mark.column]]
        bad = next((ch for ch in rest[:wanted] if ch not in _HEX_DIGITS), None)
        if bad is None:
            return False  # the digits run to the end of the line
        e.problem = f"expected escape sequence of {wanted} hexadecimal numbers, but found {bad!r}"
        return True
    if problem == "found undefined alias":
        alias = _ALIAS_NAME.match(rest)
        if alias is None:
            return False
        e.problem = f"found undefined alias {alias.group(1)!r}"
        return True
    found = _FOUND.get((e.context, problem))
    if found is None:
        return False
    if any(before.startswith("%") for before in lines[: mark.line + 1]):
        return False  # after a directive the Python parser names another token
    # The collection the parser is in starts its indentation (the document: none).
    indent = e.context_mark.column if e.context_mark is not None else -1
    token = _token_id(line, mark.column, indent)
    if token is None:
        return False
    e.problem = found % token
    return True


def _token_id(line: str, column: int, indent: int) -> str | None:
    """The id the Python scanner gives the token at ``column`` of ``line``, in a
    block collection indented ``indent`` columns, where the parser expected the
    collection's end; None when that takes more than this line to tell (the
    caller then asks the Python parser)."""
    rest = line[column:]
    if not rest:
        return None  # the end of the text: block ends come first, at the same place
    first, blank_after = rest[0], rest[1:2] in ("", " ")
    if column == 0 and rest[:3] in ("---", "...") and rest[3:4] in ("", " "):
        return "<document start>" if first == "-" else "<document end>"
    before = line[:column]
    at_start = not before.strip(" ")
    if first in "-?:" and blank_after:
        # An indicator: one further in than the collection opens a new one.
        if not at_start:
            return None
        if column > indent:
            return "<block sequence start>" if first == "-" else "<block mapping start>"
        return first if column == indent else None
    if first in "%#[]{},@`":
        return None  # a directive, a comment, flow (never read by libyaml here), no token
    base = {"&": "<anchor>", "*": "<alias>", "!": "<tag>"}.get(first, "<scalar>")
    if not at_start:
        # After another token on the line no key can start here (the scanner
        # allows one only at a line's start or after `- `, `? `, `: `).
        last = before.rstrip(" ")[-1:]
        return None if last in ("-", "?", ":", "") or before.rstrip(" ").rpartition(" ")[2][:1] in ("&", "!") else base
    if first in "|>":
        return base  # a block scalar is never a key
    # At a line's start a key may start, and it does when a colon and a space follow
    # its first token on the line, outside quotes and before a comment: the tokens
    # between (`"q" r: x`) leave the key where it started.
    if first in "'\"":
        end = closing_quote(rest)
        if end is None:
            return None  # a quoted scalar over several lines
        after = rest[end + 1 :]
    elif first in "&*!":
        after = rest[1:]
    else:
        ended = _PLAIN_END.search(rest)  # a plain scalar runs to a key's colon or a comment
        after = rest[ended.start() :] if ended is not None else ""
    if _VALUE_NEXT.match(after):
        is_key = True
    elif ":" not in after or after.lstrip(" ")[:1] == "#":
        is_key = False
    else:
        return None  # a colon further on: a key or not, the line must be scanned
    if not is_key:
        return base
    if column > indent:
        return "<block mapping start>"
    return "?" if column == indent else None


def value_problem(e: Exception) -> str:
    """What is wrong with a value PyYAML cannot build (``e``: the ValueError or
    OverflowError it raised), in words that are the same on every Python: an escape
    past Unicode's last character is a ValueError from chr() whose words changed in
    Python 3.13, and an OverflowError before that for the largest."""
    text = str(e)
    if isinstance(e, OverflowError) or text.startswith("chr() arg"):
        return "an escape names no Unicode character (the last is \\U0010FFFF)"
    return text


def load_data(text: str) -> object:
    return load(text).data


# What only the Python parser reads right, but for flow collections (see _PYTHON_ONLY).
_PYTHON_ONLY_BUT_FLOW = lazy_regex.compile(r"[\t\r\x85\u2028\u2029\ufeff]|[|>][-+0-9]*#")


def valid_value(value: str) -> bool:
    """Whether ``value`` (one line, as it follows a key's colon) is, alone, a valid
    YAML value that PyYAML can build: as the Python parser says (see above), and
    without it where libyaml's answer is the same.

    A one-line flow collection is read by libyaml too, short of what the two read
    differently there (measured on 166,000 random one-line values): libyaml rejects
    ``[a:]`` and ``{b:}``, which the Python parser takes (so a rejection holds only
    without a colon), and takes ``[a?]`` and ``[!, b]``, which the Python parser
    rejects (so an acceptance holds only without `?` or `!`). Without this, an
    unclosed `[` sent each rejected frontmatter to the Python parser twice.
    """
    told = value_told(value)
    if told is not None:
        return told
    text = f"k: {value}\n"
    try:
        flow = _PYTHON_ONLY.search(text) is not None
        # (Flow only when short: libyaml's scanner takes time quadratic in the nesting.)
        if _LIBYAML and "\n" not in value and not _PYTHON_ONLY_BUT_FLOW.search(text) and (not flow or len(text) <= MAX_C_COMPOSED):
            try:
                _load(_CLoader(text), text)
            except TooComplex:
                pass
            except yaml.YAMLError:
                if not flow or ":" not in value:
                    return False
            else:
                if not flow or not any(c in value for c in "?!"):
                    return True
        load(text)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError):
        return False
    return True


class _Open:
    """A collection whose end event has not come yet."""

    __slots__ = ("node", "is_mapping", "anchor", "values_before", "characters_before", "deepest_child", "key", "path", "keys")

    def __init__(self, node: Node, anchor: str | None, values_before: int, characters_before: int, path: str) -> None:
        self.node = node
        self.is_mapping = isinstance(node, MappingNode)
        self.anchor = anchor
        self.values_before = values_before
        self.characters_before = characters_before
        self.deepest_child = 0  # levels below this one, aliases expanded
        self.key: Node | None = None  # a mapping's key awaiting its value
        self.path = path  # dotted keys from the top, for naming a repeated key
        self.keys: set[str] = set()  # a mapping's keys so far


def compose(loader: Loader) -> Composed:
    """What PyYAML's ``get_single_node`` composes, without recursion and within the
    bounds; how large it is; and the keys repeated in a mapping.

    Repeated keys are found here, where each node is met once whatever aliases
    refer to it, rather than by walking the tree afterwards.
    """
    get_event = loader.get_event
    resolve = loader.resolve
    get_event()  # stream start
    if loader.check_event(StreamEndEvent):
        get_event()
        return Composed(None, 0, 0, 0, ())
    get_event()  # document start
    anchors: dict[str, Node] = {}
    expanded: dict[str, tuple[int, int, int]] = {}  # anchor -> (values, levels, characters) once its node is complete
    stack: list[_Open] = []
    duplicates: list[tuple[str, int]] = []
    values = aliases = depth = characters = 0
    while True:
        event = get_event()
        kind = type(event)
        node: Node
        levels = 0  # collection levels of the node, itself included
        if kind is ScalarEvent:
            values += 1
            if values > MAX_VALUES:
                raise _too_many(event, aliases)
            characters += len(event.value)
            if characters > MAX_CHARACTERS:
                raise _too_long(event)
            tag = event.tag
            if tag is None or tag == "!":
                tag = resolve(ScalarNode, event.value, event.implicit)
            # (A plain scalar's style: None, as the Python parser gives it; libyaml gives "".)
            node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style or None)
            if event.anchor is not None:
                _anchor(anchors, event, node)
                expanded[event.anchor] = (1, 0, len(event.value))
        elif kind is SequenceStartEvent or kind is MappingStartEvent:
            values += 1
            if values > MAX_VALUES:
                raise _too_many(event, aliases)
            node_class = SequenceNode if kind is SequenceStartEvent else MappingNode
            tag = event.tag
            if tag is None or tag == "!":
                tag = resolve(node_class, None, event.implicit)
            node = node_class(tag, [], event.start_mark, None, flow_style=event.flow_style)
            if event.anchor is not None:
                _anchor(anchors, event, node)  # open: an alias to it from inside is recursive
            path = ""
            if stack:
                parent = stack[-1]
                path = parent.path
                if parent.key is not None:  # a mapping's value
                    path += f"{parent.key.value if isinstance(parent.key, ScalarNode) else ''}."
            stack.append(_Open(node, event.anchor, values - 1, characters, path))
            if len(stack) > depth:
                depth = len(stack)
                if depth > MAX_DEPTH:
                    raise _too_deep(event)
            continue
        elif kind is SequenceEndEvent or kind is MappingEndEvent:
            done = stack.pop()
            node = done.node
            node.end_mark = event.end_mark
            levels = done.deepest_child + 1
            if done.anchor is not None:
                expanded[done.anchor] = (values - done.values_before, levels, characters - done.characters_before)
        elif kind is AliasEvent:
            anchor = event.anchor
            if anchor not in anchors:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {anchor!r}", event.start_mark)
            if anchor not in expanded:
                raise TooComplex(
                    None, None, f"alias *{anchor} refers to a collection that contains it (a recursive alias)", event.start_mark
                )
            size, levels, length = expanded[anchor]
            aliases += 1
            values += size
            if values > MAX_VALUES:
                raise _too_many(event, aliases)
            characters += length
            if characters > MAX_CHARACTERS:
                raise _too_long(event)
            if len(stack) + levels > depth:
                depth = len(stack) + levels
                if depth > MAX_DEPTH:
                    raise _too_deep(event)
            node = anchors[anchor]
        else:  # the parser gives nothing else between document start and end
            raise yaml.composer.ComposerError(None, None, f"unexpected {kind.__name__}", event.start_mark)
        if not stack:
            break
        parent = stack[-1]
        if levels > parent.deepest_child:
            parent.deepest_child = levels
        if not parent.is_mapping:
            parent.node.value.append(node)
        elif parent.key is None:
            parent.key = node
            if isinstance(node, ScalarNode):
                if node.value in parent.keys:
                    duplicates.append((parent.path + node.value, node.start_mark.line))
                parent.keys.add(node.value)
        else:
            parent.node.value.append((parent.key, node))
            parent.key = None
    get_event()  # document end
    if not loader.check_event(StreamEndEvent):
        event = get_event()
        raise yaml.composer.ComposerError(
            "expected a single document in the stream", node.start_mark, "but found another document", event.start_mark
        )
    get_event()  # stream end
    return Composed(node, values, aliases, depth, tuple(duplicates), characters)


def _measure(root: Node) -> Composed:
    """What ``compose`` says of a tree without aliases (so every node is met once),
    walked without recursion in the order of its events."""
    duplicates: list[tuple[int, int, str]] = []  # (line, column, dotted key): sorted, the events' order
    values = depth = characters = 0
    pending: list[tuple[Node, str, int]] = [(root, "", 1)]  # (node, dotted path of its mapping, level)
    pop, push = pending.pop, pending.append
    while pending:
        node, path, level = pop()
        values += 1
        if node.__class__ is ScalarNode:
            characters += len(node.value)
            node.style = node.style or None  # as in compose()
            continue
        if level > depth:
            depth = level
            if depth > MAX_DEPTH:
                raise _too_deep(node)
        children = node.value
        if node.__class__ is SequenceNode:
            for item in reversed(children):
                push((item, path, level + 1))
            continue
        keys: set[str] = set()
        for key_node, _ in children:
            if key_node.__class__ is ScalarNode:
                if key_node.value in keys:
                    duplicates.append((key_node.start_mark.line, key_node.start_mark.column, path + key_node.value))
                keys.add(key_node.value)
        for key_node, value_node in reversed(children):
            push((value_node, f"{path}{key_node.value if key_node.__class__ is ScalarNode else ''}.", level + 1))
            push((key_node, path, level + 1))
    if values > MAX_VALUES:  # (a document this short cannot get near: see MAX_C_COMPOSED)
        raise _too_many(root, 0)
    return Composed(root, values, 0, depth, tuple((key, line) for line, _, key in sorted(duplicates)), characters)


def _anchor(anchors: dict[str, Node], event: NodeEvent, node: Node) -> None:
    first = anchors.get(event.anchor)
    if first is not None:
        raise yaml.composer.ComposerError(
            "while composing the document", first.start_mark, f"found duplicate anchor {event.anchor!r}", event.start_mark
        )
    anchors[event.anchor] = node


def _too_deep(at: Event | Node) -> TooComplex:
    """``at``: the event or node where the bound is crossed."""
    return TooComplex(None, None, f"nests collections more than {MAX_DEPTH} levels deep", at.start_mark)


def _too_long(at: Event | Node) -> TooComplex:
    return TooComplex(None, None, f"its aliases expand it to more than {MAX_CHARACTERS:,} characters (an alias bomb)", at.start_mark)


def _too_many(at: Event | Node, aliases: int) -> TooComplex:
    if aliases:
        return TooComplex(None, None, f"its aliases expand it to more than {MAX_VALUES:,} values (an alias bomb)", at.start_mark)
    return TooComplex(None, None, f"holds more than {MAX_VALUES:,} values", at.start_mark)
