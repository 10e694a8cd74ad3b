"""Rule families. Each module defines ``RULES`` and the checks that use them."""
