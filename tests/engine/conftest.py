"""Fixtures for the op-engine tests: an initialised NPU with tensor helpers, and custom op packages.

``npu`` runs the canonical start (acl.init, set_device(0), create_stream, aclnnInit(None)) in the
test's fresh process and yields an ``Npu``: the stream plus helpers for malloc + copy-in +
aclCreateTensor (optionally with explicit strides, view offset and storage shape) and for copying
device memory back. ``npu_with(*impls, config=None, **settings)`` starts a fresh process with the
given ``Settings`` and, when ``impls`` are given, a custom op package describing them (the real
on-disk format, produced with ``kernels.build_opp``'s writers) loaded through
``ASCEND_CUSTOM_OPP_PATH`` next to the shipped built-in package. ``Npu.single_kernel_l2`` builds a
minimal L2 API (phase 1 + phase 2) around one AI Core op.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from emulator import acl, process
from emulator import npu as npu_layer
from emulator.aclnn.l2_face import phase1_of, phase2_of
from emulator.config import Settings
from emulator.engine.opp import soc_directory
from emulator.errors import AclnnInnerNullptr
from emulator.kernels.build_opp import write_custom_package
from emulator.meta.objects import aclTensor
from emulator.opdev import OP_INPUT, OP_OUTPUT, OpImpl, add_to_launcher_list_aicore, create_executor
from emulator.opdev.registry import entry_of


class Npu:
    """The initialised device of a test, on ``emulator.npu``: an open ``npu.Session`` (acl.init,
    set_device(0), a stream, aclnnInit) whose ``npu.Tensor`` objects are the tests' device tensors, and the
    engine tests' own chores. The session is not closed: the test's process is discarded with it,
    so a test may free or destroy what it likes by hand."""

    def __init__(self, config: str | None = None) -> None:
        self.session = npu_layer.Session(config=config).open()
        assert self.session.stream is not None
        self.stream: int = self.session.stream

    def malloc(self, nbytes: int) -> int:
        return self.session.malloc(nbytes).addr

    def read(self, ptr: int, shape: Sequence[int] | int, dtype: Any) -> np.ndarray:
        """``prod(shape)`` elements of ``dtype`` copied back from device address ``ptr``."""
        return self.session.read(ptr, shape, dtype)

    def tensor(
        self,
        storage: np.ndarray,
        dtype: int,
        *,
        shape: Sequence[int] | None = None,
        strides: Sequence[int] | None = None,
        offset: int = 0,
    ) -> npu_layer.Tensor:
        """A device copy of ``storage`` and an aclTensor over it; the view defaults to the whole contiguous storage."""
        return self.session.tensor(storage, dtype, shape=shape, strides=strides, offset=offset)

    def sync(self) -> int:
        return acl.rt.synchronize_stream(self.stream)

    def run(self, phase2: Callable[..., int], workspace_size: int, executor: object) -> int:
        """Phase 2 with a fresh workspace of the asked size, then a synchronize that must succeed."""
        workspace = self.malloc(workspace_size) if workspace_size else 0
        status = phase2(workspace, workspace_size, executor, self.stream)
        assert self.sync() == 0
        return status

    @staticmethod
    def single_kernel_l2(api: str, impl: OpImpl, statuses: list[int] | None = None) -> tuple[Callable, Callable]:
        """A minimal L2 API ``(x, out)`` whose only L0 step launches ``impl`` on AI Core from x into out.

        ``statuses`` collects what add_to_launcher_list_aicore returned; a failed step makes the L2
        return 561103, as a real L2 does when its L0 call returns null.
        """

        def phase1(x: aclTensor | None, out: aclTensor | None) -> tuple[int, Any, int]:
            with create_executor() as unique:
                executor = unique.get()
                status = add_to_launcher_list_aicore(executor, impl, OP_INPUT(x), OP_OUTPUT(out))
                if statuses is not None:
                    statuses.append(status)
                if status != 0:
                    raise AclnnInnerNullptr(f"{api}: an L0 step returned null.", msg_id="EZ9999")
                return unique.release(executor.get_workspace_size())

        phase1.__name__ = f"{api}GetWorkspaceSize"
        phase1.__doc__ = (
            f"aclnnStatus {api}GetWorkspaceSize(const aclTensor *x, aclTensor *out, uint64_t *workspaceSize, "
            "aclOpExecutor **executor)"
        )
        entry = entry_of(phase1, __name__)
        return phase1_of(entry), phase2_of(entry)


@pytest.fixture
def npu(emu: process.EmulatedProcess) -> Npu:
    """The test's process with a device, a stream and aclnn initialised."""
    return Npu()


def write_package(root: Path, impls: Sequence[OpImpl], socdir: str) -> Path:
    """A custom op package under ``root`` describing ``impls``' binaries for one SoC folder."""
    return write_custom_package(root, impls, (socdir,))


@pytest.fixture
def npu_with(tmp_path: Path) -> Iterator[Callable[..., Npu]]:
    """``start(*impls, config=None, **settings)``: a fresh process with ``Settings(**settings)`` and a custom
    package of ``impls``, initialised like ``npu`` (``config``: aclnnInit's JSON, written to a file)."""
    with ExitStack() as stack:

        def start(*impls: OpImpl, config: dict[str, Any] | None = None, **settings: Any) -> Npu:
            fields: dict[str, Any] = {"log_dir": tmp_path / "log", **settings}
            if impls:
                socdir = soc_directory(process.current().runtime.soc.soc_version)
                fields["custom_opp_paths"] = (str(write_package(tmp_path / "custom_opp", impls, socdir)),)
            stack.enter_context(process.fresh(Settings(**fields)))
            path = None
            if config is not None:
                path = tmp_path / "aclnn.json"
                path.write_text(json.dumps(config))
            return Npu(str(path) if path is not None else None)

        yield start
