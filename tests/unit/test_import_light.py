"""Start-up stays light: importing the faces loads no op module and nothing a command or a first use brings.

Each check runs a fresh interpreter (the test process has imported everything already) and lists
what ``sys.modules`` holds afterwards. The deny-lists name what is loaded lazily on purpose; an
eager import added back anywhere on the path makes these fail. The registry's duplicate check,
which no longer runs at import, is exercised here too.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from emulator import aclnn, kernels
from emulator.opdev.registry import DuplicateOp, OpRegistry

# Loaded on first use only: every op module (an op's entry point is first read or the registry is
# listed), the op toolkit they are written with, the Pythonic layer, the C layer's bridge and
# builder, the CLI's command modules, the logging stack (each module's logger is an
# emulator.lazylog.LazyLogger until its first event).
LAZY_PREFIXES = (
    "emulator.kernels.math",
    "emulator.kernels.nn",
    "emulator.kernels.cv",
    "emulator.opdev",
    "emulator.npu",
    "emulator.sdk",
    "emulator.demo",
    "emulator.trace",
    "emulator.capi.generate",
    "emulator.plog",  # the log setup, with structlog: both come with the first emulated process
    "structlog",
)


def _loaded_after(code: str) -> list[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return list(json.loads(out.splitlines()[-1]))


def _eager(loaded: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [name for name in loaded if name.startswith(prefixes)]


def test_importing_the_faces_loads_no_op_module_and_no_lazy_layer() -> None:
    loaded = _loaded_after("import emulator\nfrom emulator import acl, aclnn")
    assert _eager(loaded, LAZY_PREFIXES) == []
    assert "emulator.kernels.op_index" in loaded  # the index is all the face needs to name every op


def test_reading_one_op_imports_that_op_and_not_the_others() -> None:
    loaded = _loaded_after("from emulator import aclnn\naclnn.aclnnAddGetWorkspaceSize")
    ops = _eager(loaded, ("emulator.kernels.math", "emulator.kernels.nn", "emulator.kernels.cv"))
    assert "emulator.kernels.math.add" in ops
    assert "emulator.kernels.math.matmul" not in ops
    assert "emulator.kernels.nn.convolution" not in ops


def test_the_c_bridge_at_acl_init_loads_no_op_module() -> None:
    """What the C core imports at aclInit (emulator.sdk.bridge, then install) stays as light as the faces."""
    loaded = _loaded_after("import emulator.sdk.bridge as bridge\nbridge.forward('aclInit')")
    assert _eager(loaded, tuple(p for p in LAZY_PREFIXES if p != "emulator.sdk")) == []


def test_cli_imports_only_the_chosen_command_s_modules() -> None:
    run = "import sys\nfrom emulator import cli\ntry:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass"
    loaded = _loaded_after(run.replace("sys.argv[1:]", "['--help']"))
    assert [name for name in loaded if name.startswith("emulator")] == ["emulator", "emulator.cli"]
    assert "pydantic" not in loaded and "numpy" not in loaded  # the package's __init__ imports no face
    loaded = _loaded_after(run.replace("sys.argv[1:]", "['config', 'check', '/nonexistent/acl.json']"))
    commands = tuple(p for p in LAZY_PREFIXES if p not in ("emulator.plog", "structlog"))  # a command logs
    assert _eager(loaded, commands) == []


def test_the_face_still_names_every_op() -> None:
    names = dir(aclnn)
    for api in kernels.REGISTRY.entries:
        assert f"{api}GetWorkspaceSize" in names and api in names
        assert hasattr(aclnn, api)
    assert not hasattr(aclnn, "aclnnNoSuchOp")
    assert not hasattr(aclnn, "aclnnNoSuchOpGetWorkspaceSize")


def test_a_lazily_read_entry_is_the_registry_s_and_the_face_keeps_it() -> None:
    from emulator.aclnn import aclnnMul, ops

    assert kernels.entry("aclnnMul") is kernels.REGISTRY.entries["aclnnMul"]
    assert aclnnMul is aclnn.aclnnMul is ops.aclnnMul
    assert "aclnnMul" in vars(aclnn)  # after the first read a plain attribute: no __getattr__ per call


def test_the_op_index_names_each_op_s_own_module() -> None:
    from emulator.kernels.op_index import MODULES

    assert {api: entry.module for api, entry in kernels.REGISTRY.entries.items()} == MODULES
    with pytest.raises(kernels.UnknownOp):
        kernels.entry("aclnnNoSuchOp")


def test_the_duplicate_check_still_refuses_an_op_list_naming_one_api_twice() -> None:
    """Built on first access rather than at import, the registry keeps its duplicate check."""
    listed = kernels.OP_MODULES
    assert len({m.__name__ for m in listed}) == len(listed) == len(kernels.OP_MODULE_NAMES)
    add = next(m for m in listed if m.__name__ == "emulator.kernels.math.add")
    with pytest.raises(DuplicateOp, match="listed twice"):
        OpRegistry.from_modules([*listed, add])
    entry = kernels.REGISTRY.entries["aclnnAdd"]
    with pytest.raises(DuplicateOp, match="declared twice"):
        OpRegistry([entry, entry], [])
