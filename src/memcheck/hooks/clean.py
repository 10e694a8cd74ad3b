"""`memcheck clean`: remove the findings kept between runs (see engine/cache.py)."""
from __future__ import annotations

import sys

from memcheck.problem import shown


def run(config_file: str | None) -> int:
    from memcheck.engine import cache_folder
    from memcheck.hooks.options import config_for

    settings = config_for(config_file, [])
    removed = cache_folder.clean(settings)
    if removed is None:
        print("memcheck: no cache to remove", file=sys.stderr)
    else:
        print(f"memcheck: removed the cache in {shown(str(removed))}", file=sys.stderr)
    return 0
