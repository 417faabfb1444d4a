"""The Pythonic layer: numpy in, numpy out, a with-block per device session.

Built ONLY on the two faces (``emulator.acl`` and ``emulator.aclnn``) and on the op registry's
prototype table, so every line it runs is a call a user's script could have written by hand, and
every test written with it also exercises the C contract. Nothing here reaches into
the engine or the device: a status that comes back non-zero is turned into :class:`NpuError`, which
carries the status and the ``aclGetRecentErrMsg`` text the face recorded.

::

    with npu.Session() as s:
        x = s.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        out = s.call("aclnnAdd", x, x, 2.0)          # out allocated like the inputs
        out.numpy()                                  # x + 2 * x
        s.ops.reduce_sum(x, [1], False, np.float32, npu.Out((2,), np.float32)).numpy()

``Session.call`` covers every op of the registry generically: each C parameter of the op's
``aclnnXxxGetWorkspaceSize`` (a :class:`emulator.capi.proto.Param`) says which conversion its Python
argument gets — numpy arrays become device tensors, numbers become ``aclScalar``\\s, sequences become
``aclIntArray`` / ``aclFloatArray`` / ``aclBoolArray`` / ``aclTensorList`` / ``aclScalarList``, numpy
dtypes become ``aclDataType`` values, ``None`` is nullptr. Temporaries made for one call are
destroyed after it; what the caller asked the session to create lives until the session closes
(or until ``Session.release``), and the session tears everything down in reverse order.
"""

from __future__ import annotations

from emulator.npu.params import apis, converts, is_optional, is_output, is_tensor, is_written, signature, snake
from emulator.npu.session import Ops, Session
from emulator.npu.values import Buffer, Handle, NpuError, Out, Tensor, acl_dtype, check, host_dtype

__all__ = [
    "Buffer",
    "Handle",
    "NpuError",
    "Ops",
    "Out",
    "Session",
    "Tensor",
    "acl_dtype",
    "apis",
    "check",
    "converts",
    "host_dtype",
    "is_optional",
    "is_output",
    "is_tensor",
    "is_written",
    "signature",
    "snake",
]
