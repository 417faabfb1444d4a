"""``acl.hccl``: out of scope (collectives); every call gives 207000 (emulator.acl.unsupported)."""

from emulator.acl.unsupported import module_getattr

__getattr__ = module_getattr("acl.hccl")
