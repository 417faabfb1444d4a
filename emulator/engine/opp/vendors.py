"""``vendors/config.ini``: the load order of vendor op packages (opbase's vendor-priority reader).

Emulates the real reader: lines are read one by one
with ``\\r``/``\\n`` stripped; empty lines and lines starting with ``#`` are skipped; the first line
that contains ``priority`` decides, and everything after its first ``=`` is split on ``,``.

Fidelity notes:
- Names are not trimmed (``priority=a, b`` names the vendor ``" b"``), as in the real reader.
- Empty names (``priority=a,,b`` or ``priority=``) are dropped; the real reader would build the
  path ``vendors//op_impl/…``, which never names a vendor package.
- An unreadable or missing file means "no vendors", never an error.
"""

from __future__ import annotations

from pathlib import Path

from emulator.config_files import ConfigFileRefused, read_config_text


def _significant_lines(text: str) -> list[str]:
    lines = (line.strip("\r\n") for line in text.split("\n"))
    return [line for line in lines if line and not line.startswith("#")]


def parse_vendors_config(path: Path | str) -> list[str]:
    """The vendor names listed by a ``config.ini``, in priority order (highest first)."""
    try:
        text = read_config_text(path)  # a FIFO or device named config.ini is never opened
    except ConfigFileRefused as exc:
        if exc.unreadable:
            return []
        text = Path(path).read_bytes().decode("utf-8", errors="replace")  # a regular file: read as bytes
    for line in _significant_lines(text):
        if "priority" not in line:
            continue
        _, sep, names = line.partition("=")
        return [name for name in names.split(",") if name] if sep else []
    return []
