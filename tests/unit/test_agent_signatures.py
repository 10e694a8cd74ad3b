"""The agent signatures file is well formed: every signature carries what its kind is
matched on and where the fact comes from, so a typo cannot silently turn an agent's
commit into a person's."""

from __future__ import annotations

import datetime
import json
import re
from importlib import resources
from typing import Any

import pytest

KINDS = {"trailer", "author", "committer", "env"}
COMMON = {"id", "agent", "kind", "source", "checked", "confirmed", "note"}
IDENTITY = {"email", "name", "name-suffix"}  # at least one, for trailer/author/committer
ALLOWED = {
    "trailer": COMMON | IDENTITY | {"key"},
    "author": COMMON | IDENTITY,
    "committer": COMMON | IDENTITY,
    "env": COMMON | {"variable", "value"},
}


def signatures() -> list[dict[str, Any]]:
    text = resources.files("memcheck.resources").joinpath("agent-signatures.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert set(data) == {"$comment", "signatures"}
    assert isinstance(data["signatures"], list) and data["signatures"]
    found: list[dict[str, Any]] = data["signatures"]
    return found


SIGNATURES = signatures()


@pytest.mark.parametrize("sig", SIGNATURES, ids=[s.get("id", "?") for s in SIGNATURES])
def test_each_signature_has_what_its_kind_needs(sig: dict[str, Any]) -> None:
    assert sig["kind"] in KINDS
    assert COMMON <= set(sig), COMMON - set(sig)
    assert set(sig) <= ALLOWED[sig["kind"]], set(sig) - ALLOWED[sig["kind"]]
    assert all(isinstance(sig[k], str) and sig[k] for k in set(sig) - {"confirmed"}), sig
    assert isinstance(sig["confirmed"], bool)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", sig["id"]), sig["id"]
    assert sig["source"].startswith("https://")
    assert datetime.date.fromisoformat(sig["checked"]).isoformat() == sig["checked"]
    if sig["kind"] == "env":
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", sig["variable"])
    elif sig["kind"] != "trailer":
        assert IDENTITY & set(sig), "match on email, name or name-suffix"  # (a trailer may be its key alone: Assisted-by)
    if sig["kind"] == "trailer":
        assert re.fullmatch(r"[A-Za-z0-9-]+", sig["key"])
    if "email" in sig:
        assert re.fullmatch(r"[^\s<>@]+@[^\s<>@]+", sig["email"]), sig["email"]


def test_ids_are_unique() -> None:
    ids = [s["id"] for s in SIGNATURES]
    assert len(ids) == len(set(ids))


def test_claude_code_is_recognised_by_its_trailer_and_its_shell() -> None:
    claude = {s["kind"] for s in SIGNATURES if s["agent"] == "Claude Code"}
    assert {"trailer", "env"} <= claude


def test_dependency_bots_are_people_here() -> None:
    # A person reviews Dependabot's and Renovate's lock-file bumps; they are not agents.
    text = json.dumps(SIGNATURES).lower()
    assert "dependabot" not in text and "renovate" not in text
