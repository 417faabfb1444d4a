"""Binary match keys: which pre-compiled binary serves which dtype / format / attribute combination.

Build-time keys come from each ``binList`` entry of an op's binary-config file, runtime keys from
the tensors and attributes of the call; a binary is selected when the two byte strings are equal
(as in the real ``OpKernel::AppendDynBin`` / ``GenerateKey``). The bytes follow the real encoding — a context part
(deterministic flag, impl-mode index), a dtype and a format byte per tensor position, a rank byte
where bins disagree on rank, a count byte for dynamic lists, and the attributes that are not
"support all". The real code hashes the bytes; here the bytes themselves are the dict key. The
customized simplified-key mode (``simplifiedKeyMode`` 2) is not emulated: such ops have no bins.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Any

from emulator.engine.opp.binconfig import BinAttr, BinEntry, BinTensor
from emulator.meta.dtypes import DataType, type_size
from emulator.meta.formats import aclFormat

FORMAT_END = 55
FORMAT_ND = int(aclFormat.ACL_FORMAT_ND)

# OpImplMode bit flags and the index ffs(mode) - 1 used in keys
IMPL_DEFAULT, IMPL_HIGH_PERFORMANCE, IMPL_HIGH_PRECISION = 0x1, 0x2, 0x4
IMPL_SUPPORT_OUT_OF_BOUND_INDEX, IMPL_FLOAT32, IMPL_HI_FLOAT32 = 0x10, 0x20, 0x40
IMPL_MODES = {
    "default": 0x1,
    "high_performance": 0x2,
    "high_precision": 0x4,
    "super_performance": 0x8,
    "support_out_of_bound_index": 0x10,
    "enable_float32_execution": 0x20,
    "enable_hi_float32_execution": 0x40,
    "keep_fp16": 0x80,
}
_DETERMINISTIC = {"true": [b"1"], "false": [b"0"]}
_EITHER = [b"1", b"0"]
FOUR_MODES = "high_performance,high_precision,enable_float_32_execution,enable_hi_float_32_execution"


def impl_index(mode: int) -> int:
    return (mode & -mode).bit_length() - 1


class FormatType(Enum):
    ONLY_ND = "only ND"
    SUPPORT_ND = "ND and others"
    NOT_SUPPORT_ND = "no ND"


@dataclass
class Position:
    """What the bins of an op say about one tensor position."""

    formats: set[int] = field(default_factory=set)
    ranks: set[int] = field(default_factory=set)
    any_rank: bool = False
    dtype_byte: bool = False  # dtype_match_mode == "DtypeByte" seen (sticky)

    @property
    def rank_matters(self) -> bool:
        return not self.any_rank and len(self.ranks) > 1

    @property
    def format_type(self) -> FormatType:
        if self.formats == {FORMAT_ND}:
            return FormatType.ONLY_ND
        return FormatType.SUPPORT_ND if FORMAT_ND in self.formats else FormatType.NOT_SUPPORT_ND


@lru_cache(maxsize=256)  # GE names come from two fixed tables (binconfig): a few dozen, looked up per bin tensor
def _ge_value(name: str | None, enum_prefix: str) -> int | None:
    if name is None:
        return None
    if enum_prefix == "DT_":
        try:
            return int(DataType[name])
        except KeyError:
            return None
    short = name.removeprefix("FORMAT_")
    for candidate in (f"ACL_FORMAT_{short}", f"ACL_{short}"):
        if candidate in aclFormat.__members__:
            return int(aclFormat[candidate])
    return {"FRACTAL_Z_C04": 13, "C1HWNCoC0": 25, "DHWCN": 31}.get(short)


def dtype_byte(dtype: int, by_size: bool) -> int:
    if not by_size:
        return dtype & 0xFF
    size = type_size(dtype)
    return (size if size <= 16 else size - 1000 + 16) & 0xFF


def _is_any(value: Any) -> bool:
    return value is None or value == "ALL" or value == []


def _f32(value: float) -> bytes:
    """A number as a C float's 4 bytes: out of float range is an infinity, as the C cast gives."""
    try:
        return struct.pack("<f", value)
    except OverflowError:
        return struct.pack("<f", math.copysign(math.inf, value))


def encode_attr_value(value: Any, kind: str) -> bytes:
    """One attribute's key bytes: bool 1 byte, float float32, integer int64, list '[' len ']', string chars.

    Total over JSON values: a package file may give an attribute any of them (a ``float`` attr
    whose value is a string, an integer past 64 bits), and a key must come out, never an exception.
    """
    if kind == "bool" or isinstance(value, bool):
        return bytes([1 if value else 0])
    if isinstance(value, list | tuple):
        return b"[" + bytes([len(value) & 0xFF]) + b"]"
    if isinstance(value, float) or (kind == "float" and isinstance(value, int)):
        return _f32(value)
    if isinstance(value, int):
        return struct.pack("<Q", value & 0xFFFF_FFFF_FFFF_FFFF)  # the int64's bytes; a wider number wraps as in C
    return str(value).encode()


@dataclass
class KeySchema:
    """The per-op facts key generation needs, derived once from all bins (the pre-pass of 8.2)."""

    inputs: list[Position]
    outputs: list[Position]
    attr_names: list[str]
    attr_included: list[bool]
    attr_kinds: list[str]
    ignore_attrs: bool
    supported_impl_modes: int = 0

    @classmethod
    def from_bins(cls, bins: Sequence[BinEntry]) -> KeySchema:
        ignore = bool(bins) and all(b.simplified_key_mode == 0 for b in bins)
        n_in = max((len(b.inputs) for b in bins), default=0)
        n_out = max((len(b.outputs) for b in bins), default=0)
        schema = cls([Position() for _ in range(n_in)], [Position() for _ in range(n_out)], [], [], [], ignore)
        for entry in bins:
            schema._scan(entry.inputs, schema.inputs, ranks=True)
            schema._scan(entry.outputs, schema.outputs, ranks=False)
        schema._judge_attrs(bins)
        return schema

    def _scan(self, slots: Sequence[Any], positions: list[Position], *, ranks: bool) -> None:
        for slot, pos in zip(slots, positions, strict=False):
            tensor: BinTensor | None = slot[0] if isinstance(slot, list) and slot else slot
            if tensor is None:
                continue
            fmt = _ge_value(tensor.ge_format, "FORMAT_")
            if fmt is not None:
                pos.formats.add(fmt)
            if tensor.dtype_match_mode == "DtypeByte":
                pos.dtype_byte = True
            if ranks and tensor.shape is not None:
                if tensor.shape == [-2]:
                    pos.any_rank = True
                else:
                    pos.ranks.add(len(tensor.shape))

    def _judge_attrs(self, bins: Sequence[BinEntry]) -> None:
        first: list[BinAttr] = bins[0].attrs if bins else []
        self.attr_names = [a.name or "" for a in first]
        self.attr_kinds = [a.dtype or "" for a in first]
        seen: list[Any] = [None] * len(first)
        included = [False] * len(first)
        for entry in bins:
            if not entry.attrs:
                break
            for i, attr in enumerate(entry.attrs[: len(first)]):
                value = attr.value
                if _is_any(value):
                    continue
                if isinstance(value, bool | str):
                    included[i] = True
                elif seen[i] is None:
                    seen[i] = value
                elif isinstance(value, list) and isinstance(seen[i], list):
                    included[i] |= len(value) != len(seen[i])
                elif isinstance(seen[i], float) and isinstance(value, int | float):  # compared as 4-byte floats
                    included[i] |= _f32(value) != _f32(seen[i])
                elif value != seen[i]:
                    included[i] = True
        self.attr_included = included

    # -- keys ---------------------------------------------------------------------------------
    def build_all_keys(self, entries: Sequence[BinEntry]) -> list[list[bytes]]:
        """``build_keys`` of each entry, in order, for an op's whole table at once.

        The bins of an op repeat a few tensor descriptions (Add's 13 bins: 39 tensors, 13 distinct
        encodings), so each (dtype, format, rank, position kind) is encoded once per table.
        """
        memo: dict[tuple[Any, ...], bytes | None] = {}
        return [self.build_keys(entry, memo) for entry in entries]

    def build_keys(self, entry: BinEntry, memo: dict[tuple[Any, ...], bytes | None] | None = None) -> list[bytes]:
        """All keys one binList entry serves (one per deterministic flag x impl mode)."""
        tensor_part = self._bin_tensor_part(entry, {} if memo is None else memo)
        if tensor_part is None:
            return []
        attr_part = b"" if self.ignore_attrs else self._bin_attr_part(entry)
        det = _DETERMINISTIC.get(str(entry.deterministic).lower(), _EITHER)
        keys = []
        for mode in self._bin_impl_modes(entry):
            self.supported_impl_modes |= mode
            for flag in det:
                keys.append(flag + b"/" + bytes([ord("0") + impl_index(mode)]) + b"/" + tensor_part + attr_part)
        return keys

    @staticmethod
    def _bin_impl_modes(entry: BinEntry) -> list[int]:
        path = entry.bin_info.json_file_path or ""
        for name in ("high_performance", "high_precision", "support_out_of_bound_index"):
            if name in path:
                return [IMPL_MODES[name]]
        if entry.impl_mode == FOUR_MODES:
            return [IMPL_HIGH_PERFORMANCE, IMPL_HIGH_PRECISION, IMPL_FLOAT32, IMPL_HI_FLOAT32]
        return [IMPL_MODES.get(entry.impl_mode or "", IMPL_HIGH_PRECISION)]

    def _bin_tensor_part(self, entry: BinEntry, memo: dict[tuple[Any, ...], bytes | None]) -> bytes | None:
        out = bytearray()
        for slots, positions in ((entry.inputs, self.inputs), (entry.outputs, self.outputs)):
            for slot, pos in zip(slots, positions, strict=False):
                if slot is None:
                    continue
                tensors = slot if isinstance(slot, list) else [slot]
                tensor = tensors[0]
                shape = tensor.shape
                rank = len(shape) if shape is not None and pos.rank_matters else None
                key = (tensor.dtype, tensor.format, rank, pos.dtype_byte)
                encoded = memo[key] if key in memo else memo.setdefault(key, self._bin_tensor(tensor, pos))
                if encoded is None:
                    return None  # 561111 / 561110: this bin's key stops here
                out += encoded
                if isinstance(slot, list):
                    out.append((FORMAT_END + len(slot)) & 0xFF)
        return bytes(out)

    def _bin_tensor(self, tensor: BinTensor, pos: Position) -> bytes | None:
        dtype = _ge_value(tensor.ge_dtype, "DT_")
        fmt = _ge_value(tensor.ge_format, "FORMAT_")
        if dtype is None or fmt is None:
            return None
        out = bytes([dtype_byte(dtype, pos.dtype_byte), fmt & 0xFF])
        if pos.rank_matters and tensor.shape is not None:
            out += bytes([(FORMAT_END + len(tensor.shape)) & 0xFF])
        return out

    def _bin_attr_part(self, entry: BinEntry) -> bytes:
        out = bytearray()
        for i, attr in enumerate(entry.attrs[: len(self.attr_included)]):
            if self.attr_included[i]:
                out += b"/" + encode_attr_value(attr.value, self.attr_kinds[i])
        return bytes(out)

    def runtime_key(
        self,
        inputs: Sequence[Any],
        outputs: Sequence[Any],
        attrs: Sequence[Any],
        impl_mode: int,
        deterministic: bool,
    ) -> bytes | None:
        """The key of a call; None when a tensor's format fits no bin ("cannot find any bin")."""
        out = bytearray(b"1" if deterministic else b"0")
        out += b"/" + bytes([ord("0") + impl_index(impl_mode)]) + b"/"
        for args, positions in ((inputs, self.inputs), (outputs, self.outputs)):
            for arg, pos in zip(args, positions, strict=False):
                if arg is None:
                    continue
                members = arg if isinstance(arg, list | tuple) else [arg]
                if not members:
                    return None
                encoded = self._runtime_tensor(members[0], pos)
                if encoded is None:
                    return None
                out += encoded
                if isinstance(arg, list | tuple):
                    out.append((FORMAT_END + len(members)) & 0xFF)
        if not self.ignore_attrs:
            for i, value in enumerate(attrs[: len(self.attr_included)]):
                if self.attr_included[i]:
                    out += b"/" + encode_attr_value(value, self.attr_kinds[i])
        return bytes(out)

    @staticmethod
    def _runtime_tensor(tensor: Any, pos: Position) -> bytes | None:
        fmt = tensor.storage_format & 0xFF
        if pos.format_type is FormatType.ONLY_ND:
            fmt = FORMAT_ND
        elif fmt not in pos.formats:
            if pos.format_type is not FormatType.SUPPORT_ND:
                return None
            fmt = FORMAT_ND
        out = bytes([dtype_byte(tensor.dtype, pos.dtype_byte), fmt])
        if pos.rank_matters:
            out += bytes([(FORMAT_END + len(tensor.storage_shape)) & 0xFF])
        return out

    def current_impl_mode(self, requested: int) -> int:
        """GetCurrentImplMode: the requested mode when supported, else high precision, else high performance."""
        if requested != IMPL_DEFAULT and requested & self.supported_impl_modes:
            return requested
        if self.supported_impl_modes & IMPL_HIGH_PRECISION:
            return IMPL_HIGH_PRECISION
        return IMPL_HIGH_PERFORMANCE
