"""The runtime's sizing rules (device/memory_rules.py) for aclrtMalloc and aclrtMallocHost.

These are facts of aclrtMalloc and the driver, shared by every backend; test_heap.py checks the
simulator applies them to a finite capacity, test_device_protocol.py that both backends report them.
"""

from __future__ import annotations

import pytest

from emulator.device import memory_rules as rules
from emulator.device.interface import GiB, KiB, MemPolicy, MiB, PageKind


@pytest.mark.parametrize(
    ("size", "padding", "expected"),
    [
        *[(1, 32, 64), (32, 32, 64), (33, 32, 96), (100, 32, 160), (1024, 32, 1056), (MiB, 32, MiB + 32)],
        *[(1, 0, 32), (33, 0, 64), (100, 0, 128), (1, 16, 48)],
    ],
)
def test_rounded_size_is_align_up_32_plus_pad(size: int, padding: int, expected: int) -> None:
    """Worked examples: ALIGN_UP(size, 32) + pad, for pad 32 (910B), 0 (950) and 16 (035)."""
    assert rules.rounded_size(size, padding) == expected


@pytest.mark.parametrize("policy", [MemPolicy.HUGE_FIRST, MemPolicy.HUGE_ONLY, MemPolicy.NORMAL_ONLY_P2P, 0x102])
def test_padding_applies_to_malloc_but_not_to_align32(policy: int) -> None:
    """aclrtMalloc pads; aclrtMallocAlign32 (padded=False) only rounds to 32."""
    assert rules.alloc_size(100, policy, padded=True, soc_padding=32) == 160
    assert rules.alloc_size(100, policy, padded=False, soc_padding=32) == 128


@pytest.mark.parametrize("policy", [MemPolicy.HUGE1G_ONLY, MemPolicy.HUGE1G_ONLY_P2P, 0x100 | MemPolicy.HUGE1G_ONLY])
def test_gigabyte_policies_are_never_padded(policy: int) -> None:
    """The 1 GiB policies get no SoC pad even through aclrtMalloc, hint bits or not."""
    assert rules.is_giant(policy)
    assert rules.alloc_size(100, policy, padded=True, soc_padding=32) == 128


@pytest.mark.parametrize(
    ("alloc_size", "policy", "expected"),
    [
        (MiB, MemPolicy.HUGE_FIRST, (PageKind.NORMAL,)),  # exactly 1 MiB: normal pages
        (MiB + 32, MemPolicy.HUGE_FIRST, (PageKind.HUGE, PageKind.NORMAL)),  # above: huge first, then fall back
        (MiB + 32, MemPolicy.HUGE_FIRST_P2P, (PageKind.HUGE, PageKind.NORMAL)),
        (64, MemPolicy.HUGE_ONLY, (PageKind.HUGE,)),  # huge at any size, no fallback
        (64, MemPolicy.HUGE_ONLY_P2P, (PageKind.HUGE,)),
        (64 * MiB, MemPolicy.NORMAL_ONLY, (PageKind.NORMAL,)),
        (64 * MiB, MemPolicy.NORMAL_ONLY_P2P, (PageKind.NORMAL,)),
        (64, MemPolicy.HUGE1G_ONLY, (PageKind.GIANT,)),
        (64, MemPolicy.HUGE1G_ONLY_P2P, (PageKind.GIANT,)),
        (2 * MiB, 0x42, (PageKind.HUGE, PageKind.NORMAL)),  # unknown policy: the driver's default branch
        (2 * MiB, 0x100 | MemPolicy.NORMAL_ONLY, (PageKind.NORMAL,)),  # high bits are hints
    ],
)
def test_page_preference_follows_the_driver(alloc_size: int, policy: int, expected: tuple[PageKind, ...]) -> None:
    """The page kinds tried, best first: the code's > 1 MiB rule for HUGE_FIRST, not the docs' >= 2 MiB."""
    assert rules.page_preference(alloc_size, policy) == expected


@pytest.mark.parametrize(
    ("alloc_size", "kind", "expected"),
    [
        (160, PageKind.NORMAL, 4 * KiB),
        (4 * KiB, PageKind.NORMAL, 4 * KiB),
        (4 * KiB + 32, PageKind.NORMAL, 8 * KiB),
        (MiB + 32, PageKind.HUGE, 2 * MiB),
        (64, PageKind.HUGE, 2 * MiB),
        (1900 * MiB, PageKind.GIANT, 2 * GiB),  # a 1.9 GiB HUGE1G request consumes 2 GiB
    ],
)
def test_charge_is_whole_pages(alloc_size: int, kind: PageKind, expected: int) -> None:
    """Capacity is charged ceil(alloc / page) * page."""
    assert rules.charge(alloc_size, kind) == expected


@pytest.mark.parametrize(("size", "expected"), [(1, 32), (32, 32), (33, 64), (100, 128)])
def test_pinned_host_memory_rounds_to_32_without_pad(size: int, expected: int) -> None:
    """aclrtMallocHost rounds to 32 bytes and adds no pad."""
    assert rules.pinned_size(size) == expected
    assert rules.PINNED_ALIGN == 64
