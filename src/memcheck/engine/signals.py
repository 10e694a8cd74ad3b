"""SIGTERM and SIGINT around work that must be cleaned up: the work queue's child
processes, and ``fix``'s temporary files."""

from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(SystemExit):
    """SIGTERM arrived: end as a process killed by it would (exit 143), after the
    cleanup on the way out."""


def _stop(number: int, frame: object) -> None:
    raise Stopped(128 + number)


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM raises ``Stopped`` (SIGINT already raises KeyboardInterrupt), so
    ``finally`` blocks run and the children are ended and reaped."""
    try:
        previous = signal.signal(signal.SIGTERM, _stop)
    except ValueError:  # not the main thread: signals go to the main thread anyway
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGTERM and SIGINT wait until the block is done (then arrive as usual)."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: nothing to hold (and nothing forks)
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
