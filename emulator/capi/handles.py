"""What a C program holds for a Python object: an opaque address, never reused.

The C layer hands out one address per parameter object, executor or other handle and maps it
back on every call. Addresses grow monotonically from a base that looks like a heap pointer and
are never reused, so a destroyed handle passed again still reaches its (dead) object and is
diagnosed as a use after destroy — never mistaken for a newer object at the same address. The
newest destroyed objects are kept (as many as the live-resource registry remembers); older ones
are forgotten, so a long loop of calls from C does not grow the table without bound. The table
belongs to one emulated process.
"""

from __future__ import annotations

import threading

BASE = 0x5A00_0000_0000
STEP = 0x40
GRAVEYARD = 4096  # dead objects kept so a stale address is still diagnosed (the registry keeps as many)
SWEEP_EVERY = 1024  # new addresses between sweeps of the dead, at least (see _sweep)


class UnknownHandle(LookupError):
    """An address the C layer never handed out: a wild pointer (the real library would crash)."""


class HandleTable:
    """Object <-> address, for the life of the emulated process."""

    def __init__(self) -> None:
        self._by_key: dict[int, object] = {}
        self._by_id: dict[int, int] = {}
        self._next = BASE
        self._lock = threading.Lock()
        self._since_sweep = 0
        self._sweep_after = SWEEP_EVERY
        self.strings: dict[int, object] = {}  # per thread: the buffer a returned const char * points at

    def address(self, obj: object | None) -> int:
        """The address of ``obj`` (0 for None), assigned on first sight."""
        if obj is None:
            return 0
        ident = id(obj)
        key = self._by_id.get(ident)
        if key is not None and self._by_key.get(key) is obj:
            return key  # handed out already: two reads, no lock (a dict read is atomic)
        with self._lock:
            key = self._by_id.get(ident)  # again, under the lock: another thread may have just assigned it
            if key is None or self._by_key.get(key) is not obj:
                key = self._next
                self._next = key + STEP
                self._by_key[key] = obj
                self._by_id[ident] = key
                self._since_sweep += 1
                if self._since_sweep >= self._sweep_after:
                    self._sweep()
            return key

    def _sweep(self) -> None:
        """Forget all but the newest GRAVEYARD destroyed objects, so a loop of calls from C stays bounded.

        Addresses are still never reused: a forgotten one is an unknown address from then on. The
        next sweep waits for as many new addresses as the table then holds (SWEEP_EVERY at least),
        so sweeping costs a constant per address however many objects stay alive.
        """
        self._since_sweep = 0
        dead = [key for key, obj in self._by_key.items() if getattr(obj, "alive", True) is False]
        for key in dead[: max(0, len(dead) - GRAVEYARD)]:  # dict order is creation order: oldest first
            obj = self._by_key.pop(key)
            if self._by_id.get(id(obj)) == key:
                del self._by_id[id(obj)]
        self._sweep_after = max(SWEEP_EVERY, len(self._by_key))

    def get(self, key: int) -> object | None:
        """The object at ``key`` (None for nullptr); raises UnknownHandle for an address never handed out."""
        if key == 0:
            return None
        try:
            return self._by_key[key]
        except KeyError:
            raise UnknownHandle(f"{key:#x} is not a handle this process handed out") from None

    def objects(self, args: tuple[object, ...], lookups: tuple[tuple[int, bool], ...]) -> list[object]:
        """The face's arguments of one C call: ``args[i]`` for each (i, is_handle), handles looked up.

        What ``get`` does per handle, for a whole call in one pass (the C layer's ops pass four).
        """
        by_key = self._by_key
        found: list[object] = []
        for i, is_handle in lookups:
            value = args[i]
            if is_handle:
                if value == 0:
                    value = None
                else:
                    try:
                        value = by_key[value]  # type: ignore[index]
                    except KeyError:
                        raise UnknownHandle(f"{value:#x} is not a handle this process handed out") from None
            found.append(value)
        return found

    def __len__(self) -> int:
        return len(self._by_key)
