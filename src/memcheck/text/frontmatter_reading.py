"""Frontmatter's lines read into a mapping with the line of each key, as PyYAML reads them.

Most frontmatter is a few plain `key: value` lines: those are read here without PyYAML
(and without importing it), giving exactly what PyYAML gives; anything else goes to
PyYAML (text/yamlload.py, within bounds). Frontmatter that strict YAML rejects is
read again the way the agents' own line parsers read it. ``text/document.py`` finds
the frontmatter's lines in a file; this module reads them.
"""

from __future__ import annotations

import datetime
import re
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from memcheck import lazy_regex
from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from yaml.resolver import Resolver

    from memcheck.text import yamlload


# A top-level `key: value` line as the agents' line parsers see it.
# (The key's last character is spelt out, rather than left to a lazy `[^:]*?`
# before `\s*`: that one tries the rest of a long line of spaces at every space.)
_KEY_LINE = lazy_regex.compile(r"^([^\s:#](?:[^:]*[^\s:])?)\s*:(?:\s+(.*)|)$")
_BLOCK_INDICATOR = lazy_regex.compile(r"^[|>][+-]?\d*(\s+#.*)?$")


class Frontmatter(NamedTuple):
    end_line: int  # line of the closing fence (the opening one is line 1)
    # The mapping: strict YAML, or the key: value reading when YAML failed. Any: the
    # checks read values of every shape, each narrowing what it reads (object would
    # be the true type; index/__init__.py's memory_of would need a narrowing first).
    data: dict[str, Any]
    key_lines: dict[str, int]  # line of each top-level key
    raw_values: dict[str, str]  # text after `key:` on the key's own line, stripped
    duplicates: tuple[tuple[str, int], ...] = ()  # (dotted key, line) of each repeated key
    yaml_error: str | None = None  # strict YAML's complaint, when it had one
    yaml_error_line: int = 0
    fallback: bool = False  # data came from the key: value reading
    plain_keys: frozenset[str] = frozenset()  # keys whose value is a one-line plain scalar
    too_complex: bool = False  # past memcheck's bounds on nesting and size (yaml_error says which): not read

    def display(self, key: str) -> str | None:
        """The value as the agents' index renderers print it.

        Their line parsers take the text after the colon verbatim, so a plain value
        keeps a `` #...`` tail that YAML would read as a comment; quoted and block
        values are what YAML makes of them.
        """
        if key not in self.data:
            return None
        value = self.data[key]
        if self.fallback or key in self.plain_keys or not isinstance(value, str):
            raw = self.raw_values.get(key)
            # An anchor, alias or tag (`&a ok`, `*a`, `!!str 5`) is YAML's, not text:
            # the value it makes is what the agents' YAML readers show.
            if raw is not None and not (raw[:1] in ("|", ">") and _BLOCK_INDICATOR.match(raw)) and (self.fallback or raw[:1] not in "&*!"):
                return raw
        if isinstance(value, str):
            return value
        return None if value is None else str(value)


def _raw_values(
    fm_lines: list[str] | tuple[str, ...], first_line: int
) -> tuple[dict[str, str], dict[str, int], tuple[tuple[str, int], ...]]:
    """The top-level `key: value` lines as the agents' line parsers read them: each
    key's value and first line, and (key, line) of each key repeated (which only a
    frontmatter YAML rejects needs: one pass over the lines gives both)."""
    values: dict[str, str] = {}
    key_lines: dict[str, int] = {}
    repeated: list[tuple[str, int]] = []
    for i, line in enumerate(fm_lines):
        m = _KEY_LINE.match(line)
        if m and not line.startswith((" ", "\t", "-")):
            key = m.group(1)
            if key in values:
                repeated.append((key, first_line + i))
            values[key] = (m.group(2) or "").strip()
            key_lines.setdefault(key, first_line + i)
    return values, key_lines, tuple(repeated)


def read_frontmatter(fm_lines: list[str] | tuple[str, ...], first_line: int, fm_text: str | None = None) -> Frontmatter:
    simple = _simple_frontmatter(fm_lines, first_line, fm_text)
    return simple if simple is not None else _yaml_frontmatter(fm_lines, first_line)


def _yaml_frontmatter(fm_lines: list[str] | tuple[str, ...], first_line: int) -> Frontmatter:
    from memcheck.text import yamltext

    end_line = first_line + len(fm_lines)
    last = first_line + max(len(fm_lines) - 1, 0)  # "end of stream" marks point past the text
    text = "\n".join(fm_lines)
    slip = yamltext.slip_problem(text)
    if slip is not None:
        # One of the usual slips: what load() would raise, told without raising it,
        # nor importing PyYAML.
        return _fallback(fm_lines, first_line, slip[0], min(first_line + slip[1], last))
    from memcheck.text import yamlload  # imports PyYAML

    yaml = _yaml()
    # One parse gives both the node tree (for duplicate keys and line numbers) and
    # the data, within bounds that no real frontmatter comes near (see yamlload).
    try:
        node, data, duplicates = yamlload.load(text)
    except (yamlload.TooComplex, RecursionError, MemoryError) as e:  # (the last two: not expected within the bounds)
        # Not read at all, not even as key: value lines: a file built to exhaust a
        # parser is one finding, never a partial reading.
        mark = getattr(e, "problem_mark", None)
        return Frontmatter(
            end_line=end_line,
            data={},
            key_lines={},
            raw_values={},
            yaml_error=getattr(e, "problem", None) or f"too large to read ({type(e).__name__})",
            yaml_error_line=min(first_line + mark.line, last) if mark is not None else first_line,
            too_complex=True,
        )
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        err_line = min(first_line + mark.line, last) if mark is not None else first_line
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        return _fallback(fm_lines, first_line, f"{problem}", err_line)
    except (ValueError, TypeError, OverflowError) as e:  # e.g. a timestamp out of range
        return _fallback(fm_lines, first_line, yamlload.value_problem(e), first_line)
    raw_values = _raw_values(fm_lines, first_line)[0]
    if node is None or data is None:  # empty frontmatter, or only comments
        return Frontmatter(end_line=end_line, data={}, key_lines={}, raw_values=raw_values)
    if not isinstance(data, dict):
        return Frontmatter(
            end_line=end_line,
            data={},
            key_lines={},
            raw_values={},
            yaml_error=f"frontmatter is a {type(data).__name__}, not a mapping of keys to values",
            yaml_error_line=first_line,
        )
    plain: set[str] = set()
    top_lines: dict[str, int] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value)
        top_lines.setdefault(key, first_line + key_node.start_mark.line)
        if (
            isinstance(value_node, yaml.ScalarNode)
            and not value_node.style  # plain: None from the Python parser, "" from the C one
            and value_node.start_mark.line == value_node.end_mark.line
        ):
            plain.add(key)
    return Frontmatter(
        end_line=end_line,
        data={str(k): v for k, v in data.items()},
        key_lines=top_lines,
        raw_values=raw_values,
        duplicates=tuple((key, first_line + line) for key, line in duplicates),
        plain_keys=frozenset(plain),
    )


# Most frontmatter is a few `key: value` lines, sometimes with one nested mapping
# (`metadata:` then `  type: project`). For those, a line reader gives exactly what
# PyYAML gives, at a fraction of the cost of building and walking a node tree; the
# scalars are still resolved and constructed by PyYAML's own resolver and constructor,
# so `created: 2025-01-10` is a date and `n: 0o17` an int, as before. Anything else
# (flow collections, block scalars, lists, anchors, tags, comments after values,
# escapes, tabs, unusual characters) returns None and goes through PyYAML.
# tests/unit/test_document.py checks the two readings agree, on the corpus and on
# generated frontmatter.
# One line of simple frontmatter (matched whole): a key, at the margin or indented
# under a parent, with a one-line value; a comment at the margin; a blank line.
# (The value starts with a non-space and is greedy up to its last non-space: a lazy
# one would try the trailing spaces at every character, and one that may start with
# a space tries every split of a long run of them.)
_SIMPLE_ITEM = lazy_regex.compile(r"( *)([A-Za-z_][A-Za-z0-9_-]*):(?: +([^ ](?:.*[^ ])?))? *|#.*| *")
# Characters YAML treats specially or rejects: control characters, C1 controls, the
# Unicode line and paragraph separators, BOMs and non-characters.
_NOT_SIMPLE = lazy_regex.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
# A plain scalar may not start with an indicator.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_NO_VALUE = object()
# PyYAML's implicit resolvers look only at a plain scalar's first character: these
# (yaml.resolver.Resolver.yaml_implicit_resolvers; tests/unit/test_document.py checks this
# copy against it). A plain scalar starting with anything else is a string, and so is
# one starting with these letters, which only the bool and null resolvers look at,
# unless it is one of their words: most values are read without importing PyYAML.
_RESOLVED_FIRST = frozenset("yYnNtTfFoO-+0123456789.<~=")
_WORD_FIRST = frozenset("yYnNtTfFoO")
_BOOL_AND_NULL_WORDS = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF null Null NULL".split())
_SPECIAL_START = _INDICATORS | _RESOLVED_FIRST | {" "}
# A date alone, which PyYAML makes a datetime.date (and anything else that starts with
# a digit goes to its resolver).
_DATE = lazy_regex.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


def _simple_frontmatter(fm_lines: list[str] | tuple[str, ...], first_line: int, fm_text: str | None = None) -> Frontmatter | None:
    """``fm_text`` is ``fm_lines`` joined, when the caller has it already."""
    if fm_text is None:
        fm_text = "\n".join(fm_lines)
    if _NOT_SIMPLE.search(fm_text):
        return None
    flat = _flat_frontmatter(fm_lines, first_line, fm_text)
    if flat is not None:
        return flat or None
    special_start = _SPECIAL_START
    data: dict[str, object] = {}
    raw_values: dict[str, str] = {}
    key_lines: dict[str, int] = {}
    # (key, line) of each plain one-line value: a key counts as plain when any of its
    # occurrences is, as in the node tree; one whose children follow is not.
    plain: set[tuple[str, int]] = set()
    duplicates: list[tuple[str, int]] = []
    parent: str | None = None  # a key with no value on its line: its children may follow
    parent_line = 0
    child_indent = ""
    children: dict[str, object] | None = None  # the parent's mapping, made at its first child
    items: list[object] | None = None  # the parent's list, made at its first `- item` line
    line_no = first_line - 1
    for line in fm_lines:
        line_no += 1
        m = _SIMPLE_ITEM.fullmatch(line)
        if m is None:
            # `- item` lines under a key with no value: Claude Code's `paths:` list.
            listed = _LIST_ITEM.fullmatch(line)
            if listed is None or parent is None or children is not None or (items is not None and listed.group(1) != child_indent):
                return None
            value = _string_item(listed.group(2))
            if value is _NO_VALUE:
                return None
            if items is None:
                child_indent, items = listed.group(1), []
                data[parent] = items
                plain.discard((parent, parent_line))
            items.append(value)
            continue
        indent, key, raw = m.groups()
        if key is None:
            continue  # a comment or a blank line
        string_key = _string_keys.get(key)
        if string_key is None:
            # A key starts with a letter or `_`: only the bool and null words are not strings.
            string_key = _string_keys[key] = key not in _BOOL_AND_NULL_WORDS
        if not string_key:
            return None  # `yes:`, `null:` and `on:` are not string keys
        if raw and raw[0] not in special_start and raw[-1] != ":" and ": " not in raw and " #" not in raw:
            value, is_plain = raw, True  # the usual value: plain text that reads as a string
        else:
            value, is_plain = _simple_scalar(raw or "")
            if value is _NO_VALUE:
                return None
        if indent:
            if parent is None or items is not None or (child_indent and indent != child_indent):
                return None
            child_indent = indent
            if children is None:
                children = data[parent] = {}
            elif key in children:
                duplicates.append((f"{parent}.{key}", line_no))
            children[key] = value
            plain.discard((parent, parent_line))
            continue
        if key in key_lines:
            duplicates.append((key, line_no))
        else:
            key_lines[key] = line_no
        data[key] = value
        raw_values[key] = (raw or "").strip()  # as the agents' line parsers read it: Unicode spaces too
        if is_plain:
            plain.add((key, line_no))
        parent, parent_line, child_indent, children, items = (None if raw else key), line_no, "", None, None
    if not data:
        return None  # empty, or only comments: PyYAML's reading has its own shape
    return Frontmatter(
        end_line=first_line + len(fm_lines),
        data=data,
        key_lines=key_lines,
        raw_values=raw_values,
        duplicates=tuple(duplicates),
        plain_keys=frozenset(key for key, _ in plain),
    )


# A `key: value` line at the margin whose value is one line of plain text: the most
# frontmatter is nothing else (a memory's name, description and type).
_FLAT_LINE = lazy_regex.compile(r"^([A-Za-z_][A-Za-z0-9_-]*): +([^ \n](?:[^\n]*[^ \n])?) *$", re.MULTILINE)


def _flat_frontmatter(fm_lines: list[str] | tuple[str, ...], first_line: int, fm_text: str) -> Frontmatter | Literal[False] | None:
    """``_simple_frontmatter``'s reading of frontmatter whose every line is a distinct
    key at the margin with a plain string value, found by one regex over the whole
    text rather than line by line (a third of the time on bench/'s memories); None
    for anything else, which the line-by-line reading takes; False where that
    reading is sure to give up too, at a value of one of these lines."""
    pairs = _FLAT_LINE.findall(fm_text)
    if not pairs or len(pairs) != len(fm_lines):
        return None
    data: dict[str, object] = dict(pairs)
    if len(data) != len(pairs):
        return None  # a key twice: the line-by-line reading reports it
    not_plain: list[str] = []
    for key, raw in pairs:
        first = raw[0]
        if (
            (first in _SPECIAL_START and (first not in _WORD_FIRST or raw in _BOOL_AND_NULL_WORDS))
            or raw[-1] == ":"
            or ": " in raw
            or " #" in raw
            or key in _BOOL_AND_NULL_WORDS
        ):
            if key in _BOOL_AND_NULL_WORDS:
                return False
            # A value the line-by-line reading would read the same way (a quoted
            # description, a date: a third of bench/'s memories), read here as it
            # reads it, rather than the whole frontmatter read again line by line;
            # where it gives up (most slips YAML rejects, a colon in a value or a quote
            # left open), so does this reading.
            value, is_plain = _simple_scalar(raw)
            if value is _NO_VALUE:
                return False
            data[key] = value
            if not is_plain:
                not_plain.append(key)
    return Frontmatter(
        end_line=first_line + len(fm_lines),
        data=data,
        key_lines={key: first_line + i for i, (key, _) in enumerate(pairs)},
        raw_values={key: raw.strip() for key, raw in pairs},
        plain_keys=frozenset(data).difference(not_plain) if not_plain else frozenset(data),
    )


def _simple_scalar(raw: str) -> tuple[object, bool]:
    """(value, is plain) of a one-line value as PyYAML reads it, or (_NO_VALUE, False)
    when it needs the full parser."""
    if not raw:
        return None, True
    first, last = raw[0], raw[-1]
    if first in "\"'":
        return _quoted(raw), False
    if first == "[" and last == "]":
        return _flow_strings(raw[1:-1]), False
    if first in _INDICATORS or last == ":" or ": " in raw or " #" in raw:
        return _NO_VALUE, False
    if first in _WORD_FIRST and raw not in _BOOL_AND_NULL_WORDS:
        return raw, True
    date = _DATE.fullmatch(raw)
    if date is not None:
        try:
            return datetime.date(*map(int, date.groups())), True
        except ValueError:  # 2025-02-30: PyYAML's own path reports it
            return _NO_VALUE, False
    tag = _resolve(raw)
    if tag == _STR_TAG:
        return raw, True
    try:
        constructor = _constructor()  # called directly: construct_object() keeps every node it saw
        return constructor.yaml_constructors[tag](constructor, _yaml().ScalarNode(tag, raw)), True
    except Exception:  # a date out of range, an unknown tag: PyYAML's own path reports it
        return _NO_VALUE, False


# An item of a one-line list (`globs: ['src/**', 'lib/*.js']`, the usual globs of
# Cursor and Claude Code rules) that cannot be anything but a string: quoted without
# escapes, or plain words that no resolver reads as another type. Anything else in
# the list (nesting, anchors, numbers, dates, colons, comments, an empty item) sends
# the whole frontmatter to PyYAML. On bench/'s M-frontmatter tree, a tenth of the
# guidance files' reading went to PyYAML for these lists alone.
# (`?` too: PyYAML's Python scanner ends a plain item of a one-line list there and
# fails, where libyaml reads it as text; yamlload gives such a list to the former.)
_NOT_IN_PLAIN_ITEM = lazy_regex.compile(r"[\[\]{}:#'\"?]")
# A `- item` line of a block list, with its indentation (the list may sit at the margin).
_LIST_ITEM = lazy_regex.compile(r"( *)- +([^ ](?:.*[^ ])?) *")


def _quoted(text: str) -> object:
    """A quoted scalar as PyYAML reads it, or _NO_VALUE for escapes, doubled quotes
    and text after the closing quote (PyYAML's own path)."""
    inner = text[1:-1]
    if len(text) < 2 or text[-1] != text[0] or text[0] in inner or "\\" in inner:
        return _NO_VALUE
    return inner


def _flow_strings(inner: str) -> object:
    """The strings of a one-line flow sequence's ``inner`` text, or _NO_VALUE."""
    if not inner.strip(" "):
        return []
    items = []
    for item in inner.split(","):
        value = _string_item(item.strip(" "))
        if value is _NO_VALUE:
            return _NO_VALUE
        items.append(value)
    return items


def _string_item(item: str) -> object:
    """A list item (its spaces stripped) as the string PyYAML reads, or _NO_VALUE when
    it may be anything else, or is empty (`[a,,b]`, `[a, ]`: PyYAML's own path)."""
    if not item:
        return _NO_VALUE
    first = item[0]
    if first in "\"'":
        return _quoted(item)
    if first in _SPECIAL_START and (first not in _WORD_FIRST or item in _BOOL_AND_NULL_WORDS):
        return _NO_VALUE  # an indicator, or what a resolver may read as a number, date, bool or null
    if _NOT_IN_PLAIN_ITEM.search(item):
        return _NO_VALUE
    return item


_STR_TAG = "tag:yaml.org,2002:str"
_string_keys: dict[str, bool] = {}  # key -> PyYAML reads it as a string


def load_yaml() -> None:
    """Import PyYAML now, rather than when the first frontmatter needs it."""
    from memcheck.text import yamlload  # noqa: F401 - imports PyYAML


@cache
def _yaml() -> ModuleType:
    import importlib

    # (A module, as mypy sees it: PyYAML has no type stubs here, so `import yaml` is Any.)
    return importlib.import_module("yaml")


@cache
def _constructor() -> yamlload.Loader:
    from memcheck.text import yamlload  # imports PyYAML

    return yamlload.Loader("")  # its constructors: PyYAML's safe ones, numbers bounded


@lru_cache(maxsize=4096)
def _resolve(value: str) -> str:
    yaml = _yaml()
    return str(_resolver().resolve(yaml.ScalarNode, value, (True, False)))


@cache
def _resolver() -> Resolver:
    return _yaml().resolver.Resolver()


def _fallback(fm_lines: list[str] | tuple[str, ...], first_line: int, problem: str, err_line: int) -> Frontmatter:
    """Read frontmatter that strict YAML rejects the way agents' line parsers do.

    Top-level ``key: value`` lines give the keys; indented ``key: value`` lines under
    an empty value (``metadata:`` then ``  type: project``) give a nested mapping, so
    ``metadata.type`` still counts. ``fallback`` is False when the text does not read
    as such lines either: then it is simply unparsable.

    The raw values, their lines and the keys repeated (what ``_raw_values`` gives) come
    of the same pass: each top-level line is matched once, not once for each (reading
    bench/'s M-broken tree, 400 of whose 800 memories YAML rejects, takes 6% less).
    """
    values: dict[str, str] = {}
    key_lines: dict[str, int] = {}
    repeated: list[tuple[str, int]] = []
    data: dict[str, object] = {}
    parent: str | None = None
    readable = True
    match = _KEY_LINE.match
    # (A line's first character tells most of what follows, without stripping the
    # line: a third less time a rejected frontmatter on bench/'s M-broken tree.)
    for i, line in enumerate(fm_lines, first_line):
        if not line:
            continue
        first = line[0]
        if first == "#":
            continue
        if first.isspace():
            # An empty line, a comment or one that starts with other whitespace is no
            # `key: value` line to _raw_values either: _KEY_LINE starts with neither.
            stripped = line.strip()
            if not stripped or stripped[0] == "#":
                continue
            if first in " \t":
                m = match(stripped)
                if parent is not None and m:
                    if data.get(parent) in ("", None):
                        data[parent] = {}
                    nested = data[parent]
                    if isinstance(nested, dict):
                        nested[m.group(1)] = (m.group(2) or "").strip()
                continue  # continuation of a multi-line value
        m = match(line)
        if not m:
            if first != "-":
                readable = False
            continue
        key, value = m.group(1), (m.group(2) or "").strip()
        if first != "-":  # as _raw_values reads them
            if key in values:
                repeated.append((key, i))
            values[key] = value
            key_lines.setdefault(key, i)
        data[key] = value
        parent = None if value else key
    return Frontmatter(
        end_line=first_line + len(fm_lines),
        data=data if readable else {},
        key_lines=key_lines if readable else {},
        raw_values=values,
        duplicates=tuple(repeated),
        yaml_error=problem,
        yaml_error_line=err_line,
        fallback=readable and bool(data),
    )
