"""The --paths-from list parser: any list of names, written the ways tools write
one (UTF-8 with or without a BOM, UTF-16 with a BOM in either byte order; one a line,
CRLF line ends, or NUL-separated), reads back as the same names."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memcheck.config import ConfigError
from memcheck.guard.named import split_path_list

# A name: any text but NUL and line ends, not empty, not starting with a BOM (which a
# list's first name cannot hold apart from its encoding's mark), no lone surrogates.
NAME = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\0\n\r\ufeff"), min_size=1, max_size=30)


def encode(text: str, encoding: str) -> bytes:
    if encoding == "utf-16-le":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    if encoding == "utf-16-be":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    if encoding == "utf-8-sig":
        return codecs.BOM_UTF8 + text.encode("utf-8")
    return text.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(NAME, min_size=1, max_size=8),
    st.sampled_from(["utf-8", "utf-8-sig", "utf-16-le", "utf-16-be"]),
    st.sampled_from(["\n", "\r\n", "\0"]),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_a_list_reads_back_as_its_names(names: list[str], encoding: str, separator: str) -> None:
    # NUL-separated one-byte names are UTF-16 of ASCII text byte for byte ("a\0b\0"):
    # refused as UTF-16 without a BOM (an error, never a list read wrong).
    assume(not (separator == "\0" and all(len(n.encode()) == 1 for n in names)))
    text = separator.join(names) + separator
    # Names are kept as written, spaces included (".env " is how Windows names .env).
    assert split_path_list(encode(text, encoding)) == names


def test_utf16_without_a_bom_is_refused() -> None:
    with pytest.raises(ConfigError, match="looks like UTF-16 without a byte-order mark"):
        split_path_list("src/app.py\n.env\n".encode("utf-16-le"), "list.txt")
