"""`memcheck schema`: the config's JSON Schema, as shipped, for an editor to read."""

from __future__ import annotations

import os
import sys


def run() -> int:
    """Print the schema file's own text: the bytes an editor reads are the ones shipped."""
    from memcheck import config

    with open(os.path.join(os.path.dirname(config.__file__), "resources", "config.schema.json"), encoding="utf-8") as f:
        sys.stdout.write(f.read())
    return 0
