"""No secret ever reaches the output, in any format, even one another rule's message
quotes; what the detector finds and what redacting leaves. Which finds each SEC rule
reports, and which placeholders it leaves alone: tests/unit/rules/test_sec00*.py,
which take their secrets from here.

Every token here is generated from a seeded random source at test time: the shapes
are real, the values are not anyone's credentials.
"""

from __future__ import annotations

import io
import json
import random
import re
import string
from pathlib import Path

import pytest
from conftest import memory, run_cli, write
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck import config
from memcheck.checks import secrets
from memcheck.engine.collect import collect
from memcheck.engine.targets import targets_for
from memcheck.output import REPORTER_BY_NAME, ReportContext, get_reporter
from memcheck.text import secrets as detect
from memcheck.text.document import parse
from memcheck.workspace.discover import Workspace

_RND = random.Random(20260325)
_ALNUM = string.ascii_letters + string.digits


def _rand(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RND.choice(alphabet) for _ in range(n))


def key_block() -> str:
    body = "\n".join(_rand(64, _ALNUM + "+/") for _ in range(5))
    return f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"


TOKENS = {
    "aws": "AKIA" + _rand(16, string.ascii_uppercase + string.digits),
    "github": "ghp_" + _rand(36),
    "github-fine": "github_pat_" + _rand(22) + "_" + _rand(59),
    "gitlab": "glpat-" + _rand(20),
    "slack": "xoxb-" + _rand(12, string.digits) + "-" + _rand(13, string.digits) + "-" + _rand(24),
    "slack-webhook": "https://hooks.slack.com/services/T"
    + _rand(8, string.ascii_uppercase + string.digits)
    + "/B"
    + _rand(8, string.ascii_uppercase + string.digits)
    + "/"
    + _rand(24),
    "stripe": "sk_live_" + _rand(24),
    "openai": "sk-proj-" + _rand(48),
    "openai-legacy": "sk-" + _rand(20) + "T3BlbkFJ" + _rand(20),
    "anthropic": "sk-ant-api03-" + _rand(93, _ALNUM + "-_") + "AA",
    "npm": "npm_" + _rand(36),
    "pypi": "pypi-AgEIcHlwaS5vcmc" + _rand(60, _ALNUM + "-_"),
    "google": "AIza" + _rand(35, _ALNUM + "-_"),
    "huggingface": "hf_" + _rand(34, string.ascii_letters),
    "slack-app": "xapp-1-A"
    + _rand(10, string.ascii_uppercase + string.digits)
    + "-"
    + _rand(13, string.digits)
    + "-"
    + _rand(64, "0123456789abcdef"),
    "sendgrid": "SG." + _rand(22, _ALNUM + "-_") + "." + _rand(43, _ALNUM + "-_"),
    "digitalocean": "dop_v1_" + _rand(64, "0123456789abcdef"),
    "stripe-webhook": "whsec_" + _rand(32),
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + _rand(40, _ALNUM + "-_") + "." + _rand(43, _ALNUM + "-_"),
    "azure-storage": "AccountKey=" + _rand(86, _ALNUM + "+/") + "==",
    "age": "AGE-SECRET-KEY-1" + _rand(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
    "shopify": "shpat_" + _rand(32, "0123456789abcdef"),
    "shopify-secret": "shpss_" + _rand(32, "0123456789abcdef"),
    "discord-webhook": "https://discord.com/api/webhooks/1187654320987654329/" + _rand(68, _ALNUM + "_-"),
    "groq": "gsk_" + _rand(52),
    "linear": "lin_api_" + _rand(40),
}
ASSIGNED = "Zq8#kP2!mW9@tR4v"


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_redact_keeps_at_most_the_prefix_that_names_the_kind_of_token(kind: str) -> None:
    token = TOKENS[kind]
    text = detect.redact(f"The {kind} token: {token}, twice: {token}")
    assert token not in text and text.count("\u2026[redacted]") == 2
    prefix = text.split("\u2026[redacted]")[0].rsplit(" ", 1)[-1]
    assert len(prefix) < 35 and token.startswith(prefix)  # `ghp_`, `sk-proj-`, the webhook's URL
    assert detect.find(parse("m.md", text.encode())) == []  # what redact leaves is no secret


def test_redact_takes_out_key_material_and_assigned_credentials_and_leaves_other_text_alone() -> None:
    block = key_block()
    text = detect.redact(f"key:\n{block}\nDB_PASSWORD = '{ASSIGNED}'")
    assert not any(line in text for line in block.split("\n")[1:-1]) and ASSIGNED not in text
    assert "DB_PASSWORD = '\u2026[redacted]'" in text
    plain = "Run `make test` before pushing; the token lives in $GITHUB_TOKEN."
    assert detect.redact(plain) is plain


@pytest.fixture
def leaky(repo: Path) -> Path:
    """Secrets in a memory file (body and description), a guidance file and a skill."""
    all_tokens = " ".join(TOKENS.values())
    write(
        repo, ".claude/memory/creds.md", memory("Creds", f"github {TOKENS['github']}", "reference", body=f"{all_tokens}\n\n{key_block()}\n")
    )
    write(repo, ".claude/memory/MEMORY.md", "- [Creds](creds.md) \u2014 creds\n")
    write(repo, "AGENTS.md", f'Use DB_PASSWORD = "{ASSIGNED}" and {TOKENS["stripe"]}.\n@{TOKENS["openai"]}.md\n')
    write(repo, ".claude/skills/ship/SKILL.md", f"---\nname: ship\ndescription: Ship with {TOKENS['anthropic']}\n---\n\nBody.\n")
    return repo


def _all_secret_values() -> list[str]:
    key_lines = [line for line in key_block().split("\n") if not line.startswith("-----")]
    return [*TOKENS.values(), ASSIGNED, *key_lines]


@pytest.mark.parametrize("fmt", sorted(REPORTER_BY_NAME))
def test_no_secret_in_cli_output(leaky: Path, fmt: str) -> None:
    proc = run_cli(leaky, "check", "--format", fmt)
    assert proc.returncode == 1 and proc.stderr == ""
    shown = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", proc.stdout) if fmt == "markdown" else proc.stdout  # read as the page shows it
    for value in _all_secret_values():
        assert value not in shown
    assert "…(" in shown or "\\u2026(" in shown


@pytest.mark.parametrize("fmt", sorted(REPORTER_BY_NAME))
def test_no_secret_in_any_output_format(leaky: Path, fmt: str) -> None:
    """Every reporter present (text, json, and github/sarif where they exist) gets
    the same findings; none may print a secret, even one another rule quoted
    (here GDN009 names the missing @sk-proj-….md import)."""
    ws = Workspace(config.load(leaky))
    problems = collect(ws, targets_for(ws, None))
    assert any(p.code == "GDN009" for p in problems)
    out = io.StringIO()
    get_reporter(fmt)(problems, out, ReportContext())
    shown = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", out.getvalue()) if fmt == "markdown" else out.getvalue()  # read as the page shows it
    for value in _all_secret_values():
        assert value not in shown


def test_sec_ignored_still_scrubs_other_messages(leaky: Path) -> None:
    write(leaky, ".memcheck.yaml", "ignore: [SEC]\n")
    proc = run_cli(leaky, "check", "--format", "json")
    codes = {p["code"] for p in json.loads(proc.stdout)["problems"]}
    assert "GDN009" in codes and not any(str(c).startswith("SEC") for c in codes)
    assert TOKENS["openai"] not in proc.stdout


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_find_never_raises_and_never_shows_a_value(text: str) -> None:
    for s in secrets.find(parse("m.md", text.encode("utf-8", "surrogatepass"))):
        assert s.value not in s.shown


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 12)), max_size=30), st.lists(st.integers(0, 80), max_size=30))
def test_spans_taken_answer_as_every_span_tried_in_turn(spans: list[tuple[int, int]], offsets: list[int]) -> None:
    taken = detect._Taken()
    added: list[tuple[int, int]] = []
    for start, length in spans:
        taken.add(start, start + length)
        added.append((start, start + length))
        for offset in offsets:
            assert taken.covers(offset) == any(s <= offset < e for s, e in added)


# Letters that a redaction ("…(12 chars)") never holds: a secret is never found in one.
_SECRET = st.text(alphabet="bdXYZ", min_size=1, max_size=14)


@settings(max_examples=300, deadline=None)
@given(st.lists(_SECRET, min_size=1, max_size=6), st.lists(st.one_of(_SECRET, st.sampled_from([" ", "token ", "'"])), max_size=12))
def test_a_scrubbed_message_is_what_replacing_every_secret_in_turn_gives(values: list[str], pieces: list[str]) -> None:
    """Looking secrets up by their first characters finds the same ones as trying each."""
    message = "".join(pieces)
    expected = message
    for value in sorted(set(values), key=lambda v: (-len(v), v)):
        expected = expected.replace(value, detect.short_form(value, 0))
    assert secrets._Hidden(values).hide(message) == expected


# What the probes and the words of the set are made of, whole and cut short, and a
# lone surrogate (which re2's UTF-8 cannot hold), among any other text.
_PROBE_WORDS = [
    *("AKIA", "ABIA", "ghp_", "ghs_", "github_pat_", "glpat-", "glsoat-", "xoxb-", "hooks.slack.com/services/", "sk_live_"),
    *("rk_prod_", "sk-", "npm_", "pypi-AgE", "AIza", "hf_", "xapp-", "SG.", "dop_v1_", "whsec_", ".eyJ", "AccountKey="),
    *("AGE-SECRET-KEY-1", "shpat_", "shpss_", "/api/webhooks/", "gsk_", "lin_api_", "-----BEGIN", "curl", "sshpass"),
    *("SSHPASS", "Authorization", "AUTHORIZATION", "://"),
]
_PROBE_PIECES = st.sampled_from(_PROBE_WORDS).flatmap(lambda w: st.integers(1, len(w)).map(lambda n: w[:n]))


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.one_of(_PROBE_PIECES, st.sampled_from(_PROBE_WORDS), st.just("\ud800"), st.text(max_size=4)), max_size=16))
def test_the_set_finds_the_probes_a_text_holds_as_probing_each_in_turn_does(pieces: list[str]) -> None:
    """A process past its first texts asks the set which probes a text holds; the
    secrets found must be those the probes one by one would have led to."""
    text = "".join(pieces)
    presence = detect._Presence()
    presence.probed = detect._PROBED_ALONE  # the next text is asked of the set
    assert presence.of(text) == detect._probed(text)
    assert presence.whole is not None


_ASSIGN_LETTERS = st.text(alphabet=st.sampled_from(list("pasSwWecrRtTokKnNiIvV _-'\"") + ["ſ", "K", "İ", "ı", "é"]), max_size=14)


@settings(max_examples=1000, deadline=None)
@given(_ASSIGN_LETTERS | st.text(max_size=20))
def test_the_words_of_an_assignment_are_found_as_the_case_blind_pattern_finds_them(text: str) -> None:
    # (ASCII text is searched lower-cased, word by word: see detect._may_assign.)
    assert detect._may_assign(text) == (detect._ASSIGN_WORD.search(text) is not None)


def test_a_documented_example_key_is_passed_over_with_a_word_once_a_run(repo: Path) -> None:
    # AWS's example key is a placeholder, not a finding; a newcomer who tries the
    # secret check with it is told so once, in the summary line, wherever it appears.
    write(
        repo,
        ".claude/memory/reference_aws.md",
        memory("aws", "AWS access", "reference", body="Use aws_access_key_id = AKIAIOSFODNN7EXAMPLE for the demo.\n"),
    )
    write(
        repo,
        ".claude/memory/reference_ci.md",
        memory("ci", "CI runners", "reference", body="The runners deploy with the key AKIAIOSFODNN7EXAMPLE in the docs example.\n"),
    )
    write(
        repo,
        ".claude/memory/MEMORY.md",
        "# Memory\n\n## Reference\n- [aws](reference_aws.md) - AWS access\n- [ci](reference_ci.md) - CI runners\n",
    )
    proc = run_cli(repo, "check")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout == (
        "No problems found in 1 store (2 memories); passed over AKIAIOSFODNN7EXAMPLE at .claude/memory/reference_aws.md:7 and 1 more: "
        "a documented example key, not a secret (a real one is SEC002).\n"
    )
    assert run_cli(repo, "check").stdout == proc.stdout  # kept between runs, said again
    report = json.loads(run_cli(repo, "check", "--format", "json").stdout)
    assert report["problems"] == []  # never a finding
