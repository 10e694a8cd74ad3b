"""GitLab Code Quality: a JSON array of issues (``artifacts:reports:codequality``).

Each issue has the fields GitLab reads: ``description``, ``check_name`` (the rule
code), ``fingerprint``, ``severity`` and ``location`` (``path``, ``lines.begin``).
The merge request widget shows the issues a change brings by comparing fingerprints
with the target branch's report, so a fingerprint must not change when a finding
only moves to another line: it is a hash of what a baseline matches the finding by
(file, code, message without its numbers) and of which of the identical findings it
is (see ``memcheck.output.occurrences``), never of its line.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck.output import occurrences
from memcheck.problem import ERROR, Problem, json_text

if TYPE_CHECKING:
    from memcheck.output import ReportContext

# GitLab ranks issues info < minor < major < critical < blocker. memcheck has two
# severities: an error (fails the run by default: an agent misses or misreads a
# file) is major; a warning (shown, passes by default) is minor. critical and
# blocker are left to tools that rank an issue's impact finer than memcheck does.
SEVERITY = {ERROR: "major"}
WARNING_SEVERITY = "minor"


def fingerprint(key: Sequence[str], occurrence: int) -> str:
    """SHA-256 hex of the finding's baseline key and its occurrence number."""
    return hashlib.sha256("\0".join((*key, str(occurrence))).encode("utf-8", "surrogatepass")).hexdigest()


def issue(p: Problem, fingerprint: str) -> dict[str, object]:
    return {
        "description": f"{p.code}: {p.message}",
        "check_name": p.code,
        "fingerprint": fingerprint,
        "severity": SEVERITY.get(p.severity, WARNING_SEVERITY),
        "location": {"path": p.path, "lines": {"begin": p.line}},
    }


def document(problems: Sequence[Problem]) -> list[dict[str, object]]:
    return [issue(p, fingerprint(k, n)) for p, (k, n) in zip(problems, occurrences(problems))]


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    # json_text: the characters json.dumps leaves raw that a log viewer acts on are escapes too.
    out.write(json_text(json.dumps(document(problems), ensure_ascii=False, indent=2)) + "\n")
