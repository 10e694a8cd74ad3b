"""The guard asks the paths of a change at once (FirstMatch.none_match,
Guard.unguarded), then one by one only those that may be guarded: the paths it calls
unguarded are ones no pattern guards, whatever the patterns and names."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from memcheck.changes import Change
from memcheck.config import default_config
from memcheck.guard import categories
from memcheck.guard.findings import Judge, findings
from memcheck.guard.paths import Guard
from memcheck.text import first_match

LINES = [
    ".env", "*.pem", "id_rsa*", "secrets/", "*[._-]secret.json", "[!a]*.key", "x?y", "/root/", "**/.aws/credentials", "**/.vscode/*.json",
    "!keep.pem", "Caf\u00e9", "*.tar.gz", "a**b", "[a-c]q", "*.", "deploy", "/run/secrets/**", "*.PEM", "node_modules/", "*", "?",
]  # fmt: skip
SEGMENTS = [
    "src", "a.pem", "A.PEM", ".env", ".ENV", "id_rsa.pub", "secrets", "db-secret.json", "b.key", "a.key", "xzy", "x/y", "root", ".aws",
    "credentials", ".vscode", "s.json", "keep.pem", "caf\u00e9", "Cafe\u0301", "t.tar.gz", "aXXb", "bq", "dq", "n.", "n ", "deploy", "run",
    "node_modules", "main.py", "README.md", "a\nb", "\udce9.pem", "q",
]  # fmt: skip


@pytest.mark.parametrize("case_sensitive", [False, True])
def test_a_path_called_unmatched_is_matched_by_no_line(case_sensitive: bool) -> None:
    rng = random.Random(37)
    for _ in range(60):
        lines = rng.sample(LINES, rng.randint(1, 8))
        paths = ["/".join(rng.choice(SEGMENTS) for _ in range(rng.randint(1, 4))) for _ in range(40)]
        paths = [p for p in paths if "//" not in p]
        at_once = first_match.FirstMatch(lines, case_sensitive).none_match(paths)
        one_by_one = first_match.FirstMatch(lines, case_sensitive)
        assert at_once <= set(paths)
        wrong = [p for p in at_once if one_by_one.first_at(p) is not None]
        assert not wrong, (lines, wrong)


def test_plain_names_no_line_matches_are_all_found() -> None:
    paths = [f"pkg{i}/mod_{i}.py" for i in range(500)] + ["pkg1/.env", "docs/a.pem/readme.md", "keep/root/x.md"]
    found = first_match.FirstMatch([".env", "*.pem", "/root/"]).none_match(paths)
    # keep/root/x.md holds the name /root/ needs: asked one by one (it is not /root/).
    assert found == set(paths) - {"pkg1/.env", "docs/a.pem/readme.md", "keep/root/x.md"}


def test_a_line_that_matches_across_names_has_every_path_asked_one_by_one() -> None:
    # [!a] takes a slash, so the joined names match as one: the scan tells nothing.
    lines = ["[!a]*.key"]
    assert first_match.FirstMatch(lines).none_match(["b/x.py", "c.key"]) == set()
    assert first_match.FirstMatch(lines).first("c.key") == 0


def test_a_run_of_plain_paths_asks_only_the_paths_that_may_be_guarded(monkeypatch: pytest.MonkeyPatch) -> None:
    judge = Judge(default_config(Path.cwd()).guard)
    asked: list[str] = []
    hit = Guard.hit

    def counting(self: Guard, path: str, is_dir: bool = False, link_target: bool = False) -> object:
        asked.append(path)
        return hit(self, path, is_dir, link_target)

    monkeypatch.setattr(Guard, "hit", counting)
    changes = [Change("A", f"pkg{i // 100}/mod_{i}.py") for i in range(2_000)] + [Change("A", "config/.env"), Change("R", "b.md", "id_rsa")]
    found = findings(changes, judge)
    assert [p.path for p in found] == ["config/.env", "id_rsa"]
    assert sorted(asked) == ["b.md", "config/.env", "id_rsa"]  # a rename is asked whole


def test_the_shipped_patterns_answer_plain_paths_at_once() -> None:
    # A shipped line that matches across names (`/lefthook.*` did, through pathspec's
    # `(?:/.*)?` for a folder's contents) would have every path asked one by one.
    plain = ["README.md", "src/app.py", "docs/guide.md", "package.json", "Makefile", "tests/test_app.py"]
    assert Guard(default_config(Path.cwd()).guard).unguarded(plain) == set(plain)


def test_the_shipped_lines_regexes_are_pathspecs() -> None:
    """guard reads resources/guard-regexes.json, written by `python docs/generate.py`
    from pathspec: a category edit without it fails here."""
    assert Path(categories.TRANSLATED).read_text(encoding="utf-8") == categories.translations_text(), (
        "resources/guard-regexes.json is out of date: python docs/generate.py"
    )
    assert set(categories.translations()) == set(categories.shipped_lines())
