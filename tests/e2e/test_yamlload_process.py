"""yamlload: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_yamlload.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import invoke, write

pytestmark = pytest.mark.smoke


# Frontmatters that libyaml and PyYAML's Python parser read differently: one accepts
# what the other refuses, or both refuse with other words or on other lines.
_PARSERS_DISAGREE = {
    "tab-after-value": "name: a\t\ndescription: d\ntype: user",
    "block-scalar-then-comment": "name: a\ndescription: |#\ntype: user",
    "bom-inside": "name: a\ndescription: \ufeffd\ntype: user",
    "colon-in-value": "name: a: b\ndescription: d\ntype: user",
    "unclosed-list": "name: a\ndescription: [d, e\ntype: user",
    "unknown-escape": 'name: a\ndescription: "\\q"\ntype: user',
    "undefined-alias": "name: a\ndescription: *nope\ntype: user",
    "at-sign": "name: a\ndescription: @d\ntype: user",
    "deep-flow": "name: a\ndescription: d\ntype: user\nk: " + "[" * 2_000,
    "escape-past-unicode": 'name: a\ndescription: "\\U00110000"\ntype: user',
    "nested-mapping": "name: a\ndescription: d\nmetadata:\n  type: user\n  type: project",
}


# check, in a process whose PyYAML cannot load libyaml (as a PyYAML built without it).
_WITHOUT_LIBYAML = """
import sys
sys.modules["yaml._yaml"] = None
import yaml
assert not yaml.__with_libyaml__
from memcheck.cli import main
sys.exit(main(["check", "--format", "json"]))
"""


@pytest.mark.e2e
def test_findings_are_the_same_with_and_without_libyaml(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, frontmatter in _PARSERS_DISAGREE.items():
        write(repo, f".claude/memory/{name}.md", f"---\n{frontmatter}\n---\n\nBody.\n")
    write(repo, ".claude/memory/MEMORY.md", "".join(f"- [{n}]({n}.md) - d\n" for n in sorted(_PARSERS_DISAGREE)))
    with_libyaml = invoke(repo, "check", "--format", "json", monkeypatch=monkeypatch)
    without = subprocess.run([sys.executable, "-c", _WITHOUT_LIBYAML], cwd=repo, capture_output=True, text=True)
    assert without.returncode == with_libyaml.exit_code == 1, without.stderr
    assert without.stdout == with_libyaml.stdout
    # Each of them is reported, so the comparison says something.
    reported = {p["path"].rsplit("/", 1)[-1][:-3] for p in json.loads(without.stdout)["problems"] if p["code"].startswith("MEM")}
    assert reported >= set(_PARSERS_DISAGREE) - {"bom-inside"}
