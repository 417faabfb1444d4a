"""Fault injection: make the Nth call of a named C function fail, as the real stack's stubs do.

The real stack's own tests fail one API on purpose (the ACL stub's ``SetErrorResultApiName``) to
reach the error paths of their callers; a program run on the emulator gets the same tool without
editing its source. A rule names a C function of the prototype table, which call to fail (the
Nth, 1-based, or every one) and the status; by default the status is the function's natural
failure (what a null out-pointer returns: 100000 for a runtime call, 161001 for an aclnn one) and
a creator (``aclCreateTensor`` …) returns nullptr with 561103 (ACLNN_ERR_INNER_NULLPTR, a failed
allocation inside it) in its message.

Why the failure is made at the boundary and not inside each function: the boundary's C-named
wrapper is the one place every call passes through, from Python and from C alike (the C layer's
bridge calls the same faces), so a rule counts every caller and every thread of the emulated
process. An injected call does nothing at all before failing — nothing half-done, nothing to leak —
and its failure takes the path of a real one: the status (zeroed out-values before it, or
nullptr), the aclGetRecentErrMsg text with the message ID the real failure of that status
records, the thread's last runtime error for a runtime call, and the plog line.

Rules come from ``OPBASE_EMU_FAULTS`` when an emulated process starts (a bad entry is refused
then, with one clear error), from ``inject()`` for a block of Python, or from the pytest
fixture ``opbase_faults``. Each rule counts the calls made while it is armed.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from emulator.capi import STATIC, Proto
from emulator.config import FaultSpec, SettingsError, fault_specs
from emulator.device.errors import DeviceError, StatusError
from emulator.errors import EmulatorError
from emulator.status import AclnnStatus, describe

CREATOR_FAILURE = int(AclnnStatus.ACLNN_ERR_INNER_NULLPTR)  # what a creator's failed allocation records
FAILABLE = ("status", "handle")  # a function returning void, a string or a count has no failure to give


class InjectedRuntimeFault(DeviceError):
    """An injected failure of a runtime (acl.h / acl_rt.h) call: it also sets the thread's last error."""


class InjectedAclnnFault(EmulatorError):
    """An injected failure of an aclnn (acl_meta.h, aclnn_base.h, op) call."""


@dataclass
class Rule:
    """One armed fault: ``calls`` counts the function's calls since it was armed, ``hits`` the failures made."""

    spec: FaultSpec
    proto: Proto
    status: int
    source: str
    calls: int = 0
    hits: int = 0

    def fires(self) -> bool:
        """Count one call; True when this is the call to fail."""
        self.calls += 1
        fire = self.spec.nth is None or self.calls == self.spec.nth
        self.hits += fire
        return fire

    def error(self) -> StatusError:
        c_name = self.proto.c_name
        returned = "nullptr" if self.proto.ret.kind == "handle" else "the status"
        aclnn = self.proto.ret.spelling != "aclError"
        text = (
            f"{c_name} failed with {describe(self.status, aclnn=aclnn)} ({self.status}), returning {returned}: "
            f"fault injected by {self.source} ({self.spec})."
        )
        cls = InjectedRuntimeFault if self.proto.runtime else InjectedAclnnFault
        fault = cls(text, msg_id=message_id(self.status, runtime=cls is InjectedRuntimeFault), injected=str(self.spec))
        fault.status = self.status
        return fault


class FaultPlan:
    """The armed rules of one emulated process, and their call counts (shared by all its threads)."""

    def __init__(self, rules: Iterable[Rule] = ()) -> None:
        self._lock = threading.Lock()
        self._rules: dict[str, list[Rule]] = {}
        # called after a rule is armed or disarmed: the process's boundary reads ``armed`` only then
        self.on_change: Callable[[], None] | None = None
        for rule in rules:
            self.add(rule)

    @classmethod
    def from_specs(cls, specs: Iterable[FaultSpec], *, source: str = "OPBASE_EMU_FAULTS") -> FaultPlan:
        """The plan of a starting process; a name that is not a failable C function is refused here."""
        return cls(make_rule(spec, source) for spec in specs)

    @property
    def armed(self) -> bool:
        """Any rule at all: the boundary's fast path reads this without the lock (a dict's truth is atomic)."""
        return bool(self._rules)

    def add(self, rule: Rule) -> Rule:
        with self._lock:
            self._rules.setdefault(rule.proto.c_name, []).append(rule)
        if self.on_change is not None:
            self.on_change()
        return rule

    def remove(self, rule: Rule) -> None:
        with self._lock:
            rules = self._rules.get(rule.proto.c_name, [])
            if rule in rules:
                rules.remove(rule)
            if not rules:
                self._rules.pop(rule.proto.c_name, None)
        if self.on_change is not None:
            self.on_change()

    def rules(self) -> list[Rule]:
        with self._lock:
            return [rule for rules in self._rules.values() for rule in rules]

    def check(self, c_name: str) -> StatusError | None:
        """Count a call of ``c_name`` against every rule naming it; the failure to return, if one fires.

        Every rule counts the call even when an earlier one already fires, so each keeps its own
        call numbers; the first rule armed decides the status. A function no rule names is let
        through without the lock (a dict lookup is atomic), so other calls stay cheap while armed.
        """
        if c_name not in self._rules:
            return None
        with self._lock:
            rules = self._rules.get(c_name)
            if not rules:
                return None
            fired = [rule for rule in rules if rule.fires()]
        return fired[0].error() if fired else None


def known_protos() -> dict[str, Proto]:
    """Every C function a rule may name: the runtime and aclnn framework table, and every op's pair."""
    from emulator.kernels import REGISTRY  # the op list is needed only when a rule is made

    protos = dict(STATIC)
    for entry in REGISTRY.entries.values():
        protos[entry.phase1.c_name] = entry.phase1
        protos[entry.phase2.c_name] = entry.phase2
    return protos


def make_rule(spec: FaultSpec, source: str) -> Rule:
    protos = known_protos()
    proto = protos.get(spec.name)
    if proto is None:
        near = difflib.get_close_matches(spec.name, protos, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise SettingsError(f"{source}: {spec.name!r} is not a C function of the emulator{hint}")
    if proto.ret.kind not in FAILABLE:
        raise SettingsError(f"{source}: {spec.name} returns {proto.ret.spelling}: it has no failure to inject")
    status = spec.status if spec.status is not None else natural_failure(proto)
    return Rule(spec, proto, status, source)


def natural_failure(proto: Proto) -> int:
    """The status a rule without ``=STATUS`` gives: the prototype table's failure, or a creator's 561103."""
    return proto.failure if proto.failure is not None else CREATOR_FAILURE


def message_id(status: int, *, runtime: bool) -> str:
    """The aclGetRecentErrMsg ID the real failure with ``status`` records: the emulator's own error class
    for that status when it has one (207001 records EL0004, 161001 EZ1001 …), else the inner-error ID
    of the layer (EE9999 for the runtime, EZ9999 for aclnn).
    """
    for cls in _status_classes(StatusError):
        if cls.status == status and cls.msg_id is not None and not cls.__name__.startswith("Injected"):
            return cls.msg_id
    return "EE9999" if runtime else "EZ9999"


def _status_classes(root: type[StatusError]) -> Iterator[type[StatusError]]:
    for cls in root.__subclasses__():
        yield cls
        yield from _status_classes(cls)


@contextmanager
def inject(name: str, *, nth: int | None = 1, status: int | None = None) -> Iterator[Rule]:
    """Fail the ``nth`` call (1-based; None: every call) of C function ``name`` made inside the block,
    in the current emulated process, with ``status`` (default: its natural failure).

    The rule is checked like an OPBASE_EMU_FAULTS entry (a ValueError names what is wrong) and is
    disarmed when the block ends; the yielded ``Rule`` tells how many calls it saw and failed.
    """
    from emulator import process  # process imports this module: the face is looked up when used

    spec = fault_specs(_spelled(name, nth, status), source="faults.inject")[0]
    plan = process.current().faults
    rule = plan.add(make_rule(spec, "faults.inject"))
    try:
        yield rule
    finally:
        plan.remove(rule)


class Injector:
    """What the pytest fixture ``opbase_faults`` hands a test: rules armed until the test ends.

    ``inject`` takes the arguments of the context manager but arms the rule for the rest of the
    test, in the process current at that moment (so a rule armed in ``npu_process``'s process
    counts that process's calls); ``clear`` disarms every rule it armed.
    """

    def __init__(self) -> None:
        self._armed: list[tuple[FaultPlan, Rule]] = []

    def inject(self, name: str, *, nth: int | None = 1, status: int | None = None) -> Rule:
        from emulator import process

        spec = fault_specs(_spelled(name, nth, status), source="opbase_faults")[0]
        plan = process.current().faults
        rule = plan.add(make_rule(spec, "opbase_faults"))
        self._armed.append((plan, rule))
        return rule

    def clear(self) -> None:
        while self._armed:
            plan, rule = self._armed.pop()
            plan.remove(rule)


def _spelled(name: str, nth: int | None, status: int | None) -> str:
    """The keyword form as an OPBASE_EMU_FAULTS entry, so both forms are checked by one parser."""
    if "," in name:
        raise SettingsError(f"faults.inject: {name!r} names more than one function")
    at = "*" if nth is None else str(nth)
    if nth is not None and nth < 1:
        raise SettingsError(f"faults.inject: nth={nth}: calls are counted from 1 (nth=1 is the first call)")
    if status is not None and status < 0:
        raise SettingsError(f"faults.inject: status={status} is not a status")
    return f"{name}@{at}" + ("" if status is None else f"={status}")


__all__ = [
    "FaultPlan",
    "InjectedAclnnFault",
    "InjectedRuntimeFault",
    "Injector",
    "Rule",
    "SettingsError",
    "inject",
    "known_protos",
    "natural_failure",
]
