"""One import name: device/, kernels/ and configs/ install inside ``emulator`` and cannot be shadowed."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import emulator

REPO = Path(__file__).resolve().parents[2]
ROOTS = {
    "emulator": "emulator",
    "emulator.device": "device",
    "emulator.kernels": "kernels",
    "emulator.configs": "configs",
}

USER_SCRIPT = """
import numpy as np
from emulator import acl, aclnn

assert acl.init() == 0 and acl.rt.set_device(0) == 0
stream, ret = acl.rt.create_stream()
assert aclnn.aclnnInit(None) == 0
host = np.arange(6, dtype=np.float32)
ptrs = []
tensors = []
for _ in range(3):
    ptr, ret = acl.rt.malloc(host.nbytes, 0)
    assert acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, 1) == 0
    ptrs.append(ptr)
    tensors.append(aclnn.aclCreateTensor([6], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [6], 1, ptr))
alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2])
assert ret == 0, acl.get_recent_err_msg()
assert aclnn.aclnnAdd(0, ws, executor, stream) == 0
assert acl.rt.synchronize_stream(stream) == 0
out = np.empty_like(host)
assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptrs[2], out.nbytes, 2) == 0
print(out.tolist())
"""


def test_every_package_folder_is_installed() -> None:
    """Every folder with an __init__.py under the four roots is in pyproject's package list."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == ROOTS
    found = set()
    for name, folder in ROOTS.items():
        for init in (REPO / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(REPO / folder).parts
            found.add(".".join((name, *relative)))
    assert found == set(config["packages"])


def test_subpackages_live_under_emulator() -> None:
    """The shipped subpackages import as parts of the one namespace, from the repository's folders."""
    import emulator.configs
    import emulator.device
    import emulator.kernels

    assert Path(emulator.device.__file__).parent == REPO / "device"
    assert Path(emulator.kernels.__file__).parent == REPO / "kernels"
    assert Path(emulator.configs.__file__).parent == REPO / "configs"
    assert Path(emulator.__file__).parent == REPO / "emulator"
    assert "device" not in sys.modules and "kernels" not in sys.modules and "configs" not in sys.modules


def test_user_modules_named_device_kernels_configs_shadow_nothing(tmp_path: Path) -> None:
    """A user's device.py, kernels/ package and configs/ folder in the working directory break nothing."""
    (tmp_path / "device.py").write_text("raise SystemExit('the user device.py was imported')\n")
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "__init__.py").write_text("raise SystemExit('the user kernels package was imported')\n")
    (tmp_path / "configs" / "socs").mkdir(parents=True)
    (tmp_path / "configs" / "__init__.py").write_text("raise SystemExit('the user configs package was imported')\n")
    (tmp_path / "configs" / "socs" / "Ascend910B2.json").write_text("{not json")
    (tmp_path / "script.py").write_text(USER_SCRIPT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    env["PYTHONPATH"] = str(tmp_path)  # the user's folder first on the path, as `python script.py` puts it
    env["HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "script.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[0.0, 2.0, 4.0, 6.0, 8.0, 10.0]"


def test_emulator_package_is_the_repository_one() -> None:
    """The tests run against this checkout's emulator (an editable install), not a stale copy."""
    assert Path(emulator.__file__).resolve().parent == REPO / "emulator"


CANONICAL = REPO.parent / "shared" / "examples" / "lifecycle_add.py"


@pytest.mark.skipif(not CANONICAL.exists(), reason="the steering checkout is not beside this one")
def test_canonical_lifecycle_script_runs_as_written(tmp_path: Path) -> None:
    """The steering checkout's canonical two-phase Add script runs unmodified and prints x + 2 * y."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    env["HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, str(CANONICAL)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[[1.", "2.", "3.", "4.]", "[5.", "6.", "7.", "8.]]"]
