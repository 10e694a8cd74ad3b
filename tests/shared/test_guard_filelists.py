"""Guard over the complete file lists of 102 real repositories (../shared/filelists):
the name-substring categories flag no source or documentation file, and every .env
file, key, certificate, kubeconfig and .aws/credentials in the lists is flagged.
The same checks on hand-written lists: tests/cli/test_guard_real_world_lists.py."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from conftest import FILELISTS
from test_guard_real_world_lists import bench

from memcheck.config import default_config
from memcheck.guard.paths import Guard

if not FILELISTS.is_dir():  # tests/conftest.py leaves this folder out then; this is for a run that names it
    pytest.fail(f"{FILELISTS} is not beside this checkout: tests/shared/ runs only where it is", pytrace=False)


@functools.cache
def _measured() -> Any:
    """The bench's figures over the lists, read once per process: two tests ask them
    (a second of CPU each)."""
    return bench().measure(FILELISTS)


def test_name_substring_categories_flag_no_source_or_documentation() -> None:
    module = bench()
    figures = _measured()
    assert figures.lists == 102
    for category in module.NAME_SUBSTRING:
        assert figures.source_or_doc.get(category, []) == [], category
    # what they do flag, checked by eye: Kubernetes/Helm Secret manifests, AWS configs
    # holding (test) secrets and tokens; a few data files whose names say secret
    flagged = sorted(p.split(": ", 1)[1] for c in module.NAME_SUBSTRING for p in figures.flagged.get(c, []))
    assert "deploy/k8s/base/secret.yaml" in flagged
    assert all(p.rpartition(".")[2] in ("yaml", "yml", "json", "ini") for p in flagged)


def test_every_secret_shaped_path_is_flagged() -> None:
    figures = _measured()
    assert figures.missed == []
    flagged = {p.split(": ", 1)[1] for c in ("env", "keys") for p in figures.flagged.get(c, [])}
    assert {".env", "testdata/certificate/key.pem", "testdata/certificate/cert.pem", "tests/test_apps/.env"} <= flagged


def test_source_and_docs_in_the_lists_only_flagged_by_path_categories() -> None:
    module = bench()
    guard = Guard(default_config(Path.cwd()).guard)
    for paths in module.read_lists(FILELISTS).values():
        for path in paths:
            hit = guard.hit(path)
            if hit is not None and module.is_source_or_doc(path):
                # code under node_modules/ or a root build/ folder is guarded by where it is,
                # and so are an agent's commands and hooks (.claude/commands/*.md) and git's
                # hooks, which make the agent or git run what they hold
                assert hit.category in ("node-modules", "build-outputs", "runs-commands"), (path, hit)
