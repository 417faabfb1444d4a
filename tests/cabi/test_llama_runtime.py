"""llama.cpp's CANN backend's runtime needs from C++: a VMM pool, peer copies between two devices, stream capture."""

from __future__ import annotations

from pathlib import Path

from conftest import HERE, compile_program, environment, run
from test_samples import printed

from emulator.sdk.build import Sdk


def test_vmm_pool_peer_copy_and_capture_from_cpp(sdk: Sdk, tmp_path: Path) -> None:
    """The program's results are numpy's, its refusals the real statuses, and nothing leaks."""
    program = compile_program(sdk, HERE / "programs" / "llama_runtime.cpp", tmp_path / "llama", "opapi", "ascendcl",
                              "nnopbase")  # fmt: skip
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for expected in (
        "soc Ascend910B2",
        "granularity 2097152",
        "pool charged 4194304",
        "status aclrtMapMem-overlap 107000",
        "status aclrtReleaseMemAddress-mapped 107000",
        "can access peer 1",
        "status aclrtMemcpy-no-peer 107000",
        "capture status 1",
        "status aclrtMemcpy-global-capture 107030",
        "exchanged 0",
        "status aclrtSynchronizeStream-capturing 107027",
        "same model 1",
        "status aclmdlRIDestroy-again 107000",
    ):
        assert expected in lines, (expected, done.stdout)
    values = printed(done.stdout)
    assert values["vmm"] == [2.0, 3.0, 5.0, 6.0, 9.0, 10.0, 15.0, 16.0]
    assert values["peer"] == [2.0, 4.0, 6.0, 8.0]
    assert values["replay"] == [1.0, 2.0, 3.0]
    assert "no leaks" in done.stderr
