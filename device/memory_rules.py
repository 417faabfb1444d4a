"""How the real runtime sizes and charges memory: facts of aclrtMalloc and the driver, not of a model.

Every backend needs these numbers: the simulator to hand out and account memory, the real-card
backend to report what an allocation occupies (pyACL returns only the pointer). They sit here,
on the protocol's floor next to ``interface``, so that no backend has to import another's
module to get them (the real aclrtMalloc / aclrtMallocHost rules):
- aclrtMalloc asks the driver for ``ALIGN_UP(size, 32) + pad``; ``pad`` is the SoC's
  ``padding_size``, and it does not apply to aclrtMallocAlign32 nor to the 1 GiB policies.
- The driver picks pages from the policy's low byte and the *rounded* size; HUGE_FIRST (and any
  unknown policy) prefers 2 MiB pages above 1 MiB and falls back to 4 KiB pages; HUGE_ONLY,
  NORMAL_ONLY and the 1 GiB policies never fall back. Capacity is charged in whole pages.
- aclrtMallocHost rounds to 32 bytes (no pad) and returns 64-byte aligned memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from .interface import MemPolicy, PageKind

SIZE_ALIGN = 32  # aclrtMalloc and aclrtMallocHost round sizes up to this
HUGE_FIRST_THRESHOLD = 1024 * 1024  # HUGE_FIRST: rounded sizes above this try 2 MiB pages first
PINNED_ALIGN = 64  # aclrtMallocHost's (and aclrtMalloc's) documented start alignment

GIANT_POLICIES = frozenset({MemPolicy.HUGE1G_ONLY, MemPolicy.HUGE1G_ONLY_P2P})
HUGE_POLICIES = frozenset({MemPolicy.HUGE_ONLY, MemPolicy.HUGE_ONLY_P2P})
NORMAL_POLICIES = frozenset({MemPolicy.NORMAL_ONLY, MemPolicy.NORMAL_ONLY_P2P})

GIANT_ONLY: tuple[PageKind, ...] = (PageKind.GIANT,)
HUGE_ONLY: tuple[PageKind, ...] = (PageKind.HUGE,)
NORMAL_ONLY: tuple[PageKind, ...] = (PageKind.NORMAL,)
HUGE_FIRST: tuple[PageKind, ...] = (PageKind.HUGE, PageKind.NORMAL)


def base_policy(policy: int) -> int:
    """The aclrtMemMallocPolicy value in a policy argument's low byte (the rest are type / access hints)."""
    return policy & 0xFF


def is_giant(policy: int) -> bool:
    """A 1 GiB-page policy: it needs a SoC with such pages, and aclrtMalloc does not pad it."""
    return base_policy(policy) in GIANT_POLICIES


def rounded_size(size: int, padding: int) -> int:
    """ALIGN_UP(size, 32) + padding: what aclrtMalloc asks of the driver."""
    return (size + SIZE_ALIGN - 1) // SIZE_ALIGN * SIZE_ALIGN + padding


def alloc_size(size: int, policy: int, *, padded: bool, soc_padding: int) -> int:
    """The addressable bytes of one allocation; ``padded`` False is aclrtMallocAlign32."""
    return rounded_size(size, soc_padding if padded and not is_giant(policy) else 0)


def page_preference(alloc_size: int, policy: int) -> tuple[PageKind, ...]:
    """The page kinds the driver tries, best first, for a rounded size under ``policy``."""
    base = base_policy(policy)
    if base in GIANT_POLICIES:
        return GIANT_ONLY
    if base in HUGE_POLICIES:
        return HUGE_ONLY
    if base in NORMAL_POLICIES:
        return NORMAL_ONLY
    if alloc_size > HUGE_FIRST_THRESHOLD:  # HUGE_FIRST, its P2P twin, and unknown policies
        return HUGE_FIRST
    return NORMAL_ONLY


def charge(alloc_size: int, kind: PageKind) -> int:
    """What an allocation costs the device's capacity: whole pages of its rounded size."""
    page = kind.page_size
    return (alloc_size + page - 1) // page * page


def pinned_size(size: int) -> int:
    """The bytes aclrtMallocHost reserves for ``size``: rounded to 32, never padded."""
    return rounded_size(size, 0)


@dataclass(frozen=True, slots=True)
class PolicyRule:
    """What the driver decides from a policy's low byte, worked out once per value instead of per call.

    An allocator that applies the rules on every aclrtMalloc reads one of these: whether the
    policy needs 1 GiB pages (and so gets no pad), and the (page kind, page size) pairs it tries,
    best first, for a rounded size up to ``HUGE_FIRST_THRESHOLD`` (``small``) and above it
    (``large``). They are built from ``is_giant`` and ``page_preference`` themselves, so the two
    ways of asking can never disagree.
    """

    giant: bool
    small: tuple[tuple[PageKind, int], ...]
    large: tuple[tuple[PageKind, int], ...]


def _rule(policy: int) -> PolicyRule:
    def tries(alloc_size: int) -> tuple[tuple[PageKind, int], ...]:
        return tuple((kind, kind.page_size) for kind in page_preference(alloc_size, policy))

    return PolicyRule(is_giant(policy), tries(HUGE_FIRST_THRESHOLD), tries(HUGE_FIRST_THRESHOLD + 1))


POLICY_RULES: dict[int, PolicyRule] = {int(base): _rule(base) for base in MemPolicy}
OTHER_POLICY_RULE = _rule(0xFF)  # a low byte that is no aclrtMemMallocPolicy: the driver's default branch


def policy_rule(policy: int) -> PolicyRule:
    """The rule of a policy argument (its high bits are type / access hints and change nothing here)."""
    return POLICY_RULES.get(policy & 0xFF, OTHER_POLICY_RULE)
