"""aclnn meta benchmarks: create + destroy a tensor, aclnnInit on the shipped package, a big binary config."""

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
