"""SoC profiles (device/soc.py, configs/socs/*.json) against the real parts' stream, event and platform-ini figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from emulator.device.interface import GiB, KiB, MiB
from emulator.device.soc import DEFAULT_SOC, SocProfile, available_socs, load_soc

SOCS_DIR = Path(__file__).resolve().parents[2] / "configs" / "socs"

# The platform-ini figures per part: soc_version, short, NpuArch, AIC version, AI core (= cube), vector, AI CPU,
# HBM bytes, L2, UB, L1, L0A, L0B, L0C, cube MHz, pad.
SECTION_8 = {
    "Ascend910B1": (
        "Ascend910B", 2201, "AIC-C-220", 24, 48, 6, 64 * GiB, 192 * MiB, 192 * KiB, 512 * KiB,
        64 * KiB, 64 * KiB, 128 * KiB, 1850, 32,
    ),
    "Ascend910B2": (
        "Ascend910B", 2201, "AIC-C-220", 24, 48, 6, 64 * GiB, 192 * MiB, 192 * KiB, 512 * KiB,
        64 * KiB, 64 * KiB, 128 * KiB, 1800, 32,
    ),
    "Ascend910B3": (
        "Ascend910B", 2201, "AIC-C-220", 20, 40, 6, 64 * GiB, 192 * MiB, 192 * KiB, 512 * KiB,
        64 * KiB, 64 * KiB, 128 * KiB, 1800, 32,
    ),
    "Ascend910B4": (
        "Ascend910B", 2201, "AIC-C-220", 20, 40, 6, 32 * GiB, 96 * MiB, 192 * KiB, 512 * KiB,
        64 * KiB, 64 * KiB, 128 * KiB, 1500, 32,
    ),
    "Ascend310P3": (
        "Ascend310P", 2002, "AIC-M-200", 8, 7, 7, 24_000_000_000, 16 * MiB, 256 * KiB, 1 * MiB,
        64 * KiB, 64 * KiB, 256 * KiB, 1060, 32,
    ),
    "Ascend950PR_9599": (
        "Ascend950", 3510, "AIC-C-310", 36, 72, 6, 128 * GiB, 128 * MiB, 248 * KiB, 512 * KiB,
        64 * KiB, 64 * KiB, 256 * KiB, 1800, 0,
    ),
}  # fmt: skip


def test_shipped_profiles_are_listed() -> None:
    """available_socs lists every JSON file in configs/socs, including the section-8 parts."""
    names = available_socs()
    assert names == sorted(p.stem for p in SOCS_DIR.glob("*.json"))
    assert set(SECTION_8) <= set(names)
    assert DEFAULT_SOC in names


@pytest.mark.parametrize("name", sorted(p.stem for p in SOCS_DIR.glob("*.json")))
def test_every_shipped_profile_loads(name: str) -> None:
    """Each shipped profile validates, is named after its file and has a positive usable HBM size."""
    soc = load_soc(name)
    assert isinstance(soc, SocProfile)
    assert soc.profile == name
    assert soc.hbm_total == soc.memory_size - soc.memory_reserved
    assert 0 < soc.hbm_total < soc.memory_size
    assert soc.ubblock_size == 32


@pytest.mark.parametrize("name", sorted(SECTION_8))
def test_section_8_numbers(name: str) -> None:
    """The profile carries the platform-ini numbers of its part."""
    (short, arch, aic, cores, vector, aicpu, hbm, l2, ub, l1, l0a, l0b, l0c, mhz, pad) = SECTION_8[name]
    soc = load_soc(name)
    assert soc.soc_version == name
    assert soc.short_soc_version == short
    assert soc.npu_arch == arch
    assert soc.aic_version == aic
    assert soc.ai_core_cnt == cores
    assert soc.cube_core_cnt == cores
    assert soc.vector_core_cnt == vector
    assert soc.ai_cpu_cnt == aicpu
    assert soc.memory_size == hbm
    assert soc.l2_size == l2
    assert soc.ub_size == ub
    assert soc.l1_size == l1
    assert (soc.l0a_size, soc.l0b_size, soc.l0c_size) == (l0a, l0b, l0c)
    assert soc.cube_freq_mhz == mhz
    assert soc.padding_size == pad


@pytest.mark.parametrize(
    ("name", "streams", "events", "aicore_s", "aicpu_s"),
    [
        ("Ascend910B1", 1984, 65536, 1091, 1091),
        ("Ascend910B2", 1984, 65536, 1091, 1091),
        ("Ascend910B3", 1984, 65536, 1091, 1091),
        ("Ascend910B4", 1984, 65536, 1091, 1091),
        ("Ascend310P3", 1024, 1023, 547, 28),
        ("Ascend950PR_9599", 1984, 65536, 1091, 1091),
    ],
)
def test_stream_event_limits_and_task_timeouts(
    name: str, streams: int, events: int, aicore_s: int, aicpu_s: int
) -> None:
    """Stream/event limits and default task timeouts per part."""
    soc = load_soc(name)
    assert (soc.max_streams, soc.max_events) == (streams, events)
    assert (soc.aicore_timeout_s, soc.aicpu_timeout_s) == (aicore_s, aicpu_s)


@pytest.mark.parametrize(
    ("name", "huge1g"),
    [("Ascend910B2", True), ("Ascend910B4", True), ("Ascend310P3", False), ("Ascend950PR_9599", False)],
)
def test_gigabyte_pages_only_on_a2_a3(name: str, huge1g: bool) -> None:
    """1 GiB page policies are an A2/A3 feature."""
    assert load_soc(name).huge1g_pages is huge1g


def test_split_core_parts_have_two_vector_cores_per_ai_core() -> None:
    """On 910B parts vector = 2 x AI core; 310P3 is not split."""
    for name in ("Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4"):
        soc = load_soc(name)
        assert soc.split_core
        assert soc.vector_core_cnt == 2 * soc.ai_core_cnt
    assert not load_soc("Ascend310P3").split_core


def test_default_soc_is_910b2() -> None:
    """Loading without a name gives the default A2 profile, Ascend910B2."""
    assert DEFAULT_SOC == "Ascend910B2"
    assert load_soc().profile == "Ascend910B2"


def test_unknown_profile_is_key_error_naming_available_ones() -> None:
    """load_soc of an unknown name raises KeyError whose text lists the shipped profiles."""
    with pytest.raises(KeyError) as exc:
        load_soc("Ascend999")
    text = str(exc.value)
    assert "Ascend999" in text
    for name in available_socs():
        assert name in text


def _profile_dict(name: str = "Ascend910B2") -> dict[str, object]:
    return json.loads((SOCS_DIR / f"{name}.json").read_text())


def test_profile_dict_round_trips() -> None:
    """A shipped profile's JSON validates to the same model load_soc returns."""
    assert SocProfile.model_validate(_profile_dict()) == load_soc("Ascend910B2")


@pytest.mark.parametrize(
    "change",
    [
        {"ai_core_cnt": 0},
        {"ub_size": -1},
        {"padding_size": -32},
        {"max_streams": 0},
        {"hbm_bandwidth_gbps": 0},
        {"memory_size": "a lot"},
        {"unexpected_key": 1},
    ],
)
def test_malformed_profile_is_validation_error(change: dict[str, object]) -> None:
    """A profile with an out-of-range, mistyped or unknown field is a pydantic ValidationError."""
    data = _profile_dict()
    data.update(change)
    with pytest.raises(ValidationError):
        SocProfile.model_validate(data)


def test_profile_missing_field_is_validation_error() -> None:
    """A profile lacking a required field is a pydantic ValidationError."""
    data = _profile_dict()
    del data["ub_size"]
    with pytest.raises(ValidationError):
        SocProfile.model_validate(data)


def test_profiles_are_frozen() -> None:
    """A loaded profile cannot be changed in place; model_copy makes a changed copy."""
    soc = load_soc("Ascend910B2")
    with pytest.raises(ValidationError):
        soc.ub_size = 1  # type: ignore[misc]
    copy = soc.model_copy(update={"max_streams": 2})
    assert (copy.max_streams, soc.max_streams) == (2, 1984)
