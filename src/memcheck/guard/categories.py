"""The guarded-path categories memcheck ships (``env``, ``keys``, ``lockfiles``, …),
read from ``resources/guard-patterns.json``, where they are kept with their reasons."""
from __future__ import annotations

from functools import cache
from typing import NamedTuple, Sequence, TypedDict

from memcheck.config import resource_json

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
