"""``acl.op``: out of scope (the legacy aclop path); every call gives 207000 (emulator.acl.unsupported)."""

from emulator.acl.unsupported import module_getattr

__getattr__ = module_getattr("acl.op")
