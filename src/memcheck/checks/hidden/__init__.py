"""HID: text in an agent file that a reviewer does not see and a model reads.

Memories, indexes, guidance files and skills are prompts: an instruction written in
invisible characters passes review and reaches every session (OWASP's agentic
memory poisoning, ASI06; Trojan Source, CVE-2021-42574). Each class of invisible
character is one rule, one finding per line with how many there are and where the
first is. What the characters are, and what scripts need them, is in
``text/invisible.py``; a token spelt in tag characters is reported by the SEC rules.
One module per rule; the pass over each file's lines, which asks each line rule's
``judge`` only of the lines that hold a suspect character, is here.

Most files are ASCII and cost one ``str.isascii`` each; any other gets one regex pass
for the characters judged here, and only the lines holding one are looked at closely.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.checks.hidden import bidi_control, control_character, hidden_tag_text, stray_variation_selector, zero_width_character
from memcheck.checks.hidden.bidi_control import HID002
from memcheck.checks.hidden.control_character import HID005
from memcheck.checks.hidden.hidden_tag_text import HID001
from memcheck.checks.hidden.stray_variation_selector import HID004
from memcheck.checks.hidden.zero_width_character import HID003
from memcheck.problem import Problem
from memcheck.text import escapes, invisible
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

RULES = (HID001, HID002, HID003, HID004, HID005)

# The rules judged line by line, in the order each line's findings are made.
_LINE_RULES = (
    (HID002, bidi_control.judge, bidi_control.message),
    (HID003, zero_width_character.judge, zero_width_character.message),
    (HID004, stray_variation_selector.judge, stray_variation_selector.message),
)


def files_of(targets: Targets, ws: Workspace) -> list[str]:
    """The files the SEC rules read: the agent files, and what the guidance files import."""
    if not targets.guidance:
        return targets.agent_files()
    from memcheck.agents import expansion  # with guidance only: a commit of a memory needs none

    return expansion.with_imports(ws, targets.agent_files(), targets.guidance)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for path in files_of(targets, ws):
        yield from ws.findings_of_file("hidden", path, lambda: _check_file(ws, path))  # noqa: B023 (called at once)


def _check_file(ws: Workspace, path: str) -> Iterator[Problem]:
    doc = ws.document(path)
    if doc.error is not None:  # not UTF-8, or too large: an agent reads it all the same
        from memcheck.text import salvage  # (rare: not imported by the usual run)

        doc = salvage.readable(doc) or doc
    if doc.error is None and ws.wants("HID005") and control_character.holds(doc.text):
        yield from control_character.check(path, doc.lines)
    for value in escapes.values(doc):
        yield from _escaped(ws, path, value)
    if doc.error is not None or doc.text.isascii():
        return
    hides, ends_blank = invisible.may_hide(doc.text), invisible.ends_blank(doc.text)
    if not hides and not ends_blank:
        return
    if ws.wants("HID001") and invisible.has_tags(doc.text):
        yield from hidden_tag_text.check(path, doc.lines)
    for number, line in enumerate(doc.lines, 1):
        if (hides and invisible.SUSPECT.search(line)) or (ends_blank and invisible.blank_end(line) >= 0):
            yield from _line(ws, path, number, line)


def found_on(code: str, line: str) -> str:
    """What a finding of ``code`` on ``line`` found: the invisible characters it counts,
    in order (for HID001, the text they spell). A message says how many there are; this
    says which, so that a comparison with an older tree (``check --new-since``) tells a
    new hidden payload from an older finding of the same rule in the same file, on the
    same line or with a count that reads the same once numbers are set aside."""
    if code == HID001.code:
        return "".join(found.text for found in invisible.tag_texts([line]))
    if code == HID005.code:
        return control_character.found_on(line)
    for rule, judge, _ in _LINE_RULES:
        if rule.code == code:
            return "".join(hit.ch for hit in judge(line))
    return ""


def _escaped(ws: Workspace, path: str, value: escapes.Escaped) -> Iterator[Problem]:
    """Hidden text in a frontmatter value as YAML decodes its escapes (``\\U000E0069``
    is a tag character), which an agent reads decoded: reported at the key's line,
    unless the same characters are written out in the file (then they are reported
    where they are)."""
    if not invisible.may_hide(value.value):
        return
    lines = tuple(value.value.split("\n"))
    where = f"the value of {value.key!r}, as YAML decodes its escapes, holds: "
    codes = [(HID001.code, ws.wants("HID001") and invisible.has_tags(value.value))] + [
        (rule.code, ws.wants(rule.code)) for rule, _, _ in _LINE_RULES
    ]
    for code, wanted in codes:
        if not wanted:
            continue
        decoded = "".join(found_on(code, line) for line in lines)
        if not decoded or decoded in "".join(found_on(code, line) for line in value.raw):
            continue
        if code == HID001.code:
            first = next(hidden_tag_text.check(path, lines))
            yield first._replace(line=value.line, col=value.col, message=where + first.message)
            continue
        for rule, judge, message in _LINE_RULES:
            hits = [hit for line in lines for hit in judge(line)] if rule.code == code else []
            if hits:
                yield rule.at(path, value.line, value.col, where + message(hits))


def _line(ws: Workspace, path: str, number: int, line: str) -> Iterator[Problem]:
    for rule, judge, message in _LINE_RULES:
        if ws.wants(rule.code):
            hits = judge(line)
            if hits:
                yield rule.at(path, number, hits[0].col, message(hits))
