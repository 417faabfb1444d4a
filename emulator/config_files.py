"""Reading a configuration file a program names (acl.json for aclInit and aclnnInit) without trusting it.

The path comes from the user, and the file behind it can be anything: a FIFO that blocks the
read forever, /dev/zero behind a config name (an endless read), a symlink loop, a file of
gigabytes, bytes that are not UTF-8, or JSON nested 100,000 levels deep (Python's parser then
raises RecursionError). The real runtime reads a regular file and hands it to its JSON parser,
which fails such input with a parse error; here each of these becomes a ``ConfigFileRefused`` with
the reason, raised before anything is read that should not be, and the caller turns it into the
status the real call returns (aclInit: 100003 for a file it cannot open, 100006 for one it cannot
parse; aclnnInit: debug kernels off, still 0).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_CONFIG_BYTES = 16 << 20  # an acl.json is kilobytes; a bigger "config" is not one
JSON_NESTING_LIMIT = 10  # the runtime's documented limit on nested objects / arrays in acl.json


class ConfigFileRefused(ValueError):
    """The file cannot be used; ``unreadable`` tells a file that cannot be opened from one that cannot be parsed."""

    def __init__(self, reason: str, *, unreadable: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.unreadable = unreadable


def read_config_text(path: str | os.PathLike[str], *, limit: int = MAX_CONFIG_BYTES) -> str:
    """The file's text: a regular file of at most ``limit`` bytes of UTF-8, or ConfigFileRefused."""
    try:
        resolved = Path(path).resolve(strict=True)
        info = os.stat(resolved)
    except RuntimeError:  # Python < 3.13 reports a symlink loop this way
        raise ConfigFileRefused("the path is a symbolic link loop", unreadable=True) from None
    except OSError as exc:
        raise ConfigFileRefused(exc.strerror or str(exc), unreadable=True) from None
    if not stat.S_ISREG(info.st_mode):
        raise ConfigFileRefused("not a regular file (a FIFO, device or directory is never read)", unreadable=True)
    if info.st_size > limit:
        too_big = f"the file is {info.st_size} bytes, more than the {limit} a config may have"
        raise ConfigFileRefused(too_big, unreadable=True)
    try:
        with open(resolved, "rb") as file:
            # sized by the stat, not the limit: read(n) allocates n bytes before it reads any
            data = file.read(min(info.st_size, limit) + 1)
            if len(data) > info.st_size:  # it grew since the stat: still read only this far
                data += file.read(limit + 1 - len(data))
    except OSError as exc:
        raise ConfigFileRefused(exc.strerror or str(exc), unreadable=True) from None
    if len(data) > limit:
        raise ConfigFileRefused(f"the file has more than the {limit} bytes a config may have", unreadable=True)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigFileRefused(f"not UTF-8 text (byte {exc.start}: {exc.reason})", unreadable=False) from None


def json_depth(text: str) -> int:
    """How deep the text's objects and arrays nest, counted in one pass without parsing.

    Checked before ``json.loads``, so a file nested beyond any limit costs one linear scan, never
    a RecursionError. Brackets inside strings do not count.
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "}]":
            depth -= 1
    return deepest
