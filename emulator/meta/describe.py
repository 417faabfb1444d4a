"""How every report names an aclnn object: by what the user gave it, so one among many can be told apart.

Leak reports, sanitizer reports and the kernels' own checks all use this, so a tensor reads the
same everywhere — its view shape, the aclDataType and the format aclCreateTensor was given
(``shape [2, 4], ACL_FLOAT16, NCHW``); a scalar by its type and value, an array by its values, a
list by its length. The names are the user's (ACL_FLOAT16), not the graph engine's (DT_FLOAT16).
"""

from __future__ import annotations

from emulator.meta import acl_objects
from emulator.meta.dtypes import aclDataType
from emulator.meta.formats import aclFormat
from emulator.meta.objects import (
    Handle,
    aclBoolArray,
    aclFloatArray,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclTensor,
    aclTensorList,
)

SHOWN_VALUES = 8  # an array longer than this is shown by its first values and its length


def dtype_label(dtype: int) -> str:
    try:
        return aclDataType(dtype).name
    except ValueError:
        return f"data type {dtype}"


def format_label(fmt: int) -> str:
    try:
        return aclFormat(fmt).name.removeprefix("ACL_FORMAT_").removeprefix("ACL_")
    except ValueError:
        return f"format {fmt}"


def contents(obj: object) -> str:
    """What the object holds, or "" for anything that is not an aclnn parameter object."""
    if isinstance(obj, aclTensor):
        return f"shape {list(obj.view_shape)}, {dtype_label(obj.dtype)}, {format_label(obj.view_format)}"
    if isinstance(obj, aclScalar):
        value = obj.value()
        return f"{dtype_label(obj.dtype)} {value}" if value is not None else dtype_label(obj.dtype)
    if isinstance(obj, (aclTensorList, aclScalarList)):
        return f"{len(obj.values)} member(s)"
    if isinstance(obj, (aclIntArray, aclFloatArray, aclBoolArray)):
        values = [v.item() if hasattr(v, "item") else v for v in obj.values[:SHOWN_VALUES]]
        more = f" … {len(obj.values)} values" if len(obj.values) > SHOWN_VALUES else ""
        return f"values {values}{more}"
    return acl_objects.contents(obj)


def describe(obj: Handle) -> str:
    """The object with its type and address: ``aclTensor 0x7f… (shape [4], ACL_FLOAT, ND)``."""
    name = f"{type(obj).__name__} {obj.key:#x}"
    shown = contents(obj)
    return f"{name} ({shown})" if shown else name
