"""docs/api_parity.md and docs/ops.md list exactly what the faces and the op library export."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from emulator import acl, aclnn

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| (?P<api>[^|]+) \| `(?P<emu>[^`]+)` \| (?P<status>supported|partial) \|")


def _rows() -> list[re.Match[str]]:
    text = (ROOT / "docs" / "api_parity.md").read_text()
    return [m for line in text.splitlines() if (m := ROW.match(line))]


def _resolve(path: str) -> object:
    target: object = {"acl": acl, "aclnn": aclnn}[path.split(".")[0]]
    for part in path.split(".")[1:]:
        target = getattr(target, part)
    return target


def test_every_listed_function_exists_and_is_callable() -> None:
    """Each supported / partial row names a callable on the face."""
    rows = _rows()
    assert len(rows) > 100
    for row in rows:
        assert callable(_resolve(row["emu"])), row["emu"]


def test_every_aclnn_export_is_listed() -> None:
    """Every C-named aclnn function the face exports has a row (nothing is exported silently)."""
    listed = {row["api"] for row in _rows()}
    assert set(aclnn.FUNCTIONS) <= listed


def test_every_acl_function_is_listed() -> None:
    """Every pyACL-face function with a C name has a row."""
    listed = {row["emu"] for row in _rows()}
    for module, prefix in ((acl, "acl"), (acl.rt, "acl.rt")):
        for name, fn in vars(module).items():
            if getattr(fn, "c_name", None) and not name.startswith("_"):
                assert f"{prefix}.{name}" in listed, name


def test_the_document_is_what_the_generator_writes() -> None:
    """docs/api_parity.md is regenerated whenever the faces change (python docs/gen_api_parity.py)."""
    spec = importlib.util.spec_from_file_location("api_parity", ROOT / "docs" / "gen_api_parity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (ROOT / "docs" / "api_parity.md").read_text()


def test_docs_ops_is_what_the_generator_writes() -> None:
    """docs/ops.md lists the shipped operators and their binaries (python docs/gen_ops.py regenerates it)."""
    spec = importlib.util.spec_from_file_location("gen_ops", ROOT / "docs" / "gen_ops.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (ROOT / "docs" / "ops.md").read_text()
