"""Frontmatter of the real corpus (../shared/corpus): the line reader agrees with
PyYAML, and YAML loading stays far from its bounds. The same checks on hand-written
shapes (tests/fixtures/frontmatter) are in tests/test_document.py and
tests/test_yamlload.py."""
from __future__ import annotations

import pytest
import yaml
from conftest import CORPUS, corpus_frontmatter
from test_document import _both_readings, _same

from memcheck import yamlload

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
    deepest = most = aliases = longest = read = 0
    for path, text in corpus_frontmatter():
        loader = yamlload.Loader(text)
        try:
            composed = yamlload.compose(loader)
        except yaml.YAMLError as e:
            assert not isinstance(e, yamlload.TooComplex), path
            continue
        finally:
            loader.dispose()
        read += 1
        deepest, most, aliases = max(deepest, composed.depth), max(most, composed.values), max(aliases, composed.aliases)
        longest = max(longest, composed.characters)
    # The figures in yamlload's comment: 5 levels, 35 values, no alias, over some 400 files.
    assert read > 300
    assert deepest * 10 < yamlload.MAX_DEPTH and most * 100 < yamlload.MAX_VALUES and aliases == 0
    assert longest * 1000 < yamlload.MAX_CHARACTERS  # 1,165
