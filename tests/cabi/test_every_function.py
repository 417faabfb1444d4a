"""Every C function of the prototype table, called from C with invalid arguments (nulls and zeros).

The program is generated from ``emulator.capi.RUNTIME``, ``META`` and ``REGISTRY.prototypes()``, so
a function added to the table is covered without editing this file. Each function is called:

- with null out-pointers (when it has any): the forwarder's own check returns the function's
  natural failure (100000 for the runtime, 161001 for aclnn) without entering the emulator;
- with valid out-pointers and null / zero inputs (a null array given a non-zero length): the status
  must be what the Python face returns for the same arguments, called in the same order in a fresh
  process, and never an internal error (an exception inside the emulator, EZ9999).

The program must not crash, and ``nm -D`` of each standard library exports every name it owns.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import compile_program, environment, run

from emulator.capi import META, RUNTIME, Proto
from emulator.kernels import REGISTRY
from emulator.sdk.build import Sdk
from emulator.sdk.headers import KNOWN_HEADERS

PLAIN_OPS = tuple(p for p in META if p.header.startswith("aclnnop/"))  # plain functions of op headers: libopapi*
OWNERS = {"libascendcl.so": RUNTIME, "libnnopbase.so": tuple(p for p in META if p not in PLAIN_OPS)}
OP_LIBRARIES = ("libopapi.so", "libopapi_math.so", "libopapi_nn.so", "libopapi_transformer.so")
# ops whose real null check returns another status: aclnnStack's CheckParams returns 561103 for it
NULL_INPUT_STATUS = {  # ops whose real null check returns ACLNN_ERR_INNER_NULLPTR (561103) instead of 161001
    name: "561103"
    for name in (
        "aclnnStackGetWorkspaceSize",
        "aclnnBitwiseNotGetWorkspaceSize",
        "aclnnLinspaceGetWorkspaceSize",
        "aclnnUpsampleBilinear2dGetWorkspaceSize",
        "aclnnTriangularSolveGetWorkspaceSize",
    )
}
LENGTH = 2  # what a count parameter says when its array is null: a bad input, not an empty one
POINTERS = ("handle", "str", "address")  # what a C function returns as a pointer (shown as ptr / null)


@dataclass(frozen=True)
class Call:
    label: str
    proto: Proto
    null_outs: bool

    def counts(self) -> set[str]:
        names: set[str] = set()
        for param in self.proto.params:
            if param.count and not param.out:
                names.update(part.strip() for part in param.count.split("+"))
        return names

    def c_arguments(self) -> list[str]:
        counts = self.counts()
        args = []
        outs = 0
        for param in self.proto.params:
            if param.out:
                args.append("NULL" if self.null_outs else f"(void *)outs[{outs}]")
                outs += 1
            elif "*" in param.c_decl or param.ctype.kind == "address":
                args.append("NULL")
            else:
                args.append(str(LENGTH) if param.name in counts else "0")
        return args

    def c_line(self) -> str:
        call = f"{self.proto.c_name}({', '.join(self.c_arguments())})"
        if self.proto.ret.kind == "void":
            return f'    reset(); {call}; say("{self.label}", "void");'
        if self.proto.ret.kind in POINTERS:
            return f'    reset(); {{ const void *r = {call}; say("{self.label}", r ? "ptr" : "null"); }}'
        return f'    reset(); {{ int r = (int){call}; char s[16]; snprintf(s, 16, "%d", r); say("{self.label}", s); }}'


def plan() -> list[Call]:
    calls = []
    for proto in (*RUNTIME, *META, *REGISTRY.prototypes()):
        if any(p.out for p in proto.params):
            calls.append(Call(f"{proto.c_name}/null-outs", proto, True))
        calls.append(Call(f"{proto.c_name}/inputs", proto, False))
    return calls


def c_program(calls: list[Call]) -> str:
    headers = sorted({entry.header for entry in REGISTRY.entries.values()})
    lines = [
        "#include <stdio.h>",
        "#include <string.h>",
        '#include "acl/acl.h"',
        '#include "aclnn/aclnn_base.h"',
        *(f'#include "{header}"' for header in sorted({p.header for p in RUNTIME} - set(KNOWN_HEADERS))),
        *(f'#include "{header}"' for header in headers),
        "static unsigned char outs[8][64];",
        "static void reset(void) { memset(outs, 0, sizeof(outs)); }",
        "static void say(const char *label, const char *result) {",
        "    const char *msg = aclGetRecentErrMsg();",  # read (and cleared) after every call
        '    printf("%s %s %d\\n", label, result, msg != NULL && strstr(msg, "EZ9999") != NULL);',
        "    fflush(stdout);",
        "}",
        "int main(void) {",
        *(call.c_line() for call in calls),
        '    printf("done\\n");',
        "    return 0;",
        "}",
    ]
    return "\n".join(lines) + "\n"


# -- the oracle: the same calls through the Python faces, in a fresh process ---------------------
def _face_arguments(proto: Proto, counts: set[str], pyacl: bool, c_face: bool) -> list[Any]:
    """What the bridge hands the face for null / zero C arguments (pyACL faces take their own inputs)."""
    args: list[Any] = []
    for param in proto.py_inputs if pyacl and not c_face else proto.inputs:
        kind = param.ctype.kind
        if param.inout:
            args.append(0)  # what the zeroed out-value buffer the C program passes holds
        elif kind == "callback":
            args.append(None)  # a null function pointer
        elif kind == "object":
            args.append(0)  # a null user-data pointer comes through as its address
        elif "*" in param.c_decl and kind != "address":
            args.append("" if kind == "str" and pyacl and not c_face else None)  # aclInit(NULL): no file
        elif kind == "address":
            args.append(0)
        elif kind == "bool":
            args.append(False)
        else:
            args.append(LENGTH if param.name in counts else 0)
    return args


def oracle(labels: list[str]) -> list[str]:
    """Each call's result as the C program prints it, computed by the faces the bridge forwards to."""
    from emulator import acl
    from emulator.sdk.bridge import forwards

    table = forwards()
    protos = {call.label: call for call in plan()}
    results = []
    for label in labels:
        call = protos[label]
        forward = table[call.proto.c_name]
        if call.null_outs:
            results.append(f"{label} {call.proto.failure} 0")  # the forwarder's C check: no call made
            continue
        value = forward.face(*_face_arguments(call.proto, call.counts(), forward.pyacl, forward.c_face))
        if call.proto.ret.kind == "void":
            shown = "void"
        elif call.proto.ret.kind in POINTERS:
            shown = "null" if not value else "ptr"
        else:
            shown = str(int(value[-1] if isinstance(value, tuple) else value))
        message = acl.get_recent_err_msg()
        results.append(f"{label} {shown} {int(message is not None and 'EZ9999' in message)}")
    return results


Outcome = tuple[list[str], list[str], subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def outcome(sdk: Sdk, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The generated program's lines, the faces' lines for the same calls, and the program's run."""
    tmp_path = tmp_path_factory.mktemp("every")
    calls = plan()
    source = tmp_path / "every.c"
    source.write_text(c_program(calls))
    program = compile_program(sdk, source, tmp_path / "every", "opapi", "ascendcl", "nnopbase", cxx=False)
    env = environment(sdk, tmp_path)
    done = run(program, env)
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps([call.label for call in calls]))
    python_env = {k: v for k, v in env.items() if k != "PYTHONHOME"}
    expected = subprocess.run([sys.executable, __file__, str(labels)], env=python_env, capture_output=True,
                              text=True, timeout=300)  # fmt: skip
    assert expected.returncode == 0, expected.stderr
    return done.stdout.splitlines(), expected.stdout.splitlines(), done


def test_every_function_fails_from_c_as_its_face_does(outcome: Outcome) -> None:
    """All of RUNTIME, META and the ops, from C: no crash, every status the face's, no internal error."""
    got, expected, done = outcome
    assert done.returncode == 0, done.stderr[-4000:]
    assert got[-1] == "done", f"the program stopped after {got[-1:]}: {done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
    got = got[:-1]
    assert len(got) == len(expected) == len(plan())
    differ = [f"C: {a}  face: {b}" for a, b in zip(got, expected, strict=True) if a != b]
    assert not differ, "\n".join(differ)
    internal = [line for line in got if line.endswith(" 1")]
    assert not internal, internal


def test_every_function_returns_its_real_failure(outcome: Outcome) -> None:
    """What invalid arguments must give: 100000 for the runtime's null out-pointers, 161001 for aclnn's null
    out-pointers, null tensors, arrays and executors, and nullptr from a creator given a null value."""
    got, _, done = outcome
    assert done.returncode == 0, done.stderr[-4000:]
    result = {line.split()[0]: line.split()[1] for line in got[:-1]}
    for proto in RUNTIME:
        if any(p.out for p in proto.params):
            assert result[f"{proto.c_name}/null-outs"] == "100000", proto.c_name
    for proto in (*META, *REGISTRY.prototypes()):
        if any(p.out for p in proto.params):
            assert result[f"{proto.c_name}/null-outs"] == "161001", proto.c_name
    for proto in REGISTRY.prototypes():  # null tensors (phase 1) and a null executor (phase 2)
        expected = NULL_INPUT_STATUS.get(proto.c_name, "161001")
        assert result[f"{proto.c_name}/inputs"] == expected, proto.c_name
    for proto in META:
        if proto.c_name.startswith(("aclGet", "aclInitTensor", "aclSetRawTensorAddr", "aclDumpOpTensors")):
            assert result[f"{proto.c_name}/inputs"] == "161001", proto.c_name
        if proto.params and proto.params[0].name == "executor":
            assert result[f"{proto.c_name}/inputs"] != "0", proto.c_name  # no executor: never a success
    assert result["aclCreateTensor/inputs"] == "null" and result["aclCreateScalar/inputs"] == "null"
    for name in ("aclrtMalloc", "aclrtFree", "aclrtMallocHost", "aclrtFreeHost", "aclrtDestroyStream",
                 "aclrtDestroyEvent", "aclrtDestroyContext"):  # fmt: skip
        assert result[f"{name}/inputs"] == "100000", name
    for name in ("aclrtMemcpy", "aclrtMemcpyAsync", "aclrtMemset", "aclrtMemsetAsync"):
        assert result[f"{name}/inputs"] == "0", name  # count 0 returns before the null checks, as the real ACL does


def test_the_libraries_export_every_c_name(sdk: Sdk) -> None:
    """nm -D: libascendcl.so every runtime name, libnnopbase.so every acl_meta / aclnn_base name, and each
    op library every aclnn op's two phases."""
    owners: dict[str, tuple[Proto, ...]] = {
        **OWNERS,
        **dict.fromkeys(OP_LIBRARIES, (*REGISTRY.prototypes(), *PLAIN_OPS)),
    }
    for library, protos in owners.items():
        listing = subprocess.run(["nm", "-D", "--defined-only", str(sdk.lib64 / library)], capture_output=True,
                                 text=True, check=True).stdout  # fmt: skip
        exported = {line.split()[-1] for line in listing.splitlines() if " T " in line}
        missing = sorted(p.c_name for p in protos if p.c_name not in exported)
        assert not missing, f"{library} lacks {missing}"


if __name__ == "__main__":  # python test_every_function.py labels.json
    print("\n".join(oracle(json.loads(Path(sys.argv[1]).read_text()))))
