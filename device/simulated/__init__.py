"""The simulated NPU backend: one idea per module (heap, host memory, streams, cost model, device)."""

from emulator.device.simulated.npu import SimulatedNpu

__all__ = ["SimulatedNpu"]
