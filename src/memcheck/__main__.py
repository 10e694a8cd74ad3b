from __future__ import annotations

from memcheck.cli import entry

if __name__ == "__main__":
    entry()
