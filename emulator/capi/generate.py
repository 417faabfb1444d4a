"""Generated faces: text built from the op registry and the prototype table.

``python -m emulator.capi.generate`` rewrites emulator/aclnn/ops.py (the aclnn face's op entry
points, one line per C function) and emulator/aclnn/constants.py (the C enums' constants), so a
type checker and a reader see every name of the face. A test fails
when a generated file is stale. The C layer's headers and forwarders will be generated here too.
"""

from __future__ import annotations

from pathlib import Path

from emulator.kernels import REGISTRY
from emulator.meta.dtypes import aclDataType
from emulator.meta.formats import aclFormat
from emulator.opdev.registry import OpRegistry
from emulator.status import AclnnStatus

FACE = Path(__file__).resolve().parent.parent / "aclnn"
OPS_MODULE = FACE / "ops.py"
CONSTANTS_MODULE = FACE / "constants.py"


def render_ops_module(registry: OpRegistry = REGISTRY) -> str:
    """The text of emulator/aclnn/ops.py: one line per C function, so a type checker sees every name."""
    lines = [
        '"""The op entry points of the aclnn face, one line per C function.',
        "",
        "Generated from the op registry by ``python -m emulator.capi.generate``; do not edit (a test",
        "fails when it is stale). The callables are built in emulator/aclnn/l2_face.py.",
        '"""',
        "",
        "from emulator.aclnn.l2_face import Phase1, Phase2, phase1, phase2",
        "",
    ]
    names: list[str] = []
    for api in registry.entries:
        lines.append(f'{api}GetWorkspaceSize: Phase1 = phase1("{api}")')
        lines.append(f'{api}: Phase2 = phase2("{api}")')
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


GENERATED = {OPS_MODULE: render_ops_module, CONSTANTS_MODULE: render_constants_module}

if __name__ == "__main__":
    for target, render in GENERATED.items():
        target.write_text(render(), encoding="utf-8")
        print(f"wrote {target}")
