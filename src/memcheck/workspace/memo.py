"""The keys of ``Workspace.once`` (see workspace/derived.py), and what a value is worked
out from.

A key is the module-level function that works the value out: its name is the key's,
its return type the value's (``ws.once(f)`` has the type ``f`` returns), and a
misspelt key is a name that does not exist. A value worked out from the listing, the
skills or the agents' reading of the tree alone says so where its function is defined
(``@kept_with(LISTING)``): the decorator makes the function a ``Kept`` key, which
carries its basis, so that a workspace made again on the same listing, skills or
reading (the language server makes one per edit) takes the value over instead of
working it out again. A basis is a ``Basis``, never a string: a misspelt one is an
import error, and mypy refuses a string.

No memcheck imports: the modules that declare a basis sit in several layers."""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

W = TypeVar("W")  # the workspace a key is asked of
T = TypeVar("T")  # the value it gives


class Basis:
    """What a kept ``once`` value is worked out from, and nothing else."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<basis {self.name}>"


LISTING = Basis("listing")  # the listing and the settings alone (see Workspace.reuse_listing)
SKILLS = Basis("skills")  # those, and the skills' files (see Workspace.reuse_skills)
MODEL = Basis("model")  # the agents' reading of the tree (see server/guidance_memo.py)


class Kept(Generic[W, T]):
    """A ``once`` key whose value is worked out from ``basis`` alone: called as the
    function it was made from, and found under that function's name."""

    def __init__(self, compute: Callable[[W], T], basis: Basis) -> None:
        self.compute = compute
        self.basis = basis
        # What a reader, a traceback and Workspace's key check see: the function's names.
        self.__name__ = compute.__name__
        self.__qualname__ = compute.__qualname__
        self.__module__ = compute.__module__
        self.__doc__ = compute.__doc__

    def __call__(self, ws: W) -> T:
        return self.compute(ws)

    def __repr__(self) -> str:
        return f"<once key {self.__module__}.{self.__qualname__}, kept with {self.basis.name}>"


def kept_with(basis: Basis) -> Callable[[Callable[[W], T]], Kept[W, T]]:
    """Make a module-level ``once`` function a key worked out from ``basis`` alone."""
    if not isinstance(basis, Basis):  # a string would never match, and the value never be taken over
        raise TypeError(f"kept_with takes a Basis (LISTING, SKILLS, MODEL), not {basis!r}")

    def mark(compute: Callable[[W], T]) -> Kept[W, T]:
        return Kept(compute, basis)

    return mark


def basis_of(key: object) -> Basis | None:
    """The basis a ``once`` key was declared with (see kept_with), None for none."""
    return key.basis if isinstance(key, Kept) else None
