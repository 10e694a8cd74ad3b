"""GRD rules on plain data: ``Change`` values written by hand, settings built from
mappings, and git's raw diff format parsed from bytes; no repository needed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.changes import GITLINK_MODE, NO_MODE, SYMLINK_MODE, Change
from memcheck.config import _merge, default_config, defaults, from_mapping
from memcheck.git import parse_raw
from memcheck.guard.findings import Judge, findings
from memcheck.guard.paths import Guard
from memcheck.guard.policy import enabled_codes, loosenings, policy, strictest

ROOT = Path("/repo")
FILE = "100644"


def config(**settings: Any) -> Any:
    return from_mapping(ROOT, _merge(defaults(), settings))


def guard(**settings: Any) -> Guard:
    return Guard(config(**settings).guard)


def what_of(message: str) -> str:
    """What happened to the path, as a finding says it after its remedy."""
    return message.split(". ", 1)[1].split(":")[0]


def judged(*changes: Change, **settings: Any) -> list[tuple[str, str, str]]:
    return [(p.path, p.code, what_of(p.message)) for p in findings(changes, Judge(config(**settings).guard))]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (Change("A", ".env.example", new_mode=FILE), []),
        (Change("A", ".env.example", new_mode=SYMLINK_MODE, target=".env"), [(".env.example", "GRD002", "symlink added pointing to .env")]),
        (
            Change("A", "example.env", new_mode=SYMLINK_MODE, target="/home/me/.ssh/id_rsa"),
            [("example.env", "GRD002", "symlink added pointing to /home/me/.ssh/id_rsa (home/me/.ssh/id_rsa)")],
        ),
        (Change("A", "env.link", new_mode=SYMLINK_MODE, target=".env.example"), []),
        (Change("A", ".env", new_mode=GITLINK_MODE), [(".env", "GRD001", "added")]),
        (Change("A", ".env.example/.env", new_mode=FILE), [(".env.example/.env", "GRD001", "added")]),
        (
            Change("M", "x/.env", old_mode=FILE, new_mode=FILE, commit="a" * 40, merge=True),
            [("x/.env", "GRD001", "modified in merge aaaaaaa")],
        ),
        (Change("A", ".env", new_mode=FILE, commit="b" * 40, ref="z"), [(".env", "GRD001", "added in bbbbbbb (on z)")]),
    ],
)
def test_findings_on_plain_changes(change: Change, expected: list[tuple[str, str, str]]) -> None:
    assert judged(change) == expected


@pytest.mark.parametrize(
    "path",
    [
        "key.pem.bak",
        ".netrc.old",
        "keys/id_rsa.orig",
        ".env.save",
        "deploy/.git-credentials.backup",
        "id_ed25519~",
        # in capitals, as Windows tools write them, and the other copies editors and tools leave
        "key.pem.BAK",
        ".netrc.OLD",
        "secring.gpg.Bak",
        ".netrc.~1~",
        "..netrc.swp",
        ".key.pem.swo",
        "#.netrc#",
        ".netrc.bak~",
        ".netrc.orig.1",
        ".netrc-old",
        "Copy of .netrc",
        ".netrc (1)",
        ".netrc.dpkg-old",
    ],
)
def test_a_backup_copy_of_a_secret_file_is_guarded_as_the_file(path: str) -> None:
    (found,) = judged(Change("A", path, new_mode=FILE))
    assert found[:2] == (path, "GRD001")
    # Found one by one or among many paths (the fast path that answers most of a change).
    assert path not in guard().unguarded([path, "src/app.py", "README.md"])


@pytest.mark.parametrize(
    "path", ["notes.md.bak", "README.old", "src/app.py.orig", ".bak", "~", "backups/.old", "docs/v1.2", ".main.py.swp", "app_old.py"]
)
def test_a_backup_copy_of_another_file_is_not(path: str) -> None:
    assert judged(Change("A", path, new_mode=FILE)) == []


def test_the_configs_allowance_of_a_link_path_lets_it_through() -> None:
    link = Change("A", "fixtures/env", new_mode=SYMLINK_MODE, target="../.env")
    assert judged(link) == [("fixtures/env", "GRD002", "symlink added pointing to ../.env (.env)")]
    assert judged(link, guard={"allow": ["/fixtures/"]}) == []


def test_a_template_exempts_only_its_own_category() -> None:
    g = guard()
    assert g.hit(".env.example") is None
    hit = g.hit(".aws/.env.example")
    assert hit is not None and hit.category == "aws"
    hit = g.hit("keys/id_rsa_work")
    assert hit is not None and hit.category == "ssh"
    assert g.hit("keys/id_rsa_work.pub") is None
    assert g.hit(".ssh/id_rsa.pub") is not None  # the folder is guarded, not the name
    assert g.hit(".env.example/.env") is not None
    assert g.hit(".env.example", is_dir=True, link_target=True) is None


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ({}, {"guard": {"allow": ["/.env"]}}, ["allows /.env"]),
        ({}, {"guard": {"patterns": ["!.env", "*.db"]}}, ["allows .env"]),
        ({"guard": {"patterns": ["*.db"]}}, {}, ["drops pattern *.db"]),
        ({}, {"guard": {"disable": ["lockfiles", "env"]}}, ["disables category env", "disables category lockfiles"]),
        ({}, {"guard": {"case-sensitive": True}}, ["matches case-sensitively"]),
        ({}, {"ignore": ["GRD00"]}, ["turns GRD001, GRD002, GRD003, GRD004, GRD005 off"]),
        ({}, {"ignore": ["ALL"]}, ["turns GRD001, GRD002, GRD003, GRD004, GRD005 off"]),
        ({}, {"select": ["GRD001"]}, ["turns GRD002, GRD003, GRD004, GRD005 off"]),
        ({}, {"per-path-ignores": {"/.env": ["GRD"], "docs/": ["MEM"]}}, ["ignores GRD001, GRD002, GRD003, GRD004, GRD005 under /.env"]),
        # lint settings, and what tightens, change freely
        ({}, {"select": ["MEM", "IDX"], "ignore": ["MEM010"], "index": {"max-lines": 100}}, []),
        ({"guard": {"disable": ["env"], "allow": ["/x"]}}, {"guard": {"patterns": ["*.db"]}}, []),
        ({"ignore": ["GRD002"]}, {}, []),
        # who a category guards
        ({}, {"guard": {"tiers": {"env": "agents"}}}, ["moves category env to the agents tier (a person's change to it passes)"]),
        ({"guard": {"everyone": True}}, {}, ["stops guarding a person's changes to the agents tier (guard.everyone)"]),
        (
            {},
            {"guard": {"agents": {"remove": ["claude-code-env"]}}},
            ["stops recognising the agent signature claude-code-env (Claude Code: its shell sets CLAUDECODE=1)"],
        ),
        (
            {},
            {"guard": {"everyone": True, "tiers": {"lockfiles": "secrets"}, "agents": {"add": [{"kind": "env", "variable": "MY_BOT"}]}}},
            [],
        ),
    ],
)
def test_loosenings(before: dict[str, Any], after: dict[str, Any], expected: list[str]) -> None:
    assert loosenings(policy(config(**before)), policy(config(**after))) == expected


def test_a_lint_only_select_leaves_guard_on() -> None:
    assert enabled_codes(config(select=["MEM"])) == {"GRD001", "GRD002", "GRD003", "GRD004", "GRD005"}
    assert enabled_codes(default_config(ROOT)) == {"GRD001", "GRD002", "GRD003", "GRD004", "GRD005"}


# --- the strictest of several settings ------------------------------------------------


def test_strictest_lets_through_only_what_every_one_lets_through() -> None:
    lax = config(
        guard={"disable": ["env", "lockfiles"], "allow": ["/.env", "/x.pem"], "case-sensitive": True},
        ignore=["GRD002"],
        **{"per-path-ignores": {"/a": ["GRD001"]}},
    )
    tight = config(
        guard={"disable": ["lockfiles"], "patterns": ["*.sqlite", "!/x.pem"]},
        select=["GRD001"],
        **{"per-path-ignores": {"/a": ["GRD"], "/b": ["GRD001"]}},
    )
    both = strictest([lax, tight])
    assert both.guard.disable == ("lockfiles",)
    assert both.guard.patterns == ("*.sqlite",)
    assert both.guard.allow == ("/x.pem",)  # allowed by both, one as a "!" pattern
    assert both.guard.case_sensitive is False
    assert enabled_codes(both) == {"GRD001", "GRD003", "GRD004", "GRD005"}  # GRD002 off in lax, GRD003 off in tight: on in one
    assert policy(both).path_ignores == {("/a", "GRD001")}
    g = Guard(both.guard)
    assert g.hit(".env") is not None and g.hit("db/app.sqlite") is not None and g.hit("yarn.lock") is None and g.hit("x.pem") is None
    assert strictest([lax]) is lax


def test_strictest_of_settings_that_turn_every_grd_rule_off() -> None:
    off = config(ignore=["GRD"])
    assert enabled_codes(strictest([off, off])) == set()
    assert enabled_codes(strictest([off, config()])) == {"GRD001", "GRD002", "GRD003", "GRD004", "GRD005"}


SETTINGS = st.fixed_dictionaries(
    {},
    optional={
        "guard": st.fixed_dictionaries(
            {},
            optional={
                "disable": st.lists(st.sampled_from(["env", "keys", "lockfiles", "ssh"]), unique=True),
                "patterns": st.lists(st.sampled_from(["*.db", "!*.db", "!/.env", "/local/", "!x.pem"])),
                "allow": st.lists(st.sampled_from(["/.env", "!/.env", "*.pem", "/vendor/"])),
                "case-sensitive": st.booleans(),
            },
        ),
        "select": st.lists(st.sampled_from(["GRD", "GRD001", "GRD002", "MEM", "ALL"]), max_size=2),
        "ignore": st.lists(st.sampled_from(["GRD", "GRD001", "GRD003", "MEM010"]), max_size=2),
        "per-path-ignores": st.dictionaries(
            st.sampled_from(["/.env", "docs/", "*.pem"]),
            st.lists(st.sampled_from(["GRD", "GRD002", "MEM"]), min_size=1, max_size=2),
            max_size=2,
        ),
    },
)


@settings(max_examples=300, deadline=None)
@given(st.lists(SETTINGS, min_size=1, max_size=4))
@pytest.mark.slow  # a property test: seconds of examples
def test_strictest_loosens_nothing_of_any_of_them(mappings: list[dict[str, Any]]) -> None:
    configs = [config(**m) for m in mappings]
    combined = policy(strictest(configs))
    for c in configs:
        assert loosenings(policy(c), combined) == []
    # ... and is no stricter than the strictest of them needs to be: each thing it
    # guards, one of them guards
    assert combined.disabled == frozenset.intersection(*(policy(c).disabled for c in configs))
    assert combined.allowed == frozenset.intersection(*(policy(c).allowed for c in configs))
    assert combined.enabled == frozenset.union(*(policy(c).enabled for c in configs))


# --- git's raw format -----------------------------------------------------------------

Z = "0" * 40


def test_a_combined_entry_is_one_change_of_the_merge() -> None:
    sha = "1" * 40
    out = (
        f"\x01{sha} {'2' * 40} {'3' * 40}\0\n"
        f"::{NO_MODE} {NO_MODE} {FILE} {Z} {Z} {'4' * 40} AA\0.env\0"
        f"::{FILE} {FILE} {NO_MODE} {'5' * 40} {'6' * 40} {Z} DD\0gone.pem\0"
        f"::{FILE} {NO_MODE} {FILE} {'5' * 40} {Z} {'7' * 40} MA\0both.key\0"
    ).encode()
    assert parse_raw(out) == [
        Change("A", ".env", "", NO_MODE, FILE, "4" * 40, sha, merge=True),
        Change("D", "gone.pem", "", FILE, NO_MODE, Z, sha, merge=True),
        Change("M", "both.key", "", FILE, FILE, "7" * 40, sha, merge=True),
    ]


def test_an_octopus_entry_has_a_colon_per_parent() -> None:
    out = f":::{NO_MODE} {NO_MODE} {NO_MODE} {FILE} {Z} {Z} {Z} {'4' * 40} AAA\0k.pem\0".encode()
    assert parse_raw(out) == [Change("A", "k.pem", "", NO_MODE, FILE, "4" * 40, "", merge=True)]


NAMES = st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), min_size=1, max_size=12)
SHAS = st.text("0123456789abcdef", min_size=40, max_size=40)


@st.composite
def entries(draw: st.DrawFn) -> tuple[str, Change]:
    path, sha, commit = draw(NAMES), draw(SHAS), draw(SHAS)
    parents = draw(st.integers(1, 4))
    if parents == 1:
        letter = draw(st.sampled_from("AMDTR"))
        source = draw(NAMES) if letter == "R" else ""
        old, new = (NO_MODE if letter == "A" else FILE), (NO_MODE if letter == "D" else SYMLINK_MODE if letter == "T" else FILE)
        status = "R100" if letter == "R" else letter
        names = f"{source}\0{path}" if letter == "R" else path
        return f":{old} {new} {Z} {sha} {status}\0{names}\0", Change(letter, path, source, old, new, sha, commit)
    modes = [FILE] * parents + [FILE]
    raw = ":" * parents + " ".join([*modes, *[Z] * parents, sha, "M" * parents])
    return f"{raw}\0{path}\0", Change("M", path, "", FILE, FILE, sha, commit, merge=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(SHAS, st.lists(entries(), max_size=4)), max_size=4))
@pytest.mark.slow  # a property test: seconds of examples
def test_raw_log_output_round_trips(commits: list[tuple[str, list[tuple[str, Change]]]]) -> None:
    # Any name (newlines, colons, \x01 included) comes back whole, under its commit.
    out, expected = "", []
    for commit, items in commits:
        out += f"\x01{commit} {'f' * 40}\0\n"
        for raw, change in items:
            out += raw
            expected.append(change._replace(commit=commit))
    assert parse_raw(out.encode()) == expected
