"""The simulated NPU backend: one idea per module (heap, host memory, streams, cost model, device)."""

from .npu import SimulatedNpu

__all__ = ["SimulatedNpu"]
