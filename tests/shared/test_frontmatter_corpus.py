"""Frontmatter of the real corpus (../shared/corpus): the line reader agrees with
PyYAML, and YAML loading stays far from its bounds. The same checks on hand-written
shapes (tests/fixtures/frontmatter) are in tests/unit/test_document.py and
tests/unit/test_yamlload.py."""

from __future__ import annotations

import pytest
from conftest import CORPUS, corpus_frontmatter
from test_document import _both_readings, _same
from test_yamlload import extremes

from memcheck.text import yamlload

if not CORPUS.is_dir():  # tests/conftest.py leaves this folder out then; this is for a run that names it
    pytest.fail(f"{CORPUS} is not beside this checkout: tests/shared/ runs only where it is", pytrace=False)


def test_simple_frontmatter_agrees_with_pyyaml_on_the_corpus() -> None:
    taken = compared = 0
    for _, text in corpus_frontmatter():
        compared += 1
        simple, full = _both_readings(text)
        if simple is not None:
            taken += 1
            _same(simple, full)
    # Not vacuous: most real frontmatter takes the line reader.
    assert compared > 100 and taken > compared // 2


def test_the_corpus_stays_far_from_every_bound() -> None:
    found = extremes(corpus_frontmatter())
    # The figures in yamlload's comment: 5 levels, 35 values, no alias, over some 400 files.
    assert found.read > 300
    assert found.deepest * 10 < yamlload.MAX_DEPTH and found.most * 100 < yamlload.MAX_VALUES and found.aliases == 0
    assert found.longest * 1000 < yamlload.MAX_CHARACTERS  # 1,165
