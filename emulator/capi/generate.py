"""Generated faces: text built from the op registry and the prototype table.

``python -m emulator.capi.generate`` rewrites emulator/aclnn/ops.py (the aclnn face's op entry
points, one line per C function), emulator/aclnn/constants.py (the C enums' constants), so a
type checker and a reader see every name of the face, and kernels/op_index.py (which module
declares each L2 API, so one op is found without importing the others). A test fails
when a generated file is stale. The C layer's headers and forwarders will be generated here too.
"""

from __future__ import annotations

from pathlib import Path

import emulator.kernels as kernels
from emulator.kernels import REGISTRY
from emulator.meta.dtypes import aclDataType
from emulator.meta.formats import aclFormat
from emulator.opdev.registry import OpRegistry
from emulator.status import AclnnStatus

FACE = Path(__file__).resolve().parent.parent / "aclnn"
OPS_MODULE = FACE / "ops.py"
CONSTANTS_MODULE = FACE / "constants.py"
OP_INDEX_MODULE = Path(kernels.__file__).resolve().parent / "op_index.py"


def render_ops_module(registry: OpRegistry = REGISTRY) -> str:
    """The text of emulator/aclnn/ops.py: one line per C function, so a type checker sees every name.

    The lines are declarations only: each callable is built when the name is first read (the
    module's ``__getattr__``), importing just that op's module.
    """
    lines = [
        '"""The op entry points of the aclnn face, one line per C function.',
        "",
        "Generated from the op registry by ``python -m emulator.capi.generate``; do not edit (a test",
        "fails when it is stale). The lines declare the names for a reader and a type checker; each",
        "callable is built on its first read (``__getattr__``, emulator/aclnn/l2_face.py), which imports",
        "that op's module only.",
        '"""',
        "",
        "from emulator.aclnn.l2_face import Phase1, Phase2, op_attribute",
        "",
        "__getattr__ = op_attribute",
        "",
    ]
    names: list[str] = []
    for api in registry.entries:
        lines.append(f"{api}GetWorkspaceSize: Phase1")
        lines.append(f"{api}: Phase2")
        names += [f"{api}GetWorkspaceSize", api]
    lines += ["", "__all__ = ["]
    lines += [f'    "{name}",' for name in names]
    lines += ["]", ""]
    return "\n".join(lines)


def render_constants_module() -> str:
    """The text of emulator/aclnn/constants.py: the C enums' constants under their C names, real values."""
    enums = (
        (aclDataType, "emulator.meta.dtypes"),
        (aclFormat, "emulator.meta.formats"),
        (AclnnStatus, "emulator.status"),
    )
    lines = [
        '"""The C constants of the aclnn face: aclDataType, aclFormat and aclnnStatus values under their C names.',
        "",
        "Generated from the enums by ``python -m emulator.capi.generate``; do not edit (a test fails when it",
        "is stale).",
        '"""',
        "",
        *(f"from {module} import {enum.__name__}" for enum, module in enums),
        "",
    ]
    names: list[str] = []
    for enum, _ in enums:
        for name in enum.__members__:
            lines.append(f"{name} = {enum.__name__}.{name}")
            names.append(name)
    lines += ["", "__all__ = ["]
    lines += [f'    "{name}",' for name in names]
    lines += ["]", ""]
    return "\n".join(lines)


def render_op_index(registry: OpRegistry = REGISTRY) -> str:
    """The text of kernels/op_index.py: each L2 API's module, in op-list order."""
    lines = [
        '"""Which op module declares each L2 API: ``emulator.kernels.entry`` imports only that one.',
        "",
        "Generated from the op registry by ``python -m emulator.capi.generate``; do not edit (a test",
        "fails when it is stale). Plain literals, so reading it costs no import and no file read.",
        '"""',
        "",
        "MODULES: dict[str, str] = {",
        *(f'    "{api}": "{entry.module}",' for api, entry in registry.entries.items()),
        "}",
        "",
    ]
    return "\n".join(lines)


GENERATED = {
    OPS_MODULE: render_ops_module,
    CONSTANTS_MODULE: render_constants_module,
    OP_INDEX_MODULE: render_op_index,
}

if __name__ == "__main__":
    for target, render in GENERATED.items():
        target.write_text(render(), encoding="utf-8")
        print(f"wrote {target}")
