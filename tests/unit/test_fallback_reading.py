"""A rejected frontmatter's key: value reading gives the raw values, their lines and
the keys repeated in the same pass: the same as _raw_values reads them."""

from __future__ import annotations

import random

from memcheck.text import frontmatter_reading

# Lines of every shape the two readings tell apart: top-level, indented by a space or
# a tab, a list item (with and without a key), a comment, empty and blank, other
# whitespace first, a key with no space after its colon, a repeated key.
_PIECES = [
    "a: b",
    "a:",
    "b: c: d",
    "  x: y",
    "\tx: y",
    "- item",
    "- k: v",
    "# c",
    "",
    "   ",
    "a: 1",
    "key",
    "\x0ck: v",
    " ",
    "c:  ",
    "a b: c",
    "#k: v",
    'x: "q',
    "k:v",
    "metadata:",
    "  type: x",
]


def test_the_fallback_reads_raw_values_as_raw_values_does() -> None:
    rng = random.Random(37)
    for _ in range(5000):
        lines = [rng.choice(_PIECES) for _ in range(rng.randint(0, 8))]
        fm = frontmatter_reading._fallback(lines, 2, "a problem", 2)
        values, key_lines, repeated = frontmatter_reading._raw_values(lines, 2)
        assert fm.raw_values == values, lines
        assert fm.duplicates == repeated, lines
        assert fm.key_lines in (key_lines, {}), lines  # {}: not readable as key: value lines


def test_a_rejected_frontmatter_keeps_its_raw_values_and_repeated_keys() -> None:
    fm = frontmatter_reading.read_frontmatter(["name: Deploy: notes", "type: project", "name: again", "- stray"], 2)
    assert fm.yaml_error is not None and fm.fallback
    assert fm.raw_values == {"name": "again", "type": "project"}
    assert fm.key_lines == {"name": 2, "type": 3}
    assert fm.duplicates == (("name", 4),)
