"""`memcheck clean`: remove the findings kept between runs (see engine/cache.py)."""

from __future__ import annotations

import sys

from memcheck.problem import shown


def run(config_file: str | None) -> int:
    from memcheck.engine import cache_folder
    from memcheck.hooks.options import config_for

    settings = config_for(config_file, [])
    cleaned = cache_folder.clean(settings)
    if cleaned is None:
        print("memcheck: no cache to remove", file=sys.stderr)
        return 0
    folder, left = cleaned
    if left:
        # (a folder the user may not write to: the next run would still read what is left)
        print(
            f"memcheck: error: could not remove all of the cache in {shown(str(folder))}: {', '.join(left)} left; check the folder's permissions",
            file=sys.stderr,
        )
        return 1
    print(f"memcheck: removed the cache in {shown(str(folder))}", file=sys.stderr)
    return 0
