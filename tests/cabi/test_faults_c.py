"""Fault injection from C: OPBASE_EMU_FAULTS reaches a C program, and one count spans C and Python callers."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

from conftest import compile_program, environment, run

from emulator import acl, faults
from emulator.sdk.build import Sdk

RESULT = re.compile(r"^(\d+( ptr| null)?|nullptr|tensor)$")
FAULT_PROGRAM = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "aclnn/acl_meta.h"
int main(void) {
    void *p[3] = {0, 0, 0};
    int64_t dims[1] = {4};
    printf("%d\n", (int)aclInit(0));
    printf("%d\n", (int)aclrtSetDevice(0));
    for (int i = 0; i < 3; ++i) {
        aclError ret = aclrtMalloc(&p[i], 64, ACL_MEM_MALLOC_HUGE_FIRST);
        printf("%d %s\n", (int)ret, p[i] ? "ptr" : "null");
        if (ret != ACL_SUCCESS) {
            const char *msg = aclGetRecentErrMsg();
            printf("%s\n", msg ? msg : "(no message)");
        }
    }
    aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, p[0]);
    printf("%s\n", t ? "tensor" : "nullptr");
    const char *msg = aclGetRecentErrMsg();
    printf("%s\n", msg ? msg : "(no message)");
    for (int i = 0; i < 3; ++i) {
        if (p[i]) aclrtFree(p[i]);
    }
    aclrtResetDevice(0);
    printf("%d\n", (int)aclFinalize());
    return 0;
}
"""


def test_opbase_emu_faults_fails_a_c_programs_calls(sdk: Sdk, tmp_path: Path) -> None:
    source = tmp_path / "faults.c"
    source.write_text(FAULT_PROGRAM)
    program = compile_program(sdk, source, tmp_path / "faults", "ascendcl", "nnopbase", cxx=False)
    env = environment(
        sdk, tmp_path, OPBASE_EMU_FAULTS="aclrtMalloc@2=207001,aclCreateTensor", OPBASE_EMU_LEAK_CHECK="1"
    )
    done = run(program, env)
    assert done.returncode == 0, done.stderr  # the leak check at exit found nothing: the failures made nothing
    results = [line for line in done.stdout.splitlines() if RESULT.match(line)]  # messages span several lines
    assert results == ["0", "0", "0 ptr", "207001 null", "0 ptr", "nullptr", "0"]
    out = done.stdout
    assert "Memory_Allocation_Failure(EL0004): aclrtMalloc failed with ACL_ERROR_RT_MEMORY_ALLOCATION (207001)" in out
    assert "OPBASE_EMU_FAULTS (aclrtMalloc@2=207001)" in out
    assert "aclCreateTensor failed with ACLNN_ERR_INNER_NULLPTR (561103), returning nullptr" in out


def test_a_bad_spec_is_refused_at_start(sdk: Sdk, tmp_path: Path) -> None:
    """An unknown name: every call fails (no silent run without the fault) and stderr says why, once."""
    source = tmp_path / "faults.c"
    source.write_text(FAULT_PROGRAM)
    program = compile_program(sdk, source, tmp_path / "faults", "ascendcl", "nnopbase", cxx=False)
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_FAULTS="aclrtMaloc@2"))
    assert done.returncode == 0, done.stderr  # no crash: the calls fail
    results = [line for line in done.stdout.splitlines() if RESULT.match(line)]
    assert results == ["100000", "100000", "100000 null", "100000 null", "100000 null", "nullptr", "100000"]
    said = "OPBASE_EMU_FAULTS: 'aclrtMaloc' is not a C function of the emulator (did you mean aclrtMalloc?)"
    assert done.stderr.count(said) == 1  # said once, at the start, not at every call
    assert done.stderr.count("opbase-emu: the emulator cannot start") == 1


def test_one_count_across_c_and_python_callers(sdk: Sdk) -> None:
    """The rule counts calls of the process, whichever side makes them: the 2nd call, made from C, fails."""
    lib = ctypes.CDLL(str(sdk.lib64 / "libascendcl.so"))
    assert acl.rt.set_device(0) == 0
    with faults.inject("aclrtMalloc", nth=2, status=207001) as rule:
        first, ret = acl.rt.malloc(64, 0)  # call 1, from Python
        assert ret == 0
        ptr = ctypes.c_void_p()
        assert lib.aclrtMalloc(ctypes.byref(ptr), ctypes.c_size_t(64), 0) == 207001  # call 2, from C
        assert ptr.value is None  # the out-pointer is not written by a failed call
        third, ret = acl.rt.malloc(64, 0)  # call 3, from Python again
        assert ret == 0
    assert (rule.calls, rule.hits) == (3, 1)
    assert acl.rt.free(first) == 0 and acl.rt.free(third) == 0
    assert acl.rt.reset_device(0) == 0
