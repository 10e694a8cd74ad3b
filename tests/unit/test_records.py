"""memcheck's record classes: built by collections.namedtuple, used as typing's."""

from __future__ import annotations

import pickle

import pytest

from memcheck.records import NamedTuple


class Point(NamedTuple):
    """A point on a line of a file."""

    line: int
    column: int = 1
    note: str | None = None

    def moved(self, lines: int) -> Point:
        return self._replace(line=self.line + lines)

    @property
    def where(self) -> str:
        return f"{self.line}:{self.column}"


def test_a_record_has_its_fields_defaults_and_methods() -> None:
    p = Point(3)
    assert p == (3, 1, None)
    assert Point._fields == ("line", "column", "note")
    assert Point._field_defaults == {"column": 1, "note": None}
    assert p.moved(2).where == "5:1"
    assert Point.__doc__ == "A point on a line of a file."
    assert Point.__qualname__ == "Point" and Point.__module__ == __name__
    assert p._asdict() == {"line": 3, "column": 1, "note": None}


def test_a_record_pickles_as_a_forked_worker_sends_it() -> None:
    p = Point(7, 2, "x")
    assert pickle.loads(pickle.dumps(p)) == p
    assert type(pickle.loads(pickle.dumps(p))) is Point


def test_annotations_stay_as_written_rather_than_compiled() -> None:
    assert Point.__annotations__ == {"line": "int", "column": "int", "note": "str | None"}


def test_a_field_without_a_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="without a default follows"):

        class Bad(NamedTuple):
            a: int = 0
            b: int


def test_a_record_may_not_replace_what_namedtuple_builds() -> None:
    with pytest.raises(AttributeError, match="_replace"):

        class Bad(NamedTuple):
            a: int

            def _replace(self) -> None: ...


def test_a_record_is_made_and_shown_as_a_namedtuple_is() -> None:
    import collections

    Like = collections.namedtuple("Like", "line column note", defaults=(1, None))
    for made in (Point(3, note="n"), Point(line=3, column=1, note="n"), Point._make([3, 1, "n"])):
        assert made == Like(3, note="n") and repr(made) == "Point(line=3, column=1, note='n')"
    with pytest.raises(TypeError, match=r"Point.__new__\(\) missing 1 required positional argument: 'line'"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'row'"):
        Point(1, row=2)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="unexpected field names"):
        Point(1)._replace(row=2)  # type: ignore[call-arg]
    assert Point(1).line == 1 and Point.line.__doc__ == "Alias for field number 0"


def test_records_of_one_field_and_of_many() -> None:
    class One(NamedTuple):
        only: str

    class Many(NamedTuple):
        a: int
        b: int
        c: int
        d: int
        e: int
        f: int
        g: int = 7

    assert One("x") == ("x",) and One("x").only == "x"
    assert Many(1, 2, 3, 4, 5, 6) == (1, 2, 3, 4, 5, 6, 7)
    assert (
        Many(
            *range(7),
        )._asdict()["g"]
        == 6
    )
