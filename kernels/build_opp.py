"""Writes the shipped op package (``kernels/opp``) from the op modules, in the real on-disk format.

The op modules are the single source of truth for which binaries exist (``OpImpl.bins``); this tool
turns them into ops-info JSON, binary-config JSON and kernel JSON per SoC directory, which the
engine then reads back through LoadAllOppPackage exactly as it would read a real package. A test
checks that the committed files equal what this tool writes. Run: ``python -m emulator.kernels.build_opp``.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from emulator.engine.tiling import BinSpec, OpImpl
from emulator.kernels import OPS
from emulator.kernels.math.search_sorted import SEARCH_SORTED
from emulator.opdev import EleBaseTilingData

ROOT = Path(__file__).resolve().parent / "opp"
IMPL = Path("built-in/op_impl/ai_core/tbe")
SOC_DIRS = ("ascend910b", "ascend910_93", "ascend310p", "ascend950")
NO_BF16 = ("ascend310p",)


def op_file(op_type: str) -> str:
    """Snake case of the op type, as the real opFile values are (AsStrided -> as_strided)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", op_type).lower()


def _tensor(name: str, index: int, dtype: str, fmt: str) -> dict[str, Any]:
    return {"name": name, "index": index, "dtype": dtype, "format": fmt, "paramType": "required", "shape": [-2],
            "format_match_mode": "FormatAgnostic"}  # fmt: skip


def _names(impl: OpImpl, count: int, outputs: bool) -> list[str]:
    names = impl.output_names if outputs else impl.input_names
    return [names[i] if i < len(names) else f"{names[0]}{i}" for i in range(count)]


def bin_entry(impl: OpImpl, spec: BinSpec, socdir: str) -> tuple[dict[str, Any], str]:
    ins = [_tensor(n, i, d, spec.formats) if d else None for i, (n, d) in
           enumerate(zip(_names(impl, len(spec.inputs), False), spec.inputs, strict=True))]  # fmt: skip
    outs = [_tensor(n, i, d, spec.formats) for i, (n, d) in
            enumerate(zip(_names(impl, len(spec.outputs), True), spec.outputs, strict=True))]  # fmt: skip
    attrs = [{"name": name, "dtype": dtype, "value": None} for name, dtype in impl.attrs]
    digest = hashlib.md5(json.dumps([ins, outs, attrs]).encode(), usedforsecurity=False).hexdigest()
    name = f"{impl.op_type}_{digest}_{spec.impl_mode}"
    path = f"{socdir}/{op_file(impl.op_type)}/{name}.json"
    entry = {"implMode": spec.impl_mode, "int64Mode": False, "inputs": ins, "outputs": outs, "attrs": attrs,
             "deterministic": "ignore", "binInfo": {"jsonFilePath": path}}  # fmt: skip
    return entry, name


def kernel_json(impl: OpImpl, name: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "binFileName": name,
        "binFileSuffix": ".o",
        "blockDim": -1,
        "coreType": impl.kernel_json.get("coreType", "VectorCore"),
        "kernelName": f"{name}__kernel0",
        "magic": "RT_DEV_BINARY_MAGIC_ELF_AIVEC",
        "compileInfo": impl.kernel_json.get("compileInfo", {"op_type": impl.op_type}),
        "opParaSize": int(impl.kernel_json.get("opParaSize", ctypes.sizeof(EleBaseTilingData))),
        "supportInfo": {"implMode": entry["implMode"], "op_debug_config": ""},
        **({"workspace": impl.kernel_json["workspace"]} if "workspace" in impl.kernel_json else {}),
    }


def _served(bins: list[BinSpec], index: int, outputs: bool) -> str:
    return ",".join((b.outputs if outputs else b.inputs)[index] or "" for b in bins)


def ops_info_entry(impl: OpImpl, socdir: str) -> dict[str, Any]:
    """The ops-info description: positions with their parallel dtype / format lists, attrs, opFile."""
    bins = _bins_for(impl, socdir)
    formats = ",".join("ND" for _ in bins)
    entry: dict[str, Any] = {
        "opFile": {"value": op_file(impl.op_type)},
        "opInterface": {"value": op_file(impl.op_type)},
    }
    for kind, names in (("input", impl.input_names), ("output", impl.output_names)):
        for i, name in enumerate(names):
            served = _served(bins, i, kind == "output") if bins else ""
            entry[f"{kind}{i}"] = {"name": name, "paramType": "required", "dtype": served, "format": formats}
    if impl.attrs:
        entry["attr"] = {"list": ",".join(name for name, _ in impl.attrs)}
    return entry


def _bins_for(impl: OpImpl, socdir: str) -> list[BinSpec]:
    """310P has no bfloat16 kernels."""
    return [b for b in impl.bins if not (socdir in NO_BF16 and "bfloat16" in (*b.inputs, *b.outputs))]


def package_files(
    impl_dir: Path, impls: Sequence[OpImpl], socdirs: Sequence[str], *, ops_info_only: Sequence[OpImpl] = ()
) -> dict[Path, Any]:
    """The JSON documents of an op package under ``impl_dir`` (``.../op_impl/ai_core/tbe``), per SoC folder:
    the ops-info file (``impls`` and the AI CPU ``ops_info_only`` ops, by op type), each binary's kernel
    JSON and each op's binary config."""
    files: dict[Path, Any] = {}
    for socdir in socdirs:
        described = sorted((*impls, *ops_info_only), key=lambda impl: impl.op_type)  # stable whatever the order
        files[impl_dir / "config" / socdir / f"aic-{socdir}-ops-info.json"] = {
            impl.op_type: ops_info_entry(impl, socdir) for impl in described
        }
        for impl in impls:
            entries = []
            for spec in _bins_for(impl, socdir):
                entry, name = bin_entry(impl, spec, socdir)
                entries.append(entry)
                files[impl_dir / "kernel" / socdir / op_file(impl.op_type) / f"{name}.json"] = kernel_json(
                    impl, name, entry
                )
            files[impl_dir / "kernel" / "config" / socdir / f"{op_file(impl.op_type)}.json"] = {"binList": entries}
    return files


def render() -> dict[Path, str]:
    """Every file of the package, path relative to ``kernels/opp`` -> JSON text."""
    documents = package_files(IMPL, OPS, SOC_DIRS, ops_info_only=(SEARCH_SORTED,))
    files = {path: _dump(data) for path, data in documents.items()}
    files[Path("vendors/config.ini")] = "# vendor packages, highest priority first: priority=<v1>,<v2>\n"
    return files


def write_custom_package(root: Path, impls: Sequence[OpImpl], socdirs: Sequence[str] = SOC_DIRS) -> Path:
    """An op package of one's own under ``root`` (``op_impl/ai_core/tbe/...``, the layout a custom
    package has under ASCEND_CUSTOM_OPP_PATH) describing ``impls``' binaries for each SoC folder.

    This is how a user ships an op without editing the emulator: write the package once, point
    ASCEND_CUSTOM_OPP_PATH at ``root``, and bind the op module's L2 entry points
    (``emulator.aclnn.bind_ops``).
    """
    for path, data in package_files(root / IMPL.relative_to("built-in"), impls, socdirs).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_dump(data))
    return root


def _dump(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=False) + "\n"


def main() -> int:
    files = render()
    for path in sorted(ROOT.rglob("*")):
        if path.is_file() and path.relative_to(ROOT) not in files:
            path.unlink()
    for rel, text in files.items():
        target = ROOT / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    print(f"wrote {len(files)} files under {ROOT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
