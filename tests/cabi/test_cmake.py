"""A sample built with CMake + make, the SDK found through the environment set_env.sh exports."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import HERE, environment, run
from test_samples import GOLDENS, printed

from emulator.sdk.build import Sdk


def test_a_sample_builds_with_cmake_and_make(sdk: Sdk, tmp_path: Path) -> None:
    """cmake configures against $ASCEND_HOME_PATH, make links the standard names, the program prints the golden."""
    for tool in ("cmake", "make"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed: the CMake flow needs cmake and make")
    golden = GOLDENS["reduce_sum"]
    env = environment(sdk, tmp_path)
    build = tmp_path / "build"
    configure = ["cmake", "-S", str(HERE / "cmake"), "-B", str(build), f"-DSAMPLE_SOURCE={golden.source}"]
    for step in (configure, ["make", "-C", str(build)]):
        done = subprocess.run(step, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    done = run(build / "opapi_test", env)
    assert done.returncode == 0, done.stderr
    np.testing.assert_allclose(printed(done.stdout)["result"], golden.values["result"].ravel(), rtol=golden.rtol)
    needed = subprocess.run(["readelf", "-d", str(build / "opapi_test")], capture_output=True, text=True).stdout
    assert "[libopapi_math.so]" in needed and "[libascendcl.so]" in needed


def test_cmake_without_the_environment_says_what_to_do(sdk: Sdk, tmp_path: Path) -> None:
    """Configured without set_env.sh's variables, the project stops with the one sentence the user needs."""
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed: the CMake flow needs it")
    env = {k: v for k, v in environment(sdk, tmp_path).items() if not k.startswith("ASCEND_")}
    done = subprocess.run(["cmake", "-S", str(HERE / "cmake"), "-B", str(tmp_path / "b")], env=env,
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode != 0
    assert "source the SDK's set_env.sh" in done.stderr
