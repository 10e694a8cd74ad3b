"""Compare memcheck's verdicts with the peers' own test suites, case by case.

    python bench/conformance.py --agnix CLONE --agentskills CLONE [--memcheck CMD]
        [--peer-python PY] [--json OUT] [--kind KIND]

A benchmark, not part of the test suite: nothing here is copied from the peers, and no
test depends on their files. Given local clones of

- agnix (github.com/avifenesh/agnix): its fixtures under tests/fixtures, each with the
  verdict its name and its rule family give (the fixture README's conventions: a fixture
  under a valid folder raises nothing of its family; an invalid one raises the rule it
  is named for), listed below in CASES with the place the agent reads the file;
- the Agent Skills reference validator (github.com/agentskills/agentskills, skills-ref):
  its own tests are run with a small pytest plugin that records every skill folder the
  tests hand to ``validate``, ``read_properties`` or ``parse_frontmatter``, and what the
  validator answered (an empty error list, or no exception, is "valid"). The peer's
  Python needs strictyaml and pytest (``--peer-python``);

each case is laid out in a scratch git repository where the agent reads it (a skill under
``.claude/skills/NAME/`` or ``.agents/skills/NAME/``, a subagent under ``.claude/agents/``,
a rule under ``.cursor/rules/``, ...), memcheck runs there (``check --format json``), and
its verdict (any error or warning: invalid; nothing, or only info: valid) is compared with
the peer's. Agreement is printed per kind (skills, subagents, rules frontmatter, imports
and links) with every disagreement. Where memcheck is right to differ, JUSTIFIED says why,
with a source (AGENT-FILES.md, whose section 0 wins, or the agent's docs); such a case
counts as agreement and is listed as justified.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ENV = {
    **os.environ,
    "LC_ALL": "C.UTF-8",
    "NO_COLOR": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}
for _variable in ("GITHUB_ACTIONS", "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "CLAUDECODE"):
    ENV.pop(_variable, None)

KINDS = ("skills", "subagents", "rules frontmatter", "imports and links")
VALID = "valid"
# Findings about the scratch tree rather than the file under test: they neither make a
# case invalid nor let it agree for a reason that is not the peer's.
INCIDENTAL = frozenset({"GDN008"})  # a glob that matches no file of the scratch project


class Case:
    # A plain class, not a dataclass: the script is also loaded from its file by the tests,
    # outside sys.modules, where a dataclass cannot resolve its string annotations.
    def __init__(
        self, kind: str, peer: str, name: str, files: dict[str, bytes], expect: str, found: list[dict[str, Any]] | None = None
    ) -> None:
        self.kind = kind
        self.peer = peer  # "agnix" or "agentskills"
        self.name = name  # the peer's own name for the case: a fixture path or a test id
        self.files = files  # where the agent reads each file -> its bytes
        self.expect = expect  # VALID, or the peer's reason the case is invalid (a rule id or message)
        self.found = found or []  # memcheck's problems

    @property
    def peer_valid(self) -> bool:
        return self.expect == VALID

    @property
    def flagged(self) -> list[dict[str, Any]]:
        return [p for p in self.found if p.get("severity") in ("error", "warning") and p["code"] not in INCIDENTAL]

    @property
    def agrees(self) -> bool:
        return self.peer_valid == (not self.flagged)


# agnix's fixtures in scope, per kind: (fixture under tests/fixtures, the verdict its
# name and rule family give: VALID or the agnix rule it is named for). PLACES says where
# the agent reads each one (see place()).
CASES: dict[str, list[tuple[str, str]]] = {
    "skills": [
        # Agent Skills (AS-*) and Claude Code skill (CC-SK-*) rules.
        ("invalid/skills/agent-without-context/SKILL.md", "CC-SK-004"),
        ("invalid/skills/argument-hint-no-args/SKILL.md", "CC-SK-012"),
        ("invalid/skills/context-without-agent/SKILL.md", "CC-SK-003"),
        ("invalid/skills/deploy-prod/SKILL.md", "CC-SK-006"),
        ("invalid/skills/first-person-description/SKILL.md", "AS-018"),
        ("invalid/skills/fork-no-instructions/SKILL.md", "CC-SK-013"),
        ("invalid/skills/indexed-arguments-no-hint/SKILL.md", "CC-SK-016"),
        ("invalid/skills/invalid-agent/SKILL.md", "CC-SK-005"),
        ("invalid/skills/invalid-context/SKILL.md", "CC-SK-002"),
        ("invalid/skills/invalid-hooks/SKILL.md", "CC-SK-010"),
        ("invalid/skills/invalid-model/SKILL.md", "CC-SK-001"),
        ("invalid/skills/invalid-name/SKILL.md", "AS-004"),
        ("invalid/skills/name-directory-mismatch/SKILL.md", "AS-017"),
        ("invalid/skills/string-boolean-disable/SKILL.md", "CC-SK-014"),
        ("invalid/skills/string-boolean-invocable/SKILL.md", "CC-SK-015"),
        ("invalid/skills/too-many-injections/SKILL.md", "CC-SK-009"),
        ("invalid/skills/unknown-frontmatter-field/SKILL.md", "CC-SK-017"),
        ("invalid/skills/unknown-tool/SKILL.md", "CC-SK-008"),
        ("invalid/skills/unreachable-skill/SKILL.md", "CC-SK-011"),
        ("invalid/skills/vague-name/SKILL.md", "AS-019"),
        ("skills/deep-reference/SKILL.md", "AS-013"),
        ("skills/missing-frontmatter/SKILL.md", "AS-001"),
        ("skills/windows-path/SKILL.md", "AS-014"),
        ("valid/skills/code-review/SKILL.md", VALID),
        ("valid/skills/deploy-prod/SKILL.md", VALID),
        ("valid/skills/fork-with-instructions/SKILL.md", VALID),
        ("valid/skills/with-argument-hint/SKILL.md", VALID),
        ("valid/skills/with-context-agent/SKILL.md", VALID),
        ("valid/skills/with-custom-agent/SKILL.md", VALID),
        ("valid/skills/with-hooks/SKILL.md", VALID),
        ("valid/skills/with-model/SKILL.md", VALID),
        # The same skill, with `hooks: some-value`, in each client's folder: agnix's
        # per-client rules say each of these clients ignores `hooks`.
        ("per_client_skills/.agents/skills/test-skill/SKILL.md", "CX-SK-001"),
        ("per_client_skills/.cline/skills/test-skill/SKILL.md", "CL-SK-001"),
        ("per_client_skills/.cursor/skills/test-skill/SKILL.md", "CR-SK-001"),
        ("per_client_skills/.github/skills/test-skill/SKILL.md", "CP-SK-001"),
        ("per_client_skills/.kiro/skills/test-skill/SKILL.md", "KR-SK-001"),
        ("per_client_skills/.opencode/skills/test-skill/SKILL.md", "OC-SK-001"),
        ("per_client_skills/.roo/skills/test-skill/SKILL.md", "RC-SK-001"),
        ("per_client_skills/.windsurf/skills/test-skill/SKILL.md", "WS-SK-001"),
    ],
    "subagents": [
        # Claude Code (CC-AG-*), Cursor (CUR-014/015) and Copilot custom agents (COP-*).
        ("invalid/agents/bypass-permissions.md", "CC-AG-012"),
        ("invalid/agents/invalid-disallowed-tool.md", "CC-AG-010"),
        ("invalid/agents/invalid-hooks.md", "CC-AG-011"),
        ("invalid/agents/invalid-memory.md", "CC-AG-008"),
        ("invalid/agents/invalid-model.md", "CC-AG-003"),
        ("invalid/agents/invalid-permission.md", "CC-AG-004"),
        ("invalid/agents/invalid-skill-format.md", "CC-AG-013"),
        ("invalid/agents/invalid-tool-name.md", "CC-AG-009"),
        ("invalid/agents/missing-description.md", "CC-AG-002"),
        ("invalid/agents/missing-frontmatter.md", "CC-AG-007"),
        ("invalid/agents/missing-name.md", "CC-AG-001"),
        ("invalid/agents/missing-skill.md", "CC-AG-005"),
        ("invalid/agents/tool-conflict.md", "CC-AG-006"),
        ("valid/agents/agent-complete-valid.md", VALID),
        ("valid/agents/agent-with-new-fields.md", VALID),
        ("valid/agents/valid-agent.md", VALID),
        ("cursor/.cursor/agents/reviewer.md", VALID),
        ("cursor-invalid/agent-cur014/.cursor/agents/reviewer.md", "CUR-014"),
        ("cursor-invalid/agent-cur015/.cursor/agents/reviewer.md", "CUR-015"),
        ("copilot/.github/agents/reviewer.agent.md", VALID),
        ("copilot-invalid/.github/agents/deprecated-infer.agent.md", "COP-010"),
        ("copilot-invalid/.github/agents/invalid-target.agent.md", "COP-009"),
        ("copilot-invalid/.github/agents/missing-description.agent.md", "COP-007"),
        ("copilot-invalid/.github/agents/unknown-field.agent.md", "COP-008"),
        ("copilot-invalid/.github/agents/unsupported-fields.agent.md", "COP-012"),
        ("copilot-too-long/.github/agents/too-long.agent.md", "COP-011"),
    ],
    "rules frontmatter": [
        # Cursor, Copilot instructions and prompt files, Claude Code rules, Cline, Kiro
        # steering, Windsurf, Roo Code.
        ("cursor-invalid/.cursor/rules/agent-requested-no-description.mdc", "CUR-009"),
        ("cursor-invalid/.cursor/rules/always-apply-string.mdc", "CUR-008"),
        ("cursor-invalid/.cursor/rules/always-apply-with-globs.mdc", "CUR-007"),
        ("cursor-invalid/.cursor/rules/bad-glob.mdc", "CUR-004"),
        ("cursor-invalid/.cursor/rules/bad-yaml.mdc", "CUR-003"),
        ("cursor-invalid/.cursor/rules/empty.mdc", "CUR-001"),
        ("cursor-invalid/.cursor/rules/no-frontmatter.mdc", "CUR-002"),
        ("cursor-invalid/.cursor/rules/unknown-keys.mdc", "CUR-005"),
        ("cursor/.cursor/rules/multiple-globs.mdc", VALID),
        ("cursor/.cursor/rules/valid.mdc", VALID),
        ("copilot-invalid/.github/instructions/bad-exclude-agent.instructions.md", "COP-005"),
        ("copilot-invalid/.github/instructions/bad-frontmatter.instructions.md", "COP-002"),
        ("copilot-invalid/.github/instructions/bad-glob.instructions.md", "COP-003"),
        ("copilot-invalid/.github/instructions/unknown-keys.instructions.md", "COP-004"),
        ("copilot/.github/instructions/typescript.instructions.md", VALID),
        ("copilot/.github/instructions/frontend/react.instructions.md", VALID),
        ("copilot-invalid/.github/prompts/empty.prompt.md", "COP-013"),
        ("copilot-invalid/.github/prompts/invalid-agent.prompt.md", "COP-015"),
        ("copilot-invalid/.github/prompts/unknown-field.prompt.md", "COP-014"),
        ("copilot/.github/prompts/refactor.prompt.md", VALID),
        ("invalid/claude-rules/.claude/rules/bad-glob.md", "CC-MEM-011"),
        ("invalid/claude-rules/.claude/rules/unknown-keys.md", "CC-MEM-012"),
        ("valid/claude-rules/.claude/rules/no-frontmatter.md", VALID),
        ("valid/claude-rules/.claude/rules/typescript.md", VALID),
        ("cline-invalid/.clinerules/bad-glob.md", "CLN-002"),
        ("cline-invalid/.clinerules/scalar-paths.md", "CLN-004"),
        ("cline-invalid/.clinerules/unknown-keys.md", "CLN-003"),
        ("cline/.clinerules/01-typescript.md", VALID),
        ("cline/.clinerules/02-general.md", VALID),
        ("kiro-steering/.kiro/steering/bad-glob.md", "KIRO-003"),
        ("kiro-steering/.kiro/steering/empty.md", "KIRO-004"),
        ("kiro-steering/.kiro/steering/invalid-mode.md", "KIRO-001"),
        ("kiro-steering/.kiro/steering/missing-fields-auto.md", "KIRO-002"),
        ("kiro-steering/.kiro/steering/missing-pattern-filematch.md", "KIRO-002"),
        ("kiro-steering/.kiro/steering/valid-always.md", VALID),
        ("kiro-steering/.kiro/steering/valid-auto.md", VALID),
        ("kiro-steering/.kiro/steering/valid-filematch.md", VALID),
        ("kiro-steering/.kiro/steering/valid-manual.md", VALID),
        ("windsurf/.windsurf/rules/empty-rule.md", "WS-001"),
        ("windsurf/.windsurf/rules/valid-rule.md", VALID),
        ("roo-code/.roo/rules/general.md", VALID),
        ("roo-code/.roo/rules-architect/custom.md", VALID),
    ],
    "imports and links": [
        ("refs/missing-import.md", "REF-001"),
        ("refs/broken-link/CLAUDE.md", "REF-002"),
        ("refs/external-links.md", VALID),
        ("refs/valid-links.md", VALID),
        ("valid/memory/CLAUDE.md", VALID),
        ("agents_md/valid/AGENTS.md", VALID),
        ("agents_md/nested/AGENTS.md", VALID),
        ("agents_md/nested/subdir/AGENTS.md", VALID),
    ],
}

# Where the agent reads the fixtures whose own path does not say (see place()). agnix
# runs its REF rules on any markdown; memcheck follows imports and links from the files
# agents read, so the refs fixtures become a CLAUDE.md.
PLACES: dict[str, str] = {
    "refs/missing-import.md": "CLAUDE.md",
    "refs/broken-link/CLAUDE.md": "CLAUDE.md",
    "refs/external-links.md": "CLAUDE.md",
    # Its links are relative to its own place, three folders below the repository's
    # README, so it keeps that place.
    "refs/valid-links.md": "tests/fixtures/refs/CLAUDE.md",
    "valid/memory/CLAUDE.md": "CLAUDE.md",
    "agents_md/valid/AGENTS.md": "AGENTS.md",
    "agents_md/nested/AGENTS.md": "AGENTS.md",
    "agents_md/nested/subdir/AGENTS.md": "subdir/AGENTS.md",
    # The one fixture whose folder must differ from its name.
    "invalid/skills/name-directory-mismatch/SKILL.md": ".claude/skills/name-directory-mismatch/SKILL.md",
}
SKILL_NAME = re.compile(rb"^name:[ \t]*([a-z0-9-]+)[ \t]*$", re.MULTILINE)


def place(fixture: str, data: bytes) -> str:
    """Where the agent reads an agnix fixture.

    A fixture under an agent's own folder (`.cursor/rules/x.mdc`, `.github/agents/...`)
    keeps its path from that folder on; agnix's Claude Code subagents go to
    `.claude/agents/`, and its skills to `.claude/skills/NAME/`, NAME being the skill's
    own `name` where that is a valid one: agnix's fixture folders do not match their
    skills' names, which the Agent Skills spec requires (agnix's AS-017 too), and a
    fixture meant for one rule should not fail that one as well.
    """
    if fixture in PLACES:
        return PLACES[fixture]
    parts = fixture.split("/")
    for at, part in enumerate(parts):
        if part.startswith("."):
            return "/".join(parts[at:])
    if parts[-1] == "SKILL.md":
        named = SKILL_NAME.search(data)
        return f".claude/skills/{named.group(1).decode() if named else parts[-2]}/SKILL.md"
    if parts[-2] == "agents":
        return f".claude/agents/{parts[-1]}"
    raise ValueError(f"no place for {fixture}")


# Files a case needs beside its own, as agnix's tree has them.
SUPPORT: dict[str, dict[str, bytes]] = {
    "refs/valid-links.md": {"README.md": b"# Project\n"},
}

# A small project beside every case, so that the globs the fixtures scope their rules
# to (`**/*.ts`, `src/**/*.ts`, `lib/**/*.tsx`, ...) match a file as they would in the
# project the peer's fixture stands for; otherwise memcheck rightly says the rule
# applies to nothing (GDN008), which is about the scratch tree, not the fixture.
PROJECT: dict[str, bytes] = {
    "src/index.ts": b"export {};\n",
    "src/app.tsx": b"export {};\n",
    "src/main.js": b"\n",
    "src/view.jsx": b"\n",
    "src/lib.rs": b"\n",
    "lib/view.tsx": b"export {};\n",
}

# agnix tests that write an agent file inline rather than from a fixture: (kind, the
# test's file, the test's name, the file it writes, the verdict). The content is read
# from the clone: the first string literal the test writes.
INLINE: list[tuple[str, str, str, str, str]] = [
    ("imports and links", "crates/agnix-cli/tests/fixture_family_cli.rs", "test_cli_reports_ref_002_fixtures", "CLAUDE.md", "REF-002"),
]
WRITTEN = re.compile(r'std::fs::write\(\s*&\w+,\s*"((?:[^"\\]|\\.)*)"', re.DOTALL)


def inline_text(source: str, test: str) -> bytes | None:
    """The text a Rust test writes with ``std::fs::write(&path, "...")``, unescaped."""
    at = source.find(f"fn {test}(")
    written = WRITTEN.search(source, at) if at >= 0 else None
    if written is None:
        return None
    return written.group(1).encode().decode("unicode_escape").encode()


# Where memcheck is right to differ from the peer: case name -> the reason, with its
# source. Such a case counts as agreement and is listed as justified.
CCS = "Claude Code skills docs (code.claude.com/docs/en/skills)"
BEST = "Anthropic's skill authoring best practices"
ADVICE = (
    "style advice, not a fault the agent trips on: issue 41 puts advice from a style guide at info or off by default, "
    "and this run counts info as valid"
)
JUSTIFIED: dict[str, str] = {
    "invalid/skills/argument-hint-no-args/SKILL.md": (
        f"the arguments still reach the skill: where the body has no $ARGUMENTS, Claude Code appends 'ARGUMENTS: <value>' ({CCS})"
    ),
    "invalid/skills/context-without-agent/SKILL.md": f"`agent` is optional: 'if omitted, uses general-purpose' ({CCS})",
    "invalid/skills/too-many-injections/SKILL.md": f"agnix's own limit of 3: {CCS} sets no limit on !`command` injections",
    "invalid/skills/deploy-prod/SKILL.md": f"{ADVICE} ({CCS} advises disable-model-invocation for side-effect workflows)",
    "invalid/skills/first-person-description/SKILL.md": f"{ADVICE} ({BEST}: write descriptions in the third person)",
    "invalid/skills/indexed-arguments-no-hint/SKILL.md": f"{ADVICE} (argument-hint only feeds autocomplete; {CCS})",
    "invalid/skills/vague-name/SKILL.md": f"{ADVICE} ({BEST}: avoid vague names such as helper, utils)",
    "skills/deep-reference/SKILL.md": f"{ADVICE} ({BEST}: keep references one level deep from SKILL.md; SKL027, opt-in)",
    "tests/test_validator.py::test_unexpected_fields": (
        "no agent that reads a skill rejects a field the specification does not define: Codex deserializes name, "
        "description and metadata with serde and no deny_unknown_fields, dropping the rest "
        "(openai/codex codex-rs/core/src/skills/loader.rs); Gemini CLI reads only name and description "
        "(google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts); Claude Code's and Copilot's skills pages "
        "state no refusal; only the reference validator refuses it"
    ),
    "tests/test_parser.py::test_read_properties_with_lowercase_skill_md": (
        'only the reference library accepts skill.md: Codex loads `SKILLS_FILENAME = "SKILL.md"` by exact name '
        "(openai/codex codex-rs/core/src/skills/loader.rs), Claude Code names SKILL.md (CCS); on a case-sensitive "
        "file system no agent loads it (AGENT-FILES.md N3, N4)"
    ),
    "cursor-invalid/.cursor/rules/agent-requested-no-description.mdc": (
        "with no description, globs or alwaysApply a rule is Cursor's Manual kind, applied when @-mentioned, "
        "not a broken one (AGENT-FILES.md section 4, Cursor's rule kinds, unconfirmed)"
    ),
    "cursor-invalid/.cursor/rules/no-frontmatter.mdc": (
        "an .mdc without frontmatter is a Manual rule, applied when @-mentioned "
        "(AGENT-FILES.md section 4, Cursor's rule kinds, unconfirmed)"
    ),
}


# The agnix fixtures of the kinds in scope, by pattern: one that CASES does not list
# (a newer clone's) is named in the report, to be given a verdict, not silently left out.
IN_SCOPE = (
    "**/SKILL.md",
    "**/agents/*.md",
    "**/.cursor/rules/*.mdc",
    "**/.github/instructions/**/*.instructions.md",
    "**/.github/prompts/*.prompt.md",
    "**/.claude/rules/*.md",
    "**/.clinerules/*.md",
    "**/.kiro/steering/*.md",
    "**/.windsurf/rules/*.md",
    "**/.roo/rules*/*.md",
    "refs/**/*.md",
)


def agnix_cases(clone: Path) -> tuple[list[Case], list[str]]:
    """The cases, and the fixtures in scope that a case names but the clone lacks or
    that the clone has and no case names."""
    fixtures = clone / "tests" / "fixtures"
    cases = []
    listed = {fixture for entries in CASES.values() for fixture, _ in entries}
    unmatched = []
    for kind, entries in CASES.items():
        for fixture, expect in entries:
            if not (fixtures / fixture).is_file():
                unmatched.append(f"{fixture} (listed, not in this clone)")
                continue
            data = (fixtures / fixture).read_bytes()
            files = {place(fixture, data): data, **SUPPORT.get(fixture, {})}
            cases.append(Case(kind, "agnix", fixture, files, expect))
    present = {str(p.relative_to(fixtures)) for pattern in IN_SCOPE for p in fixtures.glob(pattern) if p.is_file()}
    unmatched += [f"{fixture} (in this clone, not listed)" for fixture in sorted(present - listed)]
    for kind, source, test, written, expect in INLINE:
        name = f"{Path(source).name}::{test}"
        text = inline_text((clone / source).read_text(encoding="utf-8"), test) if (clone / source).is_file() else None
        if text is None:
            unmatched.append(f"{name} (listed, not in this clone)")
        else:
            cases.append(Case(kind, "agnix", name, {written: text}, expect))
    return cases, unmatched


# The plugin that records the reference validator's own test cases. It wraps the three
# entry points the tests call, before the test modules import them, and writes one JSON
# line per call made directly by a test: the folder's files and the validator's answer.
PLUGIN = textwrap.dedent(
    """
    import base64, json, os
    from pathlib import Path

    import pytest
    import skills_ref.parser as parser
    import skills_ref.validator as validator

    OUT = os.environ["CONFORMANCE_OUT"]
    STATE = {"test": None, "n": 0, "depth": 0}


    def snapshot(folder):
        folder = Path(folder)
        if not folder.is_dir():
            return None
        return {
            str(p.relative_to(folder)): base64.b64encode(p.read_bytes()).decode()
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }


    def record(call, folder, files, errors):
        STATE["n"] += 1
        line = {
            "test": STATE["test"], "n": STATE["n"], "call": call,
            "folder": Path(folder).name if folder else None, "files": files, "errors": errors,
        }
        with open(OUT, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\\n")


    def wrap(module, name, call):
        real = getattr(module, name)

        def wrapper(arg, *rest, **kw):
            if STATE["depth"]:
                return real(arg, *rest, **kw)
            if call == "parse_frontmatter":
                files, folder = {"SKILL.md": base64.b64encode(arg.encode()).decode()}, None
            else:
                files, folder = snapshot(arg), arg
            STATE["depth"] += 1
            try:
                result = real(arg, *rest, **kw)
            except Exception as error:
                record(call, folder, files, [f"{type(error).__name__}: {error}"])
                raise
            finally:
                STATE["depth"] -= 1
            record(call, folder, files, list(result) if call == "validate" else [])
            return result

        setattr(module, name, wrapper)


    wrap(validator, "validate", "validate")
    wrap(parser, "read_properties", "read_properties")
    wrap(parser, "parse_frontmatter", "parse_frontmatter")


    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(item):
        STATE["test"], STATE["n"] = item.nodeid, 0
    """
)


def agentskills_cases(clone: Path, python: str) -> list[Case]:
    import base64

    package = clone / "skills-ref"
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "conformance_plugin.py").write_text(PLUGIN)
        out = Path(scratch) / "cases.jsonl"
        env = {
            **ENV,
            "PYTHONPATH": os.pathsep.join([scratch, str(package / "src")]),
            "CONFORMANCE_OUT": str(out),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        # The peer's tests keep their temporary folders in the scratch folder, which goes
        # with them: in pytest's own temporary root, each new run deletes those of the
        # runs three before it (every run's of this user, memcheck's own suite's of tens
        # of thousands of files among them), which took this run a minute.
        basetemp = f"--basetemp={Path(scratch) / 'tmp'}"
        done = subprocess.run(
            [python, "-m", "pytest", "-q", "-p", "conformance_plugin", "-p", "no:cacheprovider", basetemp, "tests"],
            cwd=package,
            env=env,
            capture_output=True,
            text=True,
        )
        if not out.exists():
            sys.exit(f"the reference validator's tests recorded nothing:\n{done.stdout}\n{done.stderr}")
        lines = [json.loads(line) for line in out.read_text().splitlines()]
    cases = []
    for line in lines:
        name = f"{line['test']}#{line['n']}" if line["n"] > 1 else line["test"]
        if line["files"] is None:
            continue  # a path that is no folder: nothing an agent would read
        folder = line["folder"]
        if folder is None:
            # parse_frontmatter is handed text, not a folder: the skill's own name (where
            # it has one) names the folder, as the spec wants.
            text = base64.b64decode(line["files"]["SKILL.md"]).decode(errors="replace")
            named = re.search(r"^name:\s*([a-z0-9-]+)\s*$", text, re.MULTILINE)
            folder = named.group(1) if named else "my-skill"
        files = {f".agents/skills/{folder}/{rel}": base64.b64decode(data) for rel, data in line["files"].items()}
        if not files:
            files = {f".agents/skills/{folder}/.keep": b""}
        # One line per case in the report: a YAML error's message spans several.
        expect = " ".join("; ".join(line["errors"]).split()) if line["errors"] else VALID
        cases.append(Case("skills", "agentskills", name, files, expect))
    return cases


def run_memcheck(memcheck: list[str], case: Case) -> None:
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        root = Path(scratch)
        subprocess.run(["git", "init", "-q", str(root)], env=ENV, check=True)
        for place, data in {**PROJECT, **case.files}.items():
            target = root / place
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)
        done = subprocess.run(
            [*memcheck, "check", "--format", "json", "--exit-zero"],
            cwd=root,
            env=ENV,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        try:
            case.found = json.loads(done.stdout)["problems"]
        except (ValueError, KeyError):
            case.found = [{"code": "CRASH", "severity": "error", "message": (done.stderr or done.stdout)[-300:]}]


def commit(clone: Path) -> str:
    done = subprocess.run(["git", "-C", str(clone), "log", "-1", "--format=%H %cs"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def codes(case: Case) -> str:
    shown = [f"{p['code']}({p['severity'][0]})" for p in case.found]
    return ", ".join(shown) or "nothing"


def report(cases: list[Case], peers: dict[str, str], memcheck: str, verbose: bool = False) -> str:
    lines = [f"conformance run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, memcheck: {memcheck}"]
    lines += [f"  {peer} at {sha}" for peer, sha in peers.items()]
    lines.append("")
    lines.append(f"{'kind':<20} {'cases':>5} {'agree':>5} {'justified':>9} {'differ':>6} {'agreement':>9}")
    for kind in KINDS:
        mine = [c for c in cases if c.kind == kind]
        if not mine:
            continue
        agree = sum(c.agrees for c in mine)
        justified = sum(not c.agrees and c.name in JUSTIFIED for c in mine)
        differ = len(mine) - agree - justified
        share = (agree + justified) / len(mine)
        lines.append(f"{kind:<20} {len(mine):>5} {agree:>5} {justified:>9} {differ:>6} {share:>9.0%}")
    for kind in KINDS:
        differing = [c for c in cases if c.kind == kind and not c.agrees]
        if not differing:
            continue
        lines.append("")
        lines.append(f"## {kind}: where memcheck and the peer differ")
        for case in differing:
            peer_says = "valid" if case.peer_valid else f"invalid ({case.expect})"
            mark = "justified" if case.name in JUSTIFIED else "DIFFERS"
            lines.append(f"- [{mark}] {case.peer}: {case.name}")
            lines.append(f"    peer: {peer_says}")
            lines.append(f"    memcheck: {codes(case)}")
            for problem in case.flagged:
                lines.append(f"      {problem['code']} {problem.get('path', '')}: {problem['message'][:160]}")
            if case.name in JUSTIFIED:
                lines.append(f"    why memcheck is right: {JUSTIFIED[case.name]}")
    if verbose:
        # So that a reader can see each agreeing invalid case is flagged for the peer's
        # reason, not for another one.
        for kind in KINDS:
            flagged = [c for c in cases if c.kind == kind and c.agrees and not c.peer_valid]
            if flagged:
                lines.append("")
                lines.append(f"## {kind}: the invalid cases memcheck flags too, with its codes")
                lines += [f"- {c.peer}: {c.name}: {c.expect[:70]} -> {codes(c)}" for c in flagged]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agnix", type=Path, help="a clone of agnix")
    parser.add_argument("--agentskills", type=Path, help="a clone of agentskills/agentskills")
    parser.add_argument("--memcheck", default="memcheck", help="the memcheck command to run (default: memcheck)")
    parser.add_argument("--peer-python", default=sys.executable, help="a Python with strictyaml and pytest")
    parser.add_argument("--label", default="", help="what the memcheck command is (a branch and commit)")
    parser.add_argument("--kind", choices=KINDS, action="append", help="only these kinds")
    parser.add_argument("--jobs", type=int, default=2, help="cases checked at once (default: 2)")
    parser.add_argument("-v", "--verbose", action="store_true", help="also list the codes of the agreeing invalid cases")
    parser.add_argument("--json", type=Path, help="also write every case and its findings here")
    args = parser.parse_args()
    if not args.agnix and not args.agentskills:
        parser.error("give --agnix, --agentskills or both")
    memcheck = shlex.split(args.memcheck)
    if shutil.which(memcheck[0]) is None:
        parser.error(f"no command {memcheck[0]!r}")
    cases: list[Case] = []
    peers = {}
    unmatched: list[str] = []
    if args.agnix:
        found, unmatched = agnix_cases(args.agnix)
        cases += found
        peers["agnix"] = commit(args.agnix)
    if args.agentskills:
        cases += agentskills_cases(args.agentskills, args.peer_python)
        peers["agentskills"] = commit(args.agentskills)
    if args.kind:
        cases = [c for c in cases if c.kind in args.kind]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(lambda case: run_memcheck(memcheck, case), cases))
    version = subprocess.run([*memcheck, "--version"], capture_output=True, text=True).stdout.strip()
    if args.label:
        version = f"{version} ({args.label})"
    sys.stdout.write(report(cases, peers, version, args.verbose))
    if unmatched:
        sys.stdout.write("\nagnix fixtures of these kinds that the run does not judge (give each a verdict in CASES):\n")
        sys.stdout.write("".join(f"- {line}\n" for line in unmatched))
    if args.json:
        record = [{"kind": c.kind, "peer": c.peer, "case": c.name, "expect": c.expect, "agrees": c.agrees, "found": c.found} for c in cases]
        args.json.write_text(json.dumps({"peers": peers, "memcheck": version, "cases": record}, indent=1) + "\n")


if __name__ == "__main__":
    main()
