"""Binary-config JSON (``kernel/config/<socdir>/<file>.json``) and the file names opbase looks for.

Emulates ``KernelMgr``'s reading of a binary-config file. An entry is read into small frozen,
slotted records (field names are snake_case; the JSON names are in ``BinEntry.from_json``).

Why not a validating model library: a real package may ship a ``binList`` of a hundred thousand
entries, and a per-entry model validation cost ~140 µs and ~6.6 KiB each (17 s and 850 MB for a
file under the 64 MiB cap). The file is decoded an entry at a time (``jsonstream``) and each
entry is checked with one ``isinstance`` per field it has, then kept as these records: the load
is one linear pass whose peak is the text plus the records (see docs/reliability.md for figures).

Fidelity notes:
- Fields the real reader ignores (``ori_format``, ``ori_shape``…) are accepted whatever they hold
  and not kept.
- A field the emulator reads, of the wrong JSON type, refuses the whole file with a reason naming
  the field (``binList[3].inputs[0].dtype is a number, not a string``), as a file that does not
  parse is refused; the op's search then goes on to its next candidate file.
- A dtype or format string outside the accepted lists does not refuse the file: the real reader fails only
  the key of that one bin (561111 / 561110). ``BinTensor.ge_dtype`` / ``ge_format`` give ``None``
  for such strings so the key builder can do the same.
- ``{"type": "null"}`` and ``null`` both mean "absent tensor" and are read as ``None``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emulator.engine.opp.jsonio import JsonRefused, read_package_text
from emulator.engine.opp.jsonstream import array_member
from emulator.engine.opp.jsontypes import (
    EmptyTensorList,
    FieldTypeError,
    as_object,
    opt_int,
    opt_list,
    opt_object,
    opt_str,
)

_PLAIN_DTYPES = (
    "float16", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool", "double", "string",
    "int4", "uint1", "int2", "uint2", "complex32", "complex64", "complex128", "hifloat8", "float8_e5m2",
    "float8_e4m3fn", "float8_e8m0", "float6_e3m2", "float6_e2m3", "float4_e2m1", "float4_e1m2",
)  # fmt: skip
_PLAIN_FORMATS = (
    "ND", "NCHW", "NHWC", "HWCN", "NDHWC", "NCDHW", "DHWCN", "NDC1HWC0", "FRACTAL_NZ", "NC1HWC0", "FRACTAL_Z",
    "C1HWNCoC0", "FRACTAL_Z_C04", "FRACTAL_Z_3D", "FRACTAL_NZ_C0_16", "FRACTAL_NZ_C0_32", "FRACTAL_NZ_C0_2",
    "FRACTAL_NZ_C0_4", "FRACTAL_NZ_C0_8",
)  # fmt: skip

DTYPE_STRINGS: dict[str, str] = {
    "float": "DT_FLOAT",
    "float32": "DT_FLOAT",
    "bfloat16": "DT_BF16",
    "bf16": "DT_BF16",
    **{name: f"DT_{name.upper()}" for name in _PLAIN_DTYPES},
}
"""The accepted binary-config dtype strings → GE data-type name."""

FORMAT_STRINGS: dict[str, str] = {"ALL": "FORMAT_ND", **{name: f"FORMAT_{name}" for name in _PLAIN_FORMATS}}
"""The accepted binary-config format strings → GE format name (``ALL`` reads as ND)."""


_TENSOR_FIELDS = ("name", "index", "dtype", "format", "paramType", "shape", "format_match_mode", "dtype_match_mode")
_MAX_SHARED = 4096  # a hostile file of unique values must not grow the shared tables without end


@dataclass(slots=True)
class Shared:
    """The records one file's entries share: a hundred thousand entries repeat a handful of names and
    tensor descriptions. One per file read, so nothing outlives the load or crosses threads."""

    names: dict[str | None, str | None] = dataclasses.field(default_factory=dict)
    tensors: dict[tuple[Any, ...], BinTensor] = dataclasses.field(default_factory=dict)


def _name(data: dict[str, Any], key: str, where: str, shared: Shared) -> str | None:
    """A name field, one copy of each string."""
    value = opt_str(data, key, where)
    names = shared.names
    return names.setdefault(value, value) if len(names) < _MAX_SHARED else names.get(value, value)


def _ints(data: dict[str, Any], key: str, where: str) -> list[int] | None:
    values = opt_list(data, key, where)
    for i, value in enumerate(values or ()):
        if isinstance(value, bool) or not isinstance(value, int):
            raise FieldTypeError(f"{where}.{key}[{i}]", value, "an integer")
    return values


def _strs(data: dict[str, Any], key: str, where: str) -> list[str] | None:
    values = opt_list(data, key, where)
    for i, value in enumerate(values or ()):
        if not isinstance(value, str):
            raise FieldTypeError(f"{where}.{key}[{i}]", value, "a string")
    return values


@dataclass(frozen=True, slots=True)
class BinTensor:
    """One tensor of a ``binList`` entry."""

    name: str | None = None
    index: int | None = None
    dtype: str | None = None
    format: str | None = None
    param_type: str | None = None
    shape: list[int] | None = None
    format_match_mode: str | None = None
    dtype_match_mode: str | None = None

    @classmethod
    def from_json(cls, value: Any, where: str, shared: Shared) -> BinTensor:
        """A tensor from its JSON; equal tensors share one record (bins repeat a few combinations)."""
        try:
            key = tuple(map(value.get, _TENSOR_FIELDS))
            index, shape = key[1], key[5]
            if type(shape) is list:
                key = (*key[:5], tuple(shape), *key[6:])
            hit = shared.tensors[key]
            # a key is equal for true and 1 (or 1.0 and 1): a hit proves the strings, not the numbers
            if (index is None or type(index) is int) and (shape is None or all(type(d) is int for d in shape)):
                return hit
            return cls._checked(value, where, shared)
        except KeyError:
            tensor = cls._checked(value, where, shared)
            if len(shared.tensors) < _MAX_SHARED:
                shared.tensors[key] = tensor
            return tensor
        except (AttributeError, TypeError):  # not an object, or a field no record can hold
            return cls._checked(value, where, shared)

    @classmethod
    def _checked(cls, value: Any, where: str, shared: Shared) -> BinTensor:
        data = as_object(value, where)
        return cls(
            _name(data, "name", where, shared),
            opt_int(data, "index", where),
            _name(data, "dtype", where, shared),
            _name(data, "format", where, shared),
            _name(data, "paramType", where, shared),
            _ints(data, "shape", where),
            _name(data, "format_match_mode", where, shared),
            _name(data, "dtype_match_mode", where, shared),
        )

    @property
    def ge_dtype(self) -> str | None:
        """The GE dtype name, or ``None`` where the real reader reports 561111."""
        return DTYPE_STRINGS.get(self.dtype) if self.dtype is not None else None

    @property
    def ge_format(self) -> str | None:
        """The GE format name, or ``None`` where the real reader reports 561110."""
        return FORMAT_STRINGS.get(self.format) if self.format is not None else None


TensorSlot = BinTensor | list[BinTensor] | None
"""A tensor position: a tensor, a list of tensors (dynamic input), or ``None`` (absent optional)."""


def _slot(value: Any, where: str, shared: Shared) -> TensorSlot:
    if value is None or (isinstance(value, dict) and value.get("type") == "null"):
        return None
    if isinstance(value, list):
        if not value:
            raise EmptyTensorList(where)
        return [BinTensor.from_json(item, f"{where}[{i}]", shared) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return BinTensor.from_json(value, where, shared)
    raise FieldTypeError(where, value, "an object, an array or null")


def _slots(data: dict[str, Any], key: str, where: str, shared: Shared) -> list[TensorSlot]:
    values = opt_list(data, key, where) or ()
    return [_slot(value, f"{where}.{key}[{i}]", shared) for i, value in enumerate(values)]


@dataclass(frozen=True, slots=True)
class BinAttr:
    """One attribute of a ``binList`` entry; ``null``, ``"ALL"`` and ``[]`` values mean "any value"."""

    name: str | None = None
    dtype: str | None = None
    value: Any = None

    @classmethod
    def from_json(cls, value: Any, where: str, shared: Shared) -> BinAttr:
        data = as_object(value, where)
        return cls(_name(data, "name", where, shared), _name(data, "dtype", where, shared), data.get("value"))


@dataclass(frozen=True, slots=True)
class BinInfo:
    json_file_path: str | None = None


@dataclass(frozen=True, slots=True)
class BinEntry:
    """One pre-compiled binary and the dtype/format/attr combination it serves."""

    bin_info: BinInfo = BinInfo()
    inputs: list[TensorSlot] = dataclasses.field(default_factory=list)
    outputs: list[TensorSlot] = dataclasses.field(default_factory=list)
    attrs: list[BinAttr] = dataclasses.field(default_factory=list)
    deterministic: Any = None
    impl_mode: str | None = None
    int64_mode: Any = None
    static_key: str | None = None
    simplified_key_mode: int | None = None
    simplified_key: list[str] | None = None
    optional_input_mode: str | None = None
    dynamic_param_mode: str | None = None
    op_mode: str | None = None

    @classmethod
    def from_json(cls, value: Any, where: str = "entry", shared: Shared | None = None) -> BinEntry:
        """An entry from its parsed JSON; ``FieldTypeError`` names the first field of the wrong type.
        ``shared``: the tables the file's other entries use (a fresh one for an entry on its own)."""
        shared = Shared() if shared is None else shared
        data = as_object(value, where)
        info = opt_object(data, "binInfo", where) or {}
        attrs = opt_list(data, "attrs", where) or ()
        return cls(
            BinInfo(opt_str(info, "jsonFilePath", f"{where}.binInfo")),
            _slots(data, "inputs", where, shared),
            _slots(data, "outputs", where, shared),
            [BinAttr.from_json(attr, f"{where}.attrs[{i}]", shared) for i, attr in enumerate(attrs)],
            data.get("deterministic"),
            _name(data, "implMode", where, shared),
            data.get("int64Mode"),
            opt_str(data, "staticKey", where),
            opt_int(data, "simplifiedKeyMode", where),
            _strs(data, "simplifiedKey", where),
            _name(data, "optionalInputMode", where, shared),
            _name(data, "dynamicParamMode", where, shared),
            _name(data, "opMode", where, shared),
        )

    @property
    def usable(self) -> bool:
        """Whether the real reader keeps this entry (it skips entries without a ``.json`` path)."""
        return self.bin_info.json_file_path is not None and ".json" in self.bin_info.json_file_path


@dataclass(frozen=True, slots=True)
class BinaryConfig:
    """A whole binary-config file: ``{"binList": [entry, ...]}`` (a missing ``binList`` is a load error)."""

    bin_list: list[BinEntry]


def read_binary_config(path: Path, *, root: Path | None = None) -> BinaryConfig:
    """Parse and check one binary-config file; raise ``JsonRefused`` when the real reader would fail."""
    text = read_package_text(path, root=root)
    # imported here: binfast builds this module's records (a file it accepts needs no walk)
    from emulator.engine.opp.binfast import whole_bin_list

    fast = whole_bin_list(text)
    if fast is not None:
        return BinaryConfig(fast)
    return BinaryConfig(walk_bin_list(path, text))


def walk_bin_list(path: Path, text: str) -> list[BinEntry]:
    """The per-field walk: an entry decoded at a time, each field checked alone, so a refusal names it."""
    shared = Shared()
    try:
        entries, other = array_member(
            text, "binList", lambda value, i: BinEntry.from_json(value, f"binList[{i}]", shared)
        )
    except FieldTypeError as exc:
        raise JsonRefused(path, f"invalid binary config: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise JsonRefused(path, f"{type(exc).__name__}: {exc}") from None
    if entries is None:
        problem = "binList is missing" if other is None else str(FieldTypeError("binList", other, "an array"))
        raise JsonRefused(path, f"invalid binary config: {problem}")
    return entries


def with_repo_folder(config: BinaryConfig, repo: str) -> BinaryConfig:
    """Insert ``<repo>/`` after the first ``/`` of each ``jsonFilePath`` not already naming the repo.

    A path without ``/`` gets the folder in front (the C++ ``find`` returns npos, and npos + 1 is 0).
    """
    return BinaryConfig([_entry_in_repo(entry, repo) for entry in config.bin_list])


def _entry_in_repo(entry: BinEntry, repo: str) -> BinEntry:
    path = entry.bin_info.json_file_path
    if path is None or repo in path:
        return entry
    cut = path.find("/") + 1
    return dataclasses.replace(entry, bin_info=BinInfo(f"{path[:cut]}{repo}/{path[cut:]}"))


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def _is_upper(ch: str) -> bool:
    return "A" <= ch <= "Z"


def config_json_name(op_type: str) -> str:
    """The new file-name rule (``GetConfigJsonName``): ``_`` before every digit and every later capital."""
    out: list[str] = []
    since = 0
    for i, ch in enumerate(op_type):
        if (_is_digit(ch) and i != 0) or (_is_upper(ch) and since >= 1 and i != 0):
            out.append("_")
            since = 0
        out.append(ch.lower() if _is_upper(ch) else ch)
        since += 1
    return "".join(out) + ".json"


def config_json_name_old(op_type: str) -> str:
    """The old file-name rule (``GetConfigJsonNameOld``): digits stay glued; no ``_`` before a capital after a digit."""
    out: list[str] = []
    since = 0
    for i, ch in enumerate(op_type):
        if _is_upper(ch) and since >= 1 and i != 0 and not _is_digit(op_type[i - 1]):
            out.append("_")
            since = 0
        out.append(ch.lower() if _is_upper(ch) else ch)
        since += 1
    return "".join(out) + ".json"


def candidate_config_names(op_type: str, op_file: str | None) -> list[str]:
    """The binary-config names searched for an op: new rule, old rule, then ``<opFile>.json`` (no repeats)."""
    names = [config_json_name(op_type), config_json_name_old(op_type)]
    if op_file:
        names.append(f"{op_file}.json")
    return list(dict.fromkeys(names))
