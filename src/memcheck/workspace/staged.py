"""The tree a commit made now would hold (git's index, and what fix wrote), and the
paths a change touches. Light to import: ``--changed`` asks these before git lists
the files (the source that reads them is ``disk.StagedSource``).

The hooks judge that, not the work tree: agents write memory files all the time, and
an untracked one is not in the commit (an index entry for it would be dead in every
clone), nor is an unstaged MEMORY.md. Under pre-commit, which stashes unstaged
changes before running hooks, the staged content is what is on disk; a bare
``memcheck check --changed`` reads what differs from git's index itself.
"""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import Mapping

from memcheck import git
from memcheck.paths import folders_of


class StagedFiles:
    """The files in git's index, with the content staged for them; and the files fix
    wrote, about to be staged. Made once per run and shared by its sources."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.written: set[str] = set()  # files fix wrote: about to be staged
        self._asked = 0  # index records asked for by path (see _record)

    @cached_property
    def records(self) -> bytes | None:
        """git's index, each file with its blob id (see git.index_records): the files
        listed, and the cache's keys of them (engine/content_keys), from one git process."""
        return git.index_records(self.root)

    @cached_property
    def files(self) -> frozenset[str]:
        return git.indexed_files(self.records)

    @cached_property
    def folders(self) -> frozenset[str]:
        return folders_of(self.files)

    @cached_property
    def unstaged(self) -> frozenset[str]:
        """Files whose copy on disk is not what is staged (edited or deleted since)."""
        return git.unstaged_files(self.root)

    def holds(self, path: str) -> bool:
        """``path`` (relative to the root, normalised) is a staged file or a folder of them."""
        return path in self.files or path in self.folders or path in self.written

    def has_file(self, path: str) -> bool:
        return path in self.files or path in self.written

    def reads_staged(self, path: str) -> bool:
        """The staged content of ``path`` is not on disk: read it from git's index."""
        return path in self.unstaged and path in self.files and path not in self.written

    def disk_holds_staged(self, path: str, key: str) -> bool | None:
        """Whether the bytes read from disk for ``path``, whose content key is ``key``
        (text/blobs.content_key), are the staged ones: their blob id is the one git's
        index holds. Asked before ``reads_staged``, whose git process (a ``git diff``
        that looks at every file of the tree) a commit's files then never need: under
        pre-commit, which stashes what is not staged, the disk holds the staged bytes.
        A file git converts on its way in (line endings, a filter) reads as other bytes
        than its blob, and is asked of git as before. None where the index holds no
        regular file there (a symlink, a conflict) or fix wrote it."""
        blob = None if path in self.written else self._staged_blob_id(path)
        return None if blob is None else key == f"b{blob}"

    def looked_away(self, path: str) -> bool:
        """Whether git is told not to look at the file on disk (``git update-index
        --assume-unchanged`` or ``--skip-worktree``, ``core.ignorestat``): git then calls
        it unchanged whatever the disk holds, and only its staged blob is the commit's."""
        record = self._record(path)
        return record is not None and (record[0] == b"S" or record[0].islower())

    def _staged_blob_id(self, path: str) -> str | None:
        """The blob id git's index holds for the regular file ``path`` (stage 0)."""
        record = self._record(path)
        if record is not None and record[1] in (b"100644", b"100755") and record[3] == b"0":
            return record[2].decode("ascii")
        return None

    def _record(self, path: str) -> list[bytes] | None:
        """The fields of git's index record of ``path`` (its tag, mode, blob id and
        stage: see git.index_records). The first few are found in ``records`` by a
        search of the bytes: a commit asks for one or two, and splitting every record of
        a large index would cost more than the git process this saves. A run that asks
        for more (a first run reads a whole store) splits them once: a search each
        would grow with the files read times the index's size."""
        if self._asked < _SEARCHED:
            self._asked += 1
            return self._searched(path)
        return self._records_by_path.get(path)

    @cached_property
    def _records_by_path(self) -> dict[str, list[bytes]]:
        found: dict[str, list[bytes]] = {}
        for record in (self.records or b"").split(b"\0"):
            head, tab, name = record.partition(b"\t")
            fields = head.split(b" ")
            if tab and len(fields) == 4:
                found.setdefault(name.decode("utf-8", "surrogateescape"), fields)
        return found

    def _searched(self, path: str) -> list[bytes] | None:
        records = self.records or b""
        needle = b"\t" + path.encode("utf-8", "surrogateescape") + b"\0"
        at = records.find(needle)
        while at >= 0:
            head = records[records.rfind(b"\0", 0, at) + 1 : at]
            if b"\t" not in head:  # the record's own tab, not one inside another path
                fields = head.split(b" ")
                return fields if len(fields) == 4 else None
            at = records.find(needle, at + 1)
        return None

    def staged_bytes(self, path: str) -> bytes | None:
        return git.staged_blob(self.root, path)


# The index records looked up by a search of git's listing before it is split whole.
_SEARCHED = 8


def staged_view(root: Path, env: Mapping[str, str]) -> StagedFiles | None:
    """The staged tree a ``--changed`` run judges; None when it judges a range of
    commits (PRE_COMMIT_FROM_REF/TO_REF), which runs on the work tree as pre-commit
    leaves it, or when root is not a work tree."""
    if env.get("PRE_COMMIT_FROM_REF") and env.get("PRE_COMMIT_TO_REF"):
        return None
    return StagedFiles(root) if os.path.exists(root / ".git") else None


def changed_paths(root: Path, env: Mapping[str, str]) -> list[str] | None:
    """The paths a change touches, as the lint hooks judge it; None for the whole tree.

    pre-commit hands a hook only the files a commit adds or modifies (it asks git
    with ``--diff-filter=ACMRTUXB``): a deleted memory, which leaves a dead index
    entry, never reaches it, and a long list is split into several runs. So the
    hooks take no file list and ask git here, every side of a change included
    (``--no-renames``: a rename is its source deleted and its target added):

    - pre-commit's ``PRE_COMMIT_FROM_REF`` and ``PRE_COMMIT_TO_REF`` (``pre-commit run
      --from-ref A --to-ref B``): what the commits from their merge base bring;
    - else the staged change;
    - with nothing staged: inside ``git commit`` (git sets ``GIT_INDEX_FILE`` for its
      hooks; a message-only ``--amend``) nothing, else (``pre-commit run --all-files``
      on a clean checkout, as CI and pre-commit.ci run it) the whole tree.
    """
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF", ""), env.get("PRE_COMMIT_TO_REF", "")
    if from_ref and to_ref:
        names = git.changed_names(root, [f"{from_ref}...{to_ref}"])
        if names is None:  # no merge base (unrelated histories): the two trees' difference, as pre-commit does
            names = git.changed_names(root, [from_ref, to_ref])
        if names is None:
            raise LookupError(f"cannot read the changes between {from_ref} and {to_ref}")
    else:
        names = git.changed_names(root, ["--cached"])
        if names is None:
            raise LookupError("cannot read the staged change")
        if not names and "GIT_INDEX_FILE" not in env:
            return None
    return names


def with_links(root: Path, names: list[str], staged: StagedFiles | None, env: Mapping[str, str]) -> list[str]:
    """``names`` (what a change touches) with the tracked symlinks that lead to one of
    them (``paths.links_to``): an edit to ``docs/guide.txt`` is an edit to the
    ``CLAUDE.md`` that links to it, and is judged as one. In the tree the hooks judge:
    git's index, or PRE_COMMIT_TO_REF's tree for a range."""
    if staged is not None and b" 120000 " not in (staged.records or b""):
        return names  # no link in git's index, as nearly every commit finds: no more git asked
    from memcheck import gitrefs
    from memcheck.paths import links_to

    to_ref = env.get("PRE_COMMIT_TO_REF") if staged is None else None
    links, _ = gitrefs.tracked_links(root, to_ref or None)
    return [*names, *links_to(names, links)] if links else names
