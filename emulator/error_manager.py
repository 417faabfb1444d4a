"""The error manager behind aclGetRecentErrMsg: per-thread stores of reported messages.

Fidelity notes (the real error manager's rules):
- Read-and-clear; None when nothing is stored; per thread unless aclInit's config sets
  ``err_msg_mode`` "1" (then one process-wide store, each entry tagged ``[THREAD:<tid>]``).
- Entries keep report order. The header is the oldest user-facing entry (an ID not ending in
  9999 / 8888) as ``[PID: <pid>] <time> <Title>(<ID>): <text>`` with its Possible Cause /
  Solution lines, then ``TraceBack (most recent call last):`` and every other entry. When all
  entries are inner ones the released 8.x form is used: ``<ID>: Inner Error!``.
- Identical entries are stored once; a store holds at most 1000 entries.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from datetime import datetime

MAX_ENTRIES = 1000
INDENT = " " * 8

TITLES: dict[str, str] = {
    "EH0001": "Invalid_Argument",
    "EH0002": "Invalid_Argument_Null_Pointer",
    "EH0003": "File_Operation_Error_Invalid_Path",
    "EH0004": "File_Operation_Error",
    "EH0006": "Not_Supported",
    "EH0007": "Invalid_Argument",
    "EH0008": "Invalid_Argument_Null_Pointer",
    "EH0009": "Invalid_Argument",
    "EH0010": "Resource_Error_Insufficient_Host_Memory",
    "EH0011": "Not_Supported",
    "EH0012": "Invalid_Argument",
    "EH0014": "Invalid_Argument_Null_Pointer",
    "EE1001": "Invalid_Argument",
    "EE1002": "Execution_Error_Stream_Synchronize_Timeout",
    "EE1003": "Invalid_Argument",
    "EE1004": "Invalid_Argument_Null_Pointer",
    "EE1005": "Not_Supported",
    "EE1006": "Not_Supported",
    "EE1010": "Execution_Error_Invalid_Context",
    "EE1011": "Invalid_Argument",
    "EE1016": "Not_Supported",
    "EE1017": "Invalid_Argument",
    "EE1018": "Invalid_Argument_API_Call_Sequence",
    "EE2002": "Config_Error_Invalid_Environment_Variable",
    "EL0004": "Memory_Allocation_Failure",
    "EZ1001": "AclNN_Parameter_Error",
    "EZ1011": "Invalid_Argument_Null_Pointer",
    "EZ9999": "AclNN_Inner_Error",
}

_RANGE_SOLUTION = (
    "Solution: 1. Check the input parameter range of the function. 2. Check the function invocation relationship.",
)
ADVICE: dict[str, tuple[str, ...]] = {
    "EH0007": _RANGE_SOLUTION,
    "EE1003": _RANGE_SOLUTION,
    "EE1001": _RANGE_SOLUTION,
    "EH0008": ("Solution: Try again with a correct pointer argument.",),
    "EE1002": (
        "Possible Cause: 1. The timeout interval may be improperly set.",
        "Solution: 1. Check whether the timeout interval is properly set. 2. Check whether the network is normal.",
    ),
    "EL0004": (
        "Possible Cause: Available memory is insufficient.",
        "Solution: Close applications not in use.",
    ),
    "EZ9999": (
        "Solution: 1. Check whether the CANN package is correct.",
        "2. Check whether the environment variable is correct.",
    ),
}


def is_inner(msg_id: str) -> bool:
    return msg_id.endswith(("9999", "8888"))


def timestamp(now: datetime | None = None) -> str:
    """The runtime's clock format: YYYY-MM-DD-hh:mm:ss.mmm.uuu."""
    t = now or datetime.now()
    return t.strftime("%Y-%m-%d-%H:%M:%S.") + f"{t.microsecond // 1000:03d}.{t.microsecond % 1000:03d}"


@dataclass(frozen=True, slots=True)
class Entry:
    msg_id: str
    text: str
    stamp: str
    pid: int

    def same_report(self, other: Entry) -> bool:
        return self.msg_id == other.msg_id and self.text == other.text


class ErrorStore:
    """One store of entries (a thread's, or the process's in err_msg_mode 1)."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []

    def add(self, entry: Entry) -> None:
        if any(e.same_report(entry) for e in self.entries) or len(self.entries) >= MAX_ENTRIES:
            return
        self.entries.append(entry)

    def drain(self) -> str | None:
        entries, self.entries = self.entries, []
        return render(entries) if entries else None


RELAYED = ""  # the msg_id of a message another library rendered already (ErrorManager.relay)


def render(entries: list[Entry]) -> str:
    relayed = [e.text for e in entries if e.msg_id == RELAYED]
    own = [e for e in entries if e.msg_id != RELAYED]
    return "\n".join([render_own(own), *relayed] if own else relayed)


def render_own(entries: list[Entry]) -> str:
    user = [e for e in entries if not is_inner(e.msg_id)]
    lines: list[str] = []
    if user:
        head = user[0]
        title = TITLES.get(head.msg_id, "Error")
        lines.append(f"[PID: {head.pid}] {head.stamp} {title}({head.msg_id}): {head.text}")
        lines.extend(INDENT + advice for advice in ADVICE.get(head.msg_id, ()))
    else:
        head = entries[0]
        lines.append(f"{head.msg_id}: Inner Error!")
        lines.append(f"{INDENT}{head.msg_id}: [PID: {head.pid}] {head.stamp} {head.text}")
    rest = [e for e in entries if e is not head]
    if rest:
        lines.append(INDENT + "TraceBack (most recent call last):")
        lines.extend(f"{INDENT}{e.text}" for e in rest)
    return "\n".join(lines)


class ErrorManager:
    """Where reported failures wait for aclGetRecentErrMsg."""

    def __init__(self) -> None:
        self.process_mode = False  # acl.json err_msg_mode "1"
        self._local = threading.local()
        self._shared = ErrorStore()
        self._lock = threading.Lock()

    def _store(self) -> ErrorStore:
        if self.process_mode:
            return self._shared
        store = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = ErrorStore()
        return store

    def report(self, msg_id: str, text: str) -> None:
        if self.process_mode:
            text = f"{text}[THREAD:{threading.get_native_id()}]"
        entry = Entry(msg_id, text, timestamp(), os.getpid())
        with self._lock:
            self._store().add(entry)

    def relay(self, text: str) -> None:
        """A message a real library's aclGetRecentErrMsg gave (the ascend backend), kept as it is."""
        with self._lock:
            self._store().add(Entry(RELAYED, text, "", os.getpid()))

    def recent(self) -> str | None:
        with self._lock:
            return self._store().drain()
