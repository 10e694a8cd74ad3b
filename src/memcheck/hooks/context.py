"""`memcheck context PATH [--agent NAME]`: what each agent working on PATH loads.

It answers "why does the agent ignore my rule?" per agent, from the same model the
checks use (``memcheck.agents``): the agent's user-level file, the guidance files it
reads from the repository root down to PATH (and its rules, path instructions or
project rules that apply to PATH), the @-imports it follows, and its limits applied
(Codex's 32 KiB project budget cuts and drops, Claude Code's 4 import hops, Gemini
CLI's 5). Then the MEMORY.md indexes of the repository's stores that belong to
PATH, cut at their caps, and the skills catalogue; and each agent's approximate
tokens against ``context.max-tokens``. Exit 1 when an agent is over that budget.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, TypedDict, cast

import click

from memcheck import agents
from memcheck.agents import expansion, guidance_model, readers
from memcheck.config import Config, ConfigError
from memcheck.hooks.options import config_for
from memcheck.index.caps import cap_lines, entry_names, loaded_lines
from memcheck.paths import parent
from memcheck.problem import escaped, json_text, shown
from memcheck.text.document import MAX_BYTES
from memcheck.text.secrets import redact
from memcheck.workspace.discover import USER_PREFIX, Workspace, folder_workspace, relative_path, user_workspace
from memcheck.workspace.skills import agent_roots_seeing, scope_of
from memcheck.workspace.stores import Store

# The report, as `--format json` prints it (keys sorted) and the text rendering reads it.


class ImportEntry(TypedDict):
    file: str
    depth: int
    bytes: int
    tokens: int
    via: str


class FileEntry(TypedDict):
    file: str
    scope: str
    loaded: bool | None  # None: unconfirmed
    reason: str
    bytes: int | None  # None: not known (a symlink memcheck does not follow)
    tokens: int | None
    kept_bytes: int
    cut: bool
    dropped: bool
    imports: list[ImportEntry]
    notes: list[str]
    total_bytes: int


class _Section(TypedDict):
    agent: str
    name: str
    files: list[FileEntry]
    notes: list[str]
    tokens: int


class Section(_Section, total=False):
    # Known once every section and what they share are: set by build().
    skills: SkillsTotal  # the skills this agent loads (its own skills folders)
    indexes: list[str]  # the memory indexes it loads (of the report's indexes)
    total_tokens: int
    over: bool


class IndexEntry(TypedDict):
    file: str
    exists: bool
    lines: int
    bytes: int
    loaded_lines: int
    loaded_bytes: int
    tokens: int
    past_cap: list[str]
    notes: list[str]


class SkillEntry(TypedDict):
    file: str
    tokens: int
    folders: list[str]  # the agent skills folders holding it (.claude/skills; a link counts), none for another root


class SkillsTotal(TypedDict):
    count: int
    tokens: int


class Unseen(TypedDict):
    count: int
    folders: list[str]  # the agent skills folders that hold them


class Catalogue(SkillsTotal, total=False):
    # With --agent: whose catalogue it is, and the skills only other agents' folders hold.
    agent: str
    unseen: Unseen


class Total(TypedDict):
    budget: int
    over: bool
    tokens: int


class Report(TypedDict):
    path: str
    agents: list[Section]
    indexes: list[IndexEntry]
    skills: Catalogue
    total: Total


_STATE: dict[int, bool | None] = {agents.READS: True, agents.MAYBE: None, agents.NO: False}


def _covers(owner: str, folder: str) -> bool:
    return owner == "" or folder == owner or folder.startswith(owner + "/")


def _shown(ws: Workspace, path: str) -> str:
    return USER_PREFIX + path if ws.user else path


class _Places:
    """The workspaces files are read from: the repository, and the folders outside
    it that agents read on this machine (the home folder, $CODEX_HOME, the folders
    above the repository), each holding only the files asked for."""

    def __init__(self, ws: Workspace, home: Workspace, machine: readers.Machine):
        self.repo, self.machine = ws, machine
        self._by_base: dict[str, Workspace] = {str(home.root): home}

    def __call__(self, base: str) -> Workspace:
        found = self._by_base.get(base)
        if found is None:
            found = self._by_base[base] = folder_workspace(self.repo.config, Path(base))
        return found

    def of(self, source: readers.Source) -> Workspace:
        return self(source.base) if source.user else self.repo

    def shown(self, source: readers.Source, path: str) -> str:
        """A file as the user knows it: repository-relative, else ``~/…`` or absolute."""
        return self.machine.shown(os.path.join(source.base, path)) if source.user else path


def _entry(places: _Places, source: readers.Source, agent: str) -> FileEntry:
    ws = places.of(source)
    # A symlinked twin is read through the file it is (also when git checked it out as text).
    real = ws.twins.get(source.path, source.path) if not source.user else source.path
    doc = ws.document(real)
    facts = agents.agent(agent)
    follows, depth = facts.follows_imports, facts.import_depth
    notes: list[str] = []
    imports: list[ImportEntry] = []
    loaded_bytes = doc.size
    if real in ws.outside_links:
        notes.append("a symlink out of the repository: memcheck does not follow it, so its size and imports are not counted")
    elif real in ws.unsure_links:
        notes.append(
            f"it holds just {doc.text.strip()!r}: a symlink checked out as text, or that text; outside a git repository memcheck cannot tell which"
        )
    elif doc.error is not None and doc.size > MAX_BYTES and follows != agents.NO and source.sure != agents.NO:
        notes.append(f"over {MAX_BYTES // 1024 // 1024} MiB: memcheck does not read it, so its @-imports are not followed here")
    if follows == agents.READS and source.sure != agents.NO:
        expanded = expansion.expand(ws, real, expansion.follow_depth(agent))
        imports = [
            {
                "file": places.shown(source, x.path),
                "depth": x.depth,
                "bytes": x.size,
                "tokens": agents.approx_tokens(x.size),
                "via": places.shown(source, x.via[-2]),
            }
            for x in expanded.loaded[1:]
        ]
        loaded_bytes = sum(x.size for x in expanded.loaded)
        notes += [f"line {imp.line}: @{imp.token} does not exist (in {places.shown(source, where)})" for where, imp in expanded.missing]
        notes += [f"import cycle {' -> '.join(cycle)}: it stops at the repeat" for _, cycle in expanded.cycles]
        loaded = {x.path for x in expanded.loaded}
        notes += [
            f"{chain[-1]} is {len(chain) - 1} hops deep, and {agents.title(agent)} follows {depth}: not loaded"
            for _, chain in expanded.too_deep
            if chain[-1] not in loaded
        ]
        if depth is None and len(expanded.loaded) > 1:
            notes.append(f"how deep {agents.title(agent)} follows @-imports is unconfirmed: all are shown")
    elif follows == agents.MAYBE and expansion.imports(ws, doc):
        notes.append(f"whether {agents.title(agent)} follows @-imports is unconfirmed: they are not counted")
    kind = agents.kind_of(source.path, ws.config.guidance.filenames)
    if (
        agent == agents.COPILOT
        and kind in (agents.K_COPILOT, agents.K_COPILOT_PATH)
        and (cut := guidance_model.copilot_review_cut(doc)) is not None
    ):
        notes.append(
            f"{len(doc.text):,} characters: Copilot code review may read only the first {agents.number(agents.COPILOT, 'review_chars'):,}, "
            f"up to line {cut[0]} (GitHub's documentation said so until 2026; {cut[1]})"
        )
    shown_real = places.shown(source, real)
    size: int | None = None if real in ws.outside_links else doc.size  # not followed: not known
    return {
        "file": places.shown(source, source.path),
        "scope": source.scope,
        "loaded": _STATE[source.sure],
        "reason": source.why + (f" (a symlink to {shown_real})" if real != source.path else ""),
        "bytes": size,
        "tokens": None if size is None else agents.approx_tokens(size),
        "kept_bytes": doc.size if source.sure != agents.NO else 0,
        "cut": False,
        "dropped": False,
        "imports": imports,
        "notes": notes,
        "total_bytes": loaded_bytes if source.sure == agents.READS else 0,
    }


def _apply_codex_blank_and_budget(ws: Workspace, files: list[FileEntry], sources: list[readers.Source], budget: bool) -> None:
    """What Codex does with each project file, root first [CXS]: a blank file is
    skipped (and an override, blank or not, still hides its folder's AGENTS.md);
    with ``budget``, the 32 KiB project budget cuts and drops. The user's file is
    outside the budget. Changes the entries in place."""
    project = [(e, s) for e, s in zip(files, sources) if not s.user and s.sure != agents.NO]
    if not budget:
        for entry, source in project:
            if readers.is_blank(ws.document(ws.twins.get(source.path, source.path))):
                _skip_blank(ws, entry, source)
        return
    reads = [(e, s) for e, s in project if s.sure == agents.READS]
    cuts = readers.codex_chain(ws, [ws.twins.get(s.path, s.path) for _, s in reads])
    limit = f"{readers.codex_budget():,}-byte project budget"
    for (entry, source), cut in zip(reads, cuts):
        entry["kept_bytes"] = entry["total_bytes"] = cut.kept
        if cut.how == readers.BLANK:
            _skip_blank(ws, entry, source)
        elif cut.how == readers.DROPPED:
            entry.update({"dropped": True, "loaded": False, "reason": f"the files above spent Codex's {limit}"})
        elif cut.how == readers.CUT:
            entry.update({"cut": True, "reason": f"Codex keeps {cut.kept:,} of its {cut.size:,} bytes ({limit})"})
        elif cut.how == readers.CUT_BLANK:
            left = readers.codex_budget() - cut.spent
            entry.update(
                {
                    "loaded": False,
                    "reason": f"skipped: the {left:,} bytes of it that fit Codex's {limit} are blank, so Codex skips the whole file",
                }
            )
        elif cut.how == readers.UNKNOWN_SIZE:
            entry.update(
                {
                    "loaded": None,
                    "reason": f"{entry['reason']}; memcheck does not follow a symlink out of the repository here or above, so Codex's {limit} is not worked out from here down",
                }
            )


def _skip_blank(ws: Workspace, entry: FileEntry, source: readers.Source) -> None:
    hides = readers.reading(ws).kind.get(source.path) == agents.K_OVERRIDE
    entry.update(
        {
            "loaded": False,
            "kept_bytes": 0,
            "total_bytes": 0,
            "reason": "blank: Codex skips a file with no text"
            + ("; as an override it still hides this folder's AGENTS.md" if hides else ""),
        }
    )


def _agent_section(ws: Workspace, places: _Places, agent: str, rel: str, is_folder: bool) -> Section:
    machine = places.machine
    sources = readers.sources(ws, agent, rel, is_folder, machine, places)
    files = [_entry(places, s, agent) for s in sources]
    model = readers.reading(ws)
    settings = [s for s in (*model.facts.settings, *machine.settings) if s.agent == agent]
    notes = [f"{s.file} sets {s.key}: entries it may change are marked unconfirmed" for s in settings]
    if agent == agents.CODEX:
        if settings:
            notes.append("so Codex's default 32 KiB project budget is not applied here")
        _apply_codex_blank_and_budget(ws, files, sources, budget=not settings)
    return {
        "agent": agent,
        "name": agents.title(agent),
        "files": files,
        "notes": notes,
        "tokens": sum(agents.approx_tokens(f["total_bytes"]) for f in files if f["loaded"]),
    }


def _index_entry(ws: Workspace, store: Store) -> IndexEntry:
    cfg = ws.config.index
    if not store.has_index:
        # Not missing when it links out: agents load whatever it leads to.
        target = ws.link_out(store.index)
        notes = (
            [
                f"a symlink to {shown(target)}, out of the repository: agents load that file at start-up; memcheck does not follow it, so it is not counted"
            ]
            if target is not None
            else []
        )
        return {
            "file": _shown(ws, store.index),
            "exists": False,
            "lines": 0,
            "bytes": 0,
            "loaded_lines": 0,
            "loaded_bytes": 0,
            "tokens": 0,
            "past_cap": [],
            "notes": notes,
        }
    doc = ws.document(store.index)
    lines = cap_lines(doc.text)
    n = loaded_lines(lines, cfg.max_lines, cfg.max_bytes)
    loaded_bytes = sum(len(line.encode("utf-8")) + 1 for line in lines[:n])
    return {
        "file": _shown(ws, store.index),
        "exists": True,
        "lines": len(lines),
        "bytes": doc.size,
        "loaded_lines": n,
        "loaded_bytes": loaded_bytes,
        "tokens": agents.approx_tokens(loaded_bytes),
        "past_cap": entry_names(lines[n:]),
        "notes": [],
    }


def _indexes_seen(ws: Workspace, section: Section, indexes: list[IndexEntry]) -> list[IndexEntry]:
    """The memory indexes an agent loads: every one for an agent that loads memory at
    start-up (its facts have a ``[memory]`` table: Claude Code), else those a file it
    loads points at (imports the index, or names its store's folder or the index)."""
    if agents.agent(section["agent"]).memory:
        return indexes
    loaded = [f for f in section["files"] if f["loaded"] is not False]
    names = {f["file"] for f in loaded} | {imp["file"] for f in loaded for imp in f["imports"]}
    texts: list[str] = []
    for f in loaded:
        if not f["file"].startswith(("~", "/")):  # the repository's own files
            texts.append(ws.document(f["file"]).text)
    found = []
    for index in indexes:
        folder = parent(index["file"])
        if index["file"] in names or any(index["file"] in text or (folder and folder + "/" in text) for text in texts):
            found.append(index)
    return found


def store_owner(folder: str) -> str:
    """The folder an agent must work in to load this store at start-up: the part of
    the path before its first dot-folder (``pkg/.claude/memory`` -> ``pkg``)."""
    parts = folder.split("/")
    for i, part in enumerate(parts):
        if part.startswith("."):
            return "/".join(parts[:i])
    return parent(folder)


def _skills(ws: Workspace, folder: str) -> list[SkillEntry]:
    found: list[SkillEntry] = []
    for path in ws.skills:
        if not (ws.user or _covers(scope_of(ws, path), folder)):
            continue
        fm = ws.document(path).frontmatter
        data = fm.data if fm is not None else {}
        line = f"{data.get('name', '')}: {data.get('description', '')}"
        found.append(
            {
                "file": _shown(ws, path),
                "tokens": agents.approx_tokens(len(line.encode("utf-8"))),
                "folders": sorted(agent_roots_seeing(ws, path)),
            }
        )
    return found


def build(config: Config, target_path: str, agent: str | None = None) -> Report:
    rel = relative_path(config.root, target_path)
    if rel is None:
        raise ConfigError(f"{target_path} is outside the repository at {config.root}")
    is_folder = rel == "" or (config.root / rel).is_dir()
    folder = rel if is_folder else parent(rel)
    ws = readers.checkout(config, folder)
    home = user_workspace(config)
    places = _Places(ws, home, readers.this_machine(home.root))

    wanted = [agent] if agent is not None else [a for a in agents.ALL if a in config.agents]
    sections = [_agent_section(ws, places, a, rel, is_folder) for a in wanted]
    indexes = [_index_entry(home, s) for s in home.stores]
    indexes += [_index_entry(ws, s) for s in ws.stores if _covers(store_owner(s.folder), folder)]
    skills = _skills(home, folder) + _skills(ws, folder)
    shared = sum(i["tokens"] for i in indexes)
    budget = config.context.max_tokens
    for section in sections:
        # An agent's catalogue holds the skills of its own skills folders (Claude Code
        # never sees .agents/skills), and those of plugins and configured roots.
        roots = agents.agent(section["agent"]).skill_roots
        own = [s for s in skills if not s["folders"] or set(s["folders"]) & set(roots)]
        section["skills"] = {"count": len(own), "tokens": sum(s["tokens"] for s in own)}
        seen = _indexes_seen(ws, section, indexes)
        section["indexes"] = [i["file"] for i in seen]
        section["total_tokens"] = section["tokens"] + sum(i["tokens"] for i in seen) + section["skills"]["tokens"]
        section["over"] = section["total_tokens"] > budget
    catalogue: Catalogue = {"count": len(skills), "tokens": sum(s["tokens"] for s in skills)}
    if agent is not None and sections:
        # One agent asked for: the catalogue is what that agent sees (Claude Code lists no
        # skill that only .agents/skills holds), and the others are said apart.
        asked = sections[0]["skills"]
        catalogue = {"count": asked["count"], "tokens": asked["tokens"], "agent": sections[0]["name"]}
        sees = set(agents.agent(agent).skill_roots)
        unseen = [entry for entry in skills if entry["folders"] and not set(entry["folders"]) & sees]
        if unseen:
            catalogue["unseen"] = {"count": len(unseen), "folders": sorted({f for entry in unseen for f in entry["folders"]})}
    return {
        "path": rel or ".",
        "agents": sections,
        "indexes": indexes,
        "skills": catalogue,
        "total": {
            "budget": budget,
            "over": any(s["over"] for s in sections),
            "tokens": max((s["total_tokens"] for s in sections), default=shared + sum(s["tokens"] for s in skills)),
        },
    }


def _n(value: int) -> str:
    return f"{value:,}"


_SHOWN_STATE = {True: "loaded", None: "MAYBE loaded", False: "NOT loaded"}


def render_text(report: Report) -> Iterable[str]:
    yield f"Context when working on {report['path']}"
    for section in report["agents"]:
        yield ""
        yield f"{section['name']} (user level, then each folder from the top down to the working folder):"
        if not section["files"]:
            yield "  no guidance files"
        for f in section["files"]:
            state = "CUT" if f["cut"] else "DROPPED" if f["dropped"] else _SHOWN_STATE[f["loaded"]]
            size = "size not known" if f["bytes"] is None or f["tokens"] is None else f"{_n(f['bytes'])} bytes, ~{_n(f['tokens'])} tokens"
            yield f"  {f['scope']:<8} {f['file']}  {size}  [{state}: {f['reason']}]"
            for imp in f["imports"]:
                indent = "  " * imp["depth"]
                yield f"         {indent}@{imp['file']}  {_n(imp['bytes'])} bytes, ~{_n(imp['tokens'])} tokens"
            for note in f["notes"]:
                yield f"           ! {note}"
        for note in section["notes"]:
            yield f"  ! {note}"
    yield ""
    yield "Memory indexes loaded at start-up:"
    if not report["indexes"]:
        yield "  none"
    for i in report["indexes"]:
        if not i["exists"]:
            yield f"  {shown(i['file'])}  {i['notes'][0] if i['notes'] else 'missing: agents load nothing from this store'}"
            continue
        cut = "" if i["loaded_lines"] == i["lines"] else f"; cut at {_n(i['loaded_lines'])} of {_n(i['lines'])} lines by the caps"
        yield f"  {shown(i['file'])}  {_n(i['lines'])} lines, {_n(i['bytes'])} bytes; loads {_n(i['loaded_bytes'])} bytes, ~{_n(i['tokens'])} tokens{cut}"
        if i["past_cap"]:
            names = ", ".join(i["past_cap"][:10]) + (f" and {len(i['past_cap']) - 10} more" if len(i["past_cap"]) > 10 else "")
            yield f"           past the cap (never seen): {names}"
    yield ""
    sk = report["skills"]
    whose = f" {sk['agent']} lists" if "agent" in sk else ""
    unseen = sk.get("unseen")
    apart = f"; {unseen['count']} more only in {', '.join(unseen['folders'])}, which it does not load" if unseen else ""
    yield f"Skills catalogue: {sk['count']} skill(s){whose}, ~{_n(sk['tokens'])} tokens of names and descriptions{apart}"
    total = report["total"]
    yield f"Total against context.max-tokens {_n(total['budget'])} (tokens are bytes / 4; guidance, indexes and skills):"
    for section in report["agents"]:
        verdict = "OVER the budget" if section["over"] else "within the budget"
        own = section.get("skills")
        skills = f", {own['count']} of the skills" if own is not None and own["count"] != sk["count"] else ""
        seen = section.get("indexes")
        indexes = f", {len(seen)} of the memory indexes" if seen is not None and len(seen) != len(report["indexes"]) else ""
        yield f"  {section['name']}: ~{_n(section['total_tokens'])} tokens ({verdict}{indexes}{skills})"


def run(path: str, fmt: str, agent: str | None, config_file: str | None) -> int:
    """The command as the command line gives it: the settings of the repository
    ``path`` is in, then ``show``."""
    return show(config_for(config_file, (path,)), path, fmt, agent)


def without_secrets(value: object) -> object:
    """A copy of a report's values with each secret the SEC rules would report in
    them redacted (``ghp_…[redacted]``): the report shows what agents load, and a
    terminal or a CI log is no place for the credential a file holds."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: without_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_secrets(v) for v in value]
    return value


def show(config: Config, path: str, fmt: str, agent: str | None = None) -> int:
    """Print what each agent loads working on ``path``; 1 when one is over budget."""
    # The report quotes the files (a rule's description, an import, an entry's
    # name): printed without the secrets in them, and with their control
    # characters escaped, as findings are.
    report = cast(Report, without_secrets(build(config, path, agent)))
    if fmt == "json":
        click.echo(json_text(json.dumps(report, indent=2, ensure_ascii=False, sort_keys=True)))
    else:
        for line in render_text(report):
            click.echo(escaped(line))
    return 1 if report["total"]["over"] else 0
