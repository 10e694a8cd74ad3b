"""What the cache knows content by (see engine/cache.py): each file's key, without
reading it where git's index or a commit's tree says what it holds, and memcheck's
own code and libraries, whose change makes every entry another's."""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from memcheck import __version__, git
from memcheck.digests import sha1
from memcheck.engine.cache_folder import git_dir
from memcheck.text.blobs import content_key
from memcheck.workspace.tracking import untracked

if TYPE_CHECKING:
    from memcheck.workspace.source import Source

FORMAT = 1  # the layout of an entry; another one is a miss
_REGULAR = ("100644", "100755")


_CODE_DIGEST: str | None = None


def code_digest() -> str:
    """memcheck's version and the size and time of each of its files (code, agent
    facts, schema, defaults): an edited copy never takes another copy's entries."""
    global _CODE_DIGEST
    if _CODE_DIGEST is None:
        top = Path(__file__).resolve().parent.parent
        h = sha1(f"{__version__}\0{FORMAT}\0{sys.version}".encode())
        # The libraries whose answers become findings (PyYAML and whether its C parser is
        # there, pathspec, re2): their files' sizes and times, found without importing them.
        for name in ("yaml", "pathspec", "re2", "_re2"):
            spec = importlib.util.find_spec(name)
            places = [spec.origin] if spec is not None and spec.origin else []
            if spec is not None and spec.submodule_search_locations:
                for folder in spec.submodule_search_locations:
                    places += sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith((".py", ".so", ".pyd")))
            for place in places:
                try:
                    st = os.stat(place)
                except OSError:
                    continue
                h.update(f"{place}\0{st.st_size}\0{st.st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
        for line in sorted(_code_files(str(top), ".")):
            h.update(line.encode("utf-8", "surrogateescape"))
        _CODE_DIGEST = h.hexdigest()
    return _CODE_DIGEST


class FileKeys:
    """The content key of each file of a source, without reading it where git knows it."""

    def __init__(self, source: Source) -> None:
        self.source = untracked(source)
        self._known: dict[str, str] = {}
        # Files fix wrote in this run, which the staged tree reads from the disk (see
        # StagedFiles.written): their index entries are what they were before.
        self._written = self.source.staged.written if self.source.staged is not None else frozenset()

    @classmethod
    def of(cls, source: Source) -> FileKeys:
        """The keys of the files of ``source`` (of the source a tracked one reads),
        shared by every workspace over it: one reading of git's index for discovery's
        cache and the parts', and for the second workspace of a fix that wrote nothing
        (two git processes, of the ten of a warm `fix --changed`)."""
        inner = untracked(source)
        found = getattr(inner, "_file_keys", None)
        if not isinstance(found, FileKeys):
            found = cls(inner)
            try:
                inner._file_keys = found  # type: ignore[attr-defined]  # a memo of the source's: see above
            except AttributeError:  # a source that takes no attribute: keys for this workspace only
                pass
        return found

    @cached_property
    def _by_git(self) -> dict[str, str]:
        """Asked of git the first time a key is: a first run, whose every file is read
        anyway, never asks."""
        return self._blob_ids()

    def _blob_ids(self) -> dict[str, str]:
        from memcheck.workspace.disk import DiskSource, StagedSource
        from memcheck.workspace.tree import TreeSource

        source = self.source
        if isinstance(source, TreeSource):
            return {p: e.blob for p, e in source._entries.items() if e.mode in _REGULAR}
        if not isinstance(source, DiskSource) or not source.listing().by_git:
            return {}
        root = source.root
        staged = isinstance(source, StagedSource)
        if _converts(root, source.listing().files):
            # The disk's bytes may not be the blob's while git calls them the same: key
            # every file by what reading it gives (a slower cache, never a wrong one).
            return {}
        # -v: a file git is told not to look at (assume-unchanged, skip-worktree) is
        # marked, and its index entry says nothing of what is on disk.
        out = source.staged.records if source.staged is not None else git.index_records(root)
        # What differs on disk from the index (edited, deleted, a file now a link):
        # read from the disk, not keyed by the index, unless the staged tree is judged.
        differs = b"" if staged else git.plain(root, ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"])
        if out is None or differs is None:
            return {}
        dirty = set(differs.decode("utf-8", "surrogateescape").split("\0"))
        found: dict[str, str] = {}
        for record in out.decode("utf-8", "surrogateescape").split("\0"):
            head, _, path = record.partition("\t")
            fields = head.split(" ")
            if len(fields) == 4 and fields[0] == "H" and fields[1] in _REGULAR and fields[3] == "0" and path not in dirty:
                found[path] = fields[2]
        return found

    def key(self, path: str) -> str:
        """The key of the file at ``path`` now: git's blob id where git's index holds
        it and says the disk agrees (see _blob_ids), else that of what reading it gives.
        (A file git converts on its way in, line endings or a filter, reads as other
        bytes than its blob: its entries are never found, and it is checked each run.)"""
        known = self._known.get(path)
        if known is None:
            blob = self._by_git.get(path)
            if blob is not None and path not in self._written:
                known = "b" + blob
            else:
                known = content_key(self.source.read(path))
            self._known[path] = known
        return known


def _code_files(folder: str, where: str) -> list[str]:
    """Each file of memcheck's own below ``folder`` (shown as ``where``) that a run reads
    (code, agent facts, schema, defaults), with its size and time: one ``scandir`` a
    folder, whose entries give the kind of each without asking again, and the bytecode
    folders never entered (1.7 ms for the package's 283 files, where ``os.walk`` and a
    ``stat`` each took 3.5). A linked folder is not followed, as ``os.walk`` does not."""
    found: list[str] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if entry.is_dir():
                if name != "__pycache__" and not entry.is_symlink():
                    found += _code_files(entry.path, name if where == "." else f"{where}/{name}")
            elif name.endswith((".py", ".json", ".toml", ".yaml")):
                try:
                    st = entry.stat()
                except OSError:  # a dangling link: no file to key
                    continue
                found.append(f"{where}/{name}\0{st.st_size}\0{st.st_mtime_ns}\0")
    return found


def _converts(root: Path, files: Sequence[str]) -> bool:
    """Whether git may change a file's bytes on their way into a blob, so that a file
    it calls unchanged holds other bytes than its blob: an attributes file (a
    `.gitattributes` in the tree, the repository's info/attributes, the user's), or
    settings that convert line endings or run filters."""
    if any(f == ".gitattributes" or f.endswith("/.gitattributes") for f in files):
        return True
    # A hook's listing holds the changed files' folders only: an attributes file that
    # applies to them is in one of their folders or above, listed or not (the root's, for
    # `*.md text eol=crlf`, is the usual one).
    if any(os.path.lexists(os.path.join(root, folder, ".gitattributes")) for folder in _folders_above(files)):
        return True
    found_git = git_dir(root)
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    if (found_git is not None and (found_git / "info" / "attributes").exists()) or os.path.exists(
        os.path.join(config_home, "git", "attributes")
    ):
        return True
    settings = git.plain(root, git.CONVERSIONS)
    if settings is None:  # none set (git exits 1), or no git: nothing converts
        return False
    return any(line and line.lower() != b"core.autocrlf false" for line in settings.splitlines())


def _folders_above(files: Sequence[str]) -> set[str]:
    """Every folder that holds one of ``files``, and every folder above them, the root ("") included."""
    found = {""}
    for path in files:
        folder = path.rpartition("/")[0]
        while folder and folder not in found:
            found.add(folder)
            folder = folder.rpartition("/")[0]
    return found
