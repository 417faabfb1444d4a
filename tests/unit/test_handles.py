"""The C layer's handle addresses: never reused, dead ones diagnosed, the table bounded."""

from __future__ import annotations

import pytest

from emulator.capi import handles
from emulator.capi.handles import HandleTable, UnknownHandle


class Obj:
    def __init__(self) -> None:
        self.alive = True


def test_addresses_are_stable_and_never_reused() -> None:
    """One object, one address; a new object never gets an old address, even after the old one died."""
    table = HandleTable()
    first = Obj()
    key = table.address(first)
    assert table.address(first) == key and table.get(key) is first
    first.alive = False
    second = Obj()
    assert table.address(second) != key
    assert table.get(key) is first  # still reaches the dead object: a use after destroy is diagnosed
    assert table.address(None) == 0 and table.get(0) is None


def test_an_address_never_handed_out_is_unknown() -> None:
    """A wild pointer is not mistaken for a handle."""
    with pytest.raises(UnknownHandle):
        HandleTable().get(0x1234)


def test_the_dead_are_forgotten_beyond_the_graveyard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long loop of create/destroy keeps the table bounded; live objects are always kept."""
    monkeypatch.setattr(handles, "GRAVEYARD", 8)
    monkeypatch.setattr(handles, "SWEEP_EVERY", 16)
    table = HandleTable()
    keeper = Obj()
    keeper_key = table.address(keeper)
    keys = []
    for _ in range(200):
        obj = Obj()
        keys.append(table.address(obj))
        obj.alive = False
    assert len(table) <= 1 + 8 + 16
    assert table.get(keeper_key) is keeper
    assert table.get(keys[-1]).alive is False  # the newest dead are remembered
    with pytest.raises(UnknownHandle):
        table.get(keys[0])


def test_sweeping_costs_a_constant_per_address_however_many_stay_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    """With many live handles a sweep waits for as many new addresses as the table holds.

    Sweeping every SWEEP_EVERY addresses scanned the whole table each time: a two-phase loop from
    C (one new executor a call) beside a thousand live tensors paid a thousand-entry scan per
    SWEEP_EVERY calls.
    """
    monkeypatch.setattr(handles, "GRAVEYARD", 8)
    monkeypatch.setattr(handles, "SWEEP_EVERY", 16)
    table = HandleTable()
    live = [Obj() for _ in range(500)]
    for obj in live:
        table.address(obj)
    scanned = 0
    sweep = table._sweep

    def counting() -> None:
        nonlocal scanned
        scanned += len(table)
        sweep()

    monkeypatch.setattr(table, "_sweep", counting)
    for _ in range(5000):
        obj = Obj()
        table.address(obj)
        obj.alive = False
    assert scanned <= 4 * 5000  # a constant per address (every 16: about 160,000)
    assert len(table) <= 2 * (500 + 8) + 16  # still bounded
    assert all(table.get(table.address(obj)) is obj for obj in live)
