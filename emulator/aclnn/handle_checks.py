"""Handle checks at the entry of every L2 API: the sanitizer's view of the objects an op is given.

On a card ``aclnnXxxGetWorkspaceSize`` dereferences each aclTensor, aclScalar, array and list it
is handed; a destroyed one is freed memory and one that this process never created is a wild
pointer, and either is undefined behaviour the real library does not check. The emulator checks
each object (and each member of a list) once, here, for every op: a destroyed one is a
``USE_AFTER_DESTROY`` report naming where it was created and destroyed, one the process's registry
never saw (made in another emulated process, or built by hand instead of by aclCreateXxx) a
``FOREIGN_HANDLE`` report. The call then goes on as it does today, with the status the op's
own checks give — the emulator never invents a status for what a card leaves undefined.
A handle of the wrong kind cannot get this far: the face refuses it as a C compiler would.
"""

from __future__ import annotations

from collections.abc import Iterator

from emulator.capi import Proto
from emulator.diagnostics import Diagnostics, ReportKind
from emulator.meta.describe import describe
from emulator.meta.objects import Handle, aclScalarList, aclTensorList
from emulator.tracking import Registry, ResourceKind, capture_site


def _objects(names: tuple[str, ...], args: tuple[object, ...]) -> Iterator[tuple[str, Handle]]:
    """(where, object) for every handle argument and every member of a list argument."""
    for name, arg in zip(names, args, strict=False):
        if not isinstance(arg, Handle):
            continue
        yield name, arg
        if isinstance(arg, aclTensorList | aclScalarList):
            for i, member in enumerate(arg.values):
                if isinstance(member, Handle):
                    yield f"{name}[{i}]", member


def _all_live(registry: Registry, args: tuple[object, ...]) -> bool:
    """The common case, answered fast: every handle argument (and list member) is one of the process's own."""
    enabled = registry.enabled
    entries = registry.entries
    for arg in args:
        if isinstance(arg, Handle):
            if not arg.alive:
                return False
            if enabled:
                live = entries.get((arg.kind, id(arg)))  # a handle's key is its id
                if live is None or (live.ref is not None and live.ref is not arg):
                    return False
            if arg.kind in _LISTS and not _all_live(registry, arg.values):  # type: ignore[attr-defined]
                return False
    return True


_LISTS = (ResourceKind.TENSOR_LIST, ResourceKind.SCALAR_LIST)  # aclTensorList's and aclScalarList's kinds


def argument_names(proto: Proto) -> tuple[str, ...]:
    """The input names of a phase-1 prototype, worked out once per op (the table builds them per read)."""
    return tuple(param.name for param in proto.inputs)


def check_arguments(
    diagnostics: Diagnostics, registry: Registry, c_name: str, names: tuple[str, ...], args: tuple[object, ...]
) -> None:
    """Report every destroyed or foreign object among ``args`` (an L2 phase-1 call's arguments)."""
    if _all_live(registry, args):
        return
    for where, obj in _objects(names, args):
        if not obj.alive:
            gone = registry.released_resource(obj.kind, obj.key)
            diagnostics.report(
                c_name,
                f"{where} is {describe(obj)}, which was already destroyed",
                created=gone.site if gone else None,
                destroyed=gone.released_at if gone else None,
                kind=ReportKind.USE_AFTER_DESTROY,
                site=capture_site(2),
            )
            continue
        if not registry.enabled:  # OPBASE_EMU_TRACKING=0: no registry to ask
            continue
        live = registry.get(obj.kind, obj.key)
        if live is None or (live.ref is not None and live.ref is not obj):
            diagnostics.report(
                c_name,
                f"{where} is {describe(obj)}, which this process never created (another emulated process's "
                "object, or one not made by its aclCreate function)",
                kind=ReportKind.FOREIGN_HANDLE,
                site=capture_site(2),
            )
