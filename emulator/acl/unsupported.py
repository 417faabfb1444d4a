"""The pyACL modules the emulator leaves out: calls give 207000 with a message, not AttributeError.

``acl.op`` (the legacy aclop single-operator path, model directories included), ``acl.mdl``
(offline models; the capture calls aside), ``acl.media`` beyond ``dvpp_malloc`` / ``dvpp_free``,
HCCL collectives and IPC memory are out of scope: they need a model compiler, media engines or
several processes, none of which the emulator has. A real program that touches one still runs to
its own error handling: every name of such a module is a function that records
"<name> is not supported by the emulator: <reason>" for aclGetRecentErrMsg and returns
ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) in the shape pyACL returns for that call (docs/api_parity.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from emulator import process
from emulator.device.errors import FeatureNotSupported
from emulator.lazylog import lazy_logger
from emulator.status import AclError

log = lazy_logger(__name__, logger_name="emulator.acl")

NOT_SUPPORTED = int(AclError.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
# pyACL calls that return a handle only (nullptr here) or one value before ret; the rest return ret.
RETURNS_HANDLE = frozenset(
    {"create_desc", "create_dataset", "create_attr", "create_aipp", "create_config_handle", "create_pic_desc",
     "create_channel_desc", "create_roi_config", "create_resize_config", "create_stream_desc", "get_dataset_buffer"}
)  # fmt: skip
RETURNS_VALUE = frozenset(
    {"load_from_file", "load_from_mem", "load_from_file_with_mem", "load_from_mem_with_mem", "create_handle",
     "get_desc", "get_model_id", "get_input_size_by_index", "get_output_size_by_index", "get_num_inputs",
     "get_num_outputs", "get_dataset_num_buffers", "create_kernel"}
)  # fmt: skip
RETURNS_TWO = frozenset({"query_size", "query_size_from_mem"})
REASONS = {
    "acl.op": "the legacy aclop single-operator API (op models, set_model_dir, execute) is out of scope; "
    "use the aclnn API",
    "acl.mdl": "offline models (.om) are out of scope",
    "acl.media": "media processing (DVPP/VENC/VDEC/JPEG) is out of scope; only dvpp_malloc and dvpp_free exist",
    "acl.hccl": "HCCL collectives are out of scope (one emulated process, no interconnect)",
}


def not_supported(module: str, name: str) -> Callable[..., Any]:
    """The stand-in for ``module.name``: any arguments, nothing done, 207000 with a message."""
    qualified = f"{module}.{name}"

    def call(*args: object, **kwargs: object) -> object:
        text = f"{qualified} is not supported by the emulator: {REASONS[module]}."
        error = FeatureNotSupported(text)
        process.current().errors.report(error.msg_id or "EE1005", text)
        log.error("api.failed", api=qualified, code=NOT_SUPPORTED, reason=text)
        if name in RETURNS_HANDLE:
            return 0
        if name in RETURNS_VALUE:
            return 0, NOT_SUPPORTED
        if name in RETURNS_TWO:
            return 0, 0, NOT_SUPPORTED
        return NOT_SUPPORTED

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"Not emulated: {REASONS[module]}."
    return call


# what the emulator's own tools look up on a face function (boundary.c_api's marks): never a pyACL call
FACE_MARKS = frozenset({"c_name", "proto"})


def module_getattr(module: str) -> Callable[[str], Callable[..., Any]]:
    """A module-level ``__getattr__`` (PEP 562) that answers every public name with ``not_supported``."""

    def __getattr__(name: str) -> Callable[..., Any]:  # noqa: N807 (the module hook's name)
        if name.startswith("_") or name in FACE_MARKS:
            raise AttributeError(name)
        return not_supported(module, name)

    return __getattr__
