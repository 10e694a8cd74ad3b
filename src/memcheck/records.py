"""``NamedTuple`` for memcheck's records, built without typing's cost.

Every value memcheck passes around is a ``typing.NamedTuple`` class (see config.py
for why not dataclasses). typing builds each class by turning every field's
annotation, a string under ``from __future__ import annotations``, into a
``ForwardRef``, which compiles it, and then ``collections.namedtuple`` compiles the
class's ``__new__`` from source: a commit hook defines about 90 such classes at
import, and building them cost ``check --changed`` 15 ms of its 140 ms of CPU, the
three hooks together 31 ms (Python 3.11). What typing lacked: a way to build a
NamedTuple class without evaluating annotations that nothing at run time reads; what
``collections.namedtuple`` lacked: a way not to compile the same ``__new__`` again
for every class with as many fields (``eval`` is most of its 85 microseconds a
class). So at run time this module builds each ``class X(NamedTuple)`` as
``collections.namedtuple`` does (the same methods, field descriptors, pickling and
errors), compiling one ``__new__`` per number of fields and naming its arguments
after each class's fields; type checkers read typing's own ``NamedTuple``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["NamedTuple"]

if TYPE_CHECKING:
    from typing import NamedTuple
else:
    import sys
    from types import CodeType, FunctionType

    try:
        from _collections import _tuplegetter  # as collections.namedtuple: C, the fastest field access
    except ImportError:  # not CPython
        from operator import itemgetter

        def _tuplegetter(index: int, doc: str) -> property:
            return property(itemgetter(index), doc=doc)

    # Names a record class may not set (as typing refuses them), and names of the
    # class body that are not copied onto the built class.
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make", "_replace", "_asdict", "_source"}
    )
    _NOT_COPIED = frozenset(
        {"__module__", "__name__", "__annotations__", "__orig_bases__", "__classcell__", "__static_attributes__", "__firstlineno__"}
    )

    # The code of ``__new__`` for each number of fields, its arguments named a0, a1...
    _NEW_BY_ARITY: dict[int, CodeType] = {}
    _NEW_GLOBALS = {"_tuple_new": tuple.__new__, "__builtins__": {}}

    def _new(typename: str, fields: tuple[str, ...], defaults: tuple[object, ...]) -> FunctionType:
        code = _NEW_BY_ARITY.get(len(fields))
        if code is None:
            args = "".join(f"a{i}, " for i in range(len(fields)))
            code = _NEW_BY_ARITY[len(fields)] = eval(f"lambda _cls, {args}: _tuple_new(_cls, ({args}))", _NEW_GLOBALS).__code__
        new = FunctionType(code.replace(co_varnames=("_cls", *fields)), _NEW_GLOBALS, "__new__", defaults or None)
        new.__qualname__ = f"{typename}.__new__"
        new.__doc__ = f"Create new instance of {typename}({', '.join(fields)})"
        return new

    def _record_class(typename: str, fields: tuple[str, ...], defaults: tuple[object, ...], namespace: dict[str, object]) -> type:
        """``collections.namedtuple(typename, fields, defaults=defaults)``, with the
        class body's own names (methods, properties, its docstring) set on it."""
        fields = tuple(map(sys.intern, fields))
        count = len(fields)
        repr_format = "(" + ", ".join(f"{name}=%r" for name in fields) + ")"
        tuple_new = tuple.__new__

        @classmethod
        def _make(cls: type, iterable: object) -> tuple[object, ...]:
            result = tuple_new(cls, iterable)
            if len(result) != count:
                raise TypeError(f"Expected {count} arguments, got {len(result)}")
            return result

        def _replace(self: tuple[object, ...], /, **changes: object) -> tuple[object, ...]:
            result = self._make(map(changes.pop, fields, self))
            if changes:
                raise ValueError(f"Got unexpected field names: {list(changes)!r}")
            return result

        def __repr__(self: tuple[object, ...]) -> str:
            return self.__class__.__name__ + repr_format % self

        def _asdict(self: tuple[object, ...]) -> dict[str, object]:
            return dict(zip(fields, self))

        def __getnewargs__(self: tuple[object, ...]) -> tuple[object, ...]:
            return tuple(self)

        for method in (_make.__func__, _replace, __repr__, _asdict, __getnewargs__):
            method.__qualname__ = f"{typename}.{method.__name__}"
        body = {
            "__doc__": f"{typename}({', '.join(fields)})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": dict(zip(fields[count - len(defaults) :], defaults)),
            "__new__": _new(typename, fields, defaults),
            "_make": _make,
            "_replace": _replace,
            "__repr__": __repr__,
            "_asdict": _asdict,
            "__getnewargs__": __getnewargs__,
            "__match_args__": fields,
        }
        for index, name in enumerate(fields):
            body[name] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
        for key, value in namespace.items():
            if key in _PROHIBITED:
                raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
            if key not in _NOT_COPIED and key not in fields:
                body[key] = value
        record = type(typename, (tuple,), body)
        record.__module__ = namespace["__module__"]
        return record

    class _RecordMeta(type):
        def __new__(mcls, typename: str, bases: tuple[type, ...], namespace: dict[str, object]) -> type:
            if not bases:  # NamedTuple itself, below
                return super().__new__(mcls, typename, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError(f"{typename}: a record class derives from NamedTuple alone")
            annotations = namespace.get("__annotations__", {})
            fields = tuple(annotations)
            defaults = tuple(name for name in fields if name in namespace)
            if defaults != fields[len(fields) - len(defaults) :]:
                raise TypeError(f"{typename}: a field without a default follows one with a default")
            for name in fields:
                if name.startswith("_") or not name.isidentifier():
                    raise ValueError(f"{typename}: a field's name may not start with an underscore: {name!r}")
            record = _record_class(typename, fields, tuple(namespace[name] for name in defaults), namespace)
            record.__annotations__ = dict(annotations)
            return record

    class NamedTuple(metaclass=_RecordMeta):
        """Derive a record class from this as from ``typing.NamedTuple``."""
