"""Mistake: destroying a tensor that a tensor list already destroyed (the list owns its members).

On a card this is a double free; the emulator reports it with the lines that created and destroyed it.
Run: python examples/mistakes/destroy_list_member.py
"""

from __future__ import annotations

from emulator import aclnn, process

a = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)
b = aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)
tensors = aclnn.aclCreateTensorList([a, b], 2)
aclnn.aclDestroyTensorList(tensors)  # destroys a and b too
ret = aclnn.aclDestroyTensor(a)  # the mistake: a is already gone
print(f"aclDestroyTensor returned {ret} (as on a card); the emulator reports:")
for diagnostic in process.current().diagnostics:
    print(f"  {diagnostic}")
