"""A small cost model so that simulated time means something.

Durations only feed event timestamps, elapsed times and sync timeouts; they are never waited
for. Copies move bytes at the SoC's host-link or HBM bandwidth; a kernel costs a launch
overhead plus the bytes it touches at HBM bandwidth, unless the launch states its own duration.
"""

from __future__ import annotations

from ..interface import Direction, KernelLaunch
from ..soc import SocProfile

LAUNCH_OVERHEAD_US = 3.0
COPY_OVERHEAD_US = 1.0


def copy_us(soc: SocProfile, nbytes: int, direction: Direction) -> float:
    gbps = soc.hbm_bandwidth_gbps / 2 if direction is Direction.D2D else soc.host_link_gbps
    return COPY_OVERHEAD_US + nbytes / (gbps * 1e3)


def memset_us(soc: SocProfile, nbytes: int) -> float:
    return COPY_OVERHEAD_US + nbytes / (soc.hbm_bandwidth_gbps * 1e3)


def kernel_us(soc: SocProfile, kernel: KernelLaunch) -> float:
    if kernel.duration_us is not None:
        return kernel.duration_us
    touched = sum(arg.nbytes for arg in kernel.args)
    return LAUNCH_OVERHEAD_US + touched / (soc.hbm_bandwidth_gbps * 1e3)
