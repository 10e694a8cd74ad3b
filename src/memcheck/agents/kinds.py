"""The kinds of file agents load beyond guidance files (subagents, custom agents,
prompt files, Kiro steering, Cline rules, skills' own keys), and the frontmatter
schema of each, read from the ``[[kinds]]`` entries of
``resources/agents/<agent-id>.toml``: no agent fact is written here.

Each entry carries where it was read (``source``), the agent release it describes
(``version``), when it was checked and whether it is ``confirmed``. A kind or key
that is not confirmed is never claimed: its checks say nothing.

The data files also hold other tables (the agent itself, which files it reads and
how); this module reads ``kinds`` only and leaves the rest to their own reader.

``validate`` judges a file's parsed frontmatter against its kind and returns what
is wrong as plain values; the rule families (AGT, GDN, SKL) decide the code and the
words around it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Callable, Mapping, Sequence

from memcheck import lazy_regex
from memcheck.records import NamedTuple
from memcheck.text import patterns
from memcheck.text.frontmatter import near_key

ROLES = ("agent", "guidance", "skill")
TYPES = ("string", "boolean", "list", "string-or-list", "mapping", "integer", "number")
# A TOML table as tomllib gives it (values of any type): each is checked before it is kept.
_Table = Mapping[str, Any]


class KeySpec(NamedTuple):
    name: str
    type: str | None  # None: any value
    required: bool
    required_when: tuple[tuple[str, str], ...]  # (key, value): required when that key has that value
    missing_means: str  # what the agent does without it, for a message
    pattern: str | None
    pattern_says: str  # the pattern in words, for a message
    enum: tuple[str, ...]
    default: str  # the value the agent takes without the key: written out, the key is needless
    minimum: int | None
    max_length: int | None
    globs: bool  # the value is globs naming the files the kind applies to
    items: str | None  # "tools": each item is a tool the kind's agent knows; "skills": a skill's name
    source: str
    confirmed: bool
    deprecated: str  # what to write instead of this retired key ("" while it is current)
    ignored_by: str  # where the agent reads the kind but not this key ("GitHub.com"), if anywhere
    ignored_source: str
    ignored_target: str  # the kind's ``target`` value for where it is ignored: another target reads it
    removes_from: str | None  # the key whose items this one takes away (disallowedTools: tools)
    unsafe: tuple[str, ...]  # values that lift the agent's safeguards (bypassPermissions)
    folders: tuple[tuple[str, str], ...]  # (value, folder): where the agent keeps what this value makes it write


class Kind(NamedTuple):
    id: str
    agent: str  # the data file's name: claude-code, copilot, ...
    title: str
    agent_title: str  # the agent as messages name it
    role: str  # "agent", "guidance" or "skill": which rule family reports on it
    globs: tuple[str, ...]
    source: str
    version: str
    checked: str
    confirmed: bool
    unparsable: str  # "error" (the file does not load) or "warning"
    keys: Mapping[str, KeySpec]
    tools: tuple[str, ...]
    tool_patterns: tuple[str, ...]
    boolean_words: tuple[str, ...]
    boolean_words_version: str
    reserved_words: tuple[str, ...]
    reserved_source: str
    # The keys are all the agent reads (its documentation lists them as a closed set):
    # any other key does nothing. ``closed_source`` says where.
    closed: bool
    closed_source: str
    hook_events: tuple[str, ...]  # the events a ``hooks`` mapping may name (empty: not judged)
    hook_events_source: str
    max_body_chars: int | None  # the longest body (the agent's prompt) the agent takes
    max_body_source: str


class DataError(ValueError):
    """A data file that breaks the ``[[kinds]]`` format (a bug in memcheck's data)."""


@cache
def kinds() -> tuple[Kind, ...]:
    """Every kind of every agent's data file, in file and entry order; read once per
    process, when first asked (never at ``--version``)."""
    found = [kind for agent, data in _data_files().items() for kind in kinds_of(agent, data)]
    ids = [k.id for k in found]
    if len(ids) != len(set(ids)):
        raise DataError(f"kind ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return tuple(found)


def kinds_of(agent: str, data: _Table) -> list[Kind]:
    """The kinds of one agent's data (a parsed TOML file): its ``[[kinds]]`` only; the
    file's other tables (the agent, what it reads and how) are another reader's."""
    return [_kind(agent, entry, data.get("kinds", []), data.get("hooks", {})) for entry in data.get("kinds", [])]


@cache
def _data_files() -> dict[str, _Table]:
    """Each agent's data file, parsed, by agent id, sorted: the ``[[kinds]]`` the agent
    facts' loader (``agents.facts``) reads with the rest of the file and passes on
    untouched, so the files are read and parsed once."""
    from memcheck.agents import facts

    return {agent.id: dict(agent.extra) for agent in sorted(facts.load(), key=lambda a: a.id)}


def by_id(kind_id: str) -> Kind:
    return _by_id()[kind_id]


@cache
def _by_id() -> dict[str, Kind]:
    return {k.id: k for k in kinds()}


def _kind(agent: str, entry: _Table, siblings: list[_Table], hooks: _Table) -> Kind:
    where = f"{agent}.toml kind {entry.get('id')!r}"
    for required in ("id", "title", "role", "globs", "source", "version", "checked", "confirmed"):
        if required not in entry:
            raise DataError(f"{where}: no {required}")
    if entry["role"] not in ROLES:
        raise DataError(f"{where}: role {entry['role']!r} is not one of {ROLES}")
    confirmed = bool(entry["confirmed"])
    keys = {name: _key(where, name, spec, entry["source"], confirmed) for name, spec in entry.get("keys", {}).items()}
    tools_from = entry.get("tools_from")
    tools, tool_patterns = tuple(entry.get("tools", ())), tuple(entry.get("tool_patterns", ()))
    if tools_from is not None:
        # Another kind of the same agent names the tools: read it from there.
        other = next((e for e in siblings if e.get("id") == tools_from), None)
        if other is None:
            raise DataError(f"{where}: tools_from names no kind of {agent}: {tools_from!r}")
        tools, tool_patterns = tuple(other.get("tools", ())), tuple(other.get("tool_patterns", ()))
    return Kind(
        id=entry["id"],
        agent=agent,
        title=entry["title"],
        agent_title=str(entry.get("agent_title", agent)),
        role=entry["role"],
        globs=tuple(entry["globs"]),
        source=entry["source"],
        version=str(entry["version"]),
        checked=str(entry["checked"]),
        confirmed=confirmed,
        unparsable=entry.get("unparsable", "error"),
        keys=keys,
        tools=tools,
        tool_patterns=tool_patterns,
        boolean_words=tuple(str(w).lower() for w in entry.get("boolean_words", ())),
        boolean_words_version=str(entry.get("boolean_words_version", "")),
        reserved_words=tuple(entry.get("reserved_words", ())),
        reserved_source=str(entry.get("reserved_source", "")),
        closed=bool(entry.get("closed", False)),
        closed_source=str(entry.get("closed_source", entry["source"])),
        # `hook_events = "hooks"`: the events of the agent's own [hooks] table (one list
        # for its skills and its subagents).
        hook_events=tuple(hooks.get("events", ()) if entry.get("hook_events") == "hooks" else entry.get("hook_events", ())),
        hook_events_source=str(
            hooks.get("source", entry["source"])
            if entry.get("hook_events") == "hooks"
            else entry.get("hook_events_source", entry["source"])
        ),
        max_body_chars=entry.get("max_body_chars"),
        max_body_source=str(entry.get("max_body_source", entry["source"])),
    )


def _key(where: str, name: str, spec: _Table, source: str, confirmed: bool) -> KeySpec:
    kind_of_value = spec.get("type")
    if kind_of_value is not None and kind_of_value not in TYPES:
        raise DataError(f"{where}: key {name!r} has type {kind_of_value!r}, not one of {TYPES}")
    pattern = spec.get("pattern")
    if pattern is not None:
        re.compile(pattern)  # a bad pattern fails when the data is read, not on a file
    return KeySpec(
        name=name,
        type=kind_of_value,
        required=bool(spec.get("required", False)),
        required_when=tuple(sorted((str(k), str(v)) for k, v in spec.get("required_when", {}).items())),
        missing_means=str(spec.get("missing_means", "")),
        pattern=pattern,
        pattern_says=str(spec.get("pattern_says", "")),
        enum=tuple(spec.get("enum", ())),
        default=str(spec.get("default", "")),
        minimum=spec.get("minimum"),
        max_length=spec.get("max_length"),
        globs=bool(spec.get("globs", False)),
        items=spec.get("items"),
        source=str(spec.get("source", source)),
        confirmed=bool(spec.get("confirmed", confirmed)),
        deprecated=str(spec.get("deprecated", "")),
        ignored_by=str(spec.get("ignored_by", "")),
        ignored_source=str(spec.get("ignored_source", spec.get("source", source))),
        ignored_target=str(spec.get("ignored_target", "")),
        removes_from=spec.get("removes_from"),
        unsafe=tuple(spec.get("unsafe", ())),
        folders=tuple(sorted((str(k), str(v)) for k, v in spec.get("folders", {}).items())),
    )


# ---------------------------------------------------------------- which kind a path is


def kind_of_path(path: str, role: str | None = None) -> Kind | None:
    """The first kind whose globs name ``path`` (a repository-relative path), of
    ``role`` when given."""
    segments: frozenset[str] | None = None
    for kind in kinds():
        if (role is None or kind.role == role) and kind.globs:
            if segments is None:
                segments = frozenset(path.split("/"))
            if any(_may_name(g, segments) and names(g, path) for g in kind.globs):
                return kind
    return None


def _may_name(glob: str, segments: frozenset[str]) -> bool:
    """Whether a path of these ``segments`` holds every literal segment of one of the
    glob's alternatives, as any path it names does (a literal segment matches its own
    text alone): most paths hold none of them, and are told so without matching the
    glob (13 us a guidance file, for its five globs, on bench/'s M tree)."""
    return any(needed <= segments for needed in _literal_segments(glob))


@cache
def _literal_segments(glob: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(s for s in alt.segments if patterns.is_literal(s)) for alt in patterns.compile_glob(glob))


def names(glob: str, path: str) -> bool:
    """Whether a kind's glob names ``path``. A glob that starts with ``/`` names files
    from the repository's top only: ``patterns.match`` lets a glob of one part (the
    ``/.clinerules`` file) name a file of that name at any depth, as readers of
    guidance patterns may."""
    if "/" in path and top_only(glob):
        return False
    return patterns.match(glob, path)


def top_only(glob: str) -> bool:
    """A kind's glob of one part that starts with ``/`` (``/.clinerules``): it names a
    file at the repository's top only (see ``names``)."""
    return glob.startswith("/") and "/" not in glob.strip("/")


# ---------------------------------------------------------------- judging frontmatter


class Issue(NamedTuple):
    """One thing wrong with a frontmatter value."""

    key: str
    what: str  # "missing", "type", "value", "tool"
    message: str  # what is wrong and what to write, naming the value


def validate(kind: Kind, data: Mapping[str, object]) -> list[Issue]:
    """What is wrong in ``data`` (a file's parsed frontmatter) for ``kind``, in key
    order of the kind's schema. Only confirmed kinds and keys are judged."""
    if not kind.confirmed:
        return []
    found: list[Issue] = []
    for spec in kind.keys.values():
        if not spec.confirmed:
            continue
        if spec.name not in data or data[spec.name] is None:
            missing = _missing(spec, data)
            # A misspelling of the key is there: that is the one finding (its rule says rename it).
            if missing is not None and not any(near_key((spec.name,))(str(k)) for k in data if k != spec.name):
                found.append(Issue(spec.name, "missing", missing))
            continue
        found += _judge_value(kind, spec, data[spec.name])
    return found


def _missing(spec: KeySpec, data: Mapping[str, object]) -> str | None:
    why = f": {spec.missing_means}" if spec.missing_means else ""
    why += f"; add {spec.name} to the frontmatter"
    if spec.required:
        return f"no {spec.name}{why}"
    for key, value in spec.required_when:
        if str(data.get(key)) == value:
            return f"{key}: {value} needs {spec.name}, and there is none{why}"
    return None


def _judge_value(kind: Kind, spec: KeySpec, value: object) -> list[Issue]:
    name = spec.name
    if spec.type == "boolean":
        return _judge_boolean(kind, name, value)
    wrong = _wrong_type(spec.type, value)
    if wrong is not None:
        return [Issue(name, "type", f"{name} is {_a(value)}; write it as {wrong}")]
    issues: list[Issue] = []
    # A string key holds one value: `model: sonnet,opus` is one wrong value, not two right ones.
    texts = [value.strip()] if spec.type == "string" and isinstance(value, str) and value.strip() else _texts(value, spec.items)
    if spec.type == "string" and isinstance(value, str) and not value.strip() and (spec.enum or spec.pattern):
        return [Issue(name, "value", f"{name} is empty; {_allowed(spec)}")]
    for text in texts:
        if spec.default and text == spec.default:
            # `context: inline` is what a skill does without the key: written out, it
            # changes nothing, and the enum's other values would (`fork` moves the skill
            # into a subagent). Every such key judged on unseen repositories was judged
            # harmless noise; what the agent does with the value written out is not in a
            # primary source, so nothing is said of it.
            continue
        if spec.enum and text not in spec.enum:
            issues.append(Issue(name, "value", f"{name} {text!r} is not a value {kind.agent_title} knows; {_allowed(spec)}"))
        elif spec.pattern is not None and not re.fullmatch(spec.pattern, text):
            issues.append(Issue(name, "value", f"{name} {text!r} is not a value {kind.agent_title} knows; {_allowed(spec)}"))
        elif spec.max_length is not None and len(text) > spec.max_length:
            issues.append(Issue(name, "value", f"{name} is {len(text)} characters, over the {spec.max_length} allowed; shorten it"))
        elif spec.items == "tools" and not known_tool(kind, text):
            issues.append(Issue(name, "tool", _unknown_tool(kind, name, text)))
    if spec.minimum is not None and isinstance(value, int) and not isinstance(value, bool) and value < spec.minimum:
        issues.append(Issue(name, "value", f"{name} is {value}; it must be at least {spec.minimum}"))
    return issues


def _judge_boolean(kind: Kind, name: str, value: object) -> list[Issue]:
    if isinstance(value, bool):
        return []
    words = kind.boolean_words
    since = (
        f" (Claude Code {kind.boolean_words_version}+ reads {'/'.join(w for w in words if w not in ('true', 'false'))} as booleans)"
        if kind.boolean_words_version
        else ""
    )
    if isinstance(value, int) and str(value) in words:
        return []
    if isinstance(value, str) and value.strip().lower() in words:
        if value.strip().lower() in ("true", "false"):
            # The quotes make it text: a reader that keeps YAML's types sees a string.
            return [
                Issue(
                    name, "quoted", f"{name} is the quoted string {value!r}, not a boolean; write {name}: {value.strip().lower()}, unquoted"
                )
            ]
        return []
    meant = "true" if str(value).strip().lower() in ("true", "yes", "on", "1") else "false"
    return [Issue(name, "type", f"{name} is {_a(value)}, not a boolean; write {name}: {meant}{since}")]


def _wrong_type(expected: str | None, value: object) -> str | None:
    """What ``value`` should have been written as, or None when it is of the type."""
    ok = {
        None: True,
        "string": isinstance(value, str),
        "list": isinstance(value, list),
        "string-or-list": isinstance(value, (str, list)),
        "mapping": isinstance(value, dict),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
    }[expected]
    if ok:
        return None
    return {
        "string": "text",
        "list": "a list (one '- ' item per line)",
        "string-or-list": "a list or one comma-separated string",
        "mapping": "a mapping of keys to values",
        "integer": "a whole number",
        "number": "a number",
    }[expected or "string"]


def _texts(value: object, items: str | None = None) -> list[str]:
    """The strings a string-or-list value holds: a comma-separated string split, and
    for tools, split at spaces too (the Agent Skills specification writes
    ``allowed-tools`` space-separated), never inside a tool's brackets."""
    if isinstance(value, str):
        return split_tools(value) if items == "tools" else [t.strip() for t in patterns.split_list(value) if t.strip()]
    if isinstance(value, list):
        texts = [t.strip() for t in value if isinstance(t, str) and t.strip()]
        return [part for t in texts for part in split_tools(t)] if items == "tools" else texts
    return []


def tool_names(value: object) -> list[str]:
    """The tools a ``tools``-like value names (a list, or one string split at commas
    and spaces, never inside a tool's brackets)."""
    return _texts(value, "tools")


def split_tools(text: str) -> list[str]:
    """``Read, Grep Bash(git add:*, git status)`` -> Read, Grep, Bash(git add:*, git status)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth <= 0 and (ch == "," or ch.isspace()):
            parts.append("".join(current))
            current = []
            depth = 0
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def known_tool(kind: Kind, name: str) -> bool:
    """Whether ``name`` is a tool of the kind's agent, or in a form it accepts (an MCP
    tool, a tool with a rule in brackets: ``Bash(git:*)``). Without a tool list
    every name is taken."""
    if not kind.tools:
        return True
    if name in kind.tools:
        return True
    bracketed = re.match(r"^([A-Za-z]+)\(.*\)$", name)
    if bracketed is not None:
        return bracketed.group(1) in kind.tools
    return any(re.search(p, name) for p in kind.tool_patterns if "(" not in p)


def _unknown_tool(kind: Kind, key: str, tool: str) -> str:
    said = f"{key} names {tool!r}, which is no tool {kind.agent_title} has"
    # `read` or `Grepp` is one tool misspelt: name it, rather than a list to search.
    near = _near_tool(kind.tools)(tool.partition("(")[0])
    if near is not None:
        return f"{said}; did you mean {near!r}? tool names match exactly, case included"
    # No near miss: maybe a tool newer than the list, which no source says is complete
    # (Claude Code's `Workflow` tool came after its tools reference was read), so the
    # message says what the list lacks, not what the agent lacks.
    return (
        f"{key} names {tool!r}, which is none of the tools memcheck knows {kind.agent_title} to have "
        f"({_some(kind.tools)}, or mcp__server__tool); check its spelling and case (a tool newer than that list is not known here)"
    )


@cache
def _near_tool(tools: tuple[str, ...]) -> Callable[[str], str | None]:
    return near_key(tools)


def _allowed(spec: KeySpec) -> str:
    if spec.enum:
        return "use one of " + ", ".join(spec.enum)
    return f"use {spec.pattern_says}" if spec.pattern_says else "fix the value"


def _some(items: Sequence[str], shown: int = 6) -> str:
    more = f", ... ({len(items)} in all)" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def _a(value: object) -> str:
    """A value as a message names it: its kind and, when short, the value."""
    from memcheck.text.frontmatter import value_kind

    kind = value_kind(value)
    shown = repr(value)
    return f"the {kind} {shown}" if len(shown) <= 40 else f"a {kind}"


def reserved_word(kind: Kind, text: str) -> str | None:
    """The reserved word ``text`` contains (``claude`` in ``claude-helper``), if any."""
    lowered = text.lower()
    return next((w for w in kind.reserved_words if w in lowered), None)


_XML_TAG = lazy_regex.compile(r"</?[A-Za-z][\w.-]*(\s[^<>]*)?/?>")


def xml_tag(text: str) -> str | None:
    """The first XML tag in ``text`` (``<example>``), if any."""
    found = _XML_TAG.search(text)
    return found.group(0) if found else None
