"""Writes docs/api_parity.md: every real API the emulator covers or refuses, from the faces themselves.

Run: python docs/gen_api_parity.py   (tests/conformance/test_api_parity.py checks the file against the faces)
"""

from __future__ import annotations

import inspect
from pathlib import Path

from emulator import acl, aclnn

ROOT = Path(__file__).resolve().parents[1]

PARTIAL = {
    "aclDumpOpTensors": "writes .npy files per tensor instead of handing records to the Adump service",
    "aclrtGetDeviceInfo": "answers the core counts, UB, memory, L2 and NpuArch attributes; others 100000",
    "aclrtEventElapsedTime": "times come from the simulated device clock (a cost model), not hardware",
    "aclrtSynchronizeStreamWithTimeout": "the timeout is compared with the simulated duration of the pending work",
    "aclrtSynchronizeEventWithTimeout": "the timeout is compared with the simulated duration of the pending work",
    "aclrtCreateStreamWithConfig": "priorities are recorded, not scheduled",
    "aclrtGetDeviceUtilizationRate": "the simulated device is idle whenever a host thread can ask: 0, memory -1",
    "aclrtLaunchCallback": "deferred streams: the subscribed thread's process_report drives the stream up to the "
    "callback; a synchronisation waits for blocking callbacks (docs/runtime.md)",
    "acldvppMalloc": "huge-page device memory tagged dvpp; in libascendcl (no separate libacl_dvpp)",
    "aclAppLog": "C formats the variadic arguments into at most 4095 bytes, then the 1024-byte plog line rule applies",
    "aclrtMallocPhysical": "device memory only (a host location is 207000); sizes round up to the granule",
    "aclrtMemGetAllocationGranularity": "the SoC profile's granule (2 MiB), 1 GiB for the 1 GiB page attributes",
    "aclrtDeviceCanAccessPeer": "answered from the SoC profile (every simulated device of a part alike)",
    "aclmdlRICaptureBegin": "C-only; capture of tasks on one stream (no cross-stream capture graph)",
    "aclmdlRIExecuteAsync": "C-only; replays are not race-checked against other streams",
}
# pyACL modules that exist on the face but answer every call with 207000 and a message (acl.unsupported)
OUT_OF_SCOPE = {
    "acl.op.* (incl. set_model_dir)": "the legacy aclop single-operator path needs op models compiled by ATC; "
    "the emulator runs operators through aclnn",
    "acl.mdl.*": "offline models (.om) need the model compiler and executor (stream capture is C-only, see aclmdlRI*)",
    "acl.media.* (beyond dvpp_malloc / dvpp_free)": "media engines (DVPP, VPC, JPEG, VENC/VDEC) are hardware blocks "
    "the emulator does not model",
    "acl.hccl.* / HCCL collectives": "one emulated process with no interconnect",
    "IPC memory and events, multi-process sharing": "the emulator is one process; not on the face (AttributeError)",
}
C_ONLY_NOTE = "C-only (real pyACL has no wrapper); Python callers use this module"
REJECTED = {
    "aclrtMemcpy2d": "not emulated yet (not on the face: AttributeError)",
    "aclrtMallocWithCfg": "not emulated yet",
    "aclrtFreeWithDevSync": "not emulated yet",
    "aclrtPointerGetAttributes": "not emulated yet",
    "aclrtSetStreamFailureMode": "only ACL_CONTINUE_ON_FAILURE behaviour exists",
    "aclrtSetOpWaitTimeout": "not emulated yet",
    "aclrtSetOpExecuteTimeOut": "not emulated yet",
    "aclmdlRICaptureTaskGrpBegin / TaskGrpEnd / TaskUpdate*": "task groups and task update are not emulated",
    "aclmdlRIDebugPrint / aclmdlRIDebugJsonPrint": "not emulated",
    "aclrtEventGetTimestamp": "not emulated yet",
    "aclnnReselectStaticKernel": "static kernels are not emulated",
    "aclnnReselectStaticKernelWithPath": "static kernels are not emulated",
}


def c_name(fn: object) -> str | None:
    return getattr(fn, "c_name", None)


def acl_rows() -> list[tuple[str, str, str, str]]:
    rows = []
    for module, prefix in ((acl, "acl"), (acl.rt, "acl.rt"), (acl.media, "acl.media")):
        for name, fn in sorted(vars(module).items()):
            real = c_name(fn)
            if real is None or name.startswith("_"):
                continue
            status = "partial" if real in PARTIAL else "supported"
            rows.append((real, f"{prefix}.{name}", status, PARTIAL.get(real, "")))
    for name in ("get_version", "get_soc_name", "get_recent_err_msg"):
        real = {"get_version": "aclrtGetVersion", "get_soc_name": "aclrtGetSocName",
                "get_recent_err_msg": "aclGetRecentErrMsg"}[name]  # fmt: skip
        rows.append((real, f"acl.{name}", "supported", ""))
    for real in sorted(acl.C_ONLY):
        note = PARTIAL.get(real, C_ONLY_NOTE)
        rows.append((real, f"acl.model_ri.{real}", "partial" if real in PARTIAL else "supported", note))
    for name, fn in sorted(vars(acl.util).items()):
        if inspect.isfunction(fn) and not name.startswith("_") and fn.__module__ == acl.util.__name__:
            rows.append((f"acl.util.{name}", f"acl.util.{name}", "supported", "pyACL helper"))
    return sorted(rows)


def aclnn_rows() -> list[tuple[str, str, str, str]]:
    rows = []
    for name in sorted(set(aclnn.FUNCTIONS)):
        note = PARTIAL.get(name, "phase 1 of an operator" if name.endswith("GetWorkspaceSize") else "")
        rows.append((name, f"aclnn.{name}", "partial" if name in PARTIAL else "supported", note))
    return rows


def render() -> str:
    lines = [
        "# API parity",
        "",
        "Every real API the emulator covers, and the ones it refuses, in OpenReg's table style.",
        "Generated by `python docs/gen_api_parity.py`; `tests/conformance/test_api_parity.py` checks it",
        "against what `emulator.acl` and `emulator.aclnn` export.",
        "",
        "## Runtime (pyACL face)",
        "",
        "| CANN API | emulator | status | note |",
        "|---|---|---|---|",
    ]
    lines += [f"| {a} | `{b}` | {c} | {d} |" for a, b, c, d in acl_rows()]
    lines += ["", "## aclnn (acl_meta.h, aclnn_base.h, operators)", "", "| CANN API | emulator | status | note |",
              "|---|---|---|---|"]  # fmt: skip
    lines += [f"| {a} | `{b}` | {c} | {d} |" for a, b, c, d in aclnn_rows()]
    lines += ["", "## Not emulated", "", "| CANN API | emulator | status | note |", "|---|---|---|---|"]
    lines += [f"| {a} | — | rejected | {d} |" for a, d in REJECTED.items()]
    lines += [
        "",
        "## Out of scope (pyACL modules that answer 207000)",
        "",
        "Calling any function of these modules returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000), in the",
        "shape pyACL returns for it (a bare `ret`, `value, ret`, or `0` for a creator), and records",
        '"acl.<module>.<name> is not supported by the emulator: <reason>" for `acl.get_recent_err_msg()`,',
        "so a program reaches its own error handling instead of an AttributeError.",
        "",
        "| pyACL module | status | reason |",
        "|---|---|---|",
    ]
    lines += [f"| {a} | out of scope | {d} |" for a, d in OUT_OF_SCOPE.items()]
    lines += [
        "",
        "## pyACL argument tolerance",
        "",
        "As in real pyACL, a parameterless wrapper accepts and ignores extra positional (and keyword)",
        "arguments: `acl.get_soc_name(0)`, `acl.rt.synchronize_device(device_id)`, `acl.rt.get_context(dev)`,",
        "`acl.finalize(x)`, `acl.get_version(x)`, `acl.rt.get_run_mode(x)`, `acl.rt.get_device_count(x)` run as",
        "if called without them. Wrappers with parameters check their count and types as pyACL's parser does",
        "(TypeError). This is the pyACL face only: the C functions keep their C signatures.",
        "",
        "The pyACL face also drops what pyACL derives itself: an input array's count",
        "(`acl.create_tensor_desc(dtype, dims, format)`) and aclAppLog's function, file and line",
        "(`acl.app_log(level, message)` takes them from the calling frame).",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    (ROOT / "docs" / "api_parity.md").write_text(render())
