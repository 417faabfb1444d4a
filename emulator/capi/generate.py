"""Generated faces: text built from the op registry and the prototype table.

``python -m emulator.capi.generate`` rewrites emulator/aclnn/ops.py (the aclnn face's op entry
points, one line per C function, so a type checker and a reader see every name). A test fails
when a generated file is stale. The C layer's headers and forwarders will be generated here too.
"""

from __future__ import annotations

from pathlib import Path

from emulator.kernels import REGISTRY
from emulator.opdev.registry import OpRegistry

OPS_MODULE = Path(__file__).resolve().parent.parent / "aclnn" / "ops.py"


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


if __name__ == "__main__":
    OPS_MODULE.write_text(render_ops_module(), encoding="utf-8")
    print(f"wrote {OPS_MODULE}")
