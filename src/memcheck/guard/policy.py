"""The guard's policy: what a config lets through the guard, the strictest of several
configs, and what a change to a config loosens (GRD003's judgement) or turns off of
the rules a change could hide itself from: the secret and hidden-text rules, and
which files are agent files at all (GRD005's)."""

from __future__ import annotations

from typing import Sequence

from memcheck.checks.guard import RULES
from memcheck.config import Config, GuardConfig, selected
from memcheck.guard.tiers import AGENTS, SECRETS, Signature, signatures, tiers
from memcheck.problem import some
from memcheck.records import NamedTuple

GUARD_CODES = tuple(rule.code for rule in RULES)


def secret_codes() -> tuple[str, ...]:
    """The codes of the rules a change must never turn off for itself: the secret rules
    (SEC) and the hidden-text rules (HID), whose findings are what an attacker's change
    would most want unseen. Imported when asked: the rule modules bring the workspace
    with them, which guard's usual run (one config, no loosening) never needs."""
    from memcheck.checks.hidden import RULES as HIDDEN_RULES
    from memcheck.checks.secrets import RULES as SECRET_RULES

    return tuple(rule.code for rule in (*SECRET_RULES, *HIDDEN_RULES))


def agent_file_settings(config: Config) -> frozenset[tuple[str, str]]:
    """What of a config names agent files, as (key, value) pairs: the guidance file
    names, the memory stores and the skills roots. A value a change drops can take
    files out of every rule's sight (SEC and HID included): a token in AGENTS.md is
    found no more once ``guidance.filenames`` leaves it out."""
    return frozenset(
        [
            *(("guidance.filenames", name) for name in config.guidance.filenames),
            *(("memory.stores", store) for store in config.memory.stores),
            *(("skills.roots", root) for root in config.skills.roots),
        ]
    )


def enabled_codes(config: Config) -> set[str]:
    """GRD rules left on. A ``select`` naming no GRD rule is a lint selection: it must
    not silently switch the gate off, so only ``ignore`` applies then."""
    if not any(code.startswith(s) or s == "ALL" for s in config.select for code in GUARD_CODES):
        config = config._replace(select=())
    return selected(GUARD_CODES, config)


class Policy(NamedTuple):
    """What of a config decides what gets through the guard."""

    disabled: frozenset[str]  # categories turned off
    patterns: frozenset[str]  # guarded patterns the config adds
    allowed: frozenset[str]  # allowances, and negated patterns, without their "!"
    case_sensitive: bool
    enabled: frozenset[str]  # GRD rules left on
    path_ignores: frozenset[tuple[str, str]]  # (path pattern, GRD code) pairs ignored
    everyone: bool = False  # every tier guards a person's changes too
    secrets_tier: frozenset[str] = frozenset()  # the categories that guard every change
    recognised: frozenset[Signature] = frozenset()  # the agent signatures
    secret_rules: frozenset[str] = frozenset()  # SEC rules left on
    excluded: frozenset[str] = frozenset()  # exclude patterns: files memcheck reads nothing of
    secret_ignores: frozenset[tuple[str, str]] = frozenset()  # (path pattern, SEC code) pairs ignored
    fail_on: str = "error"  # what makes a lint finding fail the run
    agent_files: frozenset[tuple[str, str]] = frozenset()  # (key, value): what names agent files (agent_file_settings)


def _path_ignores(config: Config, codes: Sequence[str]) -> frozenset[tuple[str, str]]:
    return frozenset(
        (pattern, code)
        for pattern, selectors in config.per_path_ignores
        for code in codes
        if any(s == "ALL" or code.startswith(s) for s in selectors)
    )


def policy(config: Config) -> Policy:
    guard = config.guard
    return Policy(
        disabled=frozenset(guard.disable),
        patterns=frozenset(p for p in guard.patterns if not p.startswith("!")),
        allowed=frozenset([*(p.removeprefix("!") for p in guard.allow), *(p[1:] for p in guard.patterns if p.startswith("!"))]),
        case_sensitive=guard.case_sensitive,
        enabled=frozenset(enabled_codes(config)),
        path_ignores=_path_ignores(config, GUARD_CODES),
        everyone=guard.everyone,
        secrets_tier=frozenset(c for c, tier in tiers(guard).items() if tier == SECRETS),
        recognised=frozenset(signatures(guard)),
        secret_rules=frozenset(selected(secret_codes(), config)),
        excluded=frozenset(config.exclude),
        secret_ignores=_path_ignores(config, secret_codes()),
        fail_on=config.fail_on,
        agent_files=agent_file_settings(config),
    )


def strictest(configs: Sequence[Config]) -> Config:
    """Settings that let through only what every one of ``configs`` lets through:
    a category is on if any has it on, patterns are all of theirs, a path is allowed
    only if every one allows it (by the same line), a ``GRD`` rule is on if any has
    it on, a per-path ignore holds only if every one has it, and matching is
    case-sensitive only if every one says so. Used where several commits have an
    equal claim to judge a change (a push: the remote's copy of the branch and its
    default branch), so that none of them can be the lax one a change picks.
    Everything else is the first config's."""
    first = configs[0]
    if len(configs) == 1:
        return first
    policies = [policy(c) for c in configs]
    disabled = frozenset.intersection(*(p.disabled for p in policies))
    allowed = frozenset.intersection(*(p.allowed for p in policies))
    enabled = frozenset.union(*(p.enabled for p in policies))
    path_ignores = frozenset.intersection(*(p.path_ignores for p in policies))
    # Patterns in the order the configs give them, so the first config's name a hit first.
    patterns = dict.fromkeys(p for c in configs for p in c.guard.patterns if not p.startswith("!"))
    # Tiers: a category guards every change if any config says so; an agent is
    # recognised if any config recognises it (shipped ones stay unless all remove them).
    secrets_tier = frozenset.union(*(p.secrets_tier for p in policies))
    removed = frozenset.intersection(*(frozenset(c.guard.agents_remove) for c in configs))
    added = dict.fromkeys(s for c in configs for s in c.guard.agents_add)
    guard = GuardConfig(
        disable=tuple(c for c in dict.fromkeys(n for cfg in configs for n in cfg.guard.disable) if c in disabled),
        patterns=tuple(patterns),
        allow=tuple(sorted(allowed)),
        case_sensitive=all(p.case_sensitive for p in policies),
        everyone=any(p.everyone for p in policies),
        tiers=tuple(sorted((c, SECRETS if c in secrets_tier else AGENTS) for c in tiers(first.guard))),
        agents_add=tuple(added),
        agents_remove=tuple(sorted(removed)),
    )
    # GRD rules on by name (select), or none of them (ignore); path ignores as pairs.
    select = tuple(sorted(enabled)) if enabled else ()
    ignore = () if enabled else GUARD_CODES
    return first._replace(
        guard=guard,
        select=select,
        ignore=ignore,
        per_path_ignores=tuple((pattern, (code,)) for pattern, code in sorted(path_ignores)),
    )


def loosenings(before: Policy, after: Policy) -> list[str]:
    """What ``after`` lets through that ``before`` did not, one phrase each (set
    differences: linear in the sizes of the two configs)."""
    found = [f"allows {p}" for p in sorted(after.allowed - before.allowed)]
    found += [f"drops pattern {p}" for p in sorted(before.patterns - after.patterns)]
    found += [f"disables category {c}" for c in sorted(after.disabled - before.disabled)]
    if after.case_sensitive and not before.case_sensitive:
        found.append("matches case-sensitively")
    off = sorted(before.enabled - after.enabled)
    if off:
        found.append(f"turns {', '.join(off)} off")
    ignored: dict[str, list[str]] = {}
    for pattern, code in sorted(after.path_ignores - before.path_ignores):
        ignored.setdefault(pattern, []).append(code)
    found += [f"ignores {', '.join(codes)} under {pattern}" for pattern, codes in ignored.items()]
    if before.everyone and not after.everyone:
        found.append("stops guarding a person's changes to the agents tier (guard.everyone)")
    found += [
        f"moves category {c} to the agents tier (a person's change to it passes)" for c in sorted(before.secrets_tier - after.secrets_tier)
    ]
    found += [f"stops recognising the agent signature {s.id} ({s.shown()})" for s in sorted(before.recognised - after.recognised)]
    return found


def secrets_off(before: Policy, after: Policy) -> list[str]:
    """What of the secret and hidden-text rules ``after`` turns off that ``before`` had
    on, one phrase each: a rule ignored or left out of ``select``, an ``exclude``
    pattern (memcheck reads nothing of those files), a per-path ignore, or a guidance
    file name, memory store or skills root dropped (its files are agent files no more,
    so no rule reads them)."""
    found = []
    off = sorted(before.secret_rules - after.secret_rules)
    if off:
        found.append(f"turns {', '.join(off)} off")
    if after.fail_on == "never" and before.fail_on != "never":
        found.append("makes no finding fail the run, secrets included (fail-on: never)")
    if after.secret_rules:
        found += [f"excludes {p} (memcheck reads nothing of it, secrets included)" for p in sorted(after.excluded - before.excluded)]
        ignored: dict[str, list[str]] = {}
        for pattern, code in sorted(after.secret_ignores - before.secret_ignores):
            if code in after.secret_rules:
                ignored.setdefault(pattern, []).append(code)
        found += [f"ignores {', '.join(codes)} under {pattern}" for pattern, codes in ignored.items()]
        dropped: dict[str, list[str]] = {}
        for key, value in sorted(before.agent_files - after.agent_files):
            dropped.setdefault(key, []).append(value)
        found += [f"drops {some(values)} from {key} (no rule reads those files, secrets included)" for key, values in dropped.items()]
    return found
