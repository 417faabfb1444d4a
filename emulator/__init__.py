"""opbase-emulator: CANN opbase (aclnn) and the ACL runtime, emulated on a simulated NPU.

The public faces: ``acl`` (pyACL-compatible runtime), ``aclnn`` (the C-named aclnn API), ``npu``
(the Pythonic layer over those two: numpy in, numpy out) and ``process`` (the emulated process,
with ``fresh()`` for tests). See DESIGN.md in the steering repo and docs/ for the layers.
"""

from emulator import acl, aclnn, npu, process

__all__ = ["acl", "aclnn", "npu", "process"]
