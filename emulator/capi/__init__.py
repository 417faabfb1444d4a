"""The prototype table of the C API: every C function the emulator offers, described once.

``STATIC`` holds the runtime (acl.h, acl_rt.h) and aclnn framework (acl_meta.h, aclnn_base.h)
entries; the op entry points (``aclnnXxxGetWorkspaceSize`` / ``aclnnXxx``) come from the op
registry, each op declaring its C prototype once (``emulator.opdev.registry``). The faces' argument
checks, docs/api_parity.md and the C layer's headers and forwarders are all built from these.
"""

from __future__ import annotations

from emulator.capi.meta_table import META, phase1_proto, phase2_proto
from emulator.capi.proto import Param, Proto, Ret, parse
from emulator.capi.runtime_table import RUNTIME

STATIC: dict[str, Proto] = {proto.c_name: proto for proto in (*RUNTIME, *META)}
assert len(STATIC) == len(RUNTIME) + len(META), "a C name appears twice in the prototype table"


def lookup(c_name: str) -> Proto:
    """The static entry of a C function; a KeyError names a face function missing from the table."""
    try:
        return STATIC[c_name]
    except KeyError:
        raise KeyError(f"{c_name} is not in the prototype table (emulator/capi)") from None


__all__ = ["META", "RUNTIME", "STATIC", "Param", "Proto", "Ret", "lookup", "parse", "phase1_proto", "phase2_proto"]
