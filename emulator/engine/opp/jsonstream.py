"""One array member of a big JSON object, decoded an item at a time.

A binary-config file is one object holding one long array (``binList``) of small entries; a
package may ship one of tens of MiB. ``json.loads`` of such a file builds the whole tree of
dicts before anything can be checked or made compact: several KiB of Python objects per entry,
which is most of a gigabyte for a file under the 64 MiB cap. Here the top-level object is walked
with the standard decoder, each item of the wanted array is decoded alone and handed to
``convert`` at once, so the peak is the file's text plus what ``convert`` keeps, and the cost is
one pass. The accepted syntax is exactly ``json.loads``'s (the same decoder reads every value),
including its rule for a repeated key: the last one counts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from emulator.engine.opp.jsonio import reject_constant

T = TypeVar("T")
_SPACE = re.compile(r"[ \t\n\r]*")


class _Walk:
    """A cursor over the text; every syntax error is a ``json.JSONDecodeError`` at its position."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.decoder = json.JSONDecoder(parse_constant=reject_constant)

    def skip(self) -> str:
        """Move past white space; the next character ("" at the end)."""
        match = _SPACE.match(self.text, self.pos)
        self.pos = match.end() if match else self.pos
        return self.text[self.pos : self.pos + 1]

    def expect(self, chars: str, what: str) -> str:
        char = self.skip()
        if not char or char not in chars:
            raise json.JSONDecodeError(f"Expecting {what}", self.text, self.pos)
        self.pos += 1
        return char

    def value(self) -> Any:
        self.skip()
        value, self.pos = self.decoder.raw_decode(self.text, self.pos)
        return value

    def key(self) -> str:
        if self.skip() != '"':
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes", self.text, self.pos)
        key: str = self.value()
        self.expect(":", "':' delimiter")
        return key

    def items(self, convert: Callable[[Any, int], T]) -> tuple[list[T], ValueError | None]:
        """The array at the cursor, each item converted as soon as it is decoded.

        A ``ValueError`` from ``convert`` stops the converting, not the reading: the rest of the
        array is still decoded (its syntax is still checked) and the error is returned, to be
        raised only if this member is not replaced by a later one of the same name.
        """
        self.expect("[", "'['")
        out: list[T] = []
        failed: ValueError | None = None
        if self.skip() == "]":
            self.pos += 1
            return out, failed
        index = 0
        while True:
            value = self.value()
            if failed is None:
                try:
                    out.append(convert(value, index))
                except ValueError as exc:
                    failed, out = exc, []
            index += 1
            if self.expect(",]", "',' delimiter") == "]":
                return out, failed


def array_member(text: str, key: str, convert: Callable[[Any, int], T]) -> tuple[list[T] | None, Any]:
    """``(items, None)`` when the top-level object's ``key`` is an array; ``(None, value)`` otherwise.

    ``value`` is the member's value when it is not an array, or None when the object has no such
    member. Raises ``ValueError`` (``json.JSONDecodeError``) for text that is not one JSON object,
    ``RecursionError`` for a value nested past the interpreter's limit, and the first ``ValueError``
    ``convert`` raised for an item of the member that counts (the text is read to its end first,
    so a syntax error anywhere is what is reported).
    """
    walk = _Walk(text)
    if walk.skip() != "{":
        value = walk.value()  # not an object: the error, or the value the caller names in its refusal
        raise ValueError(f"top level is a JSON {type(value).__name__}, not an object")
    walk.pos += 1
    items: list[T] | None = None
    other: Any = None
    failed: ValueError | None = None
    if walk.skip() == "}":
        walk.pos += 1
    else:
        while True:
            name = walk.key()
            if name == key and walk.skip() == "[":
                (items, failed), other = walk.items(convert), None
            elif name == key:
                items, other, failed = None, walk.value(), None
            else:
                walk.value()
            if walk.expect(",}", "',' delimiter") == "}":
                break
    if walk.skip():
        raise json.JSONDecodeError("Extra data", text, walk.pos)
    if failed is not None:
        raise failed
    return items, other
