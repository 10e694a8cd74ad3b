"""Judging parsed frontmatter before a rule reads fields from it: whether it is usable
at all, which value to quote when strict YAML rejects it, and how a message names a
value's kind, and which known key an unknown one is a misspelling of. Every rule family that reads frontmatter (MEM, GDN, SKL) asks the same
questions, so they are answered here once, with the same words.
"""
from __future__ import annotations

import difflib
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from memcheck.text.document import Document


def frontmatter_problem(doc: Document) -> tuple[int, str] | None:
    """(line, message) when frontmatter is present but unusable: never closed, not
    valid YAML, past memcheck's bounds, or a key given twice."""
    fm = doc.frontmatter
    if doc.unterminated or (doc.has_frontmatter and fm is None):
        return 1, "frontmatter opened on line 1 is never closed by a '---' line"
    if fm is None:
        return None
    if fm.too_complex:
        return fm.yaml_error_line, f"frontmatter cannot be parsed: {fm.yaml_error}"
    if fm.yaml_error is not None:
        key = key_to_quote(fm.raw_values, fm.key_lines, fm.yaml_error_line) if fm.fallback else None
        line = fm.key_lines.get(key, fm.yaml_error_line) if key else fm.yaml_error_line
        hint = f"; quote the value of {key!r}" if key else "; fix the YAML"
        return line, f"frontmatter is not valid YAML ({fm.yaml_error}){hint}"
    if fm.duplicates:
        key, line = fm.duplicates[0]
        return line, f"key {key!r} appears more than once; YAML keeps only the last value"
    return None


def key_to_quote(raw_values: dict[str, str], key_lines: dict[str, int], error_line: int | None = None) -> str | None:
    """The first key whose value, alone, is not valid YAML (where YAML noticed the
    problem is often a line later); else, given ``error_line``, the key at or before
    it; else None, and the error is shown where YAML found it (a control character
    in a key, say, is no value's fault)."""
    # Imported here, as everywhere PyYAML is: only rejected frontmatter gets this far.
    import yaml

    from memcheck.text import yamlload

    for key in sorted(key_lines, key=key_lines.__getitem__):
        raw = raw_values.get(key, "")
        if not raw:
            continue
        try:
            yamlload.load_data(f"k: {raw}\n")
        except (yaml.YAMLError, ValueError, TypeError, OverflowError):
            return key
    before = [k for k, ln in key_lines.items() if error_line is not None and ln <= error_line]
    return max(before, key=key_lines.__getitem__) if before else None


def value_kind(value: object) -> str:
    """A frontmatter value's kind in YAML's words, as messages name it ("a list")."""
    return {str: "string", bool: "boolean", int: "number", float: "number", list: "list", dict: "mapping"}.get(type(value), type(value).__name__)


@lru_cache(maxsize=64)
def near_key(known: tuple[str, ...]) -> Callable[[str], str | None]:
    """A function giving the schema key that a key looks like a misspelling of: equal
    once case, '-' and '_' are ignored, or difflib ratio 0.8 or more after that
    normalisation."""
    def norm(k: str) -> str:
        return k.lower().replace("-", "").replace("_", "")

    # One matcher per known key for all the keys of a file: difflib keeps what it
    # learns of the second sequence (a frontmatter of 60,000 unknown keys took
    # seconds building a matcher for each pair).
    matchers = [(k, norm(k), difflib.SequenceMatcher(None, "", norm(k))) for k in known]

    def near(key: str) -> str | None:
        wanted = norm(key)
        best, best_ratio = None, 0.8
        for k, normed, matcher in matchers:
            if normed == wanted:
                return k
            matcher.set_seq1(wanted)
            # The two upper bounds first, as difflib.get_close_matches does: ratio()
            # alone costs time in the key's length (seconds for a key of 900,000
            # characters), and a key that long is near nothing.
            if matcher.real_quick_ratio() >= best_ratio and matcher.quick_ratio() >= best_ratio:
                ratio = matcher.ratio()
                if ratio >= best_ratio and (best is None or ratio > best_ratio):
                    best, best_ratio = k, ratio
        return best

    return near
