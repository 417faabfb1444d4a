"""Bounds-checked buffer views for debug kernels (the emulator's GM out-of-bounds check).

A kernel block addresses its buffers with slices; on a card a slice past the end of a buffer reads
or writes a neighbour's memory, and numpy would silently clip it. In debug-kernel mode each buffer
is handed over as a ``BoundsChecked`` array, whose slicing refuses to go past the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import KernelOutOfBounds


class BoundsChecked(np.ndarray):
    kernel: str = "kernel"

    def _check(self, key: Any) -> None:
        keys = key if isinstance(key, tuple) else (key,)
        for axis, part in enumerate(keys[: self.ndim]):
            if isinstance(part, slice):
                size = self.shape[axis]
                for bound in (part.start, part.stop):
                    if isinstance(bound, int | np.integer) and bound > size:
                        raise KernelOutOfBounds(
                            f"kernel {self.kernel}: slice {part.start}:{part.stop} of axis {axis} goes past its "
                            f"{size} elements (out-of-bounds global-memory access)",
                            kernel=self.kernel,
                        )

    def __getitem__(self, key: Any) -> Any:
        self._check(key)
        return super().__getitem__(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._check(key)
        super().__setitem__(key, value)


def checked(view: np.ndarray, kernel: str) -> BoundsChecked:
    out = view.view(BoundsChecked)
    out.kernel = kernel
    return out
