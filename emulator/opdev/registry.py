"""The op registry: every L2 entry point and every kernel of the op library, declared once.

An op module marks each ``aclnnXxxGetWorkspaceSize`` body with ``@l2_api``; the mark is all it
does (nothing is recorded at import). The body's C prototype is the first paragraph of its
docstring, so the declaration a reader checks against the CANN header is the one the argument
checks, the C layer and the docs are built from. The explicit op list (``emulator.kernels``)
builds one ``OpRegistry`` from the modules it names; a C name or an op type that appears twice is
refused with ``DuplicateOp`` — an op cannot silently replace another.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

from emulator.capi import Proto, phase1_proto, phase2_proto
from emulator.engine.tiling import OpImpl

F = TypeVar("F", bound=Callable[..., Any])
MARK = "__l2_api__"
SUFFIX = "GetWorkspaceSize"


class DuplicateOp(ValueError):
    """Two declarations of one C name (or one kernel op type) in the op list."""


def l2_api(body: F) -> F:
    """Mark ``aclnnXxxGetWorkspaceSize``'s body as an L2 entry point (its docstring opens with the C prototype)."""
    if not body.__name__.endswith(SUFFIX):
        raise ValueError(f"{body.__name__}: an L2 entry point is named aclnnXxx{SUFFIX}")
    setattr(body, MARK, True)
    return body


@dataclass(frozen=True)
class L2Entry:
    """One op's pair of C functions: phase 1 (the marked body) and the fixed phase 2."""

    api: str  # aclnnAdd
    body: Callable[..., tuple[int, Any, int]]
    phase1: Proto
    phase2: Proto
    module: str

    @property
    def header(self) -> str:
        return self.phase1.header


# Where CANN's header is not the API's own snake-case name: the scalar variants live with their
# tensor op (aclnnMuls is declared in aclnn_mul.h), aclnnLayerNormWithImplMode with aclnnLayerNorm
# (its official example includes aclnn_layer_norm.h only), the two scalar forms of Pow in aclnn_pow.h
# (PowTensorTensor has a header of its own), and a few names are written as one word.
SHARED_HEADERS = {"Adds": "add", "Subs": "sub", "Muls": "mul", "Divs": "div", "SearchSorted": "searchsorted",
                  "LayerNormWithImplMode": "layer_norm", "PowTensorScalar": "pow",
                  "PowScalarTensor": "pow", "ClampMin": "clamp", "ClampMax": "clamp",
                  "SearchSorteds": "searchsorted", "One": "ones", "ArgMax": "argmax", "CumsumV2": "cumsum",
                  "LogSoftmax": "logsoftmax", "GeGlu": "geglu", "GeGluV3": "geglu", "ClampTensor": "clamp",
                  "ClampMinTensor": "clamp", "ClampMaxTensor": "clamp",
                  "RepeatInterleaveInt": "repeat_interleave", "RepeatInterleaveIntWithDim": "repeat_interleave",
                  "RepeatInterleaveWithDim": "repeat_interleave",
                  "FlashAttentionScoreV2": "flash_attention_score",
                  "LogSoftmaxBackward": "logsoftmax_backward",
                  "UpsampleNearest2d": "upsample_nearest_2d", "UpsampleBilinear2d": "upsample_bilinear_2d",
                  "UpsampleNearest2dBackward": "upsample_nearest_2d_backward",
                  "UpsampleBilinear2dBackward": "upsample_bilinear_2d_backward",
                  "AvgPool2d": "avgpool2d"}  # fmt: skip


def header_of(api: str) -> str:
    """CANN's header for an L2 API: ``aclnnInplaceAdd`` -> ``aclnnop/aclnn_add.h`` (in-place variants share
    it), ``aclnnMuls`` -> ``aclnnop/aclnn_mul.h`` (scalar variants share their tensor op's)."""
    stem = api.removeprefix("aclnn").removeprefix("Inplace")
    if stem in SHARED_HEADERS:
        return f"aclnnop/aclnn_{SHARED_HEADERS[stem]}.h"
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", stem).lower()
    return f"aclnnop/aclnn_{snake.replace('mat_mul', 'matmul')}.h"  # CANN writes MatMul as one word there


def declaration_of(body: Callable[..., Any]) -> str:
    """The C prototype that opens the body's docstring, on one line."""
    doc = inspect.getdoc(body) or ""
    end = doc.find(")")
    if not doc.startswith("aclnnStatus ") or end < 0:
        raise ValueError(f"{body.__name__}: the docstring must open with the C prototype (aclnnStatus ...(...))")
    return " ".join(doc[: end + 1].split())


@functools.cache
def entry_of(body: Callable[..., Any], module: str) -> L2Entry:
    """One marked body's entry, read once: the face's lazy look-up (``emulator.kernels.entry``) and
    the full registry then hold the same object, whichever read the op module first."""
    api = body.__name__.removesuffix(SUFFIX)
    header = header_of(api)
    try:
        proto = phase1_proto(declaration_of(body), header)
    except (KeyError, ValueError) as exc:
        raise ValueError(f"{module}.{body.__name__}: {exc}") from None
    if proto.c_name != body.__name__:
        raise ValueError(f"{body.__name__}: its docstring declares {proto.c_name}")
    names = list(inspect.signature(body).parameters)
    if names != [p.name for p in proto.inputs]:
        raise ValueError(
            f"{body.__name__}: parameters {names} are not the prototype's {[p.name for p in proto.inputs]}"
        )
    return L2Entry(api, body, proto, phase2_proto(api, header), module)


def marked(module: ModuleType) -> list[Callable[..., Any]]:
    """The module's own marked bodies, in source order (an imported one belongs to its own module)."""
    found = [
        value
        for value in vars(module).values()
        if callable(value) and getattr(value, MARK, False) and getattr(value, "__module__", None) == module.__name__
    ]
    return sorted(found, key=lambda fn: fn.__code__.co_firstlineno)


class OpRegistry:
    """The op library as the faces, the docs and the package builder see it."""

    def __init__(self, entries: Iterable[L2Entry], kernels: Iterable[OpImpl]) -> None:
        self.entries: dict[str, L2Entry] = {}
        for entry in entries:
            if entry.api in self.entries:
                raise DuplicateOp(
                    f"{entry.api} is declared twice: in {self.entries[entry.api].module} and in {entry.module}"
                )
            self.entries[entry.api] = entry
        self.kernels: dict[str, OpImpl] = {}
        for impl in kernels:
            if impl.op_type in self.kernels and self.kernels[impl.op_type] is not impl:
                raise DuplicateOp(f"kernel op type {impl.op_type} is declared twice")
            self.kernels[impl.op_type] = impl

    @classmethod
    def from_modules(cls, modules: Sequence[ModuleType], *, extra_kernels: Iterable[OpImpl] = ()) -> OpRegistry:
        """Build from the op list: each module's marked L2 bodies and its ``OPS`` (kernels with binaries)."""
        seen: set[str] = set()
        for module in modules:
            if module.__name__ in seen:
                raise DuplicateOp(f"op module {module.__name__} is listed twice")
            seen.add(module.__name__)
        entries = []
        problems = []
        for module in modules:
            for body in marked(module):
                try:
                    entries.append(entry_of(body, module.__name__))
                except ValueError as exc:
                    problems.append(str(exc))
        if problems:
            raise ValueError("op declarations that cannot be read:\n" + "\n".join(problems))
        kernels = [*extra_kernels, *(impl for module in modules for impl in getattr(module, "OPS", ()))]
        return cls(entries, kernels)

    def prototypes(self) -> list[Proto]:
        """Every op's two C functions, phase 1 then phase 2, in op-list order."""
        return [proto for entry in self.entries.values() for proto in (entry.phase1, entry.phase2)]

    def c_names(self) -> list[str]:
        return [proto.c_name for proto in self.prototypes()]

    @property
    def ops(self) -> tuple[OpImpl, ...]:
        return tuple(self.kernels.values())
