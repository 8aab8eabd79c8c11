"""Value records: classes compared, hashed and printed by their fields.

The records that flow between the stages were dataclasses. ``dataclasses`` writes
each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and, for frozen
classes, ``__setattr__``/``__delattr__`` as source text and compiles every one with
``exec()`` when the class is created, and it imports ``inspect`` on the way: in a
one-file run on CPython 3.11 that was ~50 ms of ~125, more than parsing and
analysing the file (issue 7).

A ``Record`` writes its own ``__init__``. Its fields are that ``__init__``'s
parameters, in order; equality, hashing, ordering and ``repr`` are the same generic
methods for every record, driven by ``_fields``. ``tests/test_records.py`` holds
every record's declared attributes (its class annotations) to those parameters.

    class Location(Record, frozen=True, order=True):
        path: str
        line: int

        def __init__(self, path: str, line: int) -> None:
            fields = self.__dict__  # frozen: past __setattr__, as dataclasses do
            fields["path"] = path
            fields["line"] = line

Class keywords, as in ``@dataclass(...)``, inherited by subclasses:

- ``frozen``: assigning or deleting an attribute raises ``FrozenInstanceError``
  (``__init__`` writes ``self.__dict__``); the record is hashable by its fields.
  A frozen record made by the hundred thousand (``Location``, ``ArgToken``)
  declares ``__slots__`` instead, its fields, and writes them with ``set_field``:
  an instance dictionary is ~100 bytes more per object (~25 MB of the parent
  process on 2,000 files). It pickles as a call to its ``__init__``.
- ``order``: ``<``, ``<=``, ``>``, ``>=`` compare the fields in order.
- ``eq=False``: identity equality and hashing (``object``'s).

A record that is not frozen is unhashable, as with dataclasses: its fields can
change.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, ClassVar, TypeVar

R = TypeVar("R", bound="Record")


class FrozenInstanceError(AttributeError):
    """An assignment to (or deletion of) an attribute of a frozen record."""


# Writes a field of a frozen record with ``__slots__`` in its ``__init__``, past the
# record's own ``__setattr__`` (which refuses): ``set_field(self, "line", line)``.
set_field = object.__setattr__


def _no_fields(record: object) -> tuple[()]:
    return ()


def _fields_getter(fields: tuple[str, ...]) -> Callable[[Any], Any]:
    if not fields:
        return _no_fields
    if len(fields) == 1:
        # attrgetter of one name returns the value itself, not a 1-tuple; the key
        # is always the tuple of the field values, which pickling passes on to
        # ``__init__`` as its arguments.
        (name,) = fields
        return lambda record: (getattr(record, name),)
    return attrgetter(*fields)


class Record:
    """Base of the value records; see the module docstring."""

    __slots__ = ()

    _fields: ClassVar[tuple[str, ...]] = ()
    _key: ClassVar[Callable[[Any], Any]] = staticmethod(_no_fields)  # type: ignore[assignment]
    _frozen: ClassVar[bool] = False
    _order: ClassVar[bool] = False
    _eq: ClassVar[bool] = True

    def __init_subclass__(cls, *, frozen: bool | None = None, order: bool | None = None, eq: bool | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if frozen is not None:
            cls._frozen = frozen
        if order is not None:
            cls._order = order
        if eq is not None:
            cls._eq = eq
        init = cls.__dict__.get("__init__")
        if init is not None:
            code = init.__code__
            if code.co_flags & 0x0C:  # CO_VARARGS | CO_VARKEYWORDS
                raise TypeError(f"{cls.__qualname__}.__init__ must name its fields: no *args or **kwargs")
            cls._fields = code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
        # A static method: ``self._key(other)`` reads the fields of ``other``.
        cls._key = staticmethod(_fields_getter(cls._fields))  # type: ignore[assignment]
        own = cls.__dict__
        if not cls._eq:
            cls.__eq__ = object.__eq__  # type: ignore[method-assign, assignment]
            cls.__hash__ = object.__hash__  # type: ignore[method-assign]
        elif "__eq__" not in own and "__hash__" not in own:
            cls.__hash__ = Record._hash_fields if cls._frozen else None  # type: ignore[method-assign, assignment]
        if cls._frozen:
            cls.__setattr__ = Record._refuse_assignment  # type: ignore[method-assign, assignment]
            cls.__delattr__ = Record._refuse_deletion  # type: ignore[method-assign, assignment]
            if own.get("__slots__") and "__reduce__" not in own:
                # pickle restores slots with setattr, which a frozen record refuses.
                cls.__reduce__ = Record._reduce_to_init  # type: ignore[method-assign, assignment]
        if cls._order:
            cls.__lt__ = Record._lt  # type: ignore[method-assign, assignment]
            cls.__le__ = Record._le  # type: ignore[method-assign, assignment]
            cls.__gt__ = Record._gt  # type: ignore[method-assign, assignment]
            cls.__ge__ = Record._ge  # type: ignore[method-assign, assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key(self) == self._key(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # set per class by __init_subclass__

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({values})"

    def _hash_fields(self) -> int:
        return hash(self._key(self))

    def _refuse_assignment(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r} of a frozen {self.__class__.__qualname__}")

    def _refuse_deletion(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r} of a frozen {self.__class__.__qualname__}")

    def _reduce_to_init(self) -> tuple[Any, ...]:
        return (self.__class__, self._key(self))

    def _lt(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key(self) < self._key(other)
        return NotImplemented

    def _le(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key(self) <= self._key(other)
        return NotImplemented

    def _gt(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key(self) > self._key(other)
        return NotImplemented

    def _ge(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key(self) >= self._key(other)
        return NotImplemented


def replace(record: R, /, **changes: Any) -> R:
    """A copy of ``record`` with some fields changed (``dataclasses.replace``)."""
    if not isinstance(record, Record):  # a msgspec Struct (transition, issue 17)
        import msgspec.structs

        return msgspec.structs.replace(record, **changes)
    unknown = changes.keys() - record._fields
    if unknown:
        raise TypeError(f"{record.__class__.__qualname__} has no field {min(unknown)!r}")
    values = {name: getattr(record, name) for name in record._fields}
    values.update(changes)
    return record.__class__(**values)
