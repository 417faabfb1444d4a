"""The op registry: built from the explicit op list, refusing duplicates, feeding the generated face."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

from emulator import aclnn, kernels
from emulator.aclnn.l2_face import bind
from emulator.capi.generate import GENERATED
from emulator.opdev.registry import DuplicateOp, OpRegistry, header_of, l2_api

PROTO = "aclnnStatus {name}(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)"


def _op_module(module_name: str, *apis: str) -> types.ModuleType:
    """A module of one's own with a marked L2 body per API (what a custom op module looks like)."""
    module = types.ModuleType(module_name)
    for api in apis:

        def body(self: Any, out: Any) -> tuple[int, Any, int]:
            return 0, None, 0

        body.__name__ = body.__qualname__ = f"{api}GetWorkspaceSize"
        body.__doc__ = PROTO.format(name=body.__name__)
        body.__module__ = module_name
        setattr(module, body.__name__, l2_api(body))
    return module


def test_registry_holds_every_op_of_the_list() -> None:
    """Every marked body of every listed module is an entry; each has its phase-1 and phase-2 prototypes."""
    registry = kernels.REGISTRY
    assert len(registry.entries) == 188
    assert registry.c_names()[:2] == ["aclnnAddGetWorkspaceSize", "aclnnAdd"]
    entry = registry.entries["aclnnAdds"]
    assert [p.name for p in entry.phase1.inputs] == ["self", "other", "alpha", "out"]
    assert entry.phase2.c_signature() == (
        "aclnnStatus aclnnAdds(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)"
    )


def test_a_duplicate_c_name_is_refused() -> None:
    """Two modules declaring the same aclnn API make the registry refuse to build, naming both."""
    first = _op_module("first_ops", "aclnnMyOp")
    second = _op_module("second_ops", "aclnnMyOp")
    with pytest.raises(DuplicateOp, match="aclnnMyOp is declared twice: in first_ops and in second_ops"):
        OpRegistry.from_modules([first, second])


def test_a_module_listed_twice_is_refused() -> None:
    """The op list may name a module once."""
    module = _op_module("twice_ops", "aclnnOnce")
    with pytest.raises(DuplicateOp, match="listed twice"):
        OpRegistry.from_modules([module, module])


def test_a_body_without_its_c_prototype_is_refused() -> None:
    """A marked body must open its docstring with its C prototype, whose parameters it takes."""
    module = _op_module("bad_ops", "aclnnBad")
    module.aclnnBadGetWorkspaceSize.__doc__ = "Adds things."
    with pytest.raises(ValueError, match="must open with the C prototype"):
        OpRegistry.from_modules([module])


def test_l2_api_only_marks() -> None:
    """The decorator records nothing: the same function comes back, and no registry changed."""
    before = dict(kernels.REGISTRY.entries)

    def aclnnMarkedGetWorkspaceSize(self: Any, out: Any) -> tuple[int, Any, int]:
        return 0, None, 0

    assert l2_api(aclnnMarkedGetWorkspaceSize) is aclnnMarkedGetWorkspaceSize
    assert kernels.REGISTRY.entries == before


def test_bind_refuses_a_name_the_library_has() -> None:
    """A custom op module cannot replace a shipped op."""
    with pytest.raises(DuplicateOp, match="aclnnAdd is already an op of the library"):
        bind(_op_module("shadow_ops", "aclnnAdd"))


@pytest.mark.parametrize("target", sorted(GENERATED), ids=lambda path: path.name)
def test_generated_face_modules_are_current(target: Path) -> None:
    """emulator/aclnn/ops.py and constants.py are exactly what python -m emulator.capi.generate writes."""
    assert target.read_text(encoding="utf-8") == GENERATED[target]()


def test_face_exports_every_registered_function() -> None:
    """The aclnn face has a callable under each C name of the registry, and lists it in FUNCTIONS."""
    for name in kernels.REGISTRY.c_names():
        assert getattr(aclnn, name).c_name == name
        assert name in aclnn.FUNCTIONS


@pytest.mark.parametrize(
    ("api", "header"),
    [
        ("aclnnAdd", "aclnnop/aclnn_add.h"),
        ("aclnnInplaceAdds", "aclnnop/aclnn_add.h"),
        ("aclnnMuls", "aclnnop/aclnn_mul.h"),
        ("aclnnSearchSorted", "aclnnop/aclnn_searchsorted.h"),
        ("aclnnGtScalar", "aclnnop/aclnn_gt_scalar.h"),
        ("aclnnReduceSum", "aclnnop/aclnn_reduce_sum.h"),
        ("aclnnBatchMatMul", "aclnnop/aclnn_batch_matmul.h"),
        ("aclnnRmsNorm", "aclnnop/aclnn_rms_norm.h"),
        ("aclnnLayerNormWithImplMode", "aclnnop/aclnn_layer_norm.h"),
    ],
)
def test_header_names_follow_cann(api: str, header: str) -> None:
    """An op's header is CANN's: aclnn_<snake_case>.h, shared by its in-place and scalar variants."""
    assert header_of(api) == header
