"""The guard's policy: what a config lets through the guard, the strictest of several
configs, and what a change to a config loosens (GRD003's judgement)."""
from __future__ import annotations

import dataclasses
from typing import NamedTuple, Sequence

from memcheck.checks.guard import RULES
from memcheck.config import Config, GuardConfig, selected

GUARD_CODES = tuple(rule.code for rule in RULES)


def enabled_codes(config: Config) -> set[str]:
    """GRD rules left on. A ``select`` naming no GRD rule is a lint selection: it must
    not silently switch the gate off, so only ``ignore`` applies then."""
    if not any(code.startswith(s) or s == "ALL" for s in config.select for code in GUARD_CODES):
        config = dataclasses.replace(config, select=())
    return selected(GUARD_CODES, config)


class Policy(NamedTuple):
    """What of a config decides what gets through the guard."""

    disabled: frozenset[str]  # categories turned off
    patterns: frozenset[str]  # guarded patterns the config adds
    allowed: frozenset[str]  # allowances, and negated patterns, without their "!"
    case_sensitive: bool
    enabled: frozenset[str]  # GRD rules left on
    path_ignores: frozenset[tuple[str, str]]  # (path pattern, GRD code) pairs ignored


def policy(config: Config) -> Policy:
    guard = config.guard
    path_ignores = {
        (pattern, code)
        for pattern, selectors in config.per_path_ignores
        for code in GUARD_CODES
        if any(s == "ALL" or code.startswith(s) for s in selectors)
    }
    return Policy(
        disabled=frozenset(guard.disable),
        patterns=frozenset(p for p in guard.patterns if not p.startswith("!")),
        allowed=frozenset([*(p.removeprefix("!") for p in guard.allow), *(p[1:] for p in guard.patterns if p.startswith("!"))]),
        case_sensitive=guard.case_sensitive,
        enabled=frozenset(enabled_codes(config)),
        path_ignores=frozenset(path_ignores),
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
    guard = GuardConfig(
        disable=tuple(c for c in dict.fromkeys(n for cfg in configs for n in cfg.guard.disable) if c in disabled),
        patterns=tuple(patterns),
        allow=tuple(sorted(allowed)),
        case_sensitive=all(p.case_sensitive for p in policies),
    )
    # GRD rules on by name (select), or none of them (ignore); path ignores as pairs.
    select = tuple(sorted(enabled)) if enabled else ()
    ignore = () if enabled else GUARD_CODES
    return dataclasses.replace(
        first,
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
    return found
