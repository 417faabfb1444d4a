"""The simulated NPU backend: one idea per module (heap, host memory, streams, cost model, device)."""

from device.simulated.npu import SimulatedNpu

__all__ = ["SimulatedNpu"]
