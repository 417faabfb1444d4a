"""Reports name the C caller: file:line with -g, the function and an offset without; strict mode aborts."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import environment, run

from emulator.sdk.build import Sdk

PROGRAM = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "aclnn/acl_meta.h"

static aclTensor *make(void *dev) {
    int64_t shape[2] = {2, 2}, strides[2] = {2, 1};
    return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, dev); /* CREATE */
}

int main(void) {
    void *p = 0, *q = 0;
    aclInit(0);
    aclrtSetDevice(0);
    aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST); /* LEAK */
    aclrtMalloc(&q, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclTensor *t = make(q);
    aclDestroyTensor(t); /* FIRST */
    aclDestroyTensor(t); /* SECOND */
    aclTensor *u = make(q);
    int64_t *dims = 0;
    uint64_t rank = 0;
    int stale = aclGetViewShape(t, &dims, &rank); /* STALE */
    printf("reused=%d stale=%d\n", u == t, stale);
    aclDestroyTensor(u);
    aclrtFree(q);
    aclrtResetDevice(0);
    printf("done\n");
    return 0;
}
"""


def line_of(marker: str) -> int:
    return next(i for i, text in enumerate(PROGRAM.splitlines(), 1) if f"/* {marker} */" in text)


@pytest.fixture
def leak_c(tmp_path: Path) -> Path:
    source = tmp_path / "leak.c"
    source.write_text(PROGRAM)
    return source


def build(sdk: Sdk, source: Path, *flags: str) -> Path:
    """The official build line, with ``flags`` (``-g``) before it."""
    out = source.with_suffix("")
    done = subprocess.run(["cc", *flags, str(source), f"-I{sdk.include}", f"-I{sdk.include / 'aclnn'}",
                           f"-L{sdk.lib64}", "-lascendcl", "-lnnopbase", "-o", str(out)],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def test_leak_report_names_the_c_line_of_the_malloc(sdk: Sdk, leak_c: Path, tmp_path: Path) -> None:
    """Built with -g: the leaked buffer was created at leak.c:<line of the aclrtMalloc call>, in main."""
    program = build(sdk, leak_c, "-g")
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 23, done.stderr
    report = done.stderr[done.stderr.index("Direct leak of device memory 1024") :]
    assert re.search(rf"#0 \S*leak\.c:{line_of('LEAK')} in main", report.splitlines()[1]), report
    assert "bridge.py" not in done.stderr and "forwarders" not in done.stderr


def test_double_destroy_names_the_c_lines(sdk: Sdk, leak_c: Path, tmp_path: Path) -> None:
    """The undefined use names where it happened, where the tensor was created and first destroyed."""
    program = build(sdk, leak_c, "-g")
    done = run(program, environment(sdk, tmp_path, ASCEND_SLOG_PRINT_TO_STDOUT="1"))
    assert done.returncode == 0, done.stderr
    line = next(text for text in done.stdout.splitlines() if "double destroy" in text)
    assert f"leak.c:{line_of('SECOND')}" in line
    assert "created=" in line and f"leak.c:{line_of('CREATE')}" in line
    assert "destroyed=" in line and f"leak.c:{line_of('FIRST')}" in line


def test_a_destroyed_handle_stays_a_use_after_destroy(sdk: Sdk, leak_c: Path, tmp_path: Path) -> None:
    """A tensor created after a destroy gets a new address, so the old pointer is still recognised: the report
    names the C lines of the use, the creation and the destruction; the getter returns what the real one does
    on freed memory (0, it reads the stale fields), since a report never changes a status."""
    program = build(sdk, leak_c, "-g")
    done = run(program, environment(sdk, tmp_path, ASCEND_SLOG_PRINT_TO_STDOUT="1"))
    assert done.returncode == 0, done.stderr
    assert "reused=0 stale=0" in done.stdout, done.stdout
    line = next(text for text in done.stdout.splitlines() if "use after destroy" in text)
    assert f"leak.c:{line_of('STALE')}" in line and f"leak.c:{line_of('CREATE')}" in line, line
    assert f"leak.c:{line_of('FIRST')}" in line, line


def test_without_debug_info_the_site_is_function_and_offset(sdk: Sdk, leak_c: Path, tmp_path: Path) -> None:
    """No -g: the report names the program, the calling function and an offset (make, for the tensor)."""
    program = build(sdk, leak_c)
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1", ASCEND_SLOG_PRINT_TO_STDOUT="1"))
    assert done.returncode == 23, done.stderr
    report = done.stderr[done.stderr.index("Direct leak of device memory 1024") :]
    assert re.fullmatch(rf"    #0 {re.escape(str(program))}\(main\+0x[0-9a-f]+\)", report.splitlines()[1]), report
    line = next(text for text in done.stdout.splitlines() if "double destroy" in text)
    assert re.search(r"created=\S+\(make\+0x[0-9a-f]+\)", line), line  # the static helper that called aclCreateTensor


def test_a_stripped_program_gets_the_offset_in_the_module(sdk: Sdk, leak_c: Path, tmp_path: Path) -> None:
    """No symbols at all: the site is the program and the offset of the call in it, for addr2line later."""
    program = build(sdk, leak_c, "-s")
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 23, done.stderr
    report = done.stderr[done.stderr.index("Direct leak of device memory 1024") :]
    assert re.fullmatch(rf"    #0 {re.escape(str(program))}\(\+0x[0-9a-f]+\)", report.splitlines()[1]), report


def test_strict_mode_aborts_a_double_destroy_with_the_report(sdk: Sdk, leak_c: Path, tmp_path: Path) -> None:
    """OPBASE_EMU_STRICT=1: the second aclDestroyTensor aborts the program (SIGABRT), the report on stderr."""
    program = build(sdk, leak_c, "-g")
    done = run(program, environment(sdk, tmp_path, OPBASE_EMU_STRICT="1"))
    assert done.returncode == -signal.SIGABRT, (done.returncode, done.stderr)
    assert "done" not in done.stdout  # nothing after the undefined use ran
    [report] = [text for text in done.stderr.splitlines() if "double destroy" in text]  # the one line, once
    assert report.startswith(f"opbase-emu: double destroy: {leak_c}:{line_of('SECOND')}: aclDestroyTensor: ")
    assert f"created at {leak_c}:{line_of('CREATE')}" in report
    assert f"destroyed at {leak_c}:{line_of('FIRST')}" in report


def test_a_call_through_ctypes_keeps_the_python_site(sdk: Sdk) -> None:
    """From Python through ctypes the caller is Python code: the site is this file's line, not libffi's."""
    import ctypes

    from emulator import acl, process
    from emulator.tracking import ResourceKind

    lib = ctypes.CDLL(str(sdk.lib64 / "libascendcl.so"))
    assert acl.rt.set_device(0) == 0
    ptr = ctypes.c_void_p()
    assert lib.aclrtMalloc(ctypes.byref(ptr), ctypes.c_size_t(64), 0) == 0
    line = sys._getframe().f_lineno - 1
    res = process.current().registry.get(ResourceKind.DEVICE_MEMORY, ptr.value or 0)
    try:
        assert res is not None and str(res.site) == f"{__file__}:{line}"
    finally:
        assert acl.rt.free(ptr.value) == 0
        assert acl.rt.reset_device(0) == 0
