"""JUnit XML for the test report views of Jenkins, Azure Pipelines and GitLab.

One ``<testsuite>`` per rule family (MEM, IDX, GDN, ...), one ``<testcase>`` per
finding. Jenkins' JUnit plugin splits a test's ``classname`` at its last dot into a
package and a class: a file path as classname (``AGENTS.md``) would show as package
``AGENTS``, class ``md``; ``memcheck.IDX`` shows as package memcheck, class IDX,
with its findings under it. A test's name is its code and file, numbered when the
same code finds several things in one file (``IDX003 .claude/memory/MEMORY.md #2``),
and never its line, so a finding that moves stays the same test in the history
("failing since build 12").

A finding that fails the run (``--fail-on``, by default errors; every finding of
``guard``) is a ``<failure>``; one that does not (by default a warning) is
``<skipped>``: shown and counted, but it leaves the build green as it leaves
memcheck's exit code 0. A run with no findings is one passing test, so the CI's
report is never empty (Jenkins fails the build on a report without tests).

Text from the files (a message quotes keys, links and file names) is written with
its control characters as escapes (``\\u001b``, as the text format prints them) and
every other character XML 1.0 cannot hold (a lone surrogate of a file name that is
not UTF-8, U+FFFE) as ``\\uXXXX`` too, then XML-escaped by the serializer; nothing is
put in CDATA, so a ``]]>`` is ordinary text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck import lazy_regex
from memcheck.problem import Problem, escaped, failing, visible_name

if TYPE_CHECKING:
    from memcheck.output import ReportContext

# What XML 1.0 allows besides the tab, CR and LF that `escaped` has already turned
# into escapes: #x20-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF.
_NOT_XML = lazy_regex.compile("[^\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: str) -> str:
    value = escaped(value)
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", value) if _NOT_XML.search(value) else value


def _names(problems: Sequence[Problem]) -> list[str]:
    seen: dict[tuple[str, str], int] = {}
    names = []
    for p in problems:
        n = seen[(p.code, p.path)] = seen.get((p.code, p.path), 0) + 1
        names.append(f"{p.code} {visible_name(p.path)}" + (f" #{n}" if n > 1 else ""))
    return names


def _counted(element: ET.Element, tests: int, failures: int, skipped: int) -> None:
    element.set("tests", str(tests))
    element.set("failures", str(failures))
    element.set("errors", "0")
    element.set("skipped", str(skipped))


def document(problems: Sequence[Problem], command: str, fail_on: str | None) -> ET.Element:
    # guard has no --fail-on: each of its findings fails the run.
    fails = set(failing(problems, fail_on or "warning"))
    root = ET.Element("testsuites", name=f"memcheck {command}")
    families: dict[str, list[tuple[Problem, str]]] = {}
    for p, name in zip(problems, _names(problems)):
        families.setdefault(p.code[:3], []).append((p, name))
    if not problems:
        suite = ET.SubElement(root, "testsuite", name=f"memcheck {command}")
        _counted(suite, 1, 0, 0)
        ET.SubElement(suite, "testcase", classname="memcheck", name=f"memcheck {command}: no findings")
    for family in sorted(families):
        found = families[family]
        suite = ET.SubElement(root, "testsuite", name=f"memcheck.{_text(family)}")
        failures = sum(p in fails for p, _ in found)
        _counted(suite, len(found), failures, len(found) - failures)
        for p, name in found:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"memcheck.{_text(family)}",
                name=_text(name),
                file=_text(visible_name(p.path)),
                line=str(p.line),
            )
            where = f"{_text(visible_name(p.path))}:{p.line}:{p.col}: {_text(p.code)} {_text(p.message)}"
            kind = "failure" if p in fails else "skipped"
            ET.SubElement(
                case, kind, message=_text(p.message), type=p.severity
            ).text = f"{where}\n(`memcheck rule {_text(p.code)}` explains the rule)\n"
    failures = sum(p in fails for p in problems)  # identical findings count each
    _counted(root, max(len(problems), 1), failures, len(problems) - failures)
    return root


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    root = document(problems, ctx.command, ctx.fail_on)
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n")
