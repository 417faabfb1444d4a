"""One entry of the prototype table: a C function as its header declares it.

An entry is written as the C declaration itself (so it reads like the header and cannot drift
from it), with annotations C has no syntax for:

- ``name[count]`` after an array parameter names the parameter holding its length
  (``const int64_t *viewDims[viewDimsNum]``); an out array whose count is an out parameter too
  (``int64_t **viewDims[viewDimsNum], uint64_t *viewDimsNum``) comes back to Python as one list.
- ``@host`` after a ``void *`` marks a pointer to a host value (aclCreateScalar's ``value``): the
  Python face takes the value itself.
- ``@object`` after a ``void *`` marks a callback's user data: the pyACL face passes any Python
  object through, C the pointer.
- ``@caller`` marks a source-location input (aclAppLog's ``func``, ``file``, ``line``) that the pyACL
  face does not take: it is filled in from the Python caller's frame.
- a trailing ``...`` is a C variadic function (aclAppLog): its C forwarder formats the arguments
  with ``vsnprintf`` and passes the text in place of the format.
- ``@inout`` after a pointer to a number marks an in/out parameter (aclmdlRICaptureThreadExchangeMode's
  ``mode``): the Python face takes the value in as an argument and gets the new one back first.

The pyACL face also drops the count of an input array (``create_tensor_desc(dtype, dims, format)``:
the list knows its length), as real pyACL does; the aclnn face keeps counts, in C order.

Direction follows C: ``T **`` and a non-const ``T *`` to a number or enum are out-parameters
(dropped from the Python arguments, returned first); everything else is an input. The C layer's
headers and forwarders strip the annotations and print the declaration as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from emulator.capi.types import (
    CALLBACKS,
    ENUMS,
    IN_STRUCTS,
    INTEGERS,
    META_HANDLES,
    OBJECT,
    OPAQUE,
    OUT_STRUCTS,
    RUNTIME_HANDLES,
    VALUE,
    CType,
    array_type,
    handle_type,
    pointer_type,
    scalar_type,
    struct_type,
)

NUMBERS = (*INTEGERS, *ENUMS, "float", "double", "bool")
_DECL = re.compile(r"^\s*(?P<ret>.+?)\s*\b(?P<name>\w+)\s*\((?P<params>.*)\)\s*$", re.S)
_PARAM = re.compile(
    r"^(?P<const>const\s+)?(?P<type>\w+)\s*(?P<stars>(?:\*\s*(?:const\s*)?)*)\s*(?P<name>\w+)"
    r"\s*(?:\[(?P<count>[^\]]*)\])?\s*(?P<note>@host|@object|@caller|@inout)?$"
)


@dataclass(frozen=True, slots=True)
class Param:
    """One C parameter: its name, C spelling, Python-side type and direction."""

    name: str
    c_decl: str  # as the header prints it: ``const int64_t *viewDims``
    ctype: CType
    out: bool = False
    count: str | None = None  # the parameter holding an array's length
    caller: bool = False  # a source location the pyACL face fills in from its caller (``@caller``)
    inout: bool = False  # an out-parameter whose value is also read (``@inout``): an input as well

    @property
    def is_array(self) -> bool:
        return self.ctype.kind == "array"


@dataclass(frozen=True, slots=True)
class Ret:
    """What a function returns: a status, a pointer (nullptr on failure), a string or nothing."""

    spelling: str
    kind: str  # "status", "handle", "str", "void", "int"


@dataclass(frozen=True)
class Proto:
    """A C function of the API, described once.

    ``py_name`` is its pyACL name (``acl.rt.malloc``) for runtime calls; ``failure`` is its natural
    failure status (what a null out-pointer or an injected fault returns; None for a function
    that returns a pointer, whose failure is nullptr); ``header`` is the CANN header it lives in.
    """

    c_name: str
    ret: Ret
    params: tuple[Param, ...]
    header: str
    py_name: str | None = None
    failure: int | None = None
    declaration: str = field(default="", compare=False)
    variadic: bool = False  # the declaration ends in ``...``

    @property
    def inputs(self) -> tuple[Param, ...]:
        """The Python arguments, in C order: every input, counts included, out-parameters dropped (in/out kept)."""
        return tuple(p for p in self.params if not p.out or p.inout)

    @property
    def py_inputs(self) -> tuple[Param, ...]:
        """The pyACL face's arguments: the inputs without input arrays' counts and ``@caller`` fields."""
        counts = {p.count for p in self.params if p.count and not p.out}
        return tuple(p for p in self.inputs if p.name not in counts and not p.caller)

    @property
    def outputs(self) -> tuple[Param, ...]:
        """The out-values Python gets back before the status (an out array's count merged into it)."""
        merged = {p.count for p in self.params if p.out and p.count}
        return tuple(p for p in self.params if p.out and p.name not in merged)

    @property
    def runtime(self) -> bool:
        """Whether the function is the ACL runtime's (acl/*.h), with or without a pyACL name."""
        return self.header.startswith("acl/")

    def c_signature(self) -> str:
        """The declaration as a header prints it (annotations stripped)."""
        params = ", ".join(p.c_decl for p in self.params) or "void"
        if self.variadic:
            params += ", ..."
        ret = self.ret.spelling
        sep = "" if ret.endswith("*") else " "
        return f"{ret}{sep}{self.c_name}({params})"


def _ret(spelling: str) -> Ret:
    text = " ".join(spelling.replace("*", " * ").split())
    if text in ("aclError", "aclnnStatus"):
        return Ret(text, "status")
    if text == "void":
        return Ret(text, "void")
    if text == "const char *":
        return Ret("const char *", "str")
    if text.endswith(" *") and text.removesuffix(" *").removeprefix("const ") in META_HANDLES:
        return Ret(text, "handle")
    if text in INTEGERS or text in ENUMS:
        return Ret(text, "int")
    if text == "void *" or (text.endswith(" *") and text.removesuffix(" *") in OPAQUE):
        return Ret(text, "address")  # pyACL's int address; nullptr (0) on failure
    raise ValueError(f"unsupported return type {spelling!r}")


def _param(text: str, counts_out: set[str]) -> Param:
    match = _PARAM.match(" ".join(text.split()))
    if match is None:
        raise ValueError(f"cannot read C parameter {text!r}")
    is_const = match["const"] is not None
    base = match["type"]
    stars = match["stars"].count("*")
    name = match["name"]
    count = match["count"]
    star_text = match["stars"].replace(" ", "")
    c_decl = f"{'const ' if is_const else ''}{base} {star_text.replace('const', ' const ').strip()}{name}".replace(
        "  ", " "
    )
    note = match["note"]
    if stars == 0:
        return Param(name, c_decl, scalar_type(base), caller=note == "@caller")
    if note == "@host":
        return Param(name, c_decl, VALUE)
    if note == "@object":
        return Param(name, c_decl, OBJECT)
    if note == "@caller":
        return Param(name, c_decl, pointer_type(base, is_const), caller=True)
    if note == "@inout":
        if stars != 1 or is_const or base not in NUMBERS:
            raise ValueError(f"@inout marks a non-const pointer to a number, not {text!r}")
        return Param(name, c_decl, scalar_type(base), out=True, inout=True)
    if stars == 1:
        if base in NUMBERS and not is_const and count is None:
            return Param(name, c_decl, scalar_type(base), out=True)
        if base in NUMBERS:
            return Param(name, c_decl, array_type(base, is_const), count=count or None)
        if base in OUT_STRUCTS and not is_const:
            return Param(name, c_decl, struct_type(base), out=True)  # filled in; pyACL returns a dict
        if base in RUNTIME_HANDLES and not is_const:
            return Param(name, c_decl, scalar_type(base), out=True)  # aclrtStream *stream: created here
        if base in IN_STRUCTS:  # a struct read by the callee (aclrtPhysicalMemProp *prop): a dict in Python
            return Param(name, c_decl, pointer_type(base, is_const))
        return Param(name, c_decl, pointer_type(base, is_const))
    # T **: an out-parameter, or an array of handles when it is annotated with an input count
    if count is not None and count not in counts_out and base in META_HANDLES:
        return Param(name, c_decl, array_type(base, True), count=count)
    if base == "void":
        return Param(name, c_decl, scalar_type("uint64_t"), out=True)  # an address comes back as an int
    if base in NUMBERS:
        return Param(name, c_decl, array_type(base, False), out=True, count=count)
    if base in META_HANDLES:
        return Param(name, c_decl, handle_type(base, False), out=True)
    raise ValueError(f"unsupported C parameter {text!r}")


def _split(params: str) -> list[str]:
    text = params.strip()
    if text in ("", "void"):
        return []
    return [part.strip() for part in text.split(",")]


def _out_counts(parts: list[str]) -> set[str]:
    """Names of the out-parameters that hold a count (``uint64_t *viewDimsNum``)."""
    names = set()
    for part in parts:
        match = _PARAM.match(" ".join(part.split()))
        if match and match["stars"].count("*") == 1 and match["type"] in INTEGERS and not match["const"]:
            names.add(match["name"])
    return names


def parse(declaration: str, *, header: str, py_name: str | None = None, failure: int | None = None) -> Proto:
    """A Proto from its C declaration (with the table's annotations)."""
    match = _DECL.match(declaration)
    if match is None:
        raise ValueError(f"cannot read C declaration {declaration!r}")
    parts = _split(match["params"])
    variadic = bool(parts) and parts[-1] == "..."
    if variadic:
        parts = parts[:-1]
    counts_out = _out_counts(parts)
    params = tuple(_param(part, counts_out) for part in parts)
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"{match['name']}: a parameter name repeats")
    for p in params:
        unknown = set(re.findall(r"[A-Za-z_]\w*", p.count or "")) - set(names)
        if unknown:
            raise ValueError(f"{match['name']}: {p.name}'s count {p.count!r} names no parameter {sorted(unknown)}")
    return Proto(match["name"], _ret(match["ret"]), params, header, py_name, failure, declaration, variadic)


__all__ = ["CALLBACKS", "Param", "Proto", "Ret", "parse"]
