"""The UB the tiling structs state from their tile fields: every struct is accounted for, and no
legitimate tiling of an op states more than the op's own tiling declares (so the check the launch
makes from the tiles never refuses a tiling the op itself produced)."""

from __future__ import annotations

import ctypes
import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import emulator.kernels
from emulator import process
from emulator.engine.tiling import PlatformInfo, TensorDesc, TilingContext, TilingResult
from emulator.kernels.math.layer_norm import LayerNormTilingData, layer_norm_tiling
from emulator.kernels.math.rms_norm import rms_norm_tiling
from emulator.kernels.nn.rotary_position_embedding import rope_tiling
from emulator.meta.dtypes import DataType, type_size

ENGINE_DOC = Path(__file__).parents[2] / "docs" / "engine.md"
DTYPES = st.sampled_from([DataType.DT_FLOAT, DataType.DT_FLOAT16, DataType.DT_BF16])
DIM = st.integers(1, 4096)


def _tiling_structs() -> dict[str, type[ctypes.Structure]]:
    for info in pkgutil.walk_packages(emulator.kernels.__path__, "emulator.kernels."):
        importlib.import_module(info.name)
    found: dict[str, type[ctypes.Structure]] = {}
    pending: list[type[ctypes.Structure]] = [ctypes.Structure]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("emulator.") and sub.__name__.endswith("TilingData"):
                found[sub.__name__] = sub
    return found


def _ub_row() -> str:
    return next(line for line in ENGINE_DOC.read_text().splitlines() if line.startswith("| unified buffer per block"))


def test_every_tiling_struct_is_accounted_for_in_the_engine_doc() -> None:
    """Each op-library tiling struct either states its tiles' UB or is named in docs/engine.md as having none."""
    structs = _tiling_structs()
    assert len(structs) >= 14
    named = set(re.findall(r"`(\w+TilingData)`", _ub_row()))
    assert named == set(structs), "docs/engine.md's UB row names exactly the op library's tiling structs"


def _no_tile_names() -> set[str]:
    match = re.search(r"no tile fields[^|]*", _ub_row())
    assert match is not None
    return set(re.findall(r"`(\w+TilingData)`", match.group(0)))


def test_the_no_tile_list_holds_only_structs_without_ub_bytes() -> None:
    """The doc's list of structs without tile fields is exactly the structs that have no ``ub_bytes``."""
    structs = _tiling_structs()
    without = {name for name, struct in structs.items() if not hasattr(struct, "ub_bytes")}
    assert _no_tile_names() == without


def _platform() -> PlatformInfo:
    soc = process.current().runtime.soc
    return PlatformInfo(soc, soc.cube_core_cnt, soc.vector_core_cnt, soc.vector_core_cnt)


def _desc(shape: tuple[int, ...], dtype: int) -> TensorDesc:
    return TensorDesc(shape, shape, dtype, 2)


def _implied_within_declared(result: TilingResult, dtype: int) -> None:
    assert result.data is not None
    implied = result.data.ub_bytes([type_size(dtype)])  # type: ignore[attr-defined]
    assert 0 < implied <= result.ub_bytes_per_block


@settings(max_examples=40, deadline=None)
@given(rows=DIM, cols=st.integers(1, 40_000), dtype=DTYPES)
def test_rms_norm_tiles_stay_within_the_declaration(rows: int, cols: int, dtype: int) -> None:
    """RmsNorm's own tiling, every mode: the UB its tiles imply never exceeds what it declares."""
    x, gamma = _desc((rows, cols), dtype), _desc((cols,), dtype)
    rstd = _desc((rows, 1), DataType.DT_FLOAT)
    ctx = TilingContext("RmsNorm", (x, gamma), (x, rstd), (1e-6,), None, _platform())
    _implied_within_declared(rms_norm_tiling(ctx), dtype)


@settings(max_examples=40, deadline=None)
@given(rows=DIM, cols=st.integers(1, 40_000), dtype=DTYPES)
def test_layer_norm_tiles_stay_within_the_declaration(rows: int, cols: int, dtype: int) -> None:
    """LayerNorm's own tiling, whole rows and split N: the UB its tiles imply never exceeds what it declares."""
    x, mean = _desc((rows, cols), dtype), _desc((rows, 1), DataType.DT_FLOAT)
    ctx = TilingContext("LayerNormV4", (x, None, None), (x, mean, mean), (1e-5,), None, _platform())
    _implied_within_declared(layer_norm_tiling(ctx), dtype)


@settings(max_examples=40, deadline=None)
@given(b=st.integers(1, 8), s=st.integers(1, 512), n=st.integers(1, 16), d=st.integers(1, 448), dtype=DTYPES)
def test_rope_tiles_stay_within_the_declaration(b: int, s: int, n: int, d: int, dtype: int) -> None:
    """RotaryPositionEmbedding's own tiling: the UB its tiles imply never exceeds what it declares."""
    x, cos = _desc((b, s, n, 2 * d), dtype), _desc((1, s, 1, 2 * d), dtype)
    ctx = TilingContext("RotaryPositionEmbedding", (x, cos, cos), (x,), (0,), None, _platform())
    _implied_within_declared(rope_tiling(ctx), dtype)


@pytest.mark.parametrize("itemsizes", [[4], [2, 4], []])
def test_ub_bytes_uses_the_smallest_element_size(itemsizes: list[int]) -> None:
    """The stated UB is a floor: computed with the smallest element the kernel handles (1 byte when none)."""
    data = LayerNormTilingData(rowNum=4, colNum=100, blockFormer=4, ubFormer=2, ubFactorN=100)
    assert data.ub_bytes(itemsizes) == 2 * 100 * min(itemsizes, default=1) * 2 * 2
