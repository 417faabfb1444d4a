"""Creation and use sites in C code: the return address of a forwarder's caller, named when read.

A forwarder passes ``__builtin_return_address(0)`` — an address in the C program, just after its
call — and the bridge wraps it in a ``NativeSite`` for the duration of the call, which
``tracking.capture_site`` hands out instead of walking Python frames. Capturing costs one small
object; naming happens only when a report reads the site: ``dladdr`` gives the module (program or
shared library) and its load address, ``addr2line`` the file:line when the module has debug info
(``-g``), else the site is the function and offset (``main+0x2c``, from the module's symbol
tables) or, in a stripped module, the offset in the module.
Names are memoized per address, so a loop that creates a thousand tensors runs addr2line once.
"""

from __future__ import annotations

import bisect
import ctypes
import functools
import re
import shutil
import struct
import subprocess
from pathlib import Path

from emulator.tracking import Frame, Site

ET_EXEC = 2  # an ELF executable linked at a fixed address: addr2line takes the address itself


class _DlInfo(ctypes.Structure):
    _fields_ = [
        ("dli_fname", ctypes.c_char_p),
        ("dli_fbase", ctypes.c_void_p),
        ("dli_sname", ctypes.c_char_p),
        ("dli_saddr", ctypes.c_void_p),
    ]


_libc = ctypes.CDLL(None)
_dladdr = _libc.dladdr
_dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
_dladdr.restype = ctypes.c_int


class NativeFrame(Frame):
    """A C frame: ``file:line in function`` with debug info, ``module(function+0xoff)`` without."""

    __slots__ = ()

    def __str__(self) -> str:
        if self.line > 0:
            return super().__str__()
        return f"{self.file}({self.func})"


@functools.cache
def _is_fixed_address(module: str) -> bool:
    try:
        with open(module, "rb") as f:
            header = f.read(18)
    except OSError:
        return False
    return header[:4] == b"\x7fELF" and int.from_bytes(header[16:18], "little") == ET_EXEC


@functools.cache
def _addr2line(module: str, address: int) -> tuple[str, str, int] | None:
    """(function, file, line) from the module's symbols and debug info; None without addr2line."""
    tool = shutil.which("addr2line")
    if tool is None:
        return None
    try:
        done = subprocess.run(
            [tool, "-f", "-C", "-e", module, hex(address)], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) < 2:
        return None
    location = re.sub(r"\s*\(discriminator \d+\)$", "", lines[1].strip())
    file, _, line = location.rpartition(":")
    return lines[0].strip(), file, int(line) if line.isdigit() else 0


SHT_SYMTAB, SHT_DYNSYM, STT_FUNC = 2, 11, 2


@functools.cache
def _functions(module: str) -> tuple[tuple[int, int, str], ...]:
    """(start, size, name) of the functions in a 64-bit little-endian ELF module's symbol tables."""
    try:
        data = Path(module).read_bytes()
    except OSError:
        return ()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return ()
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    found: dict[int, tuple[int, int, str]] = {}
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind not in (SHT_SYMTAB, SHT_DYNSYM) or not entsize or link >= len(sections):
            continue
        strings = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name_at, info, _other, _index, value, length = struct.unpack_from("<IBBHQQ", data, at)
            if info & 0xF == STT_FUNC and value and value not in found:
                end = data.index(b"\0", strings + name_at)
                found[value] = (value, length, data[strings + name_at : end].decode(errors="replace"))
    return tuple(sorted(found.values()))


def _function_at(module: str, address: int) -> tuple[str, int] | None:
    """The function of ``module`` (by its symbol tables) holding link-time ``address``, and the offset in it."""
    functions = _functions(module)
    index = bisect.bisect_right(functions, (address, 1 << 64, "")) - 1
    if index < 0:
        return None
    start, length, name = functions[index]
    return (name, address - start) if address < start + max(length, 1) else None


@functools.cache
def resolve(address: int) -> NativeFrame:
    """The frame of the call whose return address is ``address``."""
    info = _DlInfo()
    if not address or not _dladdr(address - 1, ctypes.byref(info)) or not info.dli_fname:
        return NativeFrame("<unknown module>", 0, f"{address:#x}")
    module = info.dli_fname.decode(errors="replace")
    base = info.dli_fbase or 0
    offset = address - base
    call = (address if _is_fixed_address(module) else offset) - 1  # the call instruction, not the one after
    found = _addr2line(module, call)
    if found is not None and found[1] not in ("", "??") and found[2] > 0:
        return NativeFrame(found[1], found[2], found[0])
    function = _function_at(module, call + 1)
    if function is not None:
        demangled = found[0] if found is not None and found[0] not in ("", "??") else function[0]
        name = f"{demangled}+{function[1]:#x}"
    elif info.dli_sname:
        name = f"{info.dli_sname.decode(errors='replace')}+{address - (info.dli_saddr or 0):#x}"
    else:
        name = f"+{offset:#x}"  # a stripped module: the offset in it
    return NativeFrame(module, 0, name)


class NativeSite(Site):
    """Where a C program called the library: one frame, named when first read."""

    __slots__ = ("address",)

    def __init__(self, address: int) -> None:
        self._raw = ()  # what Site.__init__ sets, without the call: one NativeSite per registering C call
        self.address = address

    @property
    def stack(self) -> tuple[Frame, ...]:
        return (resolve(self.address),)

    @property
    def top(self) -> Frame | None:
        return resolve(self.address)

    def __str__(self) -> str:
        frame = resolve(self.address)
        return f"{frame.file}:{frame.line}" if frame.line > 0 else str(frame)

    def __repr__(self) -> str:
        return f"NativeSite({self.address:#x})"
