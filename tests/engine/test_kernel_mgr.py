"""KernelMgr: binary selection, TilingParse holders, ReleaseTilingParse, match keys, and the shipped package.

A call selects the binary whose build-time key equals the runtime key of its dtypes / formats /
attributes; a miss is collapsed to 561000 by ADD_TO_LAUNCHER_LIST_AICORE and the L2 returns 561103;
TilingParse runs once per (bin, aic, aiv) for the process, failures included; aclnnFinalize
releases the parsed compile info without re-arming the once-flag, so a later tiling uses released
state.
"""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from structlog.testing import capture_logs

from emulator import aclnn, process
from emulator.device.interface import BlockContext, KernelAttrs
from emulator.engine.keys import FORMAT_END, FOUR_MODES, KeySchema
from emulator.engine.opp import BinEntry
from emulator.engine.tiling import KernelSignature, PlatformInfo
from emulator.kernels import build_opp
from emulator.opdev import BinSpec, OpImpl, TilingContext, TilingResult

INNER = 561000
INNER_NULLPTR = 561103
RUNTIME = 361001
F32, F16, I32 = aclnn.ACL_FLOAT, aclnn.ACL_FLOAT16, aclnn.ACL_INT32
DT_FLOAT, DT_FLOAT16, FORMAT_ND = 0, 1, 2


class CountTiling(ctypes.Structure):
    _fields_ = [("total", ctypes.c_int64)]


@dataclass(frozen=True, slots=True)
class CopyAttrs(KernelAttrs):
    """The test op's baked-in input dtype."""

    dtype: np.dtype

    @classmethod
    def of(cls, signature: KernelSignature) -> CopyAttrs:
        return cls(signature.dtypes[0])


def copy_kernel(ctx: BlockContext[CopyAttrs], x: np.ndarray, y: np.ndarray, *workspace: np.ndarray) -> None:
    """y = x + 1 (in the dtype of x); one block."""
    dtype = ctx.attrs.dtype
    total = CountTiling.from_buffer_copy(ctx.tiling).total
    y.view(dtype)[:total] = x.view(dtype)[:total] + 1


class Recorder:
    """A TilingParse and a Tiling that record what they were called with."""

    def __init__(self, parse_result: Any = "parsed", workspace: tuple[int, ...] = ()) -> None:
        self.parses: list[tuple[Any, int, int]] = []
        self.tilings: list[Any] = []
        self.parse_result = parse_result
        self.workspace = workspace

    def parse(self, compile_info: Any, platform: PlatformInfo) -> Any:
        self.parses.append((compile_info, platform.aic_num, platform.aiv_num))
        return self.parse_result

    def tiling(self, ctx: TilingContext) -> TilingResult:
        self.tilings.append(ctx.compile_info)
        out = ctx.outputs[0]
        assert out is not None
        return TilingResult(0, 1, CountTiling(total=out.numel), workspace_sizes=self.workspace)


def recorded_op(recorder: Recorder, *, workspace: bool = False, dtypes: tuple[str, ...] = ("float", "float16")):
    kernel_json: dict[str, Any] = {"compileInfo": {"tile": 7}}
    if workspace:
        kernel_json["workspace"] = {"num": 1, "size": [-1], "type": [0]}
    return OpImpl(
        "EmuTestParse", copy_kernel, recorder.tiling, recorder.parse,
        bins=tuple(BinSpec((d,), (d,)) for d in dtypes), kernel_json=kernel_json, kernel_attrs=CopyAttrs.of,
    )  # fmt: skip


def call(npu: Any, phase1: Callable, phase2: Callable, n: int, dtype: int = F32, np_dtype: Any = np.float32):
    """Run the single-kernel L2 on a fresh [n] input; returns (phase-1 status, phase-2 status, out tensor)."""
    x = npu.tensor(np.arange(n, dtype=np_dtype), dtype)
    out = npu.tensor(np.zeros(n, np_dtype), dtype)
    ws, executor, ret = phase1(x.handle, out.handle)
    if ret != 0:
        return ret, None, out
    return ret, npu.run(phase2, ws, executor), out


# -- binary selection ------------------------------------------------------------------------------
@pytest.mark.parametrize(("dtype", "np_dtype", "name"), [(F16, np.float16, "float16"), (F32, np.float32, "float")])
def test_add_selects_the_bin_of_its_dtype(npu: Any, dtype: int, np_dtype: Any, name: str) -> None:
    """aclnnAdd on float16 tensors selects the float16 Add binary (float32 the float one) and runs it."""
    x = npu.tensor(np.arange(6, dtype=np_dtype), dtype)
    y = npu.tensor(np.full(6, 0.5, np_dtype), dtype)
    out = npu.tensor(np.zeros(6, np_dtype), dtype)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, aclnn.aclCreateScalar(1.0, F32), out.handle)
    assert ret == 0
    (launcher,) = executor.launchers
    entry = launcher.bin.entry
    assert [t.dtype for t in entry.inputs] == [name, name]
    assert [t.dtype for t in entry.outputs] == [name]
    assert launcher.bin.json_file_path.startswith("ascend910b/add/")
    assert npu.run(aclnn.aclnnAdd, ws, executor) == 0
    np.testing.assert_array_equal(out.storage(), np.arange(6, dtype=np_dtype) + np_dtype(0.5))


def test_a_dtype_without_a_bin_is_561000_then_561103(npu_with: Any) -> None:
    """A custom op with only a float bin: an int32 call fails selection (561000), the L2 returns 561103."""
    recorder = Recorder()
    impl = recorded_op(recorder, dtypes=("float",))
    npu = npu_with(impl)
    statuses: list[int] = []
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl, statuses)
    ret, _, _ = call(npu, phase1, phase2, 8, I32, np.int32)
    assert ret == INNER_NULLPTR
    assert statuses == [INNER]
    assert process.current().registry.count("executor") == 0  # the UniqueExecutor deleted it
    ret, status, out = call(npu, phase1, phase2, 8)
    assert (ret, status) == (0, 0)
    assert statuses == [INNER, 0]
    np.testing.assert_array_equal(out.storage(), np.arange(8, dtype=np.float32) + 1)


def test_an_op_without_any_package_entry_is_561000_then_561103(npu: Any) -> None:
    """An op type no package describes has no bins: the lookup fails (561000) and the L2 returns 561103."""
    impl = recorded_op(Recorder())
    statuses: list[int] = []
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl, statuses)
    ret, _, _ = call(npu, phase1, phase2, 8)
    assert ret == INNER_NULLPTR
    assert statuses == [INNER]


def test_duplicate_bin_keys_keep_the_first_bin(npu_with: Any) -> None:
    """Two binList entries with the same key: the first one serves it, with a duplicate-key warning."""
    spec = BinSpec(("float",), ("float",))
    impl = OpImpl("EmuTestParse", copy_kernel, Recorder().tiling, bins=(spec, spec), kernel_attrs=CopyAttrs.of)
    npu_with(impl)
    with capture_logs() as logs:
        kernel = process.current().aclnn.kernel_mgr.op_kernel("EmuTestParse")
    assert len(kernel.all_bins) == 2
    assert set(map(id, kernel.bins.values())) == {id(kernel.all_bins[0])}
    assert [e["event"] for e in logs].count("kernel.duplicate_key") == 2  # one per deterministic flag


# -- TilingParse ----------------------------------------------------------------------------------
def test_tiling_parse_runs_once_per_bin(npu_with: Any) -> None:
    """TilingParse runs once per bin for the thread's (aic, aiv), however many calls tile with it."""
    recorder = Recorder()
    impl = recorded_op(recorder)
    npu = npu_with(impl)
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl)
    for n in (8, 16, 24):
        assert call(npu, phase1, phase2, n)[:2] == (0, 0)
    soc = process.current().runtime.soc
    assert recorder.parses == [({"tile": 7}, soc.cube_core_cnt, soc.vector_core_cnt)]
    assert recorder.tilings == ["parsed"] * 3  # tiling sees the parsed compile info
    for n in (8, 16):
        assert call(npu, phase1, phase2, n, F16, np.float16)[:2] == (0, 0)
    assert len(recorder.parses) == 2  # the float16 bin got its own parse


def test_tiling_parse_runs_once_per_core_configuration(npu_with: Any) -> None:
    """Each (aic, aiv) pair of a bin gets its own holder, parsed once."""
    recorder = Recorder()
    impl = recorded_op(recorder, dtypes=("float",))
    npu_with(impl)
    soc = process.current().runtime.soc
    (kernel_bin,) = process.current().aclnn.kernel_mgr.op_kernel("EmuTestParse").all_bins
    kernel_bin.json_load(process.current().aclnn.kernel_mgr.packages)
    for aic, aiv in ((24, 48), (20, 40), (24, 48), (20, 40), (1, 2)):
        holder = kernel_bin.holder(impl, PlatformInfo(soc, aic, aiv, aiv))
        assert holder is not None and holder.compile_info == "parsed"
    assert [(a, v) for _, a, v in recorder.parses] == [(24, 48), (20, 40), (1, 2)]
    assert set(kernel_bin.holders) == {(24, 48), (20, 40), (1, 2)}


def test_tiling_runs_in_phase1_when_the_bin_has_a_workspace(npu_with: Any) -> None:
    """A bin whose kernel JSON declares a workspace is tiled in phase 1; its scratch sizes join the workspace."""
    recorder = Recorder(workspace=(100,))
    impl = recorded_op(recorder, workspace=True, dtypes=("float",))
    npu = npu_with(impl)
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl)
    x = npu.tensor(np.arange(8, dtype=np.float32), F32)
    out = npu.tensor(np.zeros(8, np.float32), F32)
    ws, executor, ret = phase1(x.handle, out.handle)
    assert (ws, ret) == (512, 0)  # align(100) = 512
    assert len(recorder.tilings) == 1
    assert npu.run(phase2, ws, executor) == 0
    assert len(recorder.tilings) == 1  # phase 2 reused the phase-1 result
    np.testing.assert_array_equal(out.storage(), np.arange(8, dtype=np.float32) + 1)


def test_failed_tiling_parse_is_361001_once(npu_with: Any) -> None:
    """A TilingParse failure at launch is 361001; the once-flag is spent, so later calls run without a holder."""
    recorder = Recorder(parse_result=None)
    impl = recorded_op(recorder, dtypes=("float",))
    npu = npu_with(impl)
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl)
    assert call(npu, phase1, phase2, 8)[:2] == (0, RUNTIME)
    ret, status, out = call(npu, phase1, phase2, 16)
    assert (ret, status) == (0, 0)
    assert len(recorder.parses) == 1
    assert recorder.tilings == [None]
    np.testing.assert_array_equal(out.storage(), np.arange(16, dtype=np.float32) + 1)


def test_failed_tiling_parse_in_phase1_is_561103(npu_with: Any) -> None:
    """A TilingParse failure while tiling in phase 1 is collapsed to 561000; the L2 returns 561103."""
    recorder = Recorder(parse_result=None)
    impl = recorded_op(recorder, workspace=True, dtypes=("float",))
    npu = npu_with(impl)
    statuses: list[int] = []
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl, statuses)
    assert call(npu, phase1, phase2, 8)[0] == INNER_NULLPTR
    assert statuses == [INNER]


def test_finalize_releases_tiling_parse_for_good(npu_with: Any) -> None:
    """aclnnFinalize releases every holder; a later tiling is reported as use after finalize, never re-parsed."""
    recorder = Recorder()
    impl = recorded_op(recorder, dtypes=("float",))
    npu = npu_with(impl)
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestParse", impl)
    assert call(npu, phase1, phase2, 8)[:2] == (0, 0)
    (kernel_bin,) = process.current().aclnn.kernel_mgr.op_kernel("EmuTestParse").all_bins
    (holder,) = kernel_bin.holders.values()
    assert holder is not None and not holder.released
    assert aclnn.aclnnFinalize() == 0
    assert holder.released and holder.compile_info is None
    diagnostics = process.current().diagnostics
    assert diagnostics == []
    ret, status, out = call(npu, phase1, phase2, 16)  # a new shape: no cache hit, tiling runs
    assert (ret, status) == (0, 0)
    assert len(recorder.parses) == 1
    assert recorder.tilings == ["parsed", None]
    assert len(diagnostics) == 1
    assert "released by aclnnFinalize" in diagnostics[0].message
    np.testing.assert_array_equal(out.storage(), np.arange(16, dtype=np.float32) + 1)


# -- match keys (KeySchema) -----------------------------------------------------------------------
def entry(
    inputs: list[Any] | None = None,
    outputs: list[Any] | None = None,
    *,
    path: str = "ascend910b/foo/Foo_1.json",
    attrs: list[dict[str, Any]] | None = None,
    **fields: Any,
) -> BinEntry:
    """A binList entry; a tensor is a dtype string or a (dtype, shape) pair."""

    def tensor(spec: Any) -> dict[str, Any]:
        dtype, shape = spec if isinstance(spec, tuple) else (spec, [-1])
        return {"dtype": dtype, "format": "ND", "shape": shape}

    data = {
        "binInfo": {"jsonFilePath": path},
        "inputs": [tensor(s) for s in (inputs or ["float"])],
        "outputs": [tensor(s) for s in (outputs or ["float"])],
        "attrs": attrs or [],
        **fields,
    }
    return BinEntry.from_json(data)


def context_parts(keys: list[bytes]) -> set[bytes]:
    return {k[:4] for k in keys}


@pytest.mark.parametrize(
    ("path", "impl_mode", "indices"),
    [
        ("ascend910b/foo/Foo_high_performance.json", "high_precision", {1}),  # the path wins
        ("ascend910b/foo/Foo_high_precision.json", None, {2}),
        ("ascend910b/foo/Foo_support_out_of_bound_index.json", None, {4}),
        ("ascend910b/foo/Foo_1.json", FOUR_MODES, {1, 2, 5, 6}),
        ("ascend910b/foo/Foo_1.json", "keep_fp16", {7}),
        ("ascend910b/foo/Foo_1.json", "high_performance", {1}),
        ("ascend910b/foo/Foo_1.json", "no_such_mode", {2}),
        ("ascend910b/foo/Foo_1.json", None, {2}),
    ],
)
def test_impl_mode_index_of_a_bin(path: str, impl_mode: str | None, indices: set[int]) -> None:
    """The impl-mode index comes from jsonFilePath first, then implMode; unknown or missing is high precision."""
    e = entry(path=path, implMode=impl_mode, deterministic="true")
    keys = KeySchema.from_bins([e]).build_keys(e)
    assert context_parts(keys) == {b"1/" + bytes([ord("0") + i]) + b"/" for i in indices}


@pytest.mark.parametrize(("deterministic", "flags"), [("true", {b"1"}), ("false", {b"0"}), ("ignore", {b"1", b"0"})])
def test_deterministic_flags_of_a_bin(deterministic: str, flags: set[bytes]) -> None:
    """deterministic "true" gives a '1' key, "false" a '0' key, anything else both."""
    e = entry(implMode="high_performance", deterministic=deterministic)
    keys = KeySchema.from_bins([e]).build_keys(e)
    assert context_parts(keys) == {f + b"/1/" for f in flags}


def test_missing_deterministic_gives_both_flags() -> None:
    """An entry without "deterministic" serves both deterministic settings."""
    e = entry(implMode="high_performance")
    assert context_parts(KeySchema.from_bins([e]).build_keys(e)) == {b"1/1/", b"0/1/"}


def test_tensor_part_is_dtype_and_format_bytes() -> None:
    """Each tensor contributes its GE dtype byte and format byte, inputs then outputs."""
    e = entry(["float16", "float"], ["float"], implMode="high_performance", deterministic="false")
    assert KeySchema.from_bins([e]).build_keys(e) == [b"0/1/" + bytes([DT_FLOAT16, FORMAT_ND, DT_FLOAT, FORMAT_ND,
                                                                       DT_FLOAT, FORMAT_ND])]  # fmt: skip


def test_dtype_byte_mode_uses_the_type_size() -> None:
    """With dtype_match_mode DtypeByte the dtype byte is the type's size."""
    data = {"dtype": "float16", "format": "ND", "shape": [-1], "dtype_match_mode": "DtypeByte"}
    e = BinEntry.from_json(
        {"binInfo": {"jsonFilePath": "a/b.json"}, "inputs": [data], "outputs": [data], "deterministic": "false"}
    )
    assert KeySchema.from_bins([e]).build_keys(e) == [b"0/2/" + bytes([2, FORMAT_ND, 2, FORMAT_ND])]


def test_rank_byte_only_when_bins_disagree_on_input_rank() -> None:
    """Bins with input ranks 1 and 2 get a rank byte on that input (never on outputs); a [-2] bin turns it off."""
    one = entry([("float", [-1])], [("float", [-1])], deterministic="false", implMode="high_performance")
    two = entry([("float", [-1, -1])], [("float", [-1, -1, -1])], deterministic="false", implMode="high_performance")
    schema = KeySchema.from_bins([one, two])
    assert schema.build_keys(one) == [b"0/1/" + bytes([DT_FLOAT, FORMAT_ND, FORMAT_END + 1, DT_FLOAT, FORMAT_ND])]
    assert schema.build_keys(two) == [b"0/1/" + bytes([DT_FLOAT, FORMAT_ND, FORMAT_END + 2, DT_FLOAT, FORMAT_ND])]
    runtime = [SimpleNamespace(dtype=DT_FLOAT, storage_format=FORMAT_ND, storage_shape=(3, 4))]
    out = [SimpleNamespace(dtype=DT_FLOAT, storage_format=FORMAT_ND, storage_shape=(12,))]
    assert schema.runtime_key(runtime, out, [], 0x2, False) == schema.build_keys(two)[0]
    any_rank = entry([("float", [-2])], deterministic="false", implMode="high_performance")
    schema = KeySchema.from_bins([one, two, any_rank])
    assert schema.build_keys(one) == [b"0/1/" + bytes([DT_FLOAT, FORMAT_ND, DT_FLOAT, FORMAT_ND])]


def test_same_rank_bins_get_no_rank_byte() -> None:
    """Bins that agree on every input rank produce keys without rank bytes."""
    a = entry([("float", [-1, -1])], deterministic="false", implMode="high_performance")
    b = entry([("float16", [-1, -1])], ["float16"], deterministic="false", implMode="high_performance")
    schema = KeySchema.from_bins([a, b])
    assert schema.build_keys(b) == [b"0/1/" + bytes([DT_FLOAT16, FORMAT_ND, DT_FLOAT16, FORMAT_ND])]


def attr_entry(value: Any, dtype: str = "int", **fields: Any) -> BinEntry:
    return entry(attrs=[{"name": "axis", "dtype": dtype, "value": value}], deterministic="false",
                 implMode="high_performance", **fields)  # fmt: skip


TENSORS = b"0/1/" + bytes([DT_FLOAT, FORMAT_ND, DT_FLOAT, FORMAT_ND])


def test_attrs_are_keyed_only_when_bins_disagree() -> None:
    """An int attribute with different values in two bins is part of the key (8 bytes); equal values are not."""
    one, two = attr_entry(1), attr_entry(2)
    schema = KeySchema.from_bins([one, two])
    assert schema.build_keys(one) == [TENSORS + b"/" + struct.pack("<q", 1)]
    assert schema.build_keys(two) == [TENSORS + b"/" + struct.pack("<q", 2)]
    tensors = [SimpleNamespace(dtype=DT_FLOAT, storage_format=FORMAT_ND, storage_shape=(4,))]
    assert schema.runtime_key(tensors, tensors, [2], 0x2, False) == schema.build_keys(two)[0]
    same = KeySchema.from_bins([attr_entry(1), attr_entry(1)])
    assert same.build_keys(one) == [TENSORS]
    assert same.runtime_key(tensors, tensors, [5], 0x2, False) == TENSORS


@pytest.mark.parametrize(
    ("values", "dtype", "keyed"),
    [
        ((1, None), "int", False),  # a single concrete value against null: still "support all"
        ((1, "ALL"), "int", False),
        ((True, True), "bool", True),  # any bool value is keyed
        (([1, 2], [3, 4]), "list_int", False),  # lists of one length
        (([1, 2], [3, 4, 5]), "list_int", True),  # lists of different lengths
        ((0.5, 0.25), "float", True),
    ],
)
def test_attr_support_all_analysis(values: tuple[Any, Any], dtype: str, keyed: bool) -> None:
    """Only bool values, differing numbers and differing list lengths make an attribute part of the key."""
    bins = [attr_entry(v, dtype) for v in values]
    assert KeySchema.from_bins(bins).attr_included == [keyed]


def test_float_attrs_are_compared_as_float32() -> None:
    """Two float values equal as float32 (but not as double) leave the attribute "support all"."""
    bins = [attr_entry(0.1, "float"), attr_entry(0.1 + 1e-12, "float")]
    assert np.float32(0.1) == np.float32(0.1 + 1e-12)
    assert KeySchema.from_bins(bins).attr_included == [False]


def test_ignore_attrs_mode_drops_attributes() -> None:
    """When every entry has simplifiedKeyMode 0 the attributes never enter the keys."""
    one, two = attr_entry(1, simplifiedKeyMode=0), attr_entry(2, simplifiedKeyMode=0)
    schema = KeySchema.from_bins([one, two])
    assert schema.ignore_attrs
    assert schema.build_keys(one) == schema.build_keys(two) == [TENSORS]


def test_current_impl_mode() -> None:
    """DEFAULT asks for high precision when a bin serves it, else high performance; a supported mode is kept."""
    perf = KeySchema.from_bins([e := entry(implMode="high_performance")])
    perf.build_keys(e)
    assert perf.current_impl_mode(0x1) == 0x2
    both = KeySchema.from_bins([a := entry(implMode="high_performance"), b := entry(implMode="high_precision")])
    both.build_keys(a)
    both.build_keys(b)
    assert both.current_impl_mode(0x1) == 0x4
    assert both.current_impl_mode(0x2) == 0x2
    assert both.current_impl_mode(0x20) == 0x4  # not served: high precision


# -- the shipped package --------------------------------------------------------------------------
def test_shipped_package_matches_the_op_modules() -> None:
    """kernels/opp is exactly what kernels.build_opp.render() writes from the op modules (no drift)."""
    files = build_opp.render()
    on_disk = {path.relative_to(build_opp.ROOT) for path in Path(build_opp.ROOT).rglob("*") if path.is_file()}
    assert sorted(map(str, on_disk - set(files))) == [], "stale files: run python -m emulator.kernels.build_opp"
    assert sorted(map(str, set(files) - on_disk)) == [], "missing files: run python -m emulator.kernels.build_opp"
    stale = [str(rel) for rel, text in files.items() if (build_opp.ROOT / rel).read_text() != text]
    assert stale == [], "files differ: run python -m emulator.kernels.build_opp"
