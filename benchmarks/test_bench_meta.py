"""aclnn meta benchmarks: create + destroy a tensor (and a scalar, an int array, a tensor list: what every op's
call makes), aclnnInit on the shipped package, a big binary config."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from emulator import aclnn, process
from emulator.engine.opp import read_binary_config


@pytest.mark.benchmark(group="create+destroy tensor")
def test_create_destroy_tensor(benchmark, emu) -> None:  # type: ignore[no-untyped-def]
    """One aclCreateTensor (2-D, explicit strides) + aclDestroyTensor."""

    def pair() -> None:
        t = aclnn.aclCreateTensor([2, 4], 2, aclnn.ACL_FLOAT, [4, 1], 0, aclnn.ACL_FORMAT_ND, [2, 4], 2, 0x1000)
        aclnn.aclDestroyTensor(t)

    benchmark(pair)
    assert emu.registry.count("tensor") == 0


@pytest.mark.benchmark(group="create+destroy tensor")
def test_create_destroy_numpy_view(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Baseline: making a strided numpy view of an existing buffer (what a tensor descriptor is)."""
    base = np.empty(8, dtype=np.float32)
    benchmark(np.lib.stride_tricks.as_strided, base, (2, 4), (16, 4))


@pytest.mark.benchmark(group="create+destroy scalar")
def test_create_destroy_scalar(benchmark, emu) -> None:  # type: ignore[no-untyped-def]
    """One aclCreateScalar (a float32 alpha, as every Add passes) + aclDestroyScalar."""

    def pair() -> None:
        aclnn.aclDestroyScalar(aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT))

    benchmark(pair)
    assert emu.registry.count("scalar") == 0


@pytest.mark.benchmark(group="create+destroy scalar")
def test_create_destroy_scalar_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Baseline: a numpy float32 scalar made from a Python float (what an aclScalar holds)."""
    benchmark(np.float32, 1.0)


@pytest.mark.benchmark(group="create+destroy int array")
def test_create_destroy_int_array(benchmark, emu) -> None:  # type: ignore[no-untyped-def]
    """One aclCreateIntArray of two dims (a reduction's axes) + aclDestroyIntArray."""

    def pair() -> None:
        aclnn.aclDestroyIntArray(aclnn.aclCreateIntArray([0, 1], 2))

    benchmark(pair)
    assert emu.registry.count("int_array") == 0


@pytest.mark.benchmark(group="create+destroy int array")
def test_create_destroy_int_array_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Baseline: a numpy int64 array made from the same list."""
    benchmark(np.array, [0, 1], np.int64)


@pytest.mark.benchmark(group="create+destroy tensor list")
def test_create_destroy_tensor_list(benchmark, emu) -> None:  # type: ignore[no-untyped-def]
    """Two aclCreateTensor, one aclCreateTensorList of them, one aclDestroyTensorList (which destroys them)."""

    def pair() -> None:
        a = aclnn.aclCreateTensor([2, 4], 2, aclnn.ACL_FLOAT, [4, 1], 0, aclnn.ACL_FORMAT_ND, [2, 4], 2, 0x1000)
        b = aclnn.aclCreateTensor([2, 4], 2, aclnn.ACL_FLOAT, [4, 1], 0, aclnn.ACL_FORMAT_ND, [2, 4], 2, 0x2000)
        aclnn.aclDestroyTensorList(aclnn.aclCreateTensorList([a, b], 2))

    benchmark(pair)
    assert emu.registry.count() == 0


@pytest.mark.benchmark(group="create+destroy tensor list")
def test_create_destroy_tensor_list_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Baseline: two strided numpy views of a buffer, in a list."""
    base = np.empty(16, dtype=np.float32)
    view = np.lib.stride_tricks.as_strided

    def pair() -> None:
        [view(base, (2, 4), (16, 4)), view(base[8:], (2, 4), (16, 4))]

    benchmark(pair)


@pytest.mark.benchmark(group="aclnnInit")
def test_aclnn_init_shipped_package(benchmark) -> None:  # type: ignore[no-untyped-def]
    """aclnnInit in a fresh process: loads the shipped op package and evaluates the system config."""

    def init_once() -> None:
        with process.fresh():
            assert aclnn.aclnnInit(None) == 0

    benchmark(init_once)


def _big_binary_config(folder: Path, entries: int = 10_000) -> Path:
    """A binary config of ``entries`` bins shaped like the shipped ones (~650 bytes of JSON each)."""
    tensor = {"name": "x1", "index": 0, "dtype": "float", "format": "ND", "paramType": "required", "shape": [-2]}
    bins = [
        {
            "implMode": "high_performance",
            "inputs": [tensor, {**tensor, "name": "x2", "index": 1}],
            "outputs": [{**tensor, "name": "y", "dtype": "bool"}],
            "attrs": [],
            "deterministic": "ignore",
            "binInfo": {"jsonFilePath": f"ascend910b/greater/Greater_{i:032x}_high_performance.json"},
        }
        for i in range(entries)
    ]
    path = folder / "greater.json"
    path.write_text(json.dumps({"binList": bins}))
    return path


@pytest.mark.benchmark(group="binary-config load")
def test_binary_config_load(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Reading and checking a 10,000-bin binary config, an entry at a time."""
    path = _big_binary_config(tmp_path)
    config = benchmark.pedantic(read_binary_config, args=(path,), rounds=5, iterations=1)
    assert len(config.bin_list) == 10_000


@pytest.mark.benchmark(group="binary-config load")
def test_binary_config_json_loads_baseline(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Baseline: json.loads of the same file's text, which checks nothing and keeps every dict."""
    text = _big_binary_config(tmp_path).read_text()
    benchmark.pedantic(json.loads, args=(text,), rounds=5, iterations=1)
