"""The boundary's two paths: the fast one (no seam in use) and the full one give the same answers.

The fast path is taken while ``process.fast`` is the current process; a tracer, an armed fault
rule, an op provider or a thread acting for another process switches every call to the full path,
and switching them off switches back, at any moment of a process's life.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, aclnn, faults, process
from emulator.boundary import c_api
from emulator.capi import META, RUNTIME, Proto
from emulator.trace import start_trace, stop_trace

MEMORY_ALLOCATION = 207001


def test_fast_follows_every_seam(emu: process.EmulatedProcess) -> None:
    """Each seam sends the process's calls to the full path while it is in use, and only then."""
    assert process.fast is emu
    with faults.inject("aclrtMalloc", nth=5):
        assert process.fast is None
    assert process.fast is emu
    start_trace()
    assert process.fast is None
    stop_trace()
    assert process.fast is emu
    with process.acting_as(emu):
        assert process.fast is None
    assert process.fast is emu
    with process.fresh() as inner:
        assert process.fast is inner
        with faults.inject("aclrtFree"):
            assert process.fast is None
        assert process.fast is inner
    assert process.fast is emu


def test_a_rule_armed_on_another_process_leaves_the_current_one_fast(emu: process.EmulatedProcess) -> None:
    """Only the current process's seams count: a rule armed in an outer process waits for it to be current again."""
    with process.fresh() as inner:
        with faults.inject("aclrtMalloc"):
            assert process.fast is None
            with process.fresh() as innermost:
                assert process.fast is innermost
            assert process.fast is None
        assert process.fast is inner


def test_an_op_provider_takes_the_full_path(emu: process.EmulatedProcess) -> None:
    """Setting the provider seam (what the ascend backend does) switches the fast path off until it is cleared."""
    emu.op_provider = object()  # type: ignore[assignment]  # a stand-in: no call is made while it is set
    try:
        assert process.fast is None and emu.needs_full_path
    finally:
        emu.op_provider = None
    assert process.fast is emu


def test_a_fault_armed_mid_process_fails_the_next_call_only_while_armed() -> None:
    """A call on the fast path, then the same call with a rule armed, then again after it is disarmed."""
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0 and acl.rt.free(ptr) == 0
    with faults.inject("aclrtMalloc", status=MEMORY_ALLOCATION) as rule:
        assert acl.rt.malloc(64, 0) == (0, MEMORY_ALLOCATION)
        message = acl.get_recent_err_msg()
        assert "fault injected" in message
    assert rule.calls == 1 and rule.hits == 1
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0 and acl.rt.free(ptr) == 0


def test_a_tracer_started_mid_process_sees_the_calls_made_while_it_runs() -> None:
    """Calls before the trace and after it are not in it; those in between are, with their statuses."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.get_device() == (0, 0)
    tracer = start_trace()
    try:
        assert acl.rt.get_device() == (0, 0)
        assert acl.rt.free(0x1234) != 0  # never allocated: a failure, traced with its status
    finally:
        stop_trace()
    assert acl.rt.get_device() == (0, 0)
    calls = [(e.name, e.status != 0) for e in tracer.events if e.kind == "api"]
    assert calls == [("aclrtGetDevice", False), ("aclrtFree", True)]


def test_a_type_refused_after_one_accepted_is_still_refused(emu: process.EmulatedProcess) -> None:
    """The fast path remembers the types a parameter accepted; a type it refuses is refused every time."""
    assert acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    tensor = aclnn.aclCreateTensor([16], 1, aclnn.ACL_FLOAT, [1], 0, 2, [16], 1, ptr)
    scalar = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    for _ in range(3):
        assert aclnn.aclGetViewShape(tensor)[-1] == 0
        for wrong in (scalar, 5, "tensor"):
            try:
                aclnn.aclGetViewShape(wrong)
            except TypeError as exc:
                assert str(exc).startswith("aclGetViewShape args parse failed: tensor (const aclTensor *) takes")
            else:
                raise AssertionError(f"{wrong!r} was accepted as an aclTensor")
    assert aclnn.aclDestroyTensor(tensor) == 0 and aclnn.aclDestroyScalar(scalar) == 0
    assert acl.rt.free(ptr) == 0


# -- every prototype: the same outcome on both paths --------------------------------------------------
PROTOS: list[tuple[Proto, bool]] = [(proto, False) for proto in RUNTIME] + [(proto, True) for proto in META]


def _stand_in(proto: Proto, names_match: bool) -> Callable[..., Any]:
    """A body with the face's signature for ``proto`` that only says what it was given."""
    inputs = proto.inputs if names_match else proto.py_inputs
    names = [p.name if names_match else f"arg{i}" for i, p in enumerate(inputs)]

    def body(*args: Any) -> Any:
        return ("called", len(args))

    body.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in names]
    )
    return body


WRAPPED = [c_api(proto, names_match=names_match)(_stand_in(proto, names_match)) for proto, names_match in PROTOS]


class _Handle:
    """A value of a type no C parameter takes."""


def _values() -> list[object]:
    from emulator.meta.objects import aclIntArray, aclScalar, aclTensor

    return [
        None, 0, 1, -1, 2**31, 2**64, -(2**63) - 1, 1.5, True, np.int64(7), np.float32(2.0), np.bool_(True),
        "text", b"bytes", [1, 2], (3,), [1.5], [True, False], [None], np.array([1, 2]), np.array([1.5]),
        {"a": 1}, _Handle(), print, aclTensor.__new__(aclTensor), aclScalar.__new__(aclScalar),
        aclIntArray.__new__(aclIntArray),
    ]  # fmt: skip


VALUES = _values()


def _outcome(fn: Callable[..., Any], args: tuple[object, ...]) -> tuple[str, object]:
    try:
        return "returned", fn(*args)
    except TypeError as exc:
        return "TypeError", str(exc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_both_paths_answer_alike_for_any_arguments(emu: process.EmulatedProcess, data: st.DataObject) -> None:
    """Any function of the table, any arguments: the fast path's result or TypeError text is the full path's.

    The calls repeat with the same wrappers, so what the fast path has learnt of each parameter's
    accepted types is in play too.
    """
    index = data.draw(st.integers(0, len(WRAPPED) - 1), label="function")
    arity = len(inspect.signature(WRAPPED[index]).parameters)
    count = data.draw(st.sampled_from([arity, arity, arity, max(0, arity - 1), arity + 1]), label="count")
    args = tuple(data.draw(st.lists(st.sampled_from(VALUES), min_size=count, max_size=count), label="args"))
    assert process.fast is emu
    fast = _outcome(WRAPPED[index], args)
    with process.acting_as(emu):  # the same process, through the full path
        assert process.fast is None
        full = _outcome(WRAPPED[index], args)
    assert fast == full, (PROTOS[index][0].c_name, args)
