"""An op of one's own: a custom package through ASCEND_CUSTOM_OPP_PATH plus its bound L2 module."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from emulator import aclnn, process
from emulator.config import Settings
from emulator.kernels.build_opp import write_custom_package

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "custom_op"


def _square_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("square_op", EXAMPLE / "square_op.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_script_squares_and_cleans_up(tmp_path: Path) -> None:
    """examples/custom_op/run_square.py prints self * self, computed by the custom kernel."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    env["HOME"] = str(tmp_path)
    env["OPBASE_EMU_LEAK_CHECK"] = "1"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE / "run_square.py"), str(tmp_path / "opp")],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[[9.", "4.", "1.]", "[0.", "1.", "4.]]"]


def test_bound_op_checks_arguments_and_statuses(tmp_path: Path) -> None:
    """The bound phase 1 checks its C types and returns the op's own statuses."""
    square = _square_module()
    package = write_custom_package(tmp_path / "opp", square.OPS)
    ops = aclnn.bind_ops(square)
    assert sorted(ops) == ["aclnnSquare", "aclnnSquareGetWorkspaceSize"]
    with process.fresh(Settings(custom_opp_paths=(str(package),), log_dir=tmp_path / "log")):
        assert aclnn.aclnnInit(None) == 0
        ws, executor, ret = ops["aclnnSquareGetWorkspaceSize"](None, None)
        assert (ws, executor, ret) == (0, None, 161001)
        with pytest.raises(TypeError, match="self"):
            ops["aclnnSquareGetWorkspaceSize"]("x", None)
        x = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT16, [1], 0, aclnn.ACL_FORMAT_ND, [4], 1, 0x1000)
        y = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [4], 1, 0x2000)
        assert ops["aclnnSquareGetWorkspaceSize"](x, y)[2] == 161002
        assert aclnn.aclDestroyTensor(x) == 0 and aclnn.aclDestroyTensor(y) == 0
        assert aclnn.aclnnFinalize() == 0


def test_bound_op_runs_on_the_device(tmp_path: Path) -> None:
    """The custom kernel's binary comes from the custom package; results match numpy, nothing leaks."""
    from emulator import acl

    square = _square_module()
    package = write_custom_package(tmp_path / "opp", square.OPS)
    ops = aclnn.bind_ops(square)
    with process.fresh(Settings(custom_opp_paths=(str(package),), log_dir=tmp_path / "log")) as emu:
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        stream, _ = acl.rt.create_stream()
        assert aclnn.aclnnInit(None) == 0
        host = np.linspace(-2, 2, 1000, dtype=np.float32)
        result = np.empty_like(host)
        src, _ = acl.rt.malloc(host.nbytes, 0)
        dst, _ = acl.rt.malloc(host.nbytes, 0)
        assert acl.rt.memcpy(src, host.nbytes, host.ctypes.data, host.nbytes, 1) == 0
        x = aclnn.aclCreateTensor([1000], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [1000], 1, src)
        y = aclnn.aclCreateTensor([1000], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [1000], 1, dst)
        ws, executor, ret = ops["aclnnSquareGetWorkspaceSize"](x, y)
        assert ret == 0
        assert ops["aclnnSquare"](0, ws, executor, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert acl.rt.memcpy(result.ctypes.data, result.nbytes, dst, result.nbytes, 2) == 0
        np.testing.assert_array_equal(result, host * host)
        assert aclnn.aclDestroyTensor(x) == 0 and aclnn.aclDestroyTensor(y) == 0
        assert acl.rt.free(src) == 0 and acl.rt.free(dst) == 0
        assert acl.rt.destroy_stream(stream) == 0 and acl.rt.reset_device(0) == 0
        assert aclnn.aclnnFinalize() == 0 and acl.finalize() == 0
        assert [r.kind for r in emu.registry.live()] == []
