"""Real C/C++ host programs against the SDK: headers, the official build line, statuses, one process."""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

from conftest import HERE, compile_program, environment, run

from emulator.sdk.build import STANDARD, Sdk


def test_tree_has_the_pinned_layout(sdk: Sdk) -> None:
    """include/ holds acl, aclnn and aclnnop headers; lib64/ answers to the standard library names."""
    for header in ("acl/acl.h", "acl/acl_base.h", "acl/acl_rt.h", "aclnn/acl_meta.h", "aclnn/aclnn_base.h",
                   "aclnnop/aclnn_add.h", "aclnnop/aclnn_reduce_sum.h"):  # fmt: skip
        assert (sdk.include / header).is_file(), header
    for library in STANDARD:
        assert (sdk.lib64 / library).is_file(), library
    ops = sorted(p.name for p in (sdk.include / "aclnnop").glob("aclnn_*.h"))
    assert ops and sorted(p.name for p in (sdk.include / "aclnnop" / "level2").glob("*.h")) == ops  # as installed
    assert (sdk.prefix / "set_env.sh").read_text().count("export ") >= 6
    smi = subprocess.run([str(sdk.prefix / "bin" / "npu-smi"), "info"], capture_output=True, text=True)
    assert smi.stdout.splitlines()[6].split()[2] == "910B2"  # row 7, column 3, as llama.cpp's CMake reads it


def test_every_header_compiles_as_c_and_cxx(sdk: Sdk, tmp_path: Path) -> None:
    """Each generated header compiles on its own, as C11 and as C++17."""
    headers = sorted(p.relative_to(sdk.include) for p in sdk.include.rglob("*.h"))
    source = tmp_path / "all.c"
    source.write_text("".join(f'#include "{h}"\n' for h in headers) + "int main(void) { return 0; }\n")
    for compiler, std in (("cc", "-std=c11"), ("g++", "-std=c++17")):
        args = [compiler, std, "-x", "c" if compiler == "cc" else "c++", "-Wall", "-Werror", "-fsyntax-only",
                f"-I{sdk.include}", f"-I{sdk.include / 'aclnn'}", str(source)]  # fmt: skip
        done = subprocess.run(args, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


REAL_VALUES = {  # a sample of the documented API's values: dtypes, formats, copy kinds, policies, statuses
    "ACL_FLOAT16": 1, "ACL_INT64": 9, "ACL_COMPLEX64": 16, "ACL_BF16": 27, "ACL_HIFLOAT8": 34,
    "ACL_FORMAT_ND": 2, "ACL_FORMAT_NC1HWC0": 3, "ACL_FORMAT_FRACTAL_NZ": 29,
    "ACL_MEMCPY_DEVICE_TO_HOST": 2, "ACL_MEMCPY_DEFAULT": 4, "ACL_MEM_MALLOC_NORMAL_ONLY": 2,
    "ACL_SUCCESS": 0, "ACL_ERROR_INVALID_PARAM": 100000, "ACL_ERROR_RT_MEMORY_ALLOCATION": 207001,
    "ACLNN_SUCCESS": 0, "ACLNN_ERR_PARAM_NULLPTR": 161001, "ACLNN_ERR_PARAM_INVALID": 161002,
    "ACLNN_ERR_INNER_NULLPTR": 561103,
}  # fmt: skip


def test_enums_and_statuses_have_the_real_values(sdk: Sdk, tmp_path: Path) -> None:
    """Checked by the compiler itself (static assertions), as C11 and as C++17."""
    source = tmp_path / "values.c"
    checks = "".join(f'STATIC_ASSERT({name} == {value}, "{name}");\n' for name, value in REAL_VALUES.items())
    source.write_text(
        '#include "acl/acl.h"\n#include "aclnn/acl_meta.h"\n#include "aclnn/aclnn_base.h"\n'
        "#ifdef __cplusplus\n#define STATIC_ASSERT static_assert\n#else\n#define STATIC_ASSERT _Static_assert\n#endif\n"
        f"{checks}int main(void) {{ return 0; }}\n"
    )
    for compiler, std, lang in (("cc", "-std=c11", "c"), ("g++", "-std=c++17", "c++")):
        includes = [f"-I{sdk.include}", f"-I{sdk.include / 'aclnn'}"]
        args = [compiler, std, "-x", lang, "-fsyntax-only", *includes, str(source)]
        done = subprocess.run(args, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_add_sample_compiles_with_the_official_line_and_prints_the_sum(sdk: Sdk, tmp_path: Path) -> None:
    """An aclnnAdd program in the official examples' style: out = self + 1.2 * other, and NEEDED are CANN's names."""
    program = compile_program(sdk, HERE / "add_sample.cpp", tmp_path / "add", "opapi_math", "ascendcl", "nnopbase")
    done = run(program, environment(sdk, tmp_path))
    assert done.returncode == 0, done.stderr
    values = [float(line.split()[-1]) for line in done.stdout.splitlines()]
    expected = [s + 1.2 * o for s, o in zip(range(8), [1, 1, 1, 2, 2, 2, 3, 3], strict=True)]
    assert len(values) == 8 and all(abs(a - b) < 1e-5 for a, b in zip(values, expected, strict=True))
    needed = subprocess.run(["readelf", "-d", str(program)], capture_output=True, text=True).stdout
    assert "[libascendcl.so]" in needed and "[libnnopbase.so]" in needed and "[libopapi_math.so]" in needed


STATUS_PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
int main(void) {
    int devices[2];
    printf("%d\n", aclrtGetDevice(NULL));                         /* null out-pointer: ACL_ERROR_INVALID_PARAM */
    printf("%d\n", aclnnAddGetWorkspaceSize(NULL, NULL, NULL, NULL, NULL, NULL)); /* 161001 */
    uint64_t ws = 7; aclOpExecutor *ex = (aclOpExecutor *)1;
    int failed = aclnnAddGetWorkspaceSize(NULL, NULL, NULL, NULL, &ws, &ex);
    printf("%d %llu %p\n", failed, (unsigned long long)ws, (void *)ex);
    void *p = NULL;
    printf("%d\n", aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST)); /* size 0: 100000 and a message */
    const char *msg = aclGetRecentErrMsg();
    printf("%s\n", msg && strstr(msg, "size") ? "message" : "no message");
    int set = aclrtSetDevice(0);
    int got = aclrtGetDevice(&devices[0]);
    printf("%d %d\n", set, got);
    printf("%d\n", devices[0]);
    static const char rodata[64] = "a constant: the loader maps it read-only";
    void *d = NULL;
    aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(d, 64, 0, 64);
    int wild = aclrtMemcpy(d, 64, (void *)16, 64, ACL_MEMCPY_HOST_TO_DEVICE);  /* the null page: 107000 */
    msg = aclGetRecentErrMsg();
    int readonly = aclrtMemcpy((void *)rodata, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST); /* not writable: 107000 */
    printf("%d %d %d %s\n", wild, readonly, aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE),
           msg && strstr(msg, "0x10") ? "message" : "no message");
    aclrtFree(d);
    return 0;
}
"""


def test_statuses_and_messages_cross_into_c(sdk: Sdk, tmp_path: Path) -> None:
    """Null out-pointers get the real status in C, failures their status and aclGetRecentErrMsg text; a copy's
    host pointer in the null page or in read-only memory is refused (107000) instead of crashing the program."""
    source = tmp_path / "status.c"
    source.write_text(STATUS_PROGRAM)
    program = compile_program(sdk, source, tmp_path / "status", "opapi", "ascendcl", "nnopbase", cxx=False)
    done = run(program, environment(sdk, tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "100000"
    assert lines[1] == "161001"
    assert lines[2].split()[:2] == ["161001", "7"]  # the out-values of a failed call are untouched
    assert lines[3] == "100000" and lines[4] == "message"
    assert lines[5] == "0 0" and lines[6] == "0"
    assert lines[7] == "107000 107000 0 message"  # host pointers are checked, never dereferenced blindly


LEAK_PROGRAM = r"""
#include "acl/acl.h"
#include "aclnn/acl_meta.h"
int main(void) {
    void *p = 0;
    aclInit(0);
    aclrtSetDevice(0);
    aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST);  /* never freed */
    return 0;
}
"""


def test_a_leaky_c_program_exits_23_with_the_report(sdk: Sdk, tmp_path: Path) -> None:
    """OPBASE_EMU_LEAK_CHECK=1: the exit work runs at the C program's exit, reports the buffer and exits 23."""
    source = tmp_path / "leak.c"
    source.write_text(LEAK_PROGRAM)
    program = compile_program(sdk, source, tmp_path / "leak", "ascendcl", "nnopbase", cxx=False)
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 23, done.stderr
    assert "device_memory" in done.stderr or "device memory" in done.stderr


def test_an_emulator_that_cannot_start_fails_every_call(sdk: Sdk, tmp_path: Path) -> None:
    """No silent success: with a broken Python environment every call returns its failure, said once on stderr."""
    source = tmp_path / "status.c"
    source.write_text(STATUS_PROGRAM)
    program = compile_program(sdk, source, tmp_path / "status", "opapi", "ascendcl", "nnopbase", cxx=False)
    env = environment(sdk, tmp_path, PYTHONHOME=str(tmp_path / "no-python-here"))
    done = run(program, env)
    assert done.returncode == 0, done.stderr  # no crash, no abort
    lines = done.stdout.splitlines()
    assert lines[5] != "0 0", "a call succeeded without an emulator"
    assert lines[5] == "100000 100000"
    assert done.stderr.count("opbase-emu: the emulator cannot start") == 1


def test_python_and_c_share_one_emulated_process(sdk: Sdk) -> None:
    """A Python process that loads the SDK's library with ctypes: its C calls act on the same process."""
    from emulator import acl

    lib = ctypes.CDLL(str(sdk.lib64 / "libascendcl.so"))
    assert acl.rt.set_device(0) == 0
    device = ctypes.c_int32(-1)
    assert lib.aclrtGetDevice(ctypes.byref(device)) == 0
    assert device.value == 0
    ptr = ctypes.c_void_p()
    assert lib.aclrtMalloc(ctypes.byref(ptr), ctypes.c_size_t(64), 0) == 0
    assert acl.rt.free(ptr.value) == 0  # allocated from C, freed from Python
    assert acl.rt.reset_device(0) == 0
