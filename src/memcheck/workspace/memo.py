"""What a ``Workspace.once`` value is worked out from, declared where its function is
defined (``@kept_with(LISTING)``), so that a workspace made again on the same listing,
skills or reading of the tree (the language server makes one per edit) takes the
value over instead of working it out again. No imports: the modules that declare a
basis sit in several layers."""

from __future__ import annotations

from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable[..., object])

LISTING = "listing"  # the listing and the settings alone (see Workspace.reuse_listing)
SKILLS = "skills"  # those, and the skills' files (see Workspace.reuse_skills)
MODEL = "model"  # the agents' reading of the tree (see server/guidance_memo.py)


def kept_with(basis: str) -> Callable[[F], F]:
    """Mark a module-level ``once`` function as worked out from ``basis`` alone."""

    def mark(compute: F) -> F:
        setattr(compute, "kept_with", basis)  # noqa: B010 (an attribute of a function object)
        return compute

    return mark


def basis_of(key: object) -> str | None:
    """The basis a ``once`` key was declared with (see kept_with), None for none."""
    return getattr(key, "kept_with", None)
