"""The SARIF 2.1.0 schema vendored in tests/schemas is the one in ../shared/schemas."""

from __future__ import annotations

import pytest
from conftest import REPO_ROOT, SCHEMAS

if not SCHEMAS.is_dir():  # tests/conftest.py leaves this folder out then; this is for a run that names it
    pytest.fail(f"{SCHEMAS} is not beside this checkout: tests/shared/ runs only where it is", pytrace=False)


def test_the_vendored_sarif_schema_is_the_shared_one() -> None:
    name = "sarif-schema-2.1.0.json"
    assert (REPO_ROOT / "tests" / "schemas" / name).read_bytes() == (SCHEMAS / name).read_bytes()
