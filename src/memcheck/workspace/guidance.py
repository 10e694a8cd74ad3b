"""Guidance files (AGENTS.md, CLAUDE.md, ...: ``guidance.filenames``), one per file
however many names it has: a symlinked twin (CLAUDE.md -> AGENTS.md) is the file
it leads to."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memcheck.agents import kind_of
from memcheck.paths import basename, join, parent
from memcheck.records import NamedTuple
from memcheck.workspace.skills import in_skill_folder

if TYPE_CHECKING:
    from memcheck.workspace.files import Files


class Guidance(NamedTuple):
    files: tuple[str, ...]  # one per symlinked set
    twins: dict[str, str]  # a path that is a symlink to another guidance file -> that file
    # Symlinks to a file outside the root: agents read them, memcheck does not follow
    # them (they are in ``files`` all the same).
    outside: frozenset[str]
    # Outside a git work tree, files whose whole text is another guidance file's path:
    # a symlink checked out as text, or a file saying just that; with no index to
    # tell, memcheck claims neither.
    unsure: frozenset[str]


def find_guidance(ws: Files) -> Guidance:
    filenames = ws.config.guidance.filenames
    order = {n: i for i, n in enumerate(filenames)}
    found: list[str] = []
    links: set[str] = set()
    outside: list[str] = []
    small: set[str] = set()  # regular files of at most 255 bytes: maybe a link checked out as text
    by_real: dict[str, list[str]] = {}
    # A guidance file inside a skill's folder is one of the skill's files, read when
    # the skill is used, not as the instructions of its folder.
    skill_folders = ws.skill_folders
    for path in sorted(
        path for path in ws.files if kind_of(path, filenames) is not None and not in_skill_folder(parent(path), skill_folders)
    ):
        entry = ws.source.entry(path)
        if entry is None:
            continue
        found.append(path)
        if entry.kind == "link":
            links.add(path)
        elif entry.kind == "outside":
            outside.append(path)  # known (agents read it), never read
        elif entry.size is not None and entry.size <= 255:
            small.add(path)
        by_real.setdefault(entry.real, []).append(path)
    twins: dict[str, str] = {}
    for group in by_real.values():
        if len(group) > 1:
            # The real file is the one agents edit; else the name agents prefer.
            group.sort(key=lambda p: (p in links, order.get(basename(p), len(order)), p))
            twins.update((p, group[0]) for p in group[1:])
    listed = set(found)
    # A symlink checked out as text holds its target's path; a file that merely says
    # "AGENTS.md" is its own text. Only git's index tells them apart (mode 120000):
    # asked once, for the small files whose text names another guidance file.
    as_text = {
        path: target for path in sorted(small) if (target := _link_as_text(ws, path)) is not None and target in listed and target != path
    }
    unsure: frozenset[str] = frozenset()
    if as_text and ws.in_git:
        links_in_index = ws.source.git_symlinks(sorted(as_text))
        for path, target in as_text.items():
            if path in links_in_index and twins.get(target) != path:
                twins[path] = twins.get(target, target)
    elif as_text:
        # No index to ask (an export, an unpacked archive): either may be true.
        unsure = frozenset(as_text)
    return Guidance(tuple(p for p in found if p not in twins), twins, frozenset(outside), unsure)


def _link_as_text(ws: Files, path: str) -> str | None:
    """The path a symlink names when git checked it out as a plain file (its whole
    content is the target, without a newline: core.symlinks=false, Windows)."""
    text = ws.document(path).text
    if not text or "\n" in text or text != text.strip():
        return None
    return os.path.normpath(join(parent(path), text)).replace(os.sep, "/")
