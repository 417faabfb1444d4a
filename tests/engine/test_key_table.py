"""An op's key table in one step, and its bins made only when a call selects them: the same selection."""

from __future__ import annotations

import glob
from pathlib import Path

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.engine.kernel_mgr import _key_table
from emulator.engine.opp import read_binary_config
from emulator.engine.opp.discovery import shipped_opp_path

_CONFIGS = sorted(glob.glob(str(shipped_opp_path() / "built-in/op_impl/ai_core/tbe/kernel/config/*/*.json")))


@pytest.mark.parametrize("soc", sorted({Path(path).parent.name for path in _CONFIGS}))
def test_the_whole_table_has_each_bins_keys_as_one_bin_alone(soc: str) -> None:
    """Every shipped config: the table's keys are what ``build_keys`` gives each entry without the shared
    encodings, and each key is served by the first entry that has it."""
    for path in (p for p in _CONFIGS if Path(p).parent.name == soc):
        entries = [entry for entry in read_binary_config(Path(path)).bin_list if entry.usable]
        table = _key_table(entries)
        alone = [table.schema.build_keys(entry) for entry in entries]
        assert table.keys == alone, path
        first: dict[bytes, int] = {}
        for i, keys in enumerate(alone):
            for key in keys:
                first.setdefault(key, i)
        assert table.index == first, path
        assert len(table.duplicates) == sum(map(len, alone)) - len(first)


def _first_add() -> None:
    host = np.arange(16, dtype=np.float32)
    ptr, _ = acl.rt.malloc(host.nbytes, 0)
    acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, 1)
    x = aclnn.aclCreateTensor([16], 1, aclnn.ACL_FLOAT, None, 0, 2, [16], 1, ptr)
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, x)
    assert ret == 0
    assert aclnn.aclnnAdd(0, ws, executor, None) == 0
    acl.rt.synchronize_device()
    back = np.empty_like(host)
    acl.rt.memcpy(back.ctypes.data, back.nbytes, ptr, host.nbytes, 2)
    assert np.array_equal(back, host * 2)
    aclnn.aclDestroyTensor(x)
    aclnn.aclDestroyScalar(alpha)
    acl.rt.free(ptr)


def test_a_call_makes_only_the_bin_it_selects_and_finalize_releases_it() -> None:
    """Add's first call makes one of its bins; its TilingParse holder is the one aclnnFinalize releases."""
    with process.fresh():
        acl.rt.set_device(0)
        aclnn.aclnnInit(None)
        _first_add()
        kernel = process.current().aclnn.kernel_mgr.op_kernel("Add")
        (made,) = kernel.made_bins()
        assert made.entry.inputs[0].dtype in ("float", "float32")  # type: ignore[union-attr]
        assert made.holders  # its TilingParse ran
        assert process.current().aclnn.kernel_mgr.release_tiling_parse() == 1
        assert len(kernel.all_bins) == len(kernel.entries) == len(kernel.made_bins())
        assert set(map(id, kernel.bins.values())) <= set(map(id, kernel.all_bins))
        aclnn.aclnnFinalize()
        acl.rt.reset_device(0)
