"""``acl.media``: dvpp_malloc / dvpp_free (device memory for media data); the rest is out of scope.

acldvppMalloc is device memory of the DVPP kind: huge pages only (it fails rather than falling
back to normal pages when the huge pool is exhausted), the size rounded up to 32 bytes plus 32
(ALIGN_UP(size, 32) + 32, as aclrtMalloc pads), a start address aligned to 128 bytes or more, and
charged to the device's totals like any aclrtMalloc. The allocation is tagged ``dvpp`` in the
registry, so leak reports name it. Every other ``acl.media`` call gives 207000
(``emulator.acl.unsupported``).
"""

from __future__ import annotations

from emulator import process
from emulator.acl.constants import ACL_MEM_MALLOC_HUGE_ONLY
from emulator.acl.rt.memory import allocate
from emulator.acl.unsupported import module_getattr
from emulator.boundary import acl_api
from emulator.errors import AclNullPointer
from emulator.status import AclError

OK = AclError.ACL_SUCCESS


@acl_api("acldvppMalloc")
def dvpp_malloc(size: int) -> tuple[int, int]:
    """``dev_ptr, ret``: 100000 for size 0; 207001 when the huge-page pool cannot hold it."""
    return allocate(size, ACL_MEM_MALLOC_HUGE_ONLY, padded=True, tag="dvpp")


@acl_api("acldvppFree")
def dvpp_free(dev_ptr: int) -> int:
    if not dev_ptr:
        raise AclNullPointer("acldvppFree", "devPtr")
    process.current().runtime.free(dev_ptr)
    return OK


__getattr__ = module_getattr("acl.media")
