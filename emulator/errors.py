"""Every error the emulator raises on purpose; each class knows the status it becomes.

Both trees grow from one root, ``device.errors.StatusError`` (status, msg_id, message,
context), which sits on the lowest floor so the device layer can use it too. Runtime failures
(107xxx / 207xxx / 507xxx) are ``device.errors.DeviceError`` subclasses and are raised by the
runtime part of the emulator too: the device layer *is* the runtime, so its vocabulary is
reused, not repeated. This module adds what sits above it: the ACL layer's own checks (100xxx,
EHxxxx messages) and aclnn's (161xxx / 361xxx / 561xxx, EZxxxx). ``boundary`` is the one
place that turns a ``StatusError`` into a status.
"""

from __future__ import annotations

# the root is re-exported: the floors above device catch ``emulator.errors.StatusError``
from emulator.device.errors import StatusError as StatusError
from emulator.status import AclError, AclnnStatus


class EmulatorError(StatusError):
    """An error of the layers above the runtime (ACL's own checks, aclnn); same fields as the root."""

    status: int = AclError.ACL_ERROR_INTERNAL_ERROR
    msg_id: str | None = "EH9999"


class AclParamError(EmulatorError):
    """ACL-layer argument checks: 100000 ACL_ERROR_INVALID_PARAM."""

    status = AclError.ACL_ERROR_INVALID_PARAM
    msg_id = "EH0007"


class AclNullPointer(AclParamError):
    msg_id = "EH0008"

    def __init__(self, func: str, param: str) -> None:
        super().__init__(f"{func} failed because {param} cannot be a NULL pointer.", param=param)


class AclInvalidValue(AclParamError):
    msg_id = "EH0007"

    def __init__(self, func: str, value: object, param: str, expected: str) -> None:
        super().__init__(
            f"{func} failed because value {value} for parameter {param} is invalid. Expected value: {expected}.",
            param=param,
            value=value,
        )


class AclInvalidReason(AclParamError):
    """An ACL-layer check that states its reason (EH0009)."""

    msg_id = "EH0009"

    def __init__(self, func: str, value: object, param: str, reason: str) -> None:
        super().__init__(
            f"{func} failed. Value {value} for parameter {param} is invalid. Reason: {reason}.",
            param=param,
            value=value,
        )


class AclConfigDiffers(AclParamError):
    msg_id = "EH0004"


class InvalidFile(EmulatorError):
    status = AclError.ACL_ERROR_INVALID_FILE
    msg_id = "EH0003"


class ParseFile(EmulatorError):
    status = AclError.ACL_ERROR_PARSE_FILE
    msg_id = "EH0004"


class RepeatInitialize(EmulatorError):
    """aclInit while initialised: a status callers treat as success, recorded nowhere."""

    status = AclError.ACL_ERROR_REPEAT_INITIALIZE
    msg_id = None


class RepeatFinalize(EmulatorError):
    status = AclError.ACL_ERROR_REPEAT_FINALIZE
    msg_id = None


class HostOutOfMemory(EmulatorError):
    status = AclError.ACL_ERROR_BAD_ALLOC
    msg_id = "EH0010"


class AclReservedNotZero(EmulatorError):
    """A reserved parameter that must be 0 is not (aclrtDeviceEnablePeerAccess's flags): 200006."""

    status = AclError.ACL_ERROR_FEATURE_UNSUPPORTED
    msg_id = "EH0007"

    def __init__(self, func: str, value: int, param: str) -> None:
        super().__init__(
            f"{func} failed because value {value} for parameter {param} is invalid. Expected value: 0 (reserved).",
            param=param,
            value=value,
        )


class AclTimeoutInvalid(EmulatorError):
    """A timeout below -1: the ACL layer rejects it with the runtime's 107000 and an EH0007 text."""

    status = AclError.ACL_ERROR_RT_PARAM_INVALID
    msg_id = "EH0007"

    def __init__(self, func: str, value: int) -> None:
        super().__init__(
            f"{func} failed because value {value} for parameter timeout is invalid. Expected value: [-1, INT_MAX].",
            param="timeout",
            value=value,
        )


# -- aclnn (op_errno.h) ------------------------------------------------------------------------
class AclnnError(EmulatorError):
    """561000 ACLNN_ERR_INNER: the generic internal error."""

    status = AclnnStatus.ACLNN_ERR_INNER
    msg_id = "EZ9999"


class AclnnParamNullptr(AclnnError):
    status = AclnnStatus.ACLNN_ERR_PARAM_NULLPTR
    msg_id = "EZ1001"


class AclnnParamInvalid(AclnnError):
    status = AclnnStatus.ACLNN_ERR_PARAM_INVALID
    msg_id = "EZ1001"


class AclnnInnerNullptr(AclnnError):
    status = AclnnStatus.ACLNN_ERR_INNER_NULLPTR


class NnopbaseNullPointer(AclnnError):
    """NNOPBASE_ASSERT_NULLPTR_WITH_RETURN: the acl_meta.h functions' null-argument rejection. It reports
    EZ1011 (Invalid_Argument_Null_Pointer) with the C function's own name, and returns the status the
    function passes to the macro (161001 for the raw-address and dump functions, 561103 for the
    executor functions)."""

    msg_id = "EZ1011"

    def __init__(self, func: str, param: str, status: AclnnStatus) -> None:
        super().__init__(f"{func} failed because {param} cannot be a NULL pointer.", param=param)
        self.status = status


class AclnnRuntimeError(AclnnError):
    """361001: a call into the NPU runtime failed underneath an aclnn API."""

    status = AclnnStatus.ACLNN_ERR_RUNTIME_ERROR
    msg_id = "EZ9903"


class L0StepFailed(AclnnInnerNullptr):
    """An L0 helper (l0op::Contiguous, Cast, ViewCopy, a kernel's l0op ...) failed.

    The C helpers return nullptr and every L2 tests the pointer and returns 561103; here the
    helper raises this instead, so an L2 body is straight-line code and the 561103 is made once,
    by the phase-1 frame (``emulator.opdev.l2.run_phase1``), which names the L2 in the message.
    ``step`` is the failing L0 op's name (structured context for the log), ``label`` what the L2's
    message calls it: None for today's generic "an L0 step", or a name an L2 site gives with
    ``emulator.opdev.l0_label`` where the real L2 logs the step it tested.
    """

    msg_id = "EZ9999"

    def __init__(self, step: str, reason: str = "") -> None:
        super().__init__("{api}: an L0 step returned null.", step=step, reason=reason)
        self.step = step
        self.reason = reason
        self.label: str | None = None

    def l2_message(self, api: str) -> str:
        """The text the L2 ``api`` records for this failure (today's texts, word for word)."""
        return f"{api}: {self.label or 'an L0 step'} returned null."
