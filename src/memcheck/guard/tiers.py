"""Who a guarded category is for, and who made a change.

The guarded categories come from a list of what an *agent* must never touch. Applied to
everyone, the lock files, editor settings and build outputs block a person's routine
work (a Dependabot bump, an `npm install`, a team's shared `.vscode/settings.json`), and
teams turn the hook off. So each category has a tier:

- ``secrets`` (``env``, ``keys``, …) guards every change, whoever made it;
- ``agents`` (``lockfiles``, ``ide``, …) guards the changes an agent made.

An agent's change is recognised by its commit's author, committer or trailers, or, at
commit time, by the environment of the shell that commits (agents set variables in the
shells they run). The signatures are data (``resources/agent-signatures.json``), each
with its public source; config adds and removes them. Anything unrecognised is a
person.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Mapping, Sequence

from memcheck import lazy_regex
from memcheck.config import GuardConfig, resource_json
from memcheck.guard.categories import CONFIG_CATEGORY
from memcheck.records import NamedTuple

SECRETS = "secrets"
AGENTS = "agents"


# The data files are read once a run, however many guards, judges and policies ask.
@cache
def shipped_tiers() -> Mapping[str, str]:
    """Category -> its tier, as memcheck ships them."""
    data: dict[str, list[str]] = resource_json("guard-patterns.json")["tiers"]
    return MappingProxyType({category: tier for tier in (SECRETS, AGENTS) for category in data[tier]})


def tiers(config: GuardConfig) -> dict[str, str]:
    """Category -> its tier under ``config`` (``config``, the tier of guard.patterns,
    is in the secrets tier unless moved: a team that adds a pattern means it)."""
    found = {**shipped_tiers(), CONFIG_CATEGORY: SECRETS}
    found.update(config.tiers)
    return found


class Signature(NamedTuple):
    """One way to recognise an agent's change. Text is compared case-insensitively."""

    id: str
    agent: str
    kind: str  # trailer, author, committer, env (push: an env signature seen at a push)
    key: str = ""  # trailer: its key
    email: str = ""
    name: str = ""
    name_suffix: str = ""
    variable: str = ""  # env
    value: str = ""  # env: "" for any non-empty value

    def matches_ident(self, name: str, email: str) -> bool:
        """Whether a ``name <email>`` is this signature's (every part it gives holds).
        A trailer signature that names no one (``Assisted-by``) fits any value."""
        name, email = name.strip().casefold(), email.strip().casefold()
        if not (self.email or self.name or self.name_suffix):
            return self.kind == "trailer" and bool(name or email)
        return (
            (not self.email or email == self.email.casefold())
            and (not self.name or name == self.name.casefold())
            and (not self.name_suffix or name.endswith(self.name_suffix.casefold()))
        )

    def names_someone(self) -> bool:
        return bool(self.email or self.name or self.name_suffix)

    def shown(self) -> str:
        """The agent and what it is known by, as a message names them."""
        return f"{self.agent}: {self.evidence()}"

    def evidence(self) -> str:
        """What it matched: ``Co-Authored-By trailer noreply@anthropic.com``."""
        who = f"{self.name} <{self.email}>" if self.name and self.email else self.email or self.name or f"…{self.name_suffix}"
        if self.kind == "trailer":
            return f"{self.key} trailer {who}" if self.names_someone() else f"{self.key} trailer"
        if self.kind == "push":
            return f"the push is made from its shell, which sets {self.variable}{'=' + self.value if self.value else ''}"
        if self.kind == "env":
            return f"its shell sets {self.variable}{'=' + self.value if self.value else ''}"
        return f"{self.kind} {who}"


def _signature(data: Mapping[str, str], default_id: str) -> Signature:
    return Signature(
        id=data.get("id", default_id),
        agent=data.get("agent", data.get("id", default_id)),
        kind=data["kind"],
        key=data.get("key", ""),
        email=data.get("email", ""),
        name=data.get("name", ""),
        name_suffix=data.get("name-suffix", ""),
        variable=data.get("variable", ""),
        value=data.get("value", ""),
    )


@cache
def shipped_signatures() -> tuple[Signature, ...]:
    data: dict[str, list[dict[str, str]]] = resource_json("agent-signatures.json")
    return tuple(_signature(entry, entry["id"]) for entry in data["signatures"])


class Source(NamedTuple):
    url: str
    checked: str  # ISO date
    confirmed: bool


@cache
def sources() -> Mapping[str, Source]:
    """Each shipped signature's public source, by id."""
    data: dict[str, list[dict[str, str | bool]]] = resource_json("agent-signatures.json")
    return MappingProxyType(
        {str(e["id"]): Source(str(e["source"]), str(e["checked"]), bool(e.get("confirmed", False))) for e in data["signatures"]}
    )


def signatures(config: GuardConfig) -> tuple[Signature, ...]:
    """The shipped signatures the config keeps, then the ones it adds."""
    removed = set(config.agents_remove)
    kept = [s for s in shipped_signatures() if s.id not in removed]
    added = [_signature(dict(pairs), f"config-{i + 1}") for i, pairs in enumerate(config.agents_add)]
    return (*kept, *added)


class Ident(NamedTuple):
    name: str
    email: str


def parse_ident(text: str) -> Ident:
    """``Name <email>`` (a trailer's value, git's ident); an email alone is allowed."""
    name, _, rest = text.partition("<")
    if not rest:
        return Ident(text.strip(), "") if "@" not in text else Ident("", text.strip())
    return Ident(name.strip(), rest.partition(">")[0].strip())


class Authorship(NamedTuple):
    """What a commit says of who made it."""

    author: Ident = Ident("", "")
    committer: Ident = Ident("", "")
    trailers: tuple[tuple[str, str], ...] = ()  # (key, value)


# A trailer-shaped line anywhere in a commit message, indented or not: a squash puts the
# agent's trailer in the middle of the message (``git merge --squash`` indents it), and
# the message still credits the agent. (git's own trailer parser reads only the last
# paragraph.)
_TRAILER = lazy_regex.compile(r"^[ \t>]*([A-Za-z][A-Za-z0-9-]*)[ \t]*:[ \t]*(\S.*?)\s*$", re.M)
_IDENT = lazy_regex.compile(rb"^(author|committer) (.*) \d+ [+-]\d{4}$", re.M)


# A line that starts with whitespace continues the trailer above it, as git folds
# trailers (git interpret-trailers, ``%(trailers:unfold)``): ``Co-Authored-By: Claude``
# then `` <noreply@anthropic.com>`` is one trailer to git.
_CONTINUED = lazy_regex.compile(r"\n[ \t]+(\S[^\n]*?)[ \t\r]*(?=\n|\Z)")


def parse_trailers(text: str) -> tuple[tuple[str, str], ...]:
    """Every ``Key: value`` line of a commit message; a trailer that continues on
    the lines below it also unfolded, as git reads it."""
    found: list[tuple[str, str]] = []
    for m in _TRAILER.finditer(text):
        found.append((m.group(1), m.group(2)))
        folded = [m.group(2)]
        at = text.find("\n", m.start(2))
        while at != -1 and (more := _CONTINUED.match(text, at)):
            folded.append(more.group(1))
            at = more.end()
        if len(folded) > 1:
            found.append((m.group(1), " ".join(folded)))
    return tuple(found)


def authorship(raw: bytes) -> Authorship:
    """Who made a commit, read from the commit object as git stores it: the author
    and committer lines as written, whatever ``encoding`` header the commit claims
    (git log would re-encode them by it, into something no signature matches), and
    the trailer-shaped lines of its message."""
    head, _, message = raw.partition(b"\n\n")
    who = {m.group(1): parse_ident(m.group(2).decode("utf-8", "replace")) for m in _IDENT.finditer(head)}
    return Authorship(
        who.get(b"author", Ident("", "")), who.get(b"committer", Ident("", "")), parse_trailers(message.decode("utf-8", "replace"))
    )


class Recogniser:
    """Which agent, if any, made a commit or is committing now."""

    def __init__(self, found: Sequence[Signature]) -> None:
        self._by_kind: dict[str, list[Signature]] = {}
        for signature in found:
            self._by_kind.setdefault(signature.kind, []).append(signature)

    def of_commit(self, who: Authorship) -> Signature | None:
        """The agent a commit names, wherever it names it: an agent's identity is an
        agent's as author, as committer or in any ``*-by:`` trailer (``Co-developed-by``,
        ``Assisted-by``, ``Signed-off-by``), whichever of these the signature's source
        saw it in (``git -c user.email=noreply@anthropic.com commit`` is Claude's
        address as author). What matched is named as it was found."""
        named = [s for kind in ("author", "committer", "trailer") for s in self._by_kind.get(kind, ()) if s.names_someone()]
        for kind, ident in (("author", who.author), ("committer", who.committer)):
            found = next((s for s in named if s.matches_ident(*ident)), None)
            if found is not None:
                return found if found.kind == kind else found._replace(kind=kind, key="")
        keys = {s.key.casefold() for s in self._by_kind.get("trailer", ())}  # (a config's signature may name any key)
        by = [(key, parse_ident(value)) for key, value in who.trailers if key.casefold().endswith("-by") or key.casefold() in keys]
        # An agent's identity in the trailer its source names (Claude's Co-Authored-By),
        # then in any *-by trailer, then a trailer that names no one (Assisted-by).
        for signature in self._by_kind.get("trailer", ()):
            if signature.names_someone() and any(
                key.casefold() == signature.key.casefold() and signature.matches_ident(*ident) for key, ident in by
            ):
                return signature
        for key, ident in by:
            found = next((s for s in named if s.matches_ident(*ident)), None)
            if found is not None:
                return found._replace(kind="trailer", key=key)
        for signature in self._by_kind.get("trailer", ()):
            if not signature.names_someone() and any(
                key.casefold() == signature.key.casefold() and signature.matches_ident(*ident) for key, ident in by
            ):
                return signature
        return None

    def of_shell(self, env: Mapping[str, str], where: Path | None = None) -> Signature | None:
        """The agent whose shell this is, by its variables, or by the author or
        committer a commit made now would record (``GIT_AUTHOR_NAME``, as aider sets).
        ``where``: the repository, whose personal config (``memcheck.ignoreAgentEnv``,
        see ``shell_opt_out``) may say a variable is no agent's sign on this machine."""
        found = [
            s for s in self._by_kind.get("env", ())
            if (value := env.get(s.variable, "")) and (not s.value or value.strip().casefold() == s.value.casefold())
        ]  # fmt: skip
        if found and where is not None:  # asked only in a shell that looks like an agent's
            ignored = shell_opt_out(where)
            found = [s for s in found if s.variable not in ignored]
        if found:
            return found[0]
        now = Authorship(
            Ident(env.get("GIT_AUTHOR_NAME", ""), env.get("GIT_AUTHOR_EMAIL", "")),
            Ident(env.get("GIT_COMMITTER_NAME", ""), env.get("GIT_COMMITTER_EMAIL", "")),
        )
        return self.of_commit(now) if any(now.author + now.committer) else None


# A person in an IDE's terminal carries the variable the IDE's agent extension sets
# there (Claude Code's sets CLAUDECODE=1), and nothing in the shell tells that person
# from the agent for every version (CLAUDE_CODE_CHILD_SESSION, which only the agent's
# own shells have, exists since Claude Code 2.1.172). So a person may say, for this
# machine or this clone, that a variable is not an agent's sign. Read from git's own
# config files only: an environment variable would not do, since a committed file
# can set one (VS Code's workspace terminal.integrated.env, a direnv .envrc).
OPT_OUT_KEY = "memcheck.ignoreAgentEnv"


def shell_opt_out(where: Path) -> frozenset[str]:
    """The variables this machine's or this clone's own git config says are no
    agent's sign (``git config --global --add memcheck.ignoreAgentEnv CLAUDECODE``)."""
    from memcheck import git

    return frozenset(git.personal_config(where, OPT_OUT_KEY))


def recogniser(config: GuardConfig) -> Recogniser:
    return Recogniser(signatures(config))
