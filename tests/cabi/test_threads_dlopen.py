"""C programs that use the SDK as real hosts do: two threads, dlopen + dlsym (torch_npu), every kind of out-value."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import HERE, compile_program, environment, run
from test_samples import printed

from emulator.sdk.build import Sdk

PROGRAMS = HERE / "programs"


def test_two_c_threads_each_with_its_own_stream_and_error_message(sdk: Sdk, tmp_path: Path) -> None:
    """Two pthreads: malloc / memcpy / free and a two-phase Add on their own streams, 20 rounds each, all
    right; each thread's aclGetRecentErrMsg is its own failure's (read once, then cleared), and nothing leaks.

    Every call from a C thread must see the per-thread state its earlier calls set (aclrtSetDevice's
    context, the recent error): the thread keeps one Python thread state for its whole life.
    """
    program = compile_program(sdk, PROGRAMS / "two_threads.c", tmp_path / "threads", "opapi", "ascendcl",
                              "nnopbase", "pthread", cxx=False)  # fmt: skip
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for thread in (0, 1):
        assert f"thread {thread} failures 0 bad_rounds 0 cleared 1" in lines, done.stdout
    values = printed(done.stdout)
    assert values["thread0"] == [i + 1 * (i % 3) for i in range(8)]
    assert values["thread1"] == [100 + i + 2 * (i % 3) for i in range(8)]
    messages = {line.split(":", 1)[0]: line.split(":", 1)[1] for line in lines if line.startswith("message ")}
    assert "size is invalid" in messages["message 0"] and "null pointer" not in messages["message 0"]
    assert "self not to be a null pointer" in messages["message 1"] and "size" not in messages["message 1"]
    assert "no leaks" in done.stderr


def test_dlopen_and_dlsym_find_the_runtime_and_the_op_api(sdk: Sdk, tmp_path: Path) -> None:
    """A program linked against none of the SDK: dlopen(libascendcl.so, libnnopbase.so, libopapi.so),
    dlsym every function (an op the library lacks is NULL), then Add runs and its result is right."""
    program = tmp_path / "dlopen"
    args = ["cc", "-std=gnu11", str(PROGRAMS / "dlopen_add.c"), f"-I{sdk.include}", f"-I{sdk.include / 'aclnn'}",
            "-ldl", "-o", str(program)]  # fmt: skip
    built = subprocess.run(args, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    needed = subprocess.run(["readelf", "-d", str(program)], capture_output=True, text=True).stdout
    assert "libascendcl" not in needed and "libopapi" not in needed
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == ["aclnnNoSuchOpGetWorkspaceSize absent", "aclnnAddGetWorkspaceSize 0", "aclnnAdd 0",
                         "aclrtSynchronizeStream 0"]  # fmt: skip
    expected = [s + 3.0 * o for s, o in zip([1, 2, 3, 4, 5, 6], [0.5, 0.5, 1, 1, 2, 2], strict=True)]
    assert printed(done.stdout)["result"] == expected
    assert "no leaks" in done.stderr


def test_every_kind_of_out_value_reaches_c(sdk: Sdk, tmp_path: Path) -> None:
    """The bridge writes each kind of out-parameter through its pointer: new int64 arrays and their counts
    (freed by the caller with free()), offsets, dtype and format enums, a raw address, container sizes,
    version numbers, memory sizes, an elapsed-time float and a device count; the SoC name comes back."""
    program = compile_program(sdk, PROGRAMS / "out_values.c", tmp_path / "outs", "ascendcl", "nnopbase", cxx=False)
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "view 0 2 3 4",
        "strides 0 1 2 6",
        "storage 0 24",
        "offset 0 5",
        "dtype 0 1",  # ACL_FLOAT16
        "format 0 0",  # ACL_FORMAT_NCHW
        "addr 0 1",
        "bools 0 3",
        "floats 0 2",
        "tensors 0 2",
        "scalars 0 1",
        "version 0 1.17.0",
        "soc Ascend910B2",
        "memory 0 1",
        "elapsed 0 1",
        "devices 0 8",
    ]
    assert "no leaks" in done.stderr
