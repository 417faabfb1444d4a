"""A binary config checked and read in one pass over one ``json.loads`` of the whole text.

An op's first call in an OS process reads its binary config, and the per-field walk of
``binconfig`` (an entry decoded at a time, one helper call per field so that a refusal can name
the field) was most of that call. A file that is right needs no name: here the whole text is
decoded at once and each object's fields are read as one tuple (``map(dict.get, fields)``) whose
JSON types are checked together against a table of the types each field may have, all at C speed.
Anything this pass does not accept — text that does not parse, a field of a wrong type, a file
too big to decode whole — gives ``None``, and the caller reads the file with the per-field walk,
which finds the same problem and words the refusal. So every refusal and its message comes from
one place, and this pass only has to accept exactly the files the walk accepts and build the same
records from them (``tests/unit/test_binconfig_fast.py`` checks both with corrupted fields).

Only a file of at most ``WHOLE_TEXT_LIMIT`` characters is decoded whole: the tree of a whole
decode is several times the text, which is what the walk exists to avoid for files of tens of MiB.
Equal tensor descriptions share one record, as the walk's do (names are not interned: for a
file this small that costs more than it saves); records are frozen and compare equal either way.
"""

from __future__ import annotations

import json
from typing import Any

from emulator.engine.opp.binconfig import BinAttr, BinEntry, BinInfo, BinTensor, TensorSlot
from emulator.engine.opp.jsonio import reject_constant

WHOLE_TEXT_LIMIT = 1 << 20  # a shipped config is a few KiB; the biggest real ones are a few MiB

_DECODER = json.JSONDecoder(parse_constant=reject_constant)  # json.loads's decoder with NaN refused
_NONE = type(None)
_STR: frozenset[type] = frozenset({str, _NONE})
_INT: frozenset[type] = frozenset({int, _NONE})  # JSON gives exact ints; a boolean's type is bool: refused
_LIST: frozenset[type] = frozenset({list, _NONE})
_OBJECT: frozenset[type] = frozenset({dict, _NONE})
_allowed = frozenset.__contains__

# the fields read, in the order of the records' fields, and the types each may have (None: absent)
_TENSOR_FIELDS = ("name", "index", "dtype", "format", "paramType", "shape", "format_match_mode", "dtype_match_mode")
_TENSOR_TYPES = (_STR, _INT, _STR, _STR, _STR, _LIST, _STR, _STR)
_ENTRY_FIELDS = (
    "binInfo", "inputs", "outputs", "attrs", "implMode", "staticKey", "simplifiedKeyMode", "simplifiedKey",
    "optionalInputMode", "dynamicParamMode", "opMode",
)  # fmt: skip
_ENTRY_TYPES = (_OBJECT, _LIST, _LIST, _LIST, _STR, _STR, _INT, _LIST, _STR, _STR, _STR)
_ATTR_FIELDS = ("name", "dtype")
_ATTR_TYPES = (_STR, _STR)


class _Walk(Exception):
    """Something the per-field walk must look at (it refuses it, naming the field)."""


def _fields(data: Any, names: tuple[str, ...], types: tuple[frozenset[type], ...]) -> tuple[Any, ...]:
    if type(data) is not dict:
        raise _Walk
    values = tuple(map(data.get, names))
    if not all(map(_allowed, types, map(type, values))):
        raise _Walk
    return values


def _all_of(values: list[Any] | None, kind: type) -> bool:
    return values is None or tuple(map(type, values)).count(kind) == len(values)


def _tensor(value: Any, shared: dict[tuple[Any, ...], BinTensor]) -> BinTensor:
    """A checked tensor; equal descriptions share one record (as the walk's do: a file repeats them)."""
    fields = _fields(value, _TENSOR_FIELDS, _TENSOR_TYPES)
    shape = fields[5]
    if shape is None:
        key = fields
    elif _all_of(shape, int):
        key = (*fields[:5], tuple(shape), *fields[6:])
    else:
        raise _Walk
    found = shared.get(key)
    if found is None:
        found = shared[key] = BinTensor(*fields)
    return found


def _slots(values: list[Any] | None, shared: dict[tuple[Any, ...], BinTensor]) -> list[TensorSlot]:
    slots: list[TensorSlot] = []
    for value in values or ():
        kind = type(value)
        if value is None:
            slots.append(None)
        elif kind is dict:
            slots.append(None if value.get("type") == "null" else _tensor(value, shared))
        elif kind is list and value:
            slots.append([_tensor(item, shared) for item in value])
        else:
            raise _Walk
    return slots


def _attr(value: Any) -> BinAttr:
    name, dtype = _fields(value, _ATTR_FIELDS, _ATTR_TYPES)
    return BinAttr(name, dtype, value.get("value"))


def _attrs(values: list[Any] | None) -> list[BinAttr]:
    return [_attr(value) for value in values or ()]


def _entry(value: Any, shared: dict[tuple[Any, ...], BinTensor]) -> BinEntry:
    info, inputs, outputs, attrs, impl, static, key_mode, key, optional, dynamic, mode = _fields(
        value, _ENTRY_FIELDS, _ENTRY_TYPES
    )
    path = info.get("jsonFilePath") if info is not None else None
    if type(path) not in _STR or not _all_of(key, str):
        raise _Walk
    return BinEntry(
        BinInfo(path),
        _slots(inputs, shared),
        _slots(outputs, shared),
        _attrs(attrs),
        value.get("deterministic"),
        impl,
        value.get("int64Mode"),
        static,
        key_mode,
        key,
        optional,
        dynamic,
        mode,
    )


def whole_bin_list(text: str) -> list[BinEntry] | None:
    """The entries of a binary config the per-field walk would accept, or None: let it read the file."""
    if len(text) > WHOLE_TEXT_LIMIT:
        return None
    try:
        document = _DECODER.decode(text)
        entries = document["binList"] if type(document) is dict else None
        if type(entries) is not list:
            return None
        shared: dict[tuple[Any, ...], BinTensor] = {}
        return [_entry(value, shared) for value in entries]
    except (ValueError, RecursionError, KeyError, _Walk):
        return None
