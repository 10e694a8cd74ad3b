"""SARIF 2.1.0 for code scanning (``github/codeql-action/upload-sarif``).

The driver lists the rules the results use, sorted by code, so the file grows with
the findings and not with the catalogue; each rule links its page
(``docs/rules/CODE.md`` on the default branch) and carries its documentation.
Locations are repository-relative URIs against ``%SRCROOT%``. Nothing machine-specific (absolute paths, times) is written, so the
same tree gives the same bytes everywhere.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Sequence, TextIO
from urllib.parse import quote

from memcheck import __version__
from memcheck.checks import all_rules
from memcheck.problem import ERROR, Problem, Rule, json_text
from memcheck.rules import RULE_PAGES, families

if TYPE_CHECKING:
    from memcheck.output import ReportContext

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/memcheck/memcheck"
# Rule pages are linked on the default branch, as ruff links its latest docs: a link
# to a release tag leads nowhere before that tag is pushed, and a rule's page is
# never removed from main.
DOCS_BRANCH = "main"


def _level(severity: str) -> str:
    return "error" if severity == ERROR else "warning"


def _what_it_does(doc: str) -> str:
    """The *What it does* section of a rule's doc, as one paragraph."""
    lines: list[str] = []
    inside = False
    for line in doc.splitlines():
        if line.startswith("## "):
            if inside:
                break
            inside = line[3:].strip().lower() == "what it does"
        elif inside:
            lines.append(line.strip())
    return " ".join(x for x in lines if x)


# Code scanning ranks a security alert by its rule's `security-severity` (0.0-10.0:
# 9.0 and over is critical, 7.0 high, 4.0 medium) when the rule is tagged `security`;
# each rule about security carries its score, and its module says why that score.


def _properties(rule: Rule, family: str) -> dict[str, object]:
    properties: dict[str, object] = {"fixable": rule.fixable}
    if family:
        properties["tags"] = [family]
    if family and rule.security_severity:
        properties.update({"tags": [family, "security"], "security-severity": rule.security_severity})
    return properties


def help_uri(code: str) -> str:
    """The rule's page, on the default branch."""
    return f"{INFORMATION_URI}/blob/{DOCS_BRANCH}/{RULE_PAGES}/{code}.md"


def _rule(rule: Rule, family: str) -> dict[str, object]:
    described: dict[str, object] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": _what_it_does(rule.doc) or rule.summary},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "defaultConfiguration": {"level": _level(rule.severity)},
        "properties": _properties(rule, family),
    }
    if family:  # a code memcheck does not know has no page
        described["helpUri"] = help_uri(rule.code)
    return described


def _unknown_rule(code: str, severity: str) -> Rule:
    # A finding whose code is not in the catalogue still needs a driver rule to point at.
    return Rule(code, code.lower(), severity, False, code, f"## What it does\n{code}\n")


# Code scanning tracks an alert across commits by its fingerprints. Ours is a hash of
# the file, the code and the message without its numbers (what a baseline matches,
# see memcheck.baseline), so a finding that moves to another line stays one alert;
# ":N" numbers identical findings, as GitHub's own primaryLocationLineHash does.
FINGERPRINT = "memcheckFinding/v1"


def fingerprints(problems: Sequence[Problem]) -> list[str]:
    import hashlib

    from memcheck.output import occurrences

    return [f"{hashlib.sha256(chr(0).join(k).encode('utf-8', 'surrogatepass')).hexdigest()[:32]}:{n}" for k, n in occurrences(problems)]


def _uri(path: str) -> str:
    """The path as a URI: a file name that is not UTF-8 (read with its bytes kept as
    surrogates) gets its own bytes percent-encoded, ``%FF``, as RFC 3986 has it."""
    return quote(path, safe="/", errors="surrogateescape")


def _result(p: Problem, rule_index: int, fingerprint: str) -> dict[str, object]:
    return {
        "ruleId": p.code,
        "ruleIndex": rule_index,
        "level": _level(p.severity),
        "message": {"text": p.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(p.path), "uriBaseId": "%SRCROOT%"},
                    "region": {"startLine": p.line, "startColumn": p.col},
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT: fingerprint},
        "properties": {"fixable": p.fixable},
    }


def document(problems: Sequence[Problem]) -> dict[str, object]:
    known = all_rules()
    rules = {p.code: known.get(p.code) or _unknown_rule(p.code, p.severity) for p in problems}
    ordered = sorted(rules)
    family = families()
    index = {code: i for i, code in enumerate(ordered)}
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memcheck",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(rules[code], family.get(code, "")) for code in ordered],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [_result(p, index[p.code], f) for p, f in zip(problems, fingerprints(problems))],
            }
        ],
    }


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    out.write(json_text(json.dumps(document(problems), ensure_ascii=False, indent=2)) + "\n")
