"""The guarded-path categories memcheck ships (``env``, ``keys``, ``lockfiles``, …),
read from ``resources/guard-patterns.json``, where they are kept with their reasons."""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Sequence, TypedDict

from memcheck.config import resource_json
from memcheck.records import NamedTuple
from memcheck.text import first_match

CONFIG_CATEGORY = "config"  # findings from guard.patterns in the user's config


class Category(NamedTuple):
    name: str
    why: str
    patterns: tuple[str, ...]  # match a path anywhere: a folder's contents too
    allow: tuple[str, ...]  # templates the category never guards (.env.example)
    files: tuple[str, ...] = ()  # match a file by its own name, never code or documentation (kubeconfig.*)


class _Required(TypedDict):
    why: str
    patterns: list[str]


class _Spec(_Required, total=False):
    """A category as the data file writes it."""

    names: list[str]  # secret words, spelled out through the name forms
    files: list[str]
    allow: list[str]
    sources: dict[str, str]  # pattern -> the vendor's page that says what reads or runs it, and why


# The data file's keys are not identifiers: the functional form.
_Data = TypedDict(
    "_Data",
    {
        "data-extensions": list[str],
        "source-extensions": list[str],
        "name-forms": list[str],
        "name-templates": list[str],
        "path-templates": list[str],
        "categories": dict[str, _Spec],
    },
)


@cache  # read once a run: every Guard, and the tiers, ask for it
def _data() -> _Data:
    data: _Data = resource_json("guard-patterns.json")
    return data


def _expand(spec: _Spec, forms: Sequence[str], extensions: Sequence[str]) -> tuple[str, ...]:
    """A category's patterns: its own, then its secret words in every data-file form."""
    out = list(spec["patterns"])
    for name in spec.get("names", ()):
        for form in forms:
            exts = extensions if "{ext}" in form else ("",)
            out += [form.format(name=name, ext=ext) for ext in exts]
    return tuple(out)


def categories() -> dict[str, Category]:
    data = _data()
    return {
        name: Category(
            name,
            spec["why"],
            _expand(spec, data["name-forms"], data["data-extensions"]),
            # a category of secret words allows their templates (secrets.example.yaml)
            tuple(spec.get("allow", ())) + (tuple(data["name-templates"]) + tuple(data["path-templates"]) if spec.get("names") else ()),
            tuple(spec.get("files", ())),
        )
        for name, spec in data["categories"].items()
    }


def source_extensions() -> frozenset[str]:
    """Extensions of source code and documentation, which a category's ``files``
    patterns never flag: ``kubeconfig.go`` is code about a kubeconfig."""
    return frozenset(_data()["source-extensions"])


# pathspec's regex for each line the categories ship, written by docs/generate.py (a
# test holds it to pathspec's own translation): a guard run reads this file instead of
# importing pathspec, which a run finding nothing guarded then never does.
TRANSLATED = os.path.join(os.path.dirname(os.path.dirname(__file__)), "resources", "guard-regexes.json")


def shipped_lines() -> list[str]:
    """Every gitignore line of the categories, in order, once."""
    return list(dict.fromkeys(line for c in categories().values() for line in (*c.patterns, *c.files, *c.allow)))


def translations_text() -> str:
    """The contents of ``TRANSLATED``, from pathspec."""
    rows = [
        f"{json.dumps(line, ensure_ascii=False)}: {json.dumps(first_match.translated(line), ensure_ascii=False)}"
        for line in sorted(shipped_lines())
    ]
    return "{\n" + ",\n".join(rows) + "\n}\n"


@cache
def translations() -> first_match.Translations:
    """pathspec's regex for each shipped line (see ``TRANSLATED``); none when the file
    is not there (a checkout mid-edit): each line is then translated as it is read."""
    try:
        with open(TRANSLATED, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return {line: (source, include) for line, (source, include) in data.items()}
