"""The official-style sample programs (samples/test_aclnn_<op>.cpp) against float64 goldens.

Each sample is a C++ host program as the public ops-math / ops-nn examples write them: a
CreateAclTensor helper, aclInit -> aclrtSetDevice -> aclrtCreateStream -> aclnnXxxGetWorkspaceSize
-> workspace aclrtMalloc -> aclnnXxx -> aclrtSynchronizeStream -> aclrtMemcpy back -> print ->
destroy, free, reset, finalize. Every sample is compiled with the documented g++ line (in parallel,
once per test session), run with the SDK's environment, and its printed ``name[i] is: value``
lines are compared with numpy computed in float64, within the op's tolerance.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import HERE, environment, run

from emulator.sdk.build import Sdk

SAMPLES = HERE / "samples"
LINE = re.compile(r"^(\w+)\[(\d+)\] is: (\S+)$")
# The ops-math examples' build line, and the ops-nn one: the same with include/aclnnop and libopapi_nn added.
MATH = ("-I{inc}", "-I{inc}/aclnn", "-L{lib}", "-lopapi_math", "-lascendcl", "-lnnopbase")
NN = (*MATH[:2], "-I{inc}/aclnnop", *MATH[2:4], "-lopapi_nn", *MATH[4:])


@dataclass(frozen=True)
class Golden:
    """What one sample must print: per label, float64 values and the op's tolerance (0: exact)."""

    source: Path
    values: dict[str, np.ndarray]
    rtol: float = 1e-5
    atol: float = 2e-6  # the samples print with %f: six decimals
    line: tuple[str, ...] = field(default=MATH)


def _x(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float64)


def _layer_norm() -> dict[str, np.ndarray]:
    x = _x(1, 2, 3, 4, -2, 0, 2, 8).reshape(2, 4)
    mean = x.mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5)
    out = (x - mean) * rstd * _x(1, 0.5, 2, -1) + _x(0, 0.1, -0.2, 0.3)
    return {"result": out, "mean": mean, "rstd": rstd}


def _rms_norm() -> dict[str, np.ndarray]:
    x = _x(1, 2, 3, 4, -2, 0, 2, 8).reshape(2, 4)
    rstd = 1 / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6)
    return {"result": x * rstd * _x(1, 0.5, 2, -1), "rstd": rstd}


def _softmax() -> np.ndarray:
    x = _x(1, 2, 3, 4, -1, 0, 1, 5).reshape(2, 4)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _sample(op: str, values: dict[str, np.ndarray], *, exact: bool = False, **options: Any) -> Golden:
    if exact:
        options.update(rtol=0.0, atol=0.0)
    return Golden(SAMPLES / f"test_aclnn_{op}.cpp", values, **options)


def _goldens() -> dict[str, Golden]:
    ramp = np.arange(12, dtype=np.float64)
    bases = _x(0, 0.25, 0.5, 1, 2, 3, 4, 9)
    waves = _x(-2, -1, -0.5, 0, 0.5, 1, 1.5, 2)
    ones = _x(1, 1, 1, 2, 2, 2, 3, 3)
    casts = _x(1.7, -1.7, 2.5, -0.2, 100.9, 3, 0, -9.99).astype(np.float32)
    matrix = _x(1, 2, 3, 4, 5, 6).reshape(2, 3) @ _x(0.5, -1, 2, 0, 1, 3).reshape(3, 2)
    sorted_at = np.searchsorted(_x(1, 3, 5, 7, 9, 11), _x(0, 3, 6, 11, 12), side="right")
    return {
        "add": Golden(HERE / "add_sample.cpp", {"result": np.arange(8) + 1.2 * ones}, line=NN),
        "mul": _sample("mul", {"result": np.arange(8).reshape(4, 2) * _x(1.5, -2)}),
        "sub": _sample("sub", {"result": np.arange(8) - 2 * ones}),
        "div": _sample("div", {"result": _x(1, 2, 3, 4, 5, 6, 7, 8) / _x(2, 4, -1, 3, 0.5, 8, 10, -4)}),
        "abs": _sample("abs", {"result": np.abs(_x(-1.5, 2, -3.25, 0, 4, -5, 6.5, -7))}),
        "exp": _sample("exp", {"result": np.exp(waves)}),
        "relu": _sample("relu", {"result": np.maximum(_x(-1, 2, -3, 4, 0, -0.5, 0.5, -8), 0)}),
        "sigmoid": _sample("sigmoid", {"result": 1 / (1 + np.exp(-waves))}),
        "cast": _sample("cast", {"result": np.trunc(casts)}, exact=True),  # float -> int32 truncates
        "reduce_sum": _sample("reduce_sum", {"result": ramp.reshape(2, 3, 2).sum(axis=1)}),
        "mean": _sample("mean", {"result": (ramp / 2).reshape(3, 4).mean(axis=0)}),
        "softmax": _sample("softmax", {"result": _softmax()}, line=NN),
        "layer_norm": _sample("layer_norm", _layer_norm(), rtol=1e-4, line=NN),
        "rms_norm": _sample("rms_norm", _rms_norm(), rtol=1e-4, line=NN),
        "mm": _sample("mm", {"result": matrix}),
        "cat": _sample("cat", {"result": _x(1, 2, 3, 4, 5, 6)}, exact=True),
        "permute": _sample("permute", {"result": ramp.reshape(2, 3, 2).transpose(2, 0, 1)}, exact=True),
        "search_sorted": _sample("search_sorted", {"result": sorted_at}, exact=True),
        "inplace_fill_scalar": _sample("inplace_fill_scalar", {"result": np.full(6, 2.5)}, exact=True),
        "pow": _sample("pow", {"result": bases**2.5, "inplace": np.sqrt(bases)}),
    }


GOLDENS = _goldens()


def test_every_sample_file_has_a_golden() -> None:
    """A sample added to samples/ without a golden would never run."""
    sources = {golden.source.name for golden in GOLDENS.values()}
    assert {p.name for p in SAMPLES.glob("test_aclnn_*.cpp")} <= sources
    assert len({name for name, g in GOLDENS.items() if g.source.parent == SAMPLES}) >= 12


def printed(stdout: str) -> dict[str, list[float]]:
    """The ``label[i] is: value`` lines of a sample, per label, in index order."""
    found: dict[str, dict[int, float]] = {}
    for text in stdout.splitlines():
        match = LINE.match(text.strip())
        if match:
            found.setdefault(match[1], {})[int(match[2])] = float(match[3])
    return {label: [values[i] for i in sorted(values)] for label, values in found.items()}


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_sample_prints_the_golden(sdk: Sdk, sample_programs: dict[str, Path], name: str, tmp_path: Path) -> None:
    """The compiled sample runs, exits 0 with no leak, and prints the golden within the op's tolerance."""
    golden = GOLDENS[name]
    done = run(sample_programs[name], environment(sdk, tmp_path, OPBASE_EMU_LEAK_CHECK="1"))
    assert done.returncode == 0, done.stdout + done.stderr
    got = printed(done.stdout)
    assert set(got) == set(golden.values), done.stdout
    for label, expected in golden.values.items():
        flat = np.asarray(expected, dtype=np.float64).ravel()
        assert len(got[label]) == flat.size, (label, done.stdout)
        np.testing.assert_allclose(got[label], flat, rtol=golden.rtol, atol=golden.atol, err_msg=f"{name} {label}")


def test_the_samples_need_the_standard_libraries(sdk: Sdk, sample_programs: dict[str, Path]) -> None:
    """A sample's NEEDED entries are CANN's names: an op library and the two runtime libraries."""
    for name in ("mul", "rms_norm"):  # the ops-math line and the ops-nn line
        needed = subprocess.run(["readelf", "-d", str(sample_programs[name])], capture_output=True, text=True)
        assert "[libopapi_math.so]" in needed.stdout or "[libopapi_nn.so]" in needed.stdout, needed.stdout
        for library in ("libascendcl.so", "libnnopbase.so"):
            assert f"[{library}]" in needed.stdout, needed.stdout
