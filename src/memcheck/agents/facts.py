"""The agent facts, read from one TOML file per agent (``resources/agents/*.toml``)
once per run and lazily: `memcheck --version` never reads them.

Each fact carries its provenance where it is stated: ``source`` (a URL or a
release), ``version`` (the agent release it describes, or "docs"), ``checked`` (the
date it was checked) and ``confirmed`` (false: memcheck never claims it). Top-level
tables this loader does not know (``[[kinds]]``: the frontmatter of each kind of file
an agent loads) are kept untouched in ``Agent.extra`` for the code that reads them.
"""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from typing import Mapping

from memcheck.records import NamedTuple

# How sure memcheck is that an agent reads a file.
NO, MAYBE, READS = 0, 1, 2
SURE = {"no": NO, "maybe": MAYBE, "reads": READS}


class FactsError(ValueError):
    """An agent data file that does not say what the loader needs."""


class Provenance(NamedTuple):
    source: str
    version: str
    checked: str
    confirmed: bool


class SkillKeys(NamedTuple):
    """What an agent reads of a skill file (``[skills.keys]``): the frontmatter keys it
    honours (``names``, or those of the Agent Skills specification with the keys of the
    kind ``kind`` names), and the skill file's name where it loads that name alone."""

    names: tuple[str, ...]
    kind: str  # a [[kinds]] entry whose keys the agent reads beyond the specification's
    file_name: str  # the exact name the agent loads a skill from ("": not known)
    provenance: Provenance
    name_from_folder: bool = False  # the agent names a skill without `name` after its folder


class Frontmatter(NamedTuple):
    """A kind's frontmatter: its keys, the key holding globs, and the forms that key
    may take ("list": a YAML list only; "either": a list or one comma-separated string)."""

    keys: tuple[str, ...]
    globs_key: str | None
    globs_form: str
    lenient: bool = False  # the reader takes `key: value` lines that strict YAML rejects
    closed: bool = False  # the agent documents its keys as the whole set: it reads no other
    always_key: str | None = None  # the key that applies the file everywhere, its globs aside (Cursor's alwaysApply)


class FileKind(NamedTuple):
    """A kind of guidance file, and how its path is recognised."""

    kind: str
    names: tuple[str, ...]  # exact file names; empty: any name with ``suffix``
    in_folder: str  # a folder path it sits below, at any depth ("" for none)
    parent_folder: str  # the name its own folder must have ("" for any)
    suffix: str
    owner: str  # the folder it speaks for: "folder", "grandparent" or "marker"
    named: bool  # found by its name in a folder (guidance.filenames lists it)
    folder_file: bool  # one of a folder's instructions, which can disagree with its siblings
    order: int  # reading order within a folder
    frontmatter: Frontmatter | None
    provenance: Provenance
    agent: str  # the agent whose file defines it


class ReadRule(NamedTuple):
    """One step of how an agent reads files of some kinds: the first rule whose
    conditions all hold decides."""

    kinds: frozenset[str]
    sure: int
    why: str  # why it does not or may not read it ({name}, {beside})
    loaded: str  # why it does, as `memcheck context` says
    over_size: bool
    beside: tuple[str, ...]
    at_or_above: frozenset[str]
    below_root: bool
    nested: bool
    folder_is: str
    anywhere: frozenset[str]
    root_has_all: frozenset[str]
    since: str  # the release from which the agent reads it (by default settings)
    listed: bool  # `memcheck context` lists the file even when not read, with why
    provenance: Provenance


class SettingFact(NamedTuple):
    """A settings file key that changes what an agent reads: it can only make a
    reading less sure."""

    file: str
    key: str
    needle: str
    when: frozenset[int]
    named_only: bool
    unless_beside: frozenset[str]
    project_only: bool
    fallbacks: bool  # the key lists file names the agent reads as fallbacks
    why: str
    provenance: Provenance


class Loads(NamedTuple):
    """Files an agent loads that memcheck lists but does not judge as guidance."""

    globs: tuple[str, ...]
    what: str
    provenance: Provenance


class Agent(NamedTuple):
    id: str
    title: str
    order: int
    provenance: Provenance  # version: the release the facts describe
    user_files: tuple[str, ...]
    user_files_note: str
    user_rules: str
    above_root: tuple[str, ...]
    above_root_why: str
    above_root_up_to_home: bool
    rules_kind: str
    context: str  # how `memcheck context` lists its files: "folders" or "copilot"
    skip_bytes: int | None
    follows_imports: int
    import_depth: int | None  # None: not documented
    imports_provenance: Provenance
    skill_roots: tuple[str, ...]
    skill_roots_complete: bool  # no other root: a skill elsewhere is one it cannot see
    skills_provenance: Provenance | None
    skill_keys: SkillKeys | None  # None: what it reads of a skill is not in the data
    reads: tuple[ReadRule, ...]
    settings: tuple[SettingFact, ...]
    loads: tuple[Loads, ...]
    files: tuple[FileKind, ...]
    numbers: Mapping[str, object]  # the [agent] table's other values
    memory: Mapping[str, object]
    extra: Mapping[str, object]  # top-level tables of other readers


_KNOWN_TOP = {"agent", "imports", "skills", "memory", "files", "reads", "settings", "loads"}
_AGENT_KEYS = {
    "id", "title", "version", "checked", "source", "confirmed", "order", "user_files", "user_files_note", "user_rules",
    "above_root", "above_root_why", "above_root_up_to_home", "rules_kind", "context", "skip_bytes",
}  # fmt: skip


def _provenance(table: Mapping[str, object], where: str, inherited: Provenance | None = None) -> Provenance:
    source = table.get("source", inherited.source if inherited else None)
    checked = table.get("checked", inherited.checked if inherited else None)
    version = table.get("version", inherited.version if inherited else "docs")
    confirmed = table.get("confirmed", True)
    if not isinstance(source, str) or not isinstance(checked, str) or not isinstance(version, str) or not isinstance(confirmed, bool):
        raise FactsError(
            f"{where}: every fact needs source, checked (strings) and, where given, version (a string) and confirmed (a boolean)"
        )
    return Provenance(source, version, checked, confirmed)


def _skill_keys(table: object, where: str) -> SkillKeys:
    if not isinstance(table, dict):
        raise FactsError(f"{where} must be a table")
    return SkillKeys(
        _strings(table, "names", where),
        _text(table, "kind", where),
        _text(table, "file_name", where),
        _provenance(table, where),
        _flag(table, "name_from_folder", where),
    )


def _strings(table: Mapping[str, object], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FactsError(f"{where}: {key} must be a list of strings")
    return tuple(value)


def _text(table: Mapping[str, object], key: str, where: str, default: str = "") -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise FactsError(f"{where}: {key} must be a string")
    return value


def _flag(table: Mapping[str, object], key: str, where: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise FactsError(f"{where}: {key} must be true or false")
    return value


def _tables(data: Mapping[str, object], key: str, where: str) -> list[Mapping[str, object]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise FactsError(f"{where}: [[{key}]] must be an array of tables")
    return value


def _file_kind(t: Mapping[str, object], where: str, agent: str) -> FileKind:
    fm = t.get("frontmatter")
    frontmatter = None
    if isinstance(fm, dict):
        globs_key = fm.get("globs_key")
        frontmatter = Frontmatter(
            _strings(fm, "keys", where),
            globs_key if isinstance(globs_key, str) else None,
            _text(fm, "globs_form", where, "list"),
            _flag(fm, "lenient", where),
            _flag(fm, "closed", where),
            always_key if isinstance(always_key := fm.get("always_key"), str) else None,
        )
    order = t.get("order", 99)
    return FileKind(
        _text(t, "kind", where), _strings(t, "names", where), _text(t, "in_folder", where), _text(t, "parent_folder", where), _text(t, "suffix", where),
        _text(t, "owner", where, "folder"), _flag(t, "named", where), _flag(t, "folder_file", where), order if isinstance(order, int) else 99,
        frontmatter, _provenance(t, where), agent,
    )  # fmt: skip


def _read_rule(t: Mapping[str, object], where: str, inherited: Provenance) -> ReadRule:
    sure = SURE.get(_text(t, "sure", where))
    if sure is None:
        raise FactsError(f"{where}: sure must be one of {', '.join(SURE)}")
    return ReadRule(
        frozenset(_strings(t, "kinds", where)), sure, _text(t, "why", where), _text(t, "loaded", where), _flag(t, "over_size", where),
        _strings(t, "beside", where), frozenset(_strings(t, "at_or_above", where)), _flag(t, "below_root", where), _flag(t, "nested", where),
        _text(t, "folder_is", where), frozenset(_strings(t, "anywhere", where)), frozenset(_strings(t, "root_has_all", where)),
        _text(t, "since", where), _flag(t, "list", where), _provenance(t, where, inherited),
    )  # fmt: skip


def _setting(t: Mapping[str, object], where: str, inherited: Provenance) -> SettingFact:
    when = frozenset(SURE[w] for w in _strings(t, "when", where) if w in SURE) or frozenset(SURE.values())
    key = _text(t, "key", where)
    return SettingFact(
        _text(t, "file", where), key, _text(t, "needle", where, key), when, _flag(t, "named_only", where), frozenset(_strings(t, "unless_beside", where)),
        _flag(t, "project_only", where), _flag(t, "fallbacks", where), _text(t, "why", where), _provenance(t, where, inherited),
    )  # fmt: skip


def parse(data: Mapping[str, object], where: str) -> Agent:
    """One agent's facts from its parsed TOML."""
    head = data.get("agent")
    if not isinstance(head, dict):
        raise FactsError(f"{where}: no [agent] table")
    agent_id = _text(head, "id", where)
    prov = _provenance(head, f"{where} [agent]")
    imports = data.get("imports", {})
    if not isinstance(imports, dict):
        raise FactsError(f"{where}: [imports] must be a table")
    follows = SURE.get(_text(imports, "follows", where, "no"))
    depth = imports.get("depth")
    skills = data.get("skills")
    memory = data.get("memory", {})
    skip = head.get("skip_bytes")
    return Agent(
        id=agent_id,
        title=_text(head, "title", where),
        order=order if isinstance(order := head.get("order"), int) else 99,
        provenance=prov,
        user_files=_strings(head, "user_files", where),
        user_files_note=_text(head, "user_files_note", where),
        user_rules=_text(head, "user_rules", where),
        above_root=_strings(head, "above_root", where),
        above_root_why=_text(head, "above_root_why", where),
        above_root_up_to_home=_flag(head, "above_root_up_to_home", where),
        rules_kind=_text(head, "rules_kind", where),
        context=_text(head, "context", where, "folders"),
        skip_bytes=skip if isinstance(skip, int) else None,
        follows_imports=NO if follows is None else follows,
        import_depth=depth if isinstance(depth, int) else None,
        imports_provenance=_provenance(imports, f"{where} [imports]", prov),
        skill_roots=_strings(skills, "roots", where) if isinstance(skills, dict) else (),
        skill_roots_complete=isinstance(skills, dict) and _flag(skills, "complete", where),
        skills_provenance=_provenance(skills, f"{where} [skills]", prov) if isinstance(skills, dict) else None,
        skill_keys=_skill_keys(skills.get("keys"), f"{where} [skills.keys]") if isinstance(skills, dict) and "keys" in skills else None,
        reads=tuple(_read_rule(t, f"{where} [[reads]] {i + 1}", prov) for i, t in enumerate(_tables(data, "reads", where))),
        settings=tuple(_setting(t, f"{where} [[settings]] {i + 1}", prov) for i, t in enumerate(_tables(data, "settings", where))),
        loads=tuple(
            Loads(_strings(t, "globs", where), _text(t, "what", where), _provenance(t, f"{where} [[loads]]", prov))
            for t in _tables(data, "loads", where)
        ),
        files=tuple(_file_kind(t, f"{where} [[files]] {i + 1}", agent_id) for i, t in enumerate(_tables(data, "files", where))),
        numbers={k: v for k, v in head.items() if k not in _AGENT_KEYS},
        memory=dict(memory) if isinstance(memory, dict) else {},
        extra={k: v for k, v in data.items() if k not in _KNOWN_TOP},
    )


# Read beside the package rather than through importlib.resources, whose import
# (tempfile, zipfile, shutil, ...) would cost a hook run more than parsing the data
# does; memcheck is installed as files, never run from a zip (as config.resource_json).
_RESOURCES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "resources")
# The TOML files as one JSON file, written by `python docs/generate.py` and held to
# them by a test: every command that asks who reads what loads the data, and tomllib
# took 20 to 37 ms to read the nine files where json takes a quarter of a millisecond.
COMPILED = os.path.join(_RESOURCES, "agents.json")


def read_toml() -> dict[str, object]:
    """Each data file's parsed TOML, by file name: what ``compiled_text`` writes."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

    folder = os.path.join(_RESOURCES, "agents")
    found: dict[str, object] = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".toml"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                found[name] = tomllib.loads(f.read())
    return found


def compiled_text() -> str:
    """The contents of ``COMPILED``, from the TOML files."""
    return json.dumps(read_toml(), ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


@cache
def load() -> tuple[Agent, ...]:
    """Every agent's facts, in the order the data gives them (``[agent] order``)."""
    try:
        with open(COMPILED, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):  # not generated (a checkout mid-edit): the TOML itself
        data = read_toml()
    if not isinstance(data, dict):
        raise FactsError(f"{COMPILED} holds no agent data: regenerate it with python docs/generate.py")
    found = [parse(facts, f"resources/agents/{name}") for name, facts in sorted(data.items()) if isinstance(facts, dict)]
    return tuple(sorted(found, key=lambda a: (a.order, a.id)))


@cache
def by_id() -> dict[str, Agent]:
    return {a.id: a for a in load()}


@cache
def file_kinds() -> tuple[FileKind, ...]:
    """Every kind of guidance file the data defines, each once."""
    seen: dict[str, FileKind] = {}
    for agent in load():
        for kind in agent.files:
            if kind.kind in seen:
                raise FactsError(f"the file kind {kind.kind!r} is defined by both {seen[kind.kind].agent} and {agent.id}")
            seen[kind.kind] = kind
    return tuple(seen.values())
