"""Memories of one store that say the same thing: the same body, or the same
description and nearly the same body.

Linear in the store: each body is normalised once (case folded, whitespace runs made
one space) and looked up in a dict of the bodies seen; near-duplicates are compared
only with the earlier memories of the same description (a bucket), never all pairs.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Sequence

from memcheck.records import NamedTuple

# How alike two bodies under one description must be, as difflib's ratio of their
# words (2 x matched words / all words). Measured on 598 memories of 225 folders
# (the corpus and five whole repositories): two different memories of one folder
# scored 0.17 at most (5,668 pairs); a real memory copied with a tenth of its words
# changed and a 12-word sentence added scored 0.80 or more in 99% of cases (589
# memories; median 0.88). 0.8 keeps the copies and leaves unrelated notes far below.
NEAR = 0.8
# Words of a body compared: difflib is quadratic in the worst case, and two bodies
# alike in their first thousand words under one description are one memory.
_WORDS = 1000
# Words a body needs to be judged: two three-word notes are alike by chance.
_FEWEST_WORDS = 4
# Earlier memories of the same description a memory is compared with: a store that
# gives hundreds of memories one description ("note") costs at most this many each.
_BUCKET = 16
# Word pairs difflib's full ratio may weigh in one store (the product of the two
# lengths, for each pair the cheap bounds let through). Bodies of a few words used
# over and over pass those bounds and cost the product each (0.09 s for two
# 1,000-word bodies): 200 memories so under one description took 150 s. Real stores
# let only their near-copies through; past this, a store's further near-copies go
# unreported (its identical bodies still are), and the run stays within about 0.5 s.
_RATIO_WORD_PAIRS = 5_000_000


class Duplicate(NamedTuple):
    path: str  # the later memory, by file name
    earlier: str  # the memory it repeats
    ratio: float  # 1.0 for the same body


def normalised(text: str) -> str:
    return " ".join(text.casefold().split())


class Alike(NamedTuple):
    """What ``duplicates_of`` compares of one memory."""

    path: str
    description: str
    start: str  # body_start of its body
    body: Callable[[], str]  # its body, asked only where its start or description matches another's


def duplicates(memories: Iterable[tuple[str, str, str]]) -> Iterator[Duplicate]:
    """Each memory (path, description, body), given in file-name order, that repeats
    an earlier one. Empty bodies repeat nothing (an empty memory is reported as
    such); descriptions are compared without case and surrounding space."""
    return duplicates_of([Alike(path, description, body_start(body), lambda body=body: body) for path, description, body in memories])  # type: ignore[misc]


def duplicates_of(items: Sequence[Alike]) -> Iterator[Duplicate]:
    """``duplicates``, where each memory's body is asked for only when its start or
    its description is another's: most memories' are not, and a store whose other
    memories are kept between runs is not read for them (see checks/memory/)."""
    # Most memories share neither the start of their body nor their description with
    # another: only those that do are normalised whole and compared (normalising
    # every body cost 5% of a full check on a tree of 10,000 memories).
    if len(items) < 2:
        return
    starts: dict[str, int] = {}
    descriptions: dict[str, int] = {}
    keys = []
    for item in items:
        start, key = item.start, item.description.strip().casefold()
        starts[start] = starts.get(start, 0) + 1
        descriptions[key] = descriptions.get(key, 0) + 1
        keys.append((start, key))
    first_with_body: dict[str, str] = {}
    by_description: dict[str, list[tuple[str, list[str]]]] = {}
    budget = _RATIO_WORD_PAIRS
    for item, (start, key) in zip(items, keys):
        path = item.path
        same_start, same_description = starts[start] > 1, bool(key) and descriptions[key] > 1
        if not start or not (same_start or same_description):
            continue
        text = normalised(item.body())
        if text.count(" ") < _FEWEST_WORDS - 1:
            continue  # "TODO", "See the code.": alike by chance, not one memory saved twice
        if same_start:
            earlier = first_with_body.setdefault(text, path)
            if earlier != path:
                yield Duplicate(path, earlier, 1.0)
                continue
        if not same_description:
            continue
        # Imported only for two memories under one description: most stores have none,
        # and difflib (with heapq) is 2 ms of the next commit's check.
        from difflib import SequenceMatcher

        words = text.split(" ")[:_WORDS]
        bucket = by_description.setdefault(key, [])
        for other, other_words in bucket:
            matcher = SequenceMatcher(None, words, other_words, autojunk=False)
            if matcher.real_quick_ratio() < NEAR or matcher.quick_ratio() < NEAR:
                continue
            budget -= len(words) * len(other_words)
            if budget < 0:
                break
            ratio = matcher.ratio()
            if ratio >= NEAR:
                yield Duplicate(path, other, ratio)
                break
        if len(bucket) < _BUCKET:
            bucket.append((path, words))


def body_start(body: str) -> str:
    """The first eight words of a body, case folded: two bodies that are one
    normalised start alike. Split from the body's first 200 characters when they
    hold a ninth word (so the eighth is whole), else from the whole body."""
    words = body[:200].split(maxsplit=_START_WORDS)
    if len(words) <= _START_WORDS:
        words = body.split(maxsplit=_START_WORDS)
    return " ".join(words[:_START_WORDS]).casefold()


_START_WORDS = 8
