"""The SoC sub-directory of an op package (opbase's SoC-name → kernel-directory table).

Emulates the lookup opbase does on ``aclrtGetSocName()`` before it builds any package path
to name the SoC sub-directory: an exact-match table first, then a prefix table.

Fidelity notes:
- The exact string ``"Ascend910B"`` (no digit) maps to the *old* ``ascend910`` directory while
  ``"Ascend910B1"`` maps to ``ascend910b``; that trap is reproduced on purpose.
- A SoC in neither table gives ``""`` and the real "Invalid device type" warning, so every path
  built from it degenerates, as on hardware (e.g. ``Ascend910_9363``).
- The real library caches the answer for the process; here the caller (the emulated process)
  keeps the ``OppPackages`` it was used for.
"""

from __future__ import annotations

from emulator.lazylog import lazy_logger

log = lazy_logger(__name__, logger_name="emulator.engine.opp")

_EXACT_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ascend910", ("Ascend910A", "Ascend910B", "Ascend910ProA", "Ascend910PremiumA", "Ascend910ProB")),
    (
        "ascend910b",
        ("Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910B4-1", "Ascend910B2C"),
    ),
    (
        "ascend910_93",
        ("Ascend910_9391", "Ascend910_9381", "Ascend910_9372", "Ascend910_9392", "Ascend910_9382", "Ascend910_9362"),
    ),
    ("ascend310p", ("Ascend310P1", "Ascend310P3", "Ascend310P5", "Ascend310P7")),
    ("ascend310b", ("Ascend310B1", "Ascend310B4")),
    ("ascend610lite", ("Ascend610Lite",)),
    ("kirinx90", ("KirinX90",)),
    ("kirin9030", ("Kirin9030",)),
)

EXACT_SOC_DIRS: dict[str, str] = {soc: socdir for socdir, socs in _EXACT_GROUPS for soc in socs}
PREFIX_SOC_DIRS: tuple[tuple[str, str], ...] = (
    ("Ascend910_95", "ascend910_95"),
    ("Ascend950", "ascend950"),
    ("Ascend350", "ascend350"),
)


def soc_directory(soc_version: str) -> str:
    """The package sub-directory for a SoC name; ``""`` (with a warning) when the SoC is unknown."""
    if soc_version in EXACT_SOC_DIRS:
        return EXACT_SOC_DIRS[soc_version]
    for prefix, socdir in PREFIX_SOC_DIRS:
        if soc_version.startswith(prefix):
            return socdir
    log.warning("opp.invalid_soc", soc_version=soc_version, message="Invalid device type")
    return ""
