"""sglang_lint.records: the generic methods, and every record's fields held to the
attributes it declares."""

from __future__ import annotations

import importlib
import pickle
import pkgutil

import pytest

import sglang_lint
from sglang_lint.records import FrozenInstanceError, Record, replace, set_field


class Point(Record, frozen=True, order=True):
    x: int
    y: int

    def __init__(self, x: int, y: int = 0) -> None:
        fields = self.__dict__
        fields["x"] = x
        fields["y"] = y


class Span(Record, frozen=True, order=True):
    __slots__ = ("start", "end")

    start: int
    end: int

    def __init__(self, start: int, end: int = 0) -> None:
        set_field(self, "start", start)
        set_field(self, "end", end or start)


class Bag(Record):
    items: list[int]
    name: str

    def __init__(self, items: list[int] | None = None, name: str = "") -> None:
        self.items = [] if items is None else items
        self.name = name


class Single(Record, frozen=True):
    only: str

    def __init__(self, only: str) -> None:
        self.__dict__["only"] = only


class Shape(Record, frozen=True):
    def __init__(self) -> None:
        pass


class Circle(Shape):
    radius: float

    def __init__(self, radius: float) -> None:
        self.__dict__["radius"] = radius


class Token(Record, frozen=True, eq=False):
    text: str

    def __init__(self, text: str) -> None:
        self.__dict__["text"] = text


def test_fields_are_the_init_parameters_in_order():
    assert Point._fields == ("x", "y")
    assert Bag._fields == ("items", "name")
    assert Shape._fields == ()
    assert Circle._fields == ("radius",)


def test_equality_is_by_class_and_fields():
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(2, 1)
    assert Bag([1]) == Bag([1])
    assert Single("a") == Single("a") and Single("a") != Single("b")
    # Another class with the same field values is not equal (dataclasses: same).
    assert Circle(1.0) != Single(1.0)  # type: ignore[arg-type]
    assert Point(1, 2) != (1, 2)


def test_frozen_records_hash_by_fields_and_refuse_assignment():
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2
    assert hash(Single("a")) == hash(Single("a"))
    point = Point(1, 2)
    with pytest.raises(FrozenInstanceError, match="'x'"):
        point.x = 3  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del point.y
    assert isinstance(FrozenInstanceError(), AttributeError)


def test_subclasses_inherit_the_class_keywords():
    circle = Circle(2.0)
    with pytest.raises(FrozenInstanceError):
        circle.radius = 1.0  # type: ignore[misc]
    assert hash(circle) == hash(Circle(2.0))


def test_mutable_records_are_unhashable():
    with pytest.raises(TypeError, match="unhashable"):
        hash(Bag())
    bag = Bag()
    bag.name = "changed"
    assert bag.name == "changed"
    # Each record gets its own default list.
    Bag().items.append(1)
    assert Bag().items == []


def test_eq_false_is_identity():
    token = Token("a")
    assert token == token and token != Token("a")
    assert len({token, Token("a")}) == 2


def test_order_compares_fields_in_order():
    assert Point(1, 5) < Point(2, 0) <= Point(2, 0) < Point(2, 1)
    assert Point(3, 0) > Point(2, 9) >= Point(2, 9)
    assert sorted([Point(2, 1), Point(1, 2), Point(1, 1)]) == [Point(1, 1), Point(1, 2), Point(2, 1)]
    with pytest.raises(TypeError):
        Point(1, 2) < Circle(1.0)  # noqa: B015


def test_repr_names_every_field():
    assert repr(Point(1, 2)) == "Point(x=1, y=2)"
    assert repr(Bag([1], "b")) == "Bag(items=[1], name='b')"
    assert repr(Shape()) == "Shape()"


def test_replace_copies_with_changes():
    assert replace(Point(1, 2), y=5) == Point(1, 5)
    frozen = Point(1, 2)
    assert replace(frozen) == frozen and replace(frozen) is not frozen
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(frozen, z=1)


def test_records_pickle_frozen_or_not():
    for record in (Point(1, 2), Bag([1, 2], "b"), Circle(1.5), Single("s"), Span(3), Span(1, 9)):
        assert pickle.loads(pickle.dumps(record)) == record


def test_a_slotted_frozen_record_has_no_instance_dict():
    span = Span(3)
    assert (span.start, span.end) == (3, 3)
    assert not hasattr(span, "__dict__")
    with pytest.raises(FrozenInstanceError):
        span.start = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        span.other = 1  # type: ignore[attr-defined]
    assert hash(span) == hash(Span(3, 3)) and Span(1) < Span(2) and replace(span, end=5) == Span(3, 5)
    # pickle restores it through __init__, past the refusing __setattr__
    assert pickle.loads(pickle.dumps(span, protocol=2)) == span


def test_init_must_name_its_fields():
    with pytest.raises(TypeError, match="must name its fields"):

        class Loose(Record):
            def __init__(self, *args: int) -> None:
                pass


def _all_records() -> list[type[Record]]:
    for module in pkgutil.walk_packages(sglang_lint.__path__, "sglang_lint."):
        if module.name.endswith(("server", "__main__")):
            continue  # the language server needs pygls; its records are checked below
        importlib.import_module(module.name)
    found: list[type[Record]] = []
    pending = [Record]
    while pending:
        cls = pending.pop()
        for sub in cls.__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("sglang_lint."):
                found.append(sub)
    return found


def test_the_package_defines_no_dataclasses():
    """The records replaced dataclasses to save their creation cost (issue 7): one
    dataclass anywhere on the path of a run brings back ``dataclasses`` and
    ``inspect``."""
    for module in pkgutil.walk_packages(sglang_lint.__path__, "sglang_lint."):
        if module.name.endswith(("server", "__main__")):
            continue
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            assert not (isinstance(value, type) and "__dataclass_fields__" in vars(value)), f"{module.name}.{name}"


@pytest.mark.parametrize("record", _all_records(), ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_record_declares_its_fields(record: type[Record]):
    """The class annotations (what a reader and an editor see) name the fields, in
    the order of ``__init__``'s parameters (what equality, hashing and ``replace``
    use). A record may declare more attributes (computed in ``__init__``)."""
    declared: list[str] = []
    for cls in reversed(record.__mro__):
        for name, annotation in vars(cls).get("__annotations__", {}).items():
            if not str(annotation).startswith("ClassVar") and name not in declared:
                declared.append(name)
    assert [name for name in declared if name in record._fields] == list(record._fields), "fields out of order"
    assert set(record._fields) <= set(declared), f"undeclared: {set(record._fields) - set(declared)}"
    slots = vars(record).get("__slots__")
    if slots:
        assert tuple(slots) == record._fields, "a slotted record's slots are its fields"
