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
misspelt word in a message. libyaml, six times faster, reads only a text where the
two agree: one without flow collections (`[`, `{`) or the characters and block
headers they read differently (``_PYTHON_ONLY``), and only when it finds the text
valid. An error there, or any other text, goes to the Python parser, whose message
and line are what memcheck reports. (No disagreement among 64,000 random snippets
that libyaml found valid once those are set aside; tests/unit/test_yamlload.py compares
the two on generated documents.)
"""
from __future__ import annotations

import re
from typing import Any, Callable, NamedTuple

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
_PYTHON_ONLY = re.compile(r"[\[{\t\r\x85\u2028\u2029\ufeff]|[|>][-+0-9]*#")

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
    range, and the like).
    """
    if _LIBYAML and not _PYTHON_ONLY.search(text):
        try:
            return _load(_CLoader(text), text)
        except yaml.YAMLError:
            pass  # the Python parser says what is wrong, and where (see above)
    return _load(Loader(text), text)


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
                raise TooComplex(None, None, f"alias *{anchor} refers to a collection that contains it (a recursive alias)", event.start_mark)
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
        raise yaml.composer.ComposerError("while composing the document", first.start_mark, f"found duplicate anchor {event.anchor!r}", event.start_mark)
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
