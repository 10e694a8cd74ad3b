"""The hang guard the hostile-input tests rely on stops a block that spins, and lets
one that finishes run to its end."""

from __future__ import annotations

import pytest
from conftest import HangGuardTripped, cpu_limit


def test_a_spinning_block_is_stopped() -> None:
    spins = 0
    with pytest.raises(HangGuardTripped, match="spin: still running after 0.2 s of CPU"):
        with cpu_limit(0.2, "spin"):
            while True:
                spins += 1
    assert spins > 1000


def test_a_block_that_finishes_is_left_alone_and_the_timer_is_off_after() -> None:
    import signal

    with cpu_limit(5, "sum"):
        total = sum(range(1000))
    assert total == 499500
    assert signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)
