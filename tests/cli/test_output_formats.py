from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT, git, invoke, memory, run_cli, write

from memcheck.checks import all_rules
from memcheck.output import ReportContext, github, resolve_format, sarif
from memcheck.problem import Problem
from memcheck.rules import RULE_PAGES, families


def _broken_store(root: Path) -> None:
    """A store whose index misses an entry (error) and carries a CRLF (warning)."""
    write(root, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(root, ".claude/memory/feedback_tests.md", memory("tests", "Run pytest first", "feedback"))
    write(root, ".claude/memory/MEMORY.md", "# Memory\r\n\r\n## User\r\n- [prefs](user_prefs.md) - Prefers short answers\r\n")


@pytest.mark.parametrize(
    ("problem", "expected"),
    (
        pytest.param(
            Problem("a/MEMORY.md", 3, 1, "IDX003", "memory file b.md is not listed", "error", True),
            "::error file=a/MEMORY.md,line=3,col=1,title=IDX003::memory file b.md is not listed",
            id="error",
        ),
        pytest.param(
            Problem("MEMORY.md", 1, 1, "IDX009", "at 190 of 200 lines", "warning"),
            "::warning file=MEMORY.md,line=1,col=1,title=IDX009::at 190 of 200 lines",
            id="warning",
        ),
        pytest.param(
            Problem("odd,name:x%.md", 2, 5, "MEM003", "100% bad\r\nsecond: line, still", "error"),
            "::error file=odd%2Cname%3Ax%25.md,line=2,col=5,title=MEM003::100%25 bad%0D%0Asecond: line, still",
            id="escaping",
        ),
    ),
)
def test_github_annotation(problem: Problem, expected: str) -> None:
    assert github.annotation(problem) == expected


def test_github_format_through_cli(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _broken_store(repo)
    result = invoke(repo, "check", "--format", "github", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert (
        "::error file=.claude/memory/MEMORY.md,line=4,col=1,title=IDX003::memory file feedback_tests.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
        in lines
    )
    assert any(line.startswith("::warning file=.claude/memory/MEMORY.md,line=1,col=1,title=IDX010::") for line in lines)
    assert lines[-1].startswith("Found 2 problems (1 error, 1 warning)")


@pytest.mark.parametrize(("actions", "expected"), (("true", "github"), ("", "text"), (None, "text")))
def test_auto_picks_github_under_actions(monkeypatch: pytest.MonkeyPatch, actions: str | None, expected: str) -> None:
    if actions is not None:
        monkeypatch.setenv("GITHUB_ACTIONS", actions)
    assert resolve_format("auto") == expected


def test_auto_format_in_a_subprocess(repo: Path) -> None:
    _broken_store(repo)
    proc = run_cli(repo, "check", "--format", "auto", env={"GITHUB_ACTIONS": "true"})
    assert proc.returncode == 1
    assert proc.stdout.startswith("::")


def test_fix_with_github_format_names_fixed_files(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _broken_store(repo)
    result = invoke(repo, "fix", "--format", "github", monkeypatch=monkeypatch)
    assert result.output.splitlines()[0] == "Fixing .claude/memory/MEMORY.md: added 1 (feedback_tests.md)"
    assert result.exit_code == 0, result.output


def _sarif(root: Path, *args: str) -> dict[str, object]:
    proc = run_cli(root, "check", "--format", "sarif", *args)
    assert proc.returncode == 1, proc.stderr
    doc: dict[str, object] = json.loads(proc.stdout)
    return doc


# The OASIS SARIF 2.1.0 schema, vendored (see tests/schemas/README.md).
SARIF_SCHEMA = REPO_ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json"


def _sarif_errors(doc: object) -> list[str]:
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif-schema-2.1.0.json") and "runs" in schema["required"]
    validator = jsonschema.validators.validator_for(schema)(schema, format_checker=jsonschema.FormatChecker())
    return sorted(e.message for e in validator.iter_errors(doc))


def test_sarif_validates_against_the_schema(repo: Path) -> None:
    _broken_store(repo)
    doc = _sarif(repo)
    assert _sarif_errors(doc) == []
    assert doc["runs"][0]["results"]  # type: ignore[index]
    # Odd paths and codes memcheck does not know validate too.
    assert _sarif_errors(sarif.document([Problem("docs/my notes/MEMORY.md", 1, 1, "ZZZ001", "m", "warning")])) == []
    # Not vacuous: the schema rejects what SARIF does not allow.
    doc["runs"][0]["results"][0]["level"] = "fatal"  # type: ignore[index]
    assert _sarif_errors(doc)


def test_sarif_content(repo: Path) -> None:
    _broken_store(repo)
    doc = _sarif(repo)
    assert doc["version"] == "2.1.0"
    (run,) = doc["runs"]  # type: ignore[misc]
    driver = run["tool"]["driver"]
    assert driver["name"] == "memcheck"
    assert driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    # Only the rules the results use, so the file grows with the findings, not the catalogue.
    assert [r["id"] for r in rules] == ["IDX003", "IDX010"]
    idx003 = rules[[r["id"] for r in rules].index("IDX003")]
    assert idx003["name"] == "unlisted-memory"
    assert idx003["shortDescription"]["text"] == "Memory file is not listed in MEMORY.md"
    assert idx003["fullDescription"]["text"].startswith("Reports a memory file that no line of the index")
    assert "## Why is this bad?" in idx003["help"]["markdown"]
    assert idx003["help"]["text"]
    assert idx003["helpUri"] == "https://github.com/memcheck/memcheck/blob/main/docs/rules/IDX003.md"
    assert idx003["properties"] == {"fixable": True, "tags": ["index"]}
    assert idx003["defaultConfiguration"] == {"level": "error"}
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("IDX010", "warning"), ("IDX003", "error")]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    location = results[1]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == ".claude/memory/MEMORY.md"
    assert location["region"] == {"startLine": 4, "startColumn": 1}


def _sarif_bytes(count: int, codes: tuple[str, ...]) -> int:
    """The size of the SARIF file for ``count`` findings spread over ``codes``."""
    message = "memory file m{}.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
    found = [Problem(f".claude/memory/m{i}.md", i + 1, 1, codes[i % len(codes)], message.format(i), "error", True) for i in range(count)]
    out = io.StringIO()
    sarif.report(found, out, ReportContext())
    return len(out.getvalue().encode("utf-8"))


def test_sarif_grows_with_the_results_not_with_the_catalogue() -> None:
    one = _sarif_bytes(1, ("IDX003",))
    per_result = (_sarif_bytes(101, ("IDX003",)) - one) / 100
    assert one < 12_000 and per_result < 1_200, (one, per_result)
    # The report the issue measured at 169 KB: 27 findings of three rules.
    assert _sarif_bytes(27, ("IDX003", "MEM010", "SEC001")) < 60_000
    # Each rule the run uses adds its descriptor once, however many findings it has.
    assert _sarif_bytes(27, ("IDX003", "MEM010")) - _sarif_bytes(27, ("IDX003",)) < 10_000


def _every_rule() -> dict[str, object]:
    return sarif.document([Problem("AGENTS.md", 1, 1, code, "m", rule.severity, rule.fixable) for code, rule in all_rules().items()])


def test_every_rule_in_sarif_links_its_page_on_the_default_branch_and_validates() -> None:
    doc = _every_rule()
    assert _sarif_errors(doc) == []
    run = doc["runs"][0]  # type: ignore[index]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(all_rules())
    assert [rules[r["ruleIndex"]]["id"] for r in run["results"]] == [r["ruleId"] for r in run["results"]]
    # The default branch, never a release tag, which may not exist yet.
    prefix = f"{sarif.INFORMATION_URI}/blob/main/"
    for r in rules:
        rule = all_rules()[r["id"]]
        assert r["helpUri"] == f"{prefix}{RULE_PAGES}/{rule.code}.md"
        # The page is in this checkout, as main holds it.
        assert (REPO_ROOT / r["helpUri"].removeprefix(prefix)).is_file(), r["helpUri"]
        assert r["help"] == {"text": rule.doc, "markdown": rule.doc}
        assert r["properties"]["tags"][0] == families()[rule.code]


# A memory file, an index or a skill's file that links out of the repository, maybe to
# where secrets are kept: what the agent loads is then outside any review.
LINKS_OUT = {"MEM022", "IDX014", "SKL013"}
# Guidance that imports or links a place where secrets are kept: the agent loads the secret.
SECRET_IMPORTS = {"GDN023"}
# A committed subagent that runs every tool without asking: a medium alert.
UNSAFE_AGENTS = {"AGT010"}


def test_sarif_ranks_secret_guard_hidden_text_and_link_out_rules_as_security_alerts() -> None:
    rules = {r["id"]: r["properties"] for r in _every_rule()["runs"][0]["tool"]["driver"]["rules"]}  # type: ignore[index]
    ranked = {code: p["security-severity"] for code, p in rules.items() if "security-severity" in p}
    assert {code for code in rules if code[:3] in ("SEC", "GRD", "HID")} | LINKS_OUT | SECRET_IMPORTS | UNSAFE_AGENTS == set(ranked)
    assert all(7.0 <= float(ranked[code]) < 9.0 for code in LINKS_OUT)
    assert all(4.0 <= float(ranked[code]) < 7.0 for code in UNSAFE_AGENTS)
    for code, severity in ranked.items():
        assert rules[code]["tags"] == [families()[code], "security"]
        assert 0.0 < float(severity) <= 10.0 and severity == f"{float(severity):.1f}"
    # Code scanning: 9.0 and over is critical, 7.0 to 8.9 high, 4.0 to 6.9 medium.
    assert float(ranked["SEC001"]) >= 9.0 and float(ranked["SEC002"]) >= 9.0
    assert 7.0 <= float(ranked["HID001"]) < 9.0 and 7.0 <= float(ranked["GRD002"]) < 9.0
    assert 4.0 <= float(ranked["GRD004"]) < 7.0
    assert rules["MEM001"] == {"fixable": False, "tags": ["memory"]}


def test_sarif_is_deterministic_and_machine_independent(repo: Path, tmp_path: Path) -> None:
    _broken_store(repo)
    other = tmp_path / "elsewhere" / "clone"
    other.mkdir(parents=True)
    git(other, "-c", "init.defaultBranch=main", "init", "-q")
    _broken_store(other)
    first = run_cli(repo, "check", "--format", "sarif").stdout
    assert first == run_cli(repo, "check", "--format", "sarif", env={"PYTHONHASHSEED": "7"}).stdout
    assert first == run_cli(other, "check", "--format", "sarif").stdout
    assert str(repo) not in first


def test_sarif_uri_is_percent_encoded_and_unknown_codes_get_a_rule() -> None:
    doc = sarif.document([Problem("docs/my notes/MEMORY.md", 1, 1, "ZZZ001", "m", "warning")])
    run = doc["runs"][0]
    uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "docs/my%20notes/MEMORY.md"
    (rule,) = run["tool"]["driver"]["rules"]
    assert rule["id"] == "ZZZ001" and run["results"][0]["ruleIndex"] == 0
    assert "helpUri" not in rule and rule["properties"] == {"fixable": False}  # no page to point at


def test_clean_tree_gives_empty_sarif_results(repo: Path) -> None:
    write(repo, "README.md", "hello\n")
    proc = run_cli(repo, "check", "--format", "sarif")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["runs"][0]["results"] == []


def test_version_imports_no_reporter_yaml_git_or_pathspec(repo: Path) -> None:
    code = (
        "import sys\n"
        "from memcheck.cli import main\n"
        "rc = main(['--version'])\n"
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('yaml', 'git', 'pathspec') or m.startswith('memcheck.output'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=True)
    assert proc.stdout.splitlines()[-1] == ""


def test_sarif_fingerprints_survive_a_move_and_tell_twins_apart(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nSee @docs/a.md, @docs/a.md and @docs/b.md.\n")

    def results() -> list[tuple[int, str]]:
        doc = json.loads(run_cli(repo, "check", "--format", "sarif").stdout)
        return [
            (r["locations"][0]["physicalLocation"]["region"]["startLine"], r["partialFingerprints"]["memcheckFinding/v1"])
            for r in doc["runs"][0]["results"]
        ]

    before = results()
    assert len(before) == 3 and len({f for _, f in before}) == 3
    assert before[0][1].split(":")[0] == before[1][1].split(":")[0] and [f[-2:] for _, f in before[:2]] == [":1", ":2"]
    write(repo, "AGENTS.md", "# Agents\n\nIntro.\n\nSee @docs/a.md, @docs/a.md and @docs/b.md.\n")
    after = results()
    assert [line for line, _ in after] == [line + 2 for line, _ in before]
    assert [f for _, f in after] == [f for _, f in before]
