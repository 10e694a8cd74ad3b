"""Who reads which guidance file, worked out from the agent facts alone
(``facts.load()``): the kind of a path, the folder it speaks for, and for each agent
how sure it is that the agent reads it and why not. No agent fact is written here;
the names below are the data's kind ids, for the code that treats a kind apart.

The model judges each agent with its default settings. A repository that changes
them in its own settings files (each agent's ``[[settings]]``) turns that agent's
answers into MAYBE. Where a fact is unconfirmed, the answer is MAYBE and no finding
names the agent for it.
"""

from __future__ import annotations

from functools import cache
from typing import Callable, Iterable, Mapping

from memcheck import choices
from memcheck.agents.facts import MAYBE, NO, READS, Agent, FileKind, Frontmatter, Provenance, ReadRule, SettingFact, by_id, file_kinds, load
from memcheck.paths import basename, parent, split
from memcheck.records import NamedTuple

ALL = choices.AGENTS  # listed there, where the CLI reads them without importing the data
CLAUDE_CODE, CODEX, AMP, CURSOR, COPILOT, GEMINI = ALL[:6]

# The kind ids of the data (resources/agents/*.toml) that code treats apart.
K_AGENTS = "AGENTS.md"
K_AGENTS_CASE = "AGENTS.md case variant"
K_AGENT = "AGENT.md"
K_OVERRIDE = "AGENTS.override.md"
K_CLAUDE = "CLAUDE.md"
K_CLAUDE_DOT = ".claude/CLAUDE.md"
K_CLAUDE_LOCAL = "CLAUDE.local.md"
K_CLAUDE_RULE = "Claude Code rule"
K_GEMINI = "GEMINI.md"
K_COPILOT = "Copilot repository instructions"
K_COPILOT_PATH = "Copilot path instructions"
K_CURSOR_RULE = "Cursor rule"
# A name set in the config's guidance.filenames that no agent's data names: memcheck's own.
K_CUSTOM = "configured guidance name"


def agent(agent_id: str) -> Agent:
    return by_id()[agent_id]


def title(agent_id: str) -> str:
    return agent(agent_id).title


class _Kinds(NamedTuple):
    in_folder: tuple[FileKind, ...]
    by_parent: tuple[FileKind, ...]
    by_name: dict[str, FileKind]
    folder_kinds: frozenset[str]
    named_kinds: frozenset[str]
    order: dict[str, int]


@cache
def _kinds() -> _Kinds:
    kinds = sorted(file_kinds(), key=lambda k: k.order)
    return _Kinds(
        tuple(k for k in kinds if k.in_folder),
        tuple(k for k in kinds if k.parent_folder),
        {n: k for k in kinds if not k.in_folder and not k.parent_folder for n in k.names},
        frozenset(k.kind for k in kinds if k.folder_file) | {K_CUSTOM},
        frozenset(k.kind for k in kinds if k.named) | {K_CUSTOM},
        {**{k.kind: k.order for k in kinds}, K_CUSTOM: 9},
    )


def folder_kinds() -> frozenset[str]:
    """The kinds a folder holds as its instructions: the ones that can disagree."""
    return _kinds().folder_kinds


def named_kinds() -> frozenset[str]:
    """The kinds found by their name in a folder: an agent whose settings add names may read any."""
    return _kinds().named_kinds


def reading_order(kind: str) -> int:
    return _kinds().order.get(kind, 99)


@cache
def _kind_by_id() -> dict[str, FileKind]:
    return {k.kind: k for k in file_kinds()}


def file_kind(kind: str) -> FileKind | None:
    return _kind_by_id().get(kind)


def kind_of(path: str, filenames: Iterable[str]) -> str | None:
    """The guidance kind of a repository path, or None for a file no agent reads as
    guidance. ``filenames`` is the config's `guidance.filenames`."""
    folder, name = split(path)
    if not (name.endswith(".md") or name.endswith(".mdc")):
        return None
    inside = f"/{folder}/"
    kinds = _kinds()
    for k in kinds.in_folder:
        if f"/{k.in_folder}/" in inside:
            if name.endswith(k.suffix):
                return k.kind
            if k.suffix == ".mdc":
                # A plain .md file among Cursor's rules: no primary source says whether
                # Cursor reads it, so it is no one's guidance and nothing is said of it.
                return None
    for k in kinds.by_parent:
        if name in k.names and basename(folder) == k.parent_folder and (not k.named or name in filenames):
            return k.kind
    if name not in filenames:
        return None
    found = kinds.by_name.get(name)
    return found.kind if found is not None else K_CUSTOM


def named_lower() -> frozenset[str]:
    """The names of the guidance files found by name (``AGENTS.md``, ``CLAUDE.md``,
    ``copilot-instructions.md``), lowercased: a name that is one of these in another
    case may be a case variant (``case_variant_of``)."""
    return _named_lower()


@cache
def _named_lower() -> frozenset[str]:
    kinds = _kinds()
    return frozenset(n.lower() for n in (*kinds.by_name, *(n for k in kinds.by_parent for n in k.names)))


def case_variant_of(path: str, filenames: Iterable[str]) -> str | None:
    """The path of the guidance file ``path`` differs from in the case of its name
    alone (``claude.md``: ``CLAUDE.md``); None for any other path. A case-insensitive
    file system (the default on macOS and Windows) opens the one for the other."""
    folder, name = split(path)
    lower = name.lower()
    names = {n for n in filenames if n.lower() == lower} | (
        {n for k in _kinds().by_parent for n in k.names if n.lower() == lower} if lower in _named_lower() else set()
    )
    for canonical in sorted(names):
        if canonical != name:
            other = f"{folder}/{canonical}" if folder else canonical
            if kind_of(other, filenames) is not None:
                return other
    return None


def owner_of(path: str, kind: str) -> str:
    """The folder a guidance file speaks for: its own, or for a file inside a
    `.claude`, `.github` or `.cursor` folder, the folder holding that one."""
    folder = parent(path)
    k = file_kind(kind)
    if k is None or k.owner == "folder":
        return folder
    if k.owner == "grandparent":
        return parent(folder)
    at = f"/{folder}/".find(f"/{k.in_folder}/")
    return folder[: max(at - 1, 0)]


def titles(agents: Iterable[str]) -> str:
    """'Codex', 'Codex and Amp', 'Codex, Amp and Cursor'."""
    wanted = set(agents)
    names = [title(a) for a in ALL if a in wanted]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "no agent"


def approx_tokens(size: int) -> int:
    """Roughly four bytes per token for English Markdown (the usual rule of thumb)."""
    return (size + 3) // 4


# ------------------------------------------------------------------ settings


class Setting(NamedTuple):
    """A settings file that changes what an agent reads (see ``find_settings``)."""

    agent: str
    key: str  # as the agent's docs name it
    file: str  # as shown: `.gemini/settings.json`, `~/.gemini/settings.json`


class Facts(NamedTuple):
    """What about the whole tree changes who reads a file."""

    kinds_anywhere: frozenset[str]  # the kinds of guidance file the tree holds
    root_kinds: frozenset[str]  # the kinds at the root
    settings: tuple[Setting, ...]  # the repository's own settings that change an agent's reading

    def settings_of(self, agent_id: str) -> tuple[Setting, ...]:
        return tuple(s for s in self.settings if s.agent == agent_id)


def setting_fact(setting: Setting) -> SettingFact | None:
    return next((s for s in agent(setting.agent).settings if s.key == setting.key), None)


def find_settings(text_of: Callable[[str], str], shown: Callable[[str], str], user: bool = False) -> tuple[Setting, ...]:
    """The settings files that ``text_of(file)`` shows naming a key that changes an
    agent's reading (with ``user``, the user's own: a repository's local file is not)."""
    found = []
    for a in load():
        for s in a.settings:
            if not (user and s.project_only) and s.needle in text_of(s.file):
                found.append(Setting(a.id, s.key, shown(s.file)))
    return tuple(found)


def with_settings(
    agent_id: str, kind: str, state: int, why: str, siblings: Mapping[str, str], settings: Iterable[Setting]
) -> tuple[int, str]:
    """A file's reading once settings files that change ``agent_id``'s are taken into
    account: each can only make a claim less sure, never surer."""
    for setting in settings:
        if setting.agent != agent_id:
            continue
        fact = setting_fact(setting)
        if fact is None or state not in fact.when:
            continue
        if fact.named_only and kind not in named_kinds():
            continue
        if fact.unless_beside & ({kind} | set(siblings)):
            continue
        return MAYBE, fact.why.format(said=f"{setting.file} sets {setting.key}")
    return state, why


# ------------------------------------------------------------------ direct reading


class Verdict(NamedTuple):
    """How sure it is that an agent reads a file, and why not (or on what condition)."""

    sure: int
    why: str
    since: str = ""  # read from this release on (default settings); checks treat it as MAYBE
    listed: bool = False  # `memcheck context` lists it even when not read
    loaded: str = ""  # why it is read, as `memcheck context` says
    source: Provenance | None = None  # where the deciding fact comes from


# The verdict on most (agent, file) pairs, one shared value: a model of who reads what
# holds a verdict per pair (on bench/'s M tree 3,500 of them this one, 0.3 MiB).
_NOT_READ = Verdict(NO, "")


def _matches(
    rule: ReadRule, kind: str, path: str, owner: str, siblings: Mapping[str, str], facts: Facts, over_size: bool, above: frozenset[str]
) -> str | None:
    """None when ``rule`` does not apply; else the sibling that decided ("" for none)."""
    if kind not in rule.kinds or (rule.over_size and not over_size):
        return None
    if rule.below_root and owner == "":
        return None
    if rule.nested:
        k = file_kind(kind)
        if k is None or parent(path) == k.in_folder or parent(path).endswith("/" + k.in_folder):
            return None
    if rule.folder_is and basename(parent(path)) != rule.folder_is:
        return None
    if rule.at_or_above and not rule.at_or_above & above:
        return None
    if rule.anywhere and not rule.anywhere & facts.kinds_anywhere:
        return None
    if rule.root_has_all and not rule.root_has_all <= facts.root_kinds:
        return None
    if rule.beside:
        return next((siblings[k] for k in rule.beside if k in siblings), None)
    return ""


def judge(
    agent_id: str,
    kind: str,
    path: str,
    siblings: Mapping[str, str],
    facts: Facts,
    over_size: bool = False,
    above: frozenset[str] = frozenset(),
) -> Verdict:
    """How ``agent_id`` reads ``path`` of ``kind`` by its own data, before settings.

    ``siblings`` maps the kinds of the other guidance files speaking for the same
    folder to a file name of that kind; ``above`` holds the kinds of guidance file in
    that folder and every folder above it."""
    name = basename(path)
    if kind == K_CUSTOM:
        return Verdict(MAYBE, f"{name} is a name set in guidance.filenames: which agents read it is not known")
    a = agent(agent_id)
    owner = owner_of(path, kind)
    for rule in a.reads:
        beside = _matches(rule, kind, path, owner, siblings, facts, over_size, above)
        if beside is None:
            continue
        why = rule.why.format(name=name, beside=beside)
        if not rule.provenance.confirmed and rule.sure == READS:
            return Verdict(MAYBE, why or f"whether {a.title} reads {name} is unconfirmed", loaded=rule.loaded, source=rule.provenance)
        if rule.since:
            return Verdict(MAYBE, why, rule.since, loaded=rule.loaded, source=rule.provenance)
        return Verdict(rule.sure, why, "", rule.listed, rule.loaded, rule.provenance)
    return _NOT_READ


def direct(
    agent_id: str,
    kind: str,
    path: str,
    siblings: Mapping[str, str],
    facts: Facts,
    over_size: bool = False,
    above: frozenset[str] = frozenset(),
) -> tuple[int, str]:
    """(how sure it is that ``agent_id`` reads ``path`` as guidance, why it does not or
    may not: "" when it does), the repository's settings taken into account. Reached
    by an @-import is judged separately."""
    verdict = judge(agent_id, kind, path, siblings, facts, over_size, above)
    return with_settings(agent_id, kind, verdict.sure, verdict.why, siblings, facts.settings)


def skips_for_size(agent_id: str, kind: str, size: int, surely: bool = False) -> bool:
    """Is a file of ``kind`` this large over ``agent_id``'s size limit for it (with
    ``surely``: one the agent is known to skip)?"""
    a = agent(agent_id)
    return (
        a.skip_bytes is not None
        and size > a.skip_bytes
        and any(r.over_size and kind in r.kinds and (not surely or r.sure == NO) for r in a.reads)
    )


def skill_agents(root: str) -> tuple[str, ...]:
    """The agents that load skills from a folder named like ``root`` (``.claude/skills``)."""
    return tuple(a.id for a in load() if root in a.skill_roots)


class HomeCopy(NamedTuple):
    """What makes a folder a copy of an agent's home folder (``[home_copy]``): the
    files it holds beside its skills folder, and what the settings file among them
    holds where it is the agent's."""

    agent: str
    files: tuple[str, ...]  # beside the skills folder, every one of them: CLAUDE.md, settings.json
    skills: str  # the skills folder's name
    settings_keys: frozenset[str]
    schema: str  # a word of the agent's settings schema's address, as `$schema` gives it


def home_copies() -> tuple[HomeCopy, ...]:
    """Each agent's ``[home_copy]`` table, confirmed."""
    found = []
    for a in load():
        table = a.extra.get("home_copy")
        if not isinstance(table, dict) or table.get("confirmed") is not True:
            continue
        files, skills, keys, schema = table.get("files"), table.get("skills"), table.get("settings_keys"), table.get("schema")
        if isinstance(files, list) and isinstance(skills, str) and isinstance(keys, list) and isinstance(schema, str):
            found.append(HomeCopy(a.id, tuple(str(f) for f in files), skills, frozenset(str(k) for k in keys), schema))
    return tuple(found)


def plugin_settings(agent_id: str) -> tuple[tuple[str, ...], str] | None:
    """The project settings files that turn ``agent_id``'s plugins on, and the key
    that does (its ``[plugins]`` table, confirmed); None where the data holds none."""
    table = agent(agent_id).extra.get("plugins")
    if not isinstance(table, dict) or table.get("confirmed") is not True:
        return None
    files, key = table.get("settings"), table.get("key")
    if not isinstance(files, list) or not isinstance(key, str):
        return None
    return tuple(str(f) for f in files), key


def hook_events(agent_id: str) -> tuple[frozenset[str], Provenance] | None:
    """The hook event names ``agent_id`` fires (its ``[hooks]`` table), with where the
    list was read; None where the data holds no such list."""
    table = agent(agent_id).extra.get("hooks")
    if not isinstance(table, dict):
        return None
    events, source, checked = table.get("events"), table.get("source"), table.get("checked")
    if not isinstance(events, list) or not isinstance(source, str) or not isinstance(checked, str):
        return None
    version = table.get("version", "docs")
    return frozenset(str(e) for e in events), Provenance(source, str(version), checked, table.get("confirmed") is True)


def authoring(agent_id: str) -> tuple[Mapping[str, object], Provenance] | None:
    """The guidance ``agent_id``'s maker publishes for skill authors (its
    ``[authoring]`` table: limits and word lists), with where it was read; advice,
    not what the agent enforces. None where the data holds none."""
    table = agent(agent_id).extra.get("authoring")
    if not isinstance(table, dict) or not isinstance(table.get("source"), str) or not isinstance(table.get("checked"), str):
        return None
    prov = Provenance(str(table["source"]), str(table.get("version", "docs")), str(table["checked"]), table.get("confirmed") is True)
    return table, prov


def skill_folders() -> tuple[str, ...]:
    """Every folder some agent loads a repository's skills from, in the data's order."""
    return tuple(dict.fromkeys(r for a in load() for r in a.skill_roots))


def user_files() -> dict[str, tuple[str, ...]]:
    """Each agent's user-level files, relative to the home folder."""
    return {a.id: a.user_files for a in load()}


def user_rules() -> dict[str, str]:
    """Each agent's user-level rules folder, relative to the home folder."""
    return {a.id: a.user_rules for a in load() if a.user_rules}


def plugin_manifests() -> tuple[str, ...]:
    """The files that make a folder a plugin whose skills/ folder an agent loads."""
    return tuple(str(m) for a in load() if isinstance(m := a.numbers.get("plugin_manifest"), str))


def schema_of(kind: str) -> Frontmatter | None:
    """The frontmatter keys of a guidance kind (None: read as plain text)."""
    if kind == K_CUSTOM:
        return schema_of(K_AGENTS)  # a configured name is checked as AGENTS.md is
    k = file_kind(kind)
    return k.frontmatter if k is not None else None


def number(agent_id: str, key: str) -> int:
    """An integer fact of an agent's ``[agent]`` table (a budget, a limit)."""
    value = agent(agent_id).numbers.get(key)
    if not isinstance(value, int):
        raise KeyError(f"{agent_id} has no number {key}")
    return value


def words(agent_id: str, key: str) -> tuple[str, ...]:
    """A list of strings of an agent's ``[agent]`` table."""
    value = agent(agent_id).numbers.get(key, [])
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def pattern_of(kind: FileKind) -> str:
    """A kind's files as a path pattern (``.claude/rules/**/*.md``, ``AGENTS.md``)."""
    if kind.in_folder:
        return f"{kind.in_folder}/**/*{kind.suffix}"
    names = ", ".join(kind.names)
    return f"{kind.parent_folder}/{names}" if kind.parent_folder else names


def _unconditional(rule: ReadRule) -> bool:
    return not (
        rule.over_size
        or rule.beside
        or rule.at_or_above
        or rule.below_root
        or rule.nested
        or rule.folder_is
        or rule.anywhere
        or rule.root_has_all
    )


class Reads(NamedTuple):
    """One line of what an agent reads, for `memcheck agents` and docs/agent-table.md."""

    files: str
    when: str
    provenance: Provenance


def reads_of(agent_id: str) -> list[Reads]:
    """What an agent reads, from its data: each kind some rule reads (with the first
    such rule's condition), its user files, skills folders and other files it loads."""
    a = agent(agent_id)
    found: list[Reads] = []
    kinds = sorted({k for rule in a.reads if rule.sure != NO for k in rule.kinds}, key=reading_order)
    for kind in kinds:
        k = file_kind(kind)
        if k is None:
            continue
        rules = [r for r in a.reads if kind in r.kinds and r.sure != NO]
        plain = next((r for r in rules if r.sure == READS and r.provenance.confirmed and not r.since and _unconditional(r)), None)
        rule = plain or next((r for r in rules if r.since), None) or rules[0]
        if rule is plain:
            when = rule.loaded or "read"
        elif rule.since:
            when = rule.why
        elif not rule.provenance.confirmed:
            when = "unconfirmed"
        else:
            when = "sometimes: " + rule.why.format(name=pattern_of(k), beside="another file")
        found.append(Reads(pattern_of(k), when, rule.provenance))
    for path in a.user_files:
        found.append(Reads(f"~/{path}", "the user's own" + a.user_files_note, a.provenance))
    if a.user_rules:
        found.append(Reads(f"~/{a.user_rules}/**/*.md", "the user's own rules", a.provenance))
    if a.skills_provenance is not None:
        for root in a.skill_roots:
            found.append(
                Reads(f"{root}/*/SKILL.md", "skills" if a.skills_provenance.confirmed else "skills (unconfirmed)", a.skills_provenance)
            )
    for loads in a.loads:
        found.append(
            Reads(", ".join(loads.globs), loads.what if loads.provenance.confirmed else f"{loads.what} (unconfirmed)", loads.provenance)
        )
    return found
