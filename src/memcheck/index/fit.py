"""The caps come first: how much of what ``fix`` would add to an index fits.

Agents read the first ``index.max-lines`` lines of MEMORY.md, up to
``index.max-bytes``. ``fix`` never takes an index over a cap, and never pushes a line
agents read today past one: of the changes that add lines or bytes, it makes as many
as fit, in the order they matter, and names the rest. Each such change only adds, so
the texts grow with their number, and a bisection finds the most that fit in a
logarithmic number of builds, each linear in the index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence, Tuple, TypeVar

from memcheck.index.order import by_worth
from memcheck.index.render import render
from memcheck.index.survey import survey

if TYPE_CHECKING:
    from memcheck.index.memory import Exists, Memory

Built = TypeVar("Built", bound=Tuple[str, object])  # a text and what it is made of


def fit(build: Callable[[int], Built], total: int, caps: tuple[int, int] | None, trimmed: bool = True) -> tuple[int, Built]:
    """The most changes (``build(k)``, k from 0 to ``total``) whose text fits the
    caps (lines, bytes), and what ``build`` made of them: all when the whole fits or
    there are no caps, none when even the text without them does not.
    ``trimmed``: the text is written without its trailing blank lines."""
    best = build(total)
    if caps is None or fits(best[0], caps, trimmed):
        return total, best
    low, low_built = 0, build(0)
    if not fits(low_built[0], caps, trimmed):
        return 0, low_built
    high = total  # does not fit
    while high - low > 1:
        mid = (low + high) // 2
        built = build(mid)
        if fits(built[0], caps, trimmed):
            low, low_built = mid, built
        else:
            high = mid
    return low, low_built


def fits(text: str, caps: tuple[int, int], trimmed: bool = True) -> bool:
    """Whether the text, as written (one final newline), is within the caps."""
    if trimmed:
        text = text.rstrip("\n") + "\n" if text.strip() else ""
    open_end = 1 if text and not text.endswith("\n") else 0
    return text.count("\n") + open_end <= caps[0] and len(text.encode("utf-8")) + open_end <= caps[1]


def fitted_render(
    style: str,
    memories: Sequence[Memory],
    types: Sequence[str],
    caps: tuple[int, int] | None,
    old: str | None,
    exists: Exists,
    store_folder: str = "",
    trimmed: bool = True,
) -> tuple[str, tuple[str, ...]]:
    """The render of the memories as far as it fits the caps, and the memories left
    out. The memories the old text lists keep their entries (the render is theirs);
    the others come in the order a curator would give them room (see
    ``order.by_worth``: the lessons and the newest first), as many as fit."""
    text = render(style, memories, types)
    if caps is None or fits(text, caps, trimmed):
        return text, ()
    listed = survey(old, memories, exists, store_folder=store_folder).listed if old else frozenset()
    kept = [m for m in memories if m.filename in listed]
    new = by_worth([m for m in memories if m.filename not in listed])
    k, (text, _) = fit(lambda k: (render(style, [*kept, *new[:k]], types), None), len(new), caps, trimmed)
    return text, tuple(m.filename for m in new[k:])
