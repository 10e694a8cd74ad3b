"""`memcheck fix`: make each MEMORY.md agree with its store, then report what is left.

Writes are atomic (a temporary file in the same folder, then a rename), keep the
file's mode, never go through a symlink or outside the repository, and happen only
when the bytes change. Memory files themselves are never written.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from memcheck import lazy_regex
from memcheck.config import Config
from memcheck.engine.finish import finish
from memcheck.engine.signals import signals_held, stopped_by_signals
from memcheck.hooks.options import given_scope, none_given, resolve
from memcheck.hooks.report import DEFAULT_DISPLAY, Display, destination, report
from memcheck.hooks.verbose import Timing, notes, show
from memcheck.output import Checked, Older, resolve_format
from memcheck.paths import join
from memcheck.problem import Problem, escaped, failing, shown
from memcheck.records import NamedTuple
from memcheck.safe_files import Refused, replacing
from memcheck.workspace.stores import INDEX_NAME, Store

# The engine, the index engine, discovery and the documents are imported where they
# are used: a change that touches no agent file is reported without them (see run).
if TYPE_CHECKING:
    from memcheck.engine.cache import Cache
    from memcheck.engine.found import Since
    from memcheck.hooks.options import LintOptions
    from memcheck.index.memory import Exists, Memory
    from memcheck.index.plan import Plan
    from memcheck.index.sync import Changes
    from memcheck.output import FixRecord
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.staged import StagedFiles
    from memcheck.workspace.targets import Targets


class UnsafeWrite(Exception):
    pass


def safe_target(root: Path, rel: str) -> Path:
    """The path to write, refusing symlinks and anything that resolves outside root."""
    from memcheck.text import document

    path = root / rel
    if path.is_symlink():
        raise UnsafeWrite(f"{rel} is a symlink; not writing through it")
    try:
        special = document.special_kind(path.lstat().st_mode)
    except FileNotFoundError:
        special = None
    if special is not None:
        raise UnsafeWrite(f"{rel} is {special}, not a regular file; not replacing it")
    real_root = root.resolve()
    try:
        path.parent.resolve().relative_to(real_root)
    except ValueError:
        raise UnsafeWrite(f"{rel} resolves outside the repository; not writing it") from None
    return path


def atomic_write(path: Path, data: bytes) -> None:
    """``data`` replaces the index at ``path`` (see ``safe_target``) whole, through
    ``safe_files.replacing``: SIGTERM or Ctrl-C at any point removes the temporary
    file (only SIGKILL or a crash can leave one, and the next run removes it:
    ``remove_leftovers``)."""
    with stopped_by_signals(), replacing(str(path), None, held=signals_held) as handle:
        handle.buffer.write(data)  # the bytes as rendered, not re-encoded


# What safe_files.replacing names its temporary file for MEMORY.md: nothing else is ever removed.
_LEFTOVER = lazy_regex.compile(rf"\.{re.escape(INDEX_NAME)}\.memcheck-([0-9]+)-[a-z0-9_]+\.tmp")


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files that an earlier ``fix`` killed mid-write left in
    ``folder``: memcheck's own (by name), regular files, whose process is gone, and
    that git does not track (a file committed under such a name is someone's, not
    a leftover: git is asked, once, only when a name matches)."""
    removed = []
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(f".{INDEX_NAME}.memcheck-")]
    except OSError:
        return []
    entries = [e for e in entries if _LEFTOVER.fullmatch(e.name) is not None]
    if entries:
        from memcheck import git

        listed = git.plain(folder, ["ls-files", "-z", "--", *(e.name for e in entries)])
        if listed is None and (folder / ".git").exists():
            return []  # git could not say: remove nothing
        tracked = set((listed or b"").decode("utf-8", "surrogateescape").split("\0"))
        entries = [e for e in entries if e.name not in tracked]
    for entry in entries:
        m = _LEFTOVER.fullmatch(entry.name)
        if m is None or not entry.is_file(follow_symlinks=False) or _running(int(m.group(1))):
            continue
        try:
            os.unlink(entry.path)
        except FileNotFoundError:
            continue
        removed.append(Path(entry.path))
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # someone else's process, or no such number
        return True
    return True


class Fixed(NamedTuple):
    """One index ``fix`` wrote (or would have, but for the caps), and what it changed there."""

    path: str
    changes: Changes
    past_cap: tuple[str, ...]  # memory files whose new entry agents never load
    written: bool = True


class Planned(NamedTuple):
    """What ``fix`` would write to one index, and from what."""

    text: bytes
    plan: Plan
    existing: str | None
    memories: list[Memory]
    exists: Exists
    unchanged: bool = False  # nothing to write, but entries that do not fit (plan.refused)
    usage: tuple[int, int] = (0, 0)  # the index's lines and bytes now, as the caps count them


def planned(ws: Workspace, store: Store) -> Planned | None:
    """What ``fix`` would write to the store's index; None when it is right already
    and nothing is left out for want of room (or unreadable: reported by IDX011,
    never overwritten)."""
    from memcheck.index.caps import cap_usage
    from memcheck.index.plan import changes_of
    from memcheck.index.store import index_elsewhere, odd_index, store_exists, store_memories, store_plan

    current: bytes | None = None
    existing: str | None = None
    usage = (0, 0)
    if odd_index(ws, store.index) is not None or (store.has_index and os.path.islink(ws.root / store.index)):
        return None  # never written through, never replaced: IDX011 and IDX013 say so
    if not store.has_index and not (ws.staged is not None and _on_disk(ws, store)) and index_elsewhere(ws, store) is not None:
        return None  # no second index beside the store's own, one folder away: IDX001 says where
    doc = _index_written_over(ws, store)
    if doc is not None:
        if doc.error is not None:
            return None
        existing = doc.text
        usage = cap_usage(doc)
        # Without a BOM or CRLF, the decoded text encodes back to the file's exact
        # bytes: no second read. With either, the normalised plan always differs.
        current = None if doc.bom or doc.crlf else existing.encode("utf-8")
    memories = store_memories(ws, store)
    exists = store_exists(ws, store)
    plan = store_plan(ws, store, existing, memories)
    new = plan.text.encode("utf-8")
    if new == current and not plan.refused:
        return None
    changes = changes_of(plan, existing, memories, exists)
    if changes.added or changes.removed or changes.repointed or changes.refused:
        withheld, kept = _not_to_fix(ws, store, existing, memories, exists, changes)
        if withheld or kept:
            memories = [m for m in memories if m.filename not in withheld]
            exists = _also_existing(exists, kept)
            plan = store_plan(ws, store, existing, memories, exists)
            new = plan.text.encode("utf-8")
            if new == current and not plan.refused:
                return None
    return Planned(new, plan, existing, memories, exists, new == current, usage)


def _not_to_fix(
    ws: Workspace, store: Store, existing: str | None, memories: Sequence[Memory], exists: Exists, changes: Changes
) -> tuple[set[str], set[str]]:
    """What fix leaves alone, as ruff's fixes do: only a finding that is reported is
    fixed. An unlisted memory whose IDX003 is off (select, ignore, per-path-ignores)
    or suppressed (``memcheck-disable-file IDX003`` in it) is not added; a dead
    entry whose IDX002 is off or suppressed is neither removed nor re-pointed.
    Returns (memory file names not to add, store-relative paths to keep as if they
    existed).

    Each change is asked as the finding check reports for it (same file, line and
    code), through the same selection and suppression comments."""
    from memcheck import suppression
    from memcheck.checks.index.links import IDX002
    from memcheck.checks.index.unlisted_memory import IDX003
    from memcheck.config import selected
    from memcheck.engine.finish import drop_path_ignores
    from memcheck.index.survey import survey
    from memcheck.text import document

    index = document.parse(store.index, (existing or "").encode("utf-8"))
    last_line = max(len(index.lines) - (1 if index.text.endswith("\n") else 0), 1)
    added = {join(store.folder, name): name for name in [*(name for name, _line in changes.added), *changes.refused]}
    asked = [IDX003.at(store.index, last_line, 1, "unlisted", about=path) for path in added]
    dead = survey(existing, memories, exists).dead if existing is not None and (changes.removed or changes.repointed) else {}
    asked += [IDX002.at(store.index, line, col, "dead") for line, col in dead]
    enabled = selected([IDX002.code, IDX003.code], ws.config)
    documents = {p: ws.document(p) for p in added}
    documents[store.index] = index
    left = suppression.apply([p for p in asked if p.code in enabled], documents, enabled)
    reported = drop_path_ignores({p for p in left if p.code in (IDX002.code, IDX003.code)}, ws.config)
    addable = {p.about for p in reported if p.code == IDX003.code}
    withheld = {name for path, name in added.items() if path not in addable}
    fixable = {(p.line, p.col) for p in reported if p.code == IDX002.code}
    return withheld, {d.path for at, d in dead.items() if at not in fixable}


def _also_existing(exists: Exists, kept: set[str]) -> Exists:
    return lambda path: path in kept or exists(path)


def _index_written_over(ws: Workspace, store: Store) -> Document | None:
    """The index as fix would overwrite it. Judging the staged tree, that is the file
    on disk, staged or not: a MEMORY.md edited since it was staged, or never added,
    keeps what its user wrote."""
    from memcheck.text import document

    if ws.staged is not None and _on_disk(ws, store):
        return document.read(ws.root, store.index)
    return ws.document(store.index) if store.has_index else None


def _on_disk(ws: Workspace, store: Store) -> bool:
    return (ws.root / store.index).is_file()


def fix_store(ws: Workspace, store: Store) -> Fixed | None:
    """Rewrite the store's index if it differs from its plan; what it did, if it wrote
    or left entries out for want of room."""
    from memcheck.index.caps import cap_lines, loaded_lines
    from memcheck.index.plan import changes_of

    new = planned(ws, store)
    if new is None:
        return None
    if not new.unchanged:
        atomic_write(safe_target(ws.root, store.index), new.text)
    changes = changes_of(new.plan, new.existing, new.memories, new.exists)
    cfg = ws.config.index
    loaded = loaded_lines(cap_lines(new.plan.text), cfg.max_lines, cfg.max_bytes)
    return Fixed(store.index, changes, tuple(name for name, line in changes.added if line > loaded), not new.unchanged)


def unified_diff(ws: Workspace, store: Store, new: bytes) -> str:
    """What writing ``new`` would change, as ``git diff`` shows it (``a/`` and ``b/``
    prefixes, ``/dev/null`` for a new index, the "No newline" marker)."""
    import difflib

    there = store.has_index or (ws.staged is not None and _on_disk(ws, store))
    old = (ws.root / store.index).read_bytes() if there else b""
    a = old.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    b = new.decode("utf-8").splitlines(keepends=True)
    where = store.index
    lines = difflib.unified_diff(a, b, "a/" + where if there else "/dev/null", "b/" + where)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def run(
    paths: Sequence[str],
    fmt: str,
    config_file: str | None,
    options: LintOptions,
    *,
    diff: bool = False,
    exit_non_zero_on_fix: bool = False,
    verbose: bool = False,
    timing: Timing | None = None,
) -> int:
    """The command as the command line gives it: settings and scope from the options,
    then ``fix``. ``verbose``, or a ``timing`` begun earlier (``check --fix -v``):
    say on standard error what was read, and how long each step took."""
    if timing is None and verbose:
        timing = Timing()
    settings, scope = resolve(config_file, paths, options)
    if timing is None and not diff and none_given(settings, scope):  # (--diff prints nothing then, as it did)
        return options.verdict(
            nothing_to_fix(
                settings,
                scope.paths,
                fmt,
                output_file=options.output_file,
                since=scope.since,
                display=options.display(),
                changed=options.changed,
            )
        )
    # As check lists them (see hooks/check.py): a hook run on memory files lists their
    # folders only, so the hooks of one commit judge the same tree, and fix finds in
    # the cache what check --changed has just worked out.
    folders = None
    since = scope.since
    if scope.paths and not scope.deleted:
        from memcheck.workspace.selection import hook_folders

        folders = hook_folders(settings, scope.paths)
        if since is not None and folders is not None:
            since = since._replace(folders=tuple(folders))
    code = fix(
        settings,
        scope.paths,
        fmt,
        exit_non_zero_on_fix,
        deleted=scope.deleted,
        diff=diff,
        output_file=options.output_file,
        staged=scope.staged,
        since=since,
        display=options.display(),
        timing=timing,
        changed=options.changed,
        folders=folders,
    )
    return options.verdict(code)


def fix(
    config: Config,
    paths: Sequence[str] | None,
    fmt: str = "text",
    exit_non_zero_on_fix: bool = False,
    *,
    deleted: Sequence[str] = (),
    diff: bool = False,
    output_file: str | None = None,
    staged: StagedFiles | None = None,
    since: Since | None = None,
    display: Display = DEFAULT_DISPLAY,
    timing: Timing | None = None,
    changed: bool = False,
    folders: Sequence[str] | None = None,
) -> int:
    """``folders``: list only these (a hook run on memory files: see selection.hook_folders)."""
    from memcheck.engine.cache import start
    from memcheck.engine.collect import collect, find
    from memcheck.engine.since import collect_since
    from memcheck.engine.targets import looked_at, targets_for
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.disk import DiskSource, StagedSource
    from memcheck.workspace.targets import Targets

    def source() -> DiskSource:
        from memcheck import git

        listing = git.FileListing(config.root, folders, cached_only=staged is not None, indexed=None if staged is None else staged.files)
        return DiskSource(config.root, listing=listing) if staged is None else StagedSource(staged, listing)

    first: DiskSource | None = None
    if paths is not None and not paths and not deleted:
        targets = Targets([], [], [])  # a change that touches nothing
        ws = Workspace(config, DiskSource(config.root, files=[]))
    else:
        first = source()
        ws = start(Workspace(config, first))
        targets = targets_for(ws, paths, deleted=deleted)
    # Each store's check, kept by the commit's check hook just before: where it found
    # nothing to fix, the index is not planned again. Asked before anything is written.
    cache = _cache(ws) if since is not None else None
    in_order = {store.folder for store in targets.stores if cache is not None and _in_order(cache, store)}
    checked = looked_at(ws, targets, given_scope(config, paths, changed))
    if timing is not None:
        show(notes(ws, paths, deleted))
        timing.lap("config and discovery")
    if diff:
        code = _show_diff(ws, targets, output_file)
        if timing is not None:
            timing.lap("diff")
            show(timing.lines())
        return code
    fixed: list[Fixed] = []
    found: set[Problem] = set()
    for store in targets.stores:
        for leftover in remove_leftovers(ws.root / store.folder):
            first = None  # the tree listed is not the tree now
            print(f"memcheck: removed {shown(leftover.relative_to(ws.root).as_posix())}, left by an interrupted fix", file=sys.stderr)
        try:
            done = None if store.folder in in_order else fix_store(ws, store)
            if done is not None:
                fixed.append(done)
        except (UnsafeWrite, Refused, OSError) as e:
            print(f"memcheck: not fixing {shown(store.index)}: {escaped(str(e))}", file=sys.stderr)
        if not any(f.written for f in fixed) and since is None:
            # Nothing written yet: the documents just read are still the tree, so
            # check the store now instead of reading it again (find() drops them).
            found |= find(ws, Targets([store], [], []))
        ws.forget(store.all_files)
    written = [f for f in fixed if f.written]
    older = None
    fails = False
    if since is not None:
        # What is left, and only what the change brings: the tree as fix left it
        # (judging the commit: with the indexes fix wrote), read again.
        if staged is not None:
            staged.written.update(f.path for f in written)
        # Nothing written or removed: the tree is the one already listed (and keyed, see FileKeys.of).
        left = collect_since(config, source() if written or first is None else first, since, paths, deleted)
        problems, fails = left.problems, left.fails
        older = Older(since.ref, left.older, config.baseline) if since.compare else None
    elif written:
        # Read the tree again after a write: what is left is what the user sees now
        # (judging the commit: with the indexes fix wrote, which the user stages next).
        if staged is not None:
            staged.written.update(f.path for f in written)
        after = start(Workspace(config, source()))
        problems = collect(after, targets_for(after, paths, deleted=deleted))
    else:
        problems = finish(config, found | find(ws, Targets([], targets.guidance, targets.skills, targets.configs)))
    if timing is not None:
        timing.lap("fix and checks")
    with destination(output_file, config.root) as out:
        changes = {f.path: describe(f, config) for f in fixed}
        report(
            problems,
            fmt,
            out,
            fixed=[f.path for f in written],
            command="fix",
            changes=changes,
            older=older,
            fail_on=config.fail_on,
            display=display,
            checked=checked,
        )
        if written and exit_non_zero_on_fix and resolve_format(fmt) == "text":
            # The memcheck-fix hook fails for what it wrote: say why, and what to do next.
            import shlex  # (only here: not at every commit's start-up)

            names = " ".join(shlex.quote(f.path) for f in written)
            out.write(
                f"memcheck fix wrote {len(written)} file{'s' * (len(written) != 1)}, so it fails this run: `git add {names}` and commit again.\n"
            )
    if timing is not None:
        timing.lap("output")
        show(timing.lines())
    # An entry fix added where agents never read it is not a fix, and one it could not
    # add for want of room is not either: say so, and fail, whatever rules are selected
    # (but not where the run asked never to fail: a CI step with `--fail-on never`).
    if (
        fails
        or failing(problems, config.fail_on)
        or (config.fail_on != "never" and any(f.past_cap or f.changes.refused for f in fixed))
        or (written and exit_non_zero_on_fix)
    ):
        return 1
    return 0


def _cache(ws: Workspace) -> Cache | None:
    from memcheck.engine.collect import kept_run

    return kept_run(ws)


def _in_order(cache: Cache, store: Store) -> bool:
    """The check of this very store, kept from an earlier run (the commit's own check
    hook, just before), found nothing fix fixes: planning its index again would only
    find it right. (fix fixes what check reports, and nothing else: see _not_to_fix.)"""
    from memcheck.workspace.targets import Targets

    found = cache.lookup(Targets([store], [], []))
    if found is None:
        return False
    mine = {*store.files, store.index}
    return not any(p.fixable and (p.path in mine or p.about in mine) for p in found)


def nothing_to_fix(
    config: Config, paths: Sequence[str] | None, fmt: str, *, output_file: str | None, since: Since | None, display: Display, changed: bool
) -> int:
    """``fix`` where no path could be an agent file (see options.none_given): no index
    to write, and nothing to report but what a baseline that cannot be read brings,
    as ``fix`` reports it."""
    problems = finish(config, set())
    older = Older(since.ref, 0, config.baseline) if since is not None and since.compare else None
    checked = Checked(0, 0, 0, 0, given_scope(config, paths, changed))
    with destination(output_file, config.root) as out:
        report(
            problems, fmt, out, fixed=[], command="fix", changes={}, older=older, fail_on=config.fail_on, display=display, checked=checked
        )
    return 1 if failing(problems, config.fail_on) else 0


def describe(fixed: Fixed, config: Config) -> FixRecord:
    """What ``fix`` did to one index, for the reporters."""
    cap = config.index
    return {**changes_record(fixed.changes), "past_cap": list(fixed.past_cap), "caps": {"lines": cap.max_lines, "bytes": cap.max_bytes}}


def changes_record(changes: Changes) -> FixRecord:
    return {
        "added": sorted(name for name, _line in changes.added),
        "repointed": [{"from": old, "to": new} for old, new in changes.repointed],
        "removed": list(changes.removed),
        "rewrote": list(changes.rewrote),
        "filled": list(changes.filled),
        "refused": list(changes.refused),
    }


def _show_diff(ws: Workspace, targets: Targets, output_file: str | None) -> int:
    """``fix --diff``: print what fix would write, write nothing; 1 when there is
    something to fix. The count goes to standard error, so the diff alone can be
    piped to ``git apply``."""
    changed = refused = 0
    cfg = ws.config.index
    with destination(output_file, ws.root) as out:
        for store in targets.stores:
            new = planned(ws, store)
            if new is not None:
                out.write(usage_line(store.index, new.usage, new.plan, (cfg.max_lines, cfg.max_bytes)) + "\n")
                if not new.unchanged:
                    out.write(unified_diff(ws, store, new.text))
                    changed += 1
                refused += bool(new.plan.refused)
            ws.forget(store.all_files)
    if changed:
        print(f"memcheck: fix would rewrite {changed} index{'es' if changed != 1 else ''}", file=sys.stderr)
    return 1 if changed or refused else 0


def usage_line(path: str, before: tuple[int, int], plan: Plan, caps: tuple[int, int]) -> str:
    """``MEMORY.md: 181 → 196 lines of 200, 14,210 → 15,002 bytes of 25,000``, and the
    entries that do not fit. One line, starting with the index's path: ``git apply``
    and ``patch`` pass over it."""
    from memcheck.index.caps import cap_lines

    after = (len(cap_lines(plan.text)), len(plan.text.encode("utf-8")))
    line = f"{shown(path)}: {before[0]:,} \u2192 {after[0]:,} lines of {caps[0]:,}, {before[1]:,} \u2192 {after[1]:,} bytes of {caps[1]:,}"
    if plan.refused:
        n = len(plan.refused)
        names = ", ".join(shown(name) for name in plan.refused[:5]) + (f" and {n - 5} more" if n > 5 else "")
        line += f"; {n} new {'entry does' if n == 1 else 'entries do'} not fit: {names}"
    return line
