"""Who added a pull request's override label, judged from the GitHub event (`memcheck
guard --override-label NAME --event FILE`): only a person's label counts, and only on
the run its `labeled` event starts. The accounts of agents come from memcheck's own
signatures, never from anything the pull request holds."""

from __future__ import annotations

from typing import Any

import pytest

from memcheck.guard import override
from memcheck.output import Override

LABEL = "memcheck-override"
MAINTAINER = {"login": "maintainer", "type": "User"}


def event(labels: tuple[str, ...] = (LABEL,), sender: dict[str, str] | None = MAINTAINER, action: str = "labeled") -> dict[str, Any]:
    """A pull_request event; ``labeled`` adds the last of ``labels``, by ``sender``."""
    found: dict[str, Any] = {"action": action, "pull_request": {"labels": [{"name": name} for name in labels]}}
    if action == "labeled" and labels:
        found.update(label={"name": labels[-1]}, sender=sender)
    return found


def test_a_persons_label_counts_on_its_labeled_run() -> None:
    assert override.judged(event(("docs", LABEL)), LABEL) == Override(LABEL, counts=True)


def test_a_label_the_pull_request_does_not_carry_is_neither_counted_nor_refused() -> None:
    assert override.judged(event(("docs",)), LABEL) == Override(LABEL)
    assert override.judged({"before": "a" * 40, "after": "b" * 40}, LABEL) == Override(LABEL)  # a push: no pull request


@pytest.mark.parametrize(
    ("sender", "who"),
    [
        ({"login": "claude[bot]", "type": "Bot"}, "claude[bot]"),
        ({"login": "Copilot", "type": "Bot"}, "Copilot"),
        ({"login": "copilot", "type": "User"}, "copilot"),  # an agent's account by the signatures' noreply address
        ({"login": "chatgpt-codex-connector[bot]", "type": "User"}, "chatgpt-codex-connector[bot]"),
        ({"login": "renovate[bot]", "type": "Bot"}, "renovate[bot]"),
        ({"type": "User"}, ""),
        (None, ""),
    ],
    ids=["claude-bot", "copilot-bot", "copilot-user", "codex-connector", "a-bot", "no-login", "no-sender"],
)
def test_an_agents_or_a_bots_label_does_not_count(sender: dict[str, str] | None, who: str) -> None:
    found = override.judged(event(sender=sender), LABEL)
    assert not found.counts
    if who:
        assert found.refused == f"{who} added it, an agent's or a bot's account: it counts only when a person's account adds it"
    else:  # (a new user's run, driven by hand, read "an unnamed account added it, an agent's or a bot's account")
        assert found.refused == "the event does not say who added it: it counts only when a person's account adds it"


@pytest.mark.parametrize(
    "shown",
    [
        event(action="synchronize"),  # a push after the label: who added it is not known
        {**event(("other", LABEL)), "label": {"name": "other"}},  # the labeled event of another label
    ],
    ids=["synchronize", "another-label"],
)
def test_who_added_it_is_known_only_on_its_labeled_run(shown: dict[str, Any]) -> None:
    found = override.judged(shown, LABEL)
    assert not found.counts and found.refused == override.ONLY_ON_LABELED


def test_the_agents_accounts_come_from_memchecks_own_signatures() -> None:
    accounts = override.agent_accounts()
    assert {"claude[bot]", "copilot", "chatgpt-codex-connector[bot]", "devin-ai-integration[bot]"} <= accounts
    assert all(name == name.casefold() for name in accounts)
