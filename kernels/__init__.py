"""The op library: one module per op (L2 API, tiling, tiling-data struct, SPMD kernel).

Ops are imported here by name, so this file is the list of ops that exist. None yet: the op
engine (KernelMgr, executors, SPMD launch) comes first.
"""
