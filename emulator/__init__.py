"""opbase-emulator: CANN opbase (aclnn) and the ACL runtime, emulated on a simulated NPU.

The public faces: ``acl`` (pyACL-compatible runtime) and ``process`` (the emulated process,
with ``fresh()`` for tests). See docs/architecture.md for the layers.
"""

from emulator import acl, npu, process

__all__ = ["acl", "npu", "process"]
