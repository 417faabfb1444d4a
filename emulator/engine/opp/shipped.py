"""What was parsed from the shipped op package, kept for the OS process.

Every emulated process loads its op packages as a real process does: it finds them, merges the
ops-info files and reads an op's binary config when the op is first used. The package this
installation ships cannot change under a running program (it changes when it is rebuilt), yet
parsing it again is most of what starting an emulated process costs, and a test run starts
thousands. So the parsed result of shipped files is kept, keyed on each file's identity (device,
inode, size, modification and change times): an edited or replaced file is read again. Files of
every other package (``ASCEND_OPP_PATH`` copies, custom and vendor packages) are always read, so a
test that damages a package file sees its damage.

Only results that nothing mutates are kept: the merged ops-info (read through ``op_file``),
binary configs (frozen records), the kernel-key schema built from one (read only once built) and
the checked kernel JSON of a bin (read only: the core type, compile info and parameters).
A refused file is never kept, so its refusal is logged each time.

An identity costs one ``stat`` once the file's real path is known: resolving a path walks every
component (a dozen ``lstat`` calls in Python), which was most of an op's first call in a process
whose OS process had already parsed the package. The real path of a shipped file is remembered
with the ``stat`` it was found with; a later ``stat`` of the same name that gives another device,
inode, size or time resolves it again. The same device and inode is the same file, whatever
links lead to it, so the remembered real path is still where its content lives.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

FileIdentity = tuple[str, int, int, int, int, int]

_kept: dict[tuple[Any, ...], Any] = {}
_identities: dict[str, FileIdentity] = {}  # a shipped file's name -> its identity when last resolved
_lock = threading.Lock()
_O_PATH: int = getattr(os, "O_PATH", 0) if sys.platform == "linux" else 0


@cache
def _shipped_root() -> str:
    # imported here: jsonio, which discovery imports, uses this module
    from emulator.engine.opp.discovery import shipped_opp_path

    return str(shipped_opp_path()) + os.sep


def identity(path: Path) -> FileIdentity | None:
    """The file's identity if it belongs to the shipped package, else None (never kept)."""
    name = os.fspath(path)
    try:
        info = os.stat(name)
    except OSError:
        return None
    known = _identities.get(name)
    if (
        known is not None
        and known[0].startswith(_shipped_root())
        and known[1:]
        == (
            info.st_dev,
            info.st_ino,
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
        )
    ):
        return known
    try:
        resolved = real_path(name, info.st_mode)
        if not resolved.startswith(_shipped_root()):
            return None
        info = os.stat(resolved)
    except OSError:
        return None
    found = (resolved, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    with _lock:
        _identities[name] = found
    return found


def real_path(name: str, mode: int) -> str:
    """``os.path.realpath(name)`` of an existing file or directory (``mode``: its ``st_mode``).

    ``realpath`` walks the path in Python, an ``lstat`` per component (40 µs for a package file);
    on Linux the kernel resolves it in one ``open(O_PATH)`` (which reads nothing, and is only made
    for a regular file or a directory), and ``/proc/self/fd`` names what it resolved to. Anything
    unusual (no ``/proc``, the file gone meanwhile) takes ``realpath``.
    """
    if _O_PATH and (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        try:
            fd = os.open(name, _O_PATH | os.O_CLOEXEC)
        except OSError:
            return os.path.realpath(name)
        try:
            found = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            found = ""
        finally:
            os.close(fd)
        if found.startswith("/") and not found.endswith(" (deleted)"):
            return found
    return os.path.realpath(name)


def is_within(resolved: str, directory: str) -> bool:
    """``Path(resolved).is_relative_to(directory)`` for two resolved (absolute, normalised) paths,
    without building either Path (pathlib's parsing was a tenth of an op's first call)."""
    return resolved == directory or resolved.startswith(directory if directory.endswith(os.sep) else directory + os.sep)


def resolved_path(path: Path) -> str | None:
    """The real path of a shipped file from its remembered identity (one ``stat``); None for any other."""
    found = identity(path)
    return found[0] if found is not None else None


def forget() -> None:
    """Drop everything kept, as a new OS process starts: for tests and the first-call benchmark."""
    with _lock:
        _kept.clear()
        _identities.clear()


def key_of(kind: str, paths: Sequence[Path], extra: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """The key of a result built from ``paths`` (and ``extra``); None unless every path is shipped."""
    identities = [identity(path) for path in paths]
    if any(found is None for found in identities):
        return None
    return (kind, *identities, extra)


def kept(key: tuple[Any, ...] | None) -> Any | None:
    if key is None:
        return None
    with _lock:
        return _kept.get(key)


def keep(key: tuple[Any, ...] | None, value: T) -> T:
    if key is not None:
        with _lock:
            _kept[key] = value
    return value


def read_kept(kind: str, path: Path, read: Callable[[], T], extra: tuple[Any, ...] = ()) -> T:
    """``read()``'s result for a shipped file, parsed once per OS process; other files always read."""
    key = key_of(kind, [path], extra)
    found = kept(key)
    if found is not None:
        return found
    return keep(key, read())
