"""The JSON types an ops-info file must have in the fields the emulator reads.

Of an ops-info description the emulator reads one thing: ``<Op>.opFile.value``, the extra
binary-config name searched for the op. Each file is checked before it is merged, so a file
whose op is a number, whose ``opFile`` is a string or whose ``value`` is an array is refused with
a reason naming the field (``ops-info Add.opFile.value is a number, not a string``), like a file
that does not parse, instead of being half-used. Fields nothing reads (the dtype and format lists,
``dynamicShapeSupport`` …) may hold anything.
"""

from __future__ import annotations

from typing import Any

from emulator.engine.opp.jsontypes import FieldTypeError, as_object, opt_object, opt_str


def ops_info_problem(data: dict[str, Any]) -> str | None:
    """Why ``data`` cannot be merged as an ops-info file, or None when it can."""
    try:
        for op_type, entry in data.items():
            if entry is None:  # a merge patch's delete of a lower-priority description
                continue
            where = f"ops-info {op_type}"
            op_file = opt_object(as_object(entry, where), "opFile", where)
            if op_file is not None:
                opt_str(op_file, "value", f"{where}.opFile")
    except FieldTypeError as exc:
        return str(exc)
    return None
