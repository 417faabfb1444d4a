"""Reading one field of a package JSON with the JSON type the emulator needs, or a reason why not.

Every loader of ``emulator.engine.opp`` reads fields of files it does not trust. A field of the
wrong JSON type must refuse the file with a reason that names the field — never reach the code
that uses it as a TypeError or an AttributeError. These helpers make the check one call per field,
with one wording for every file: ``binList[3].inputs[0].dtype is a number, not a string``.
"""

from __future__ import annotations

from typing import Any


class FieldTypeError(ValueError):
    """A field whose JSON type is not the one the emulator reads it as."""

    def __init__(self, where: str, value: Any, expected: str) -> None:
        super().__init__(f"{where} is {json_type(value)}, not {expected}")


class EmptyTensorList(FieldTypeError):
    """A dynamic position written as ``[]``: no tensor to take its dtype and format from, so no key."""

    def __init__(self, where: str) -> None:
        ValueError.__init__(self, f"{where} is an empty array; a dynamic position lists at least one tensor")


def json_type(value: Any) -> str:
    """The JSON type of a parsed value, as a message says it ("a number", "an array")."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return "a string" if isinstance(value, str) else "null"


def opt_str(data: dict[str, Any], key: str, where: str) -> str | None:
    """``data[key]`` when it is a string; None when absent or null."""
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise FieldTypeError(f"{where}.{key}", value, "a string")


def opt_int(data: dict[str, Any], key: str, where: str) -> int | None:
    """``data[key]`` when it is a whole number (a boolean is not one); None when absent or null."""
    value = data.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise FieldTypeError(f"{where}.{key}", value, "an integer")


def opt_list(data: dict[str, Any], key: str, where: str) -> list[Any] | None:
    """``data[key]`` when it is an array; None when absent or null."""
    value = data.get(key)
    if value is None or isinstance(value, list):
        return value
    raise FieldTypeError(f"{where}.{key}", value, "an array")


def opt_object(data: dict[str, Any], key: str, where: str) -> dict[str, Any] | None:
    """``data[key]`` when it is an object; None when absent or null."""
    value = data.get(key)
    if value is None or isinstance(value, dict):
        return value
    raise FieldTypeError(f"{where}.{key}", value, "an object")


def as_object(value: Any, where: str) -> dict[str, Any]:
    """``value`` when it is an object."""
    if isinstance(value, dict):
        return value
    raise FieldTypeError(where, value, "an object")
