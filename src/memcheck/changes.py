"""What guard's rules judge: one path a change touched, as plain data.

git.py makes these from git's raw diff format, guard/named.py from paths named on the
command line; guard/findings judges them without asking git anything, so its rules
are tested on values written by hand.
"""

from __future__ import annotations

from memcheck.records import NamedTuple

SYMLINK_MODE = "120000"
GITLINK_MODE = "160000"  # a submodule: a folder in the tree
TREE_MODE = "040000"  # a folder
NO_MODE = "000000"  # the path does not exist on that side of the change
TAGGED_BLOB = "tag"  # the status of a tag on a blob, judged as a file of the tag's name
TRACKED = "tracked"  # the status of a tracked file judged as the tree holds it (`pre-commit run --all-files`)


class Change(NamedTuple):
    """One path a change touched."""

    status: str  # git's letter: A C D M R T U X; "" for a path named on the command line; TAGGED_BLOB; TRACKED
    path: str  # the path after the change (the only one, except for R and C)
    source: str = ""  # R and C: the path it was renamed or copied from
    old_mode: str = ""
    new_mode: str = ""
    new_blob: str = ""  # what git stores at ``path`` after the change (a symlink's target)
    commit: str = ""  # the commit that made the change, when judging history
    target: str | None = None  # a symlink's target as the link holds it, once read
    merge: bool = False  # made by a merge commit: differs from every parent
    ref: str = ""  # at pre-push, the local ref a commit was found through, when it is a guess
    net: bool = False  # a range's net change (``commit`` its head), where no commit of it shows the change
    via: str = ""  # a tracked symlink to a folder: the change seen at the path through it
    real: str = ""  # with ``via``: the path the change really touched

    @property
    def is_symlink(self) -> bool:
        return self.new_mode == SYMLINK_MODE

    @property
    def is_directory(self) -> bool:
        return is_directory_mode(self.new_mode)


def is_directory_mode(mode: str) -> bool:
    return mode in (GITLINK_MODE, TREE_MODE)


def absent(mode: str) -> bool:
    return mode in ("", NO_MODE)
