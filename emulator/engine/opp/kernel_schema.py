"""The shape a kernel JSON must have before anything reads it.

The launch reads a bin's kernel JSON in several places (its core type and task ratio for the core
count, its kernel list for a workspace, its parameters for atomic clean); each of them assumes
the field's JSON type. A package file with ``"kernelList": 5`` or ``"parameters": 5`` used to
raise a TypeError deep in phase 1 or 2. The file is checked once, where it is read, and a file
of the wrong shape is refused like an unparsable one (a refusal record, the op's kernel JSON is
then unavailable, and the call fails as it does for a missing file).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from emulator.engine.opp.jsontypes import json_type

# the fields the emulator reads, and the JSON type each must have when present
FIELDS: dict[str, tuple[type, str]] = {
    "kernelList": (list, "an array"),
    "parameters": (list, "an array"),
    "coreType": (str, "a string"),
    "taskRation": (str, "a string"),
    "workspace": (dict, "an object"),
}


def kernel_json_problem(data: dict[str, Any]) -> str | None:
    """Why ``data`` cannot be used as a kernel JSON, or None when it can."""
    for key, (kind, expected) in FIELDS.items():
        value = data.get(key)
        if value is not None and not isinstance(value, kind):
            return f'"{key}" is {json_type(value)}, not {expected}'
    for i, kernel in enumerate(data.get("kernelList") or []):
        if not isinstance(kernel, dict):
            return f'"kernelList"[{i}] is {json_type(kernel)}, not an object'
    for i, param in enumerate(data.get("parameters") or []):
        if param is None:
            continue
        if not isinstance(param, dict):
            return f'"parameters"[{i}] is {json_type(param)}, not an object or null'
        dtype = param.get("dtype")
        if dtype is not None:
            try:
                np.dtype("float32" if dtype == "float" else dtype)
            except TypeError:
                return f'"parameters"[{i}].dtype {dtype!r} is not a data type'
        init = param.get("init_value", 0)
        if isinstance(init, bool) or not isinstance(init, int | float):
            return f'"parameters"[{i}].init_value is {json_type(init)}, not a number'
    return None
