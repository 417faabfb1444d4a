"""Binary-config JSON (``kernel/config/<socdir>/<file>.json``) and the file names opbase looks for.

Emulates ``KernelMgr``'s reading of a binary-config file as
pydantic models. Field names are snake_case with the real JSON names as aliases, so a model prints
with the names a learner sees in the file (``model_dump(by_alias=True)``).

Fidelity notes:
- Fields the real reader ignores (``ori_format``, ``ori_shape``, ``staticKey``…) are kept
  (``extra="allow"``), never rejected.
- A dtype or format string outside the accepted lists does not refuse the file: the real reader fails only
  the key of that one bin (561111 / 561110). ``BinTensor.ge_dtype`` / ``ge_format`` give ``None``
  for such strings so the key builder can do the same.
- ``{"type": "null"}`` and ``null`` both mean "absent tensor" and are read as ``None``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from emulator.engine.opp.jsonio import JsonRefused, read_json_object

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


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=True)


class BinTensor(_Loose):
    """One tensor of a ``binList`` entry."""

    name: str | None = None
    index: int | None = None
    dtype: str | None = None
    format: str | None = None
    param_type: str | None = Field(default=None, alias="paramType")
    shape: list[int] | None = None
    format_match_mode: str | None = None
    dtype_match_mode: str | None = None

    @property
    def ge_dtype(self) -> str | None:
        """The GE dtype name, or ``None`` where the real reader reports 561111."""
        return DTYPE_STRINGS.get(self.dtype) if self.dtype is not None else None

    @property
    def ge_format(self) -> str | None:
        """The GE format name, or ``None`` where the real reader reports 561110."""
        return FORMAT_STRINGS.get(self.format) if self.format is not None else None


def _null_slot(value: Any) -> Any:
    return None if isinstance(value, dict) and value.get("type") == "null" else value


TensorSlot = Annotated[BinTensor | list[BinTensor] | None, BeforeValidator(_null_slot)]
"""A tensor position: a tensor, a list of tensors (dynamic input), or ``None`` (absent optional)."""


class BinAttr(_Loose):
    """One attribute of a ``binList`` entry; ``null``, ``"ALL"`` and ``[]`` values mean "any value"."""

    name: str | None = None
    dtype: str | None = None
    value: Any = None


class BinInfo(_Loose):
    json_file_path: str | None = Field(default=None, alias="jsonFilePath")


class BinEntry(_Loose):
    """One pre-compiled binary and the dtype/format/attr combination it serves."""

    bin_info: BinInfo = Field(default_factory=BinInfo, alias="binInfo")
    inputs: list[TensorSlot] = Field(default_factory=list)
    outputs: list[TensorSlot] = Field(default_factory=list)
    attrs: list[BinAttr] = Field(default_factory=list)
    deterministic: Any = None
    impl_mode: str | None = Field(default=None, alias="implMode")
    int64_mode: Any = Field(default=None, alias="int64Mode")
    static_key: str | None = Field(default=None, alias="staticKey")
    simplified_key_mode: int | None = Field(default=None, alias="simplifiedKeyMode")
    simplified_key: list[str] | None = Field(default=None, alias="simplifiedKey")
    optional_input_mode: str | None = Field(default=None, alias="optionalInputMode")
    dynamic_param_mode: str | None = Field(default=None, alias="dynamicParamMode")
    op_mode: str | None = Field(default=None, alias="opMode")

    @property
    def usable(self) -> bool:
        """Whether the real reader keeps this entry (it skips entries without a ``.json`` path)."""
        return self.bin_info.json_file_path is not None and ".json" in self.bin_info.json_file_path


class BinaryConfig(_Loose):
    """A whole binary-config file: ``{"binList": [entry, ...]}`` (a missing ``binList`` is a load error)."""

    bin_list: list[BinEntry] = Field(alias="binList")


def read_binary_config(path: Path, *, root: Path | None = None) -> BinaryConfig:
    """Parse and validate one binary-config file; raise ``JsonRefused`` when the real reader would fail."""
    data = read_json_object(path, root=root)
    try:
        return BinaryConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise JsonRefused(path, f"invalid binary config at {where or '<top>'}: {first['msg']}") from None


def with_repo_folder(config: BinaryConfig, repo: str) -> BinaryConfig:
    """Insert ``<repo>/`` after the first ``/`` of each ``jsonFilePath`` not already naming the repo.

    A path without ``/`` gets the folder in front (the C++ ``find`` returns npos, and npos + 1 is 0).
    """
    entries = [_entry_in_repo(entry, repo) for entry in config.bin_list]
    return config.model_copy(update={"bin_list": entries})


def _entry_in_repo(entry: BinEntry, repo: str) -> BinEntry:
    path = entry.bin_info.json_file_path
    if path is None or repo in path:
        return entry
    cut = path.find("/") + 1
    info = entry.bin_info.model_copy(update={"json_file_path": f"{path[:cut]}{repo}/{path[cut:]}"})
    return entry.model_copy(update={"bin_info": info})


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
