"""What the language server knows between requests, free of any LSP type: the
repository's settings, the tree's listing, the editor's open documents, and the
findings of each part of the tree (a store, the guidance files, the skills).

An edit re-checks only the parts the edited file belongs to (its store, the guidance
files when it is one or one imports it, the skills when it is part of one), on the
listing cached since the last change on disk, with the documents read before but
for those changed since (an edited store's are kept: ``Workspace.kept``) and the
skills found before while none changed; a guidance edit that keeps its @-imports
re-checks fewer files still (``guidance_memo``). Findings are those of ``memcheck
check``: the same engine, settings, suppression comments and baseline.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from memcheck import config as settings
from memcheck import lazy_regex
from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files import missing_frontmatter
from memcheck.config import CONFIG_FILES, ConfigError
from memcheck.engine.collect import family_checks
from memcheck.engine.finish import finish
from memcheck.engine.part import check_part
from memcheck.engine.targets import targets_for
from memcheck.paths import basename, join, parent
from memcheck.records import NamedTuple
from memcheck.server.edits import Action, quote_value, repoint_action, suppression_action
from memcheck.server.guidance_memo import GuidanceMemo, guidance_findings
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace
from memcheck.workspace.disk import DiskSource
from memcheck.workspace.overlay import OverlaySource
from memcheck.workspace.selection import skill_targets
from memcheck.workspace.stores import INDEX_NAME
from memcheck.workspace.targets import Targets

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.stores import Store

GUIDANCE = "guidance"
SKILLS = "skills"
_STORE = "store:"
# Subagents, custom agents, prompt files, steering, Cline rules and loose skill
# folders are judged one file at a time: a part each, so an edit re-checks its file only.
_KIND_FILE = "file:"
# What a guidance file names another file by: an @-import (`@docs/notes.md`) or a
# Markdown link (`[notes](docs/notes.md)`). The file's name is enough to tell
# whether a file edited, created or written on disk may be one.
_NAMED = lazy_regex.compile(r"@([^\s`'\"()<>\[\]]+)|\]\(<?([^)\s>#?]+)")


# A folder's files as the disk has them: name -> (modification time, size).
FolderState = dict[str, tuple[int, int]]


class DiskChange(NamedTuple):
    changed: list[str]  # written or created
    deleted: list[str]
    listed: bool  # files were created or deleted: the listing is out of date


class Published(NamedTuple):
    """The findings to show for each path whose findings may have changed."""

    by_path: dict[str, list[Problem]]


class Session:
    """One repository as the editor shows it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.config: Config | None = None
        self.open_files: dict[str, str] = {}  # repository-relative path -> the editor's text
        self._disk: DiskSource | None = None
        self._last: Workspace | None = None  # the last workspace made on the cached listing
        self._parts: dict[str, list[Problem]] = {}
        self._named_by_guidance: frozenset[str] = frozenset()  # file names the guidance files import or link
        self._open_seen: dict[str, str] = {}  # the open documents as the last workspace had them
        self._guidance_memo: GuidanceMemo | None = None
        # The stores' files whose documents an edit keeps for the next (see Workspace.kept):
        # the stores edited since the listing was made, not the whole tree check_all reads.
        self._kept: set[str] = set()

    def load_config(self) -> str | None:
        """Read the settings again; the error, one line, if they are wrong (the last
        good ones are kept: a half-typed config does not empty the editor; broken
        from the start, the defaults stand in until they are mended)."""
        try:
            self.config = settings.load(self.root)
        except ConfigError as e:
            if self.config is None:
                self.config = settings.default_config(self.root)
                self.refresh_listing()
            return str(e)
        self.refresh_listing()
        self._last = None
        return None

    def refresh_listing(self) -> None:
        """List the tree again (after files were created or deleted on disk)."""
        self._disk = None

    def relative(self, path: Path) -> str | None:
        """``path`` relative to the root, or None when it is outside it."""
        try:
            rel = path.resolve().relative_to(self.root.resolve()) if path.is_absolute() else path
        except ValueError:
            return None
        text = rel.as_posix()
        return None if text in ("", ".") or text.startswith("../") else text

    def workspace(self, changed: Iterable[str] = ()) -> Workspace:
        """The tree with the editor's open documents over it, on the cached listing.
        What the last workspace read is taken over but for the files ``changed`` on
        disk since (the watched-file events name them) and the open documents whose
        text the editor changed."""
        assert self.config is not None
        if self._disk is None:
            self._disk = DiskSource(self.root)
            self._disk.listing()  # listed once, until refresh_listing
            self._last = None
        edited = {p for p in self.open_files.keys() | self._open_seen.keys() if self.open_files.get(p) != self._open_seen.get(p)}
        self._open_seen = dict(self.open_files)
        ws = Workspace(self.config, OverlaySource(self._disk, self.open_files))
        last, self._last = self._last, ws
        ws.kept = self._kept
        if last is None or last.config is not ws.config or last.files != ws.files:
            self._guidance_memo = None  # new settings, or files created or deleted
            self._kept.clear()
            return ws
        ws.reuse_listing(last)
        ws.reuse_documents(last, {*changed, *edited})
        ws.reuse_skills(last, {*changed, *edited})
        if self._guidance_memo is not None:
            self._guidance_memo.pending.update(changed, edited)
            self._guidance_memo.carry_into(ws)
        return ws

    def check_all(self) -> Published:
        """Check every part of the tree."""
        if self.config is None:
            return self._replace({key: [] for key in self._parts})
        self._guidance_memo = None  # everything is checked again
        ws = self.workspace()
        targets = targets_for(ws, None)
        found = {key: self._check(ws, part, key) for key, part in _parts_of(ws, targets).items()}
        found.update(self._check_kind_files(ws, targets.kind_files))
        found.update({key: [] for key in self._parts if key not in found})
        return self._replace(found)

    def check_paths(self, paths: Iterable[str], deleted: Sequence[str] = ()) -> Published:
        """Check again what these files (repository-relative) belong to."""
        paths = sorted(set(paths))
        if self.config is None or not (paths or deleted):
            return Published({})
        ws = self.workspace([*paths, *deleted])
        there = [p for p in paths if ws.is_file(p)]
        gone = [*deleted, *(p for p in paths if p not in there)]
        targets = targets_for(ws, [str(self.root / p) for p in there], deleted=[str(self.root / p) for p in gone])
        # A file the guidance names, or a skill (what the guidance says of the skills it
        # names, and which paths collide by case, come from their names and places).
        if (targets.skills or any(basename(p) in self._named_by_guidance for p in [*there, *gone])) and not targets.guidance:
            targets = targets._replace(guidance=list(ws.guidance))
        parts = _parts_of(ws, targets)
        for store in targets.stores:  # edited: its documents are kept for the next edit
            self._kept.update(store.all_files)
        # The last guidance file deleted: there are none to check, but its findings go.
        if GUIDANCE not in parts and any(p.path in gone for p in self._parts.get(GUIDANCE, ())):
            parts[GUIDANCE] = Targets([], list(ws.guidance), [])
        # A store that is no store any more (its last memory deleted) has no findings.
        for folder in {parent(p) for p in [*there, *gone]}:
            parts.setdefault(_STORE + folder, Targets([], [], []))
        found = {key: self._check(ws, part, key) for key, part in parts.items()}
        # Nor has a file that is no agent file any more (deleted, or its skill folder
        # given a SKILL.md); the few loose skill folders are judged again on any change.
        agent_files = find_agent_files(ws)
        now = set(agent_files.paths())
        found.update((key, []) for key in self._parts if key.startswith(_KIND_FILE) and key.removeprefix(_KIND_FILE) not in now)
        again = {
            *targets.kind_files,
            *(path for path, _ in agent_files.loose_skill_folders),
            *missing_frontmatter.judged_with(ws, [*there, *gone]),
        }
        found.update(self._check_kind_files(ws, sorted(again)))
        return self._replace(found)

    def findings(self, path: str) -> list[Problem]:
        return sorted({p for found in self._parts.values() for p in found if p.path == path})

    def _check(self, ws: Workspace, part: Targets, key: str = "") -> list[Problem]:
        if not (part.stores or part.guidance or part.skills or part.kind_files):
            return []
        checks = [check for codes, check in family_checks() if ws.wants(*codes)]
        if key == GUIDANCE:  # every guidance file, judged with what the last edit left
            found, self._guidance_memo = guidance_findings(ws, self._guidance_memo, checks, set(ws.rules_on))
            problems = finish(ws.config, found)
        else:
            problems = finish(ws.config, check_part(ws, part, checks, set(ws.rules_on)))
        if part.guidance:
            self._named_by_guidance = frozenset(_named_by_guidance(ws, part.guidance))
        return problems

    def _check_kind_files(self, ws: Workspace, paths: Sequence[str]) -> dict[str, list[Problem]]:
        """The findings of these agent files, by their parts' keys: checked as one part
        (a check's set-up, such as finding the tree's agent files, is done once, not
        once per file), kept one part per file (an edit re-checks its file only)."""
        found: dict[str, list[Problem]] = {_KIND_FILE + path: [] for path in paths}
        for problem in self._check(ws, Targets([], [], [], paths)):
            found.setdefault(_KIND_FILE + problem.path, []).append(problem)
        return found

    def _replace(self, found: Mapping[str, list[Problem]]) -> Published:
        touched = {p.path for key in found for p in self._parts.get(key, ())}
        self._parts.update(found)
        for key in [k for k, v in found.items() if not v]:
            del self._parts[key]
        touched.update(p.path for problems in found.values() for p in problems)
        touched.update(self.open_files)  # an open file with no finding any more is cleared
        # One pass over the findings, not one per path (thousands of subagents each
        # with a finding would make that quadratic).
        by_path: dict[str, set[Problem]] = {path: set() for path in touched}
        for problems in self._parts.values():
            for problem in problems:
                if problem.path in by_path:
                    by_path[problem.path].add(problem)
        return Published({path: sorted(by_path[path]) for path in sorted(touched)})

    def store_of_index(self, path: str) -> tuple[Workspace, Store] | None:
        """The store whose index is ``path``, in a workspace to plan it with."""
        if basename(path) != INDEX_NAME or self.config is None:
            return None
        ws = self.workspace()
        found = [s for s in ws.stores_among([parent(path)]) if s.index == path and s.has_index]
        return (ws, found[0]) if found else None

    def rebuilt_index(self, path: str) -> str | None:
        """The MEMORY.md ``memcheck fix`` would write at ``path``; None when it would
        write nothing."""
        from memcheck.hooks.fix import planned

        found = self.store_of_index(path)
        if found is None:
            return None
        new = planned(*found)
        return None if new is None or new.unchanged else new.text.decode("utf-8")

    def actions(self, path: str, problem: Problem) -> list[Action]:
        """The edits a finding knows: its quick fix, then a suppression comment."""
        if self.config is None:
            return []
        ws = self.workspace()
        doc = ws.document(path)
        found: list[Action] = []
        if problem.code == "MEM019":
            quoted = quote_value(doc, problem)
            if quoted is not None:
                found.append(quoted)
        elif problem.code == "IDX002":
            repointed = self._repoint(path, problem)
            if repointed is not None:
                found.append(repointed)
        suppress = suppression_action(doc, problem)
        if suppress is not None:
            found.append(suppress)
        return found

    def _repoint(self, path: str, problem: Problem) -> Action | None:
        from memcheck.index.store import store_exists, store_memories, store_plan
        from memcheck.index.survey import REPOINT, survey
        from memcheck.index.sync import repointed_target

        found = self.store_of_index(path)
        if found is None:
            return None
        ws, store = found
        doc = ws.document(path)
        if doc.error is not None:
            return None
        memories = store_memories(ws, store)
        plan = store_plan(ws, store, doc.text, memories)
        whole = plan.survey if plan.survey is not None else survey(doc.text, memories, store_exists(ws, store), store_folder=store.folder)
        dead = whole.dead.get((problem.line, problem.col))
        if dead is None or dead.action != REPOINT or dead.span == (0, 0):
            return None
        return repoint_action(dead.line, dead.span, repointed_target(dead), dead.target)

    def disk_state(self) -> dict[str, FolderState]:
        """For an editor that watches no files: the files of the folders its open
        documents are in (a store's memories beside its open index), and the
        settings, as the disk has them. A few directory reads, however large the tree."""
        state: dict[str, FolderState] = {}
        for folder in sorted({parent(p) for p in self.open_files} | {""}):
            found: FolderState = {}
            try:
                with os.scandir(self.root / folder if folder else self.root) as entries:
                    for entry in entries:
                        if (entry.name.endswith(".md") or (not folder and entry.name in CONFIG_FILES)) and entry.is_file(
                            follow_symlinks=False
                        ):
                            info = entry.stat(follow_symlinks=False)
                            found[entry.name] = (info.st_mtime_ns, info.st_size)
            except OSError:
                pass
            state[folder] = found
        return state


def disk_change(before: Mapping[str, FolderState], after: Mapping[str, FolderState]) -> DiskChange:
    """What changed on disk between two ``disk_state``s, in the folders both looked at."""
    changed: list[str] = []
    deleted: list[str] = []
    listed = False
    for folder in sorted(before.keys() & after.keys()):
        old, new = before[folder], after[folder]
        for name in sorted(old.keys() | new.keys()):
            if name not in new:
                deleted.append(join(folder, name))
                listed = True
            elif old.get(name) != new[name]:
                changed.append(join(folder, name))
                listed |= name not in old
    return DiskChange(changed, deleted, listed)


def _parts_of(ws: Workspace, targets: Targets) -> dict[str, Targets]:
    parts = {_STORE + store.folder: Targets([store], [], []) for store in targets.stores}
    # The guidance files are judged together (who reads what comes from all of them),
    # and the skills too (each is compared with the others).
    if targets.guidance:
        parts[GUIDANCE] = Targets([], list(ws.guidance), [])
    if targets.skills:
        parts[SKILLS] = Targets([], [], skill_targets(ws))
    return parts


def _named_by_guidance(ws: Workspace, guidance: Sequence[str]) -> set[str]:
    names: set[str] = set()
    for path in guidance:
        names |= ws.derived(ws.document(path), _named_in)  # carried between edits with the document
    return names


def _named_in(ws: Workspace, doc: Document) -> frozenset[str]:
    text = doc.text
    if "@" not in text and "](" not in text:
        return frozenset()
    return frozenset(basename((m.group(1) or m.group(2)).rstrip(".,;:")) for m in _NAMED.finditer(text))


def watch_globs(config: Config | None) -> list[str]:
    """The files whose change on disk the server must hear of: agent files (memory
    stores, guidance files, skills) and the settings. Globs as LSP file watchers take
    them, relative to the workspace folder."""
    globs = ["**/*.md", *(f"**/{name}" for name in CONFIG_FILES)]
    # The agent files "**/*.md" misses (Cline's `.clinerules` file), by their name.
    globs += sorted({f"**/{basename(g)}" for kind in agentkinds.kinds() for g in kind.globs if not g.endswith(".md")})
    if config is not None:
        globs += [f"**/{name}" for name in config.guidance.filenames]
        globs += [f"{root.rstrip('/')}/**" for root in config.skills.roots]
    globs.append("**/skills/**")
    return list(dict.fromkeys(globs))
