"""The SoC choice of an L2 dtype support list (GetDtypeSupportListV2 and the bf16-capable SoC test).

Many ops keep two support lists: one for the A2 / A3 parts and the RegBase parts (Ascend 950),
one for the rest (Ascend 310P, Ascend910). The choice is made at phase 1 from the SoC the
emulated process runs on, so one op module serves every shipped profile.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator.opdev.l2 import current_l2

DAV_2201 = 2201  # Atlas A2 / A3 (Ascend910B, Ascend910_93)
DAV_3510 = 3510  # the RegBase parts (Ascend 950)
BF16_SOCS = ("Ascend910B", "Ascend910_93")  # SocVersion in [ASCEND910B, ASCEND910E]


def is_a2_or_regbase() -> bool:
    """GetCurNpuArch() is DAV_2201 or a RegBase arch."""
    return current_l2().op.soc.npu_arch in (DAV_2201, DAV_3510)


def list_v2(a2: Sequence[int], other: Sequence[int]) -> tuple[int, ...]:
    """GetDtypeSupportListV2(l1, l2): ``a2`` on A2 / A3 / RegBase parts, ``other`` elsewhere."""
    return tuple(a2) if is_a2_or_regbase() else tuple(other)


def soc_supports_bf16() -> bool:
    """The ops' CheckSocVersionIsSupportBf16: the SoC version lies between Ascend910B and Ascend910E."""
    return current_l2().op.soc.short_soc_version in BF16_SOCS


def is_regbase() -> bool:
    """IsRegBase(): the Ascend 950 parts (arch35)."""
    return current_l2().op.soc.npu_arch == DAV_3510


def list_by_arch(a2: Sequence[int], older: Sequence[int], regbase: Sequence[int] | None = None) -> tuple[int, ...]:
    """A support list chosen by NpuArch: ``a2`` on DAV_2201 (A2 / A3), ``regbase`` on the RegBase parts (``a2``
    when the op gives them no list of their own), ``older`` on the rest (310P, Ascend910)."""
    arch = current_l2().op.soc.npu_arch
    if arch == DAV_3510:
        return tuple(a2 if regbase is None else regbase)
    return tuple(a2) if arch == DAV_2201 else tuple(older)
