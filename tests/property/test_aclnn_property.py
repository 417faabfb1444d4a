"""Property: random create / get / init / destroy sequences through the aclnn face never raise and keep exact books.

Each example runs in its own emulated process (not strict). Arguments are drawn from valid and
invalid ranges — null handles and arrays, counts that disagree with the arrays, destroyed handles,
odd dtype and format integers — but always of the right Python type, so the only exception the
face may raise (TypeError) never applies. After every step the registry's live count, per kind,
equals what a shadow model says was created minus destroyed (lists destroy their members),
and every status is one the real library can return for that call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import aclnn, process

KINDS = ("tensor", "scalar", "int_array", "float_array", "bool_array", "tensor_list", "scalar_list")
OK = aclnn.ACLNN_SUCCESS
NULLPTR = aclnn.ACLNN_ERR_PARAM_NULLPTR

dims = st.lists(st.integers(-3, 6), max_size=5)
big_dims = st.lists(st.integers(1, 2), min_size=24, max_size=28)
maybe_dims = st.one_of(st.none(), dims, big_dims)
count_delta = st.sampled_from([0, 0, 0, -1, 1, 2, "zero", "negative"])
dtypes = st.one_of(st.sampled_from(list(aclnn.aclDataType)), st.sampled_from([5, 14, 28, 42, 999, -2]))
formats = st.one_of(st.sampled_from(list(aclnn.aclFormat)), st.sampled_from([5, 77, 0xFF, 0x1003, -9]))
addresses = st.one_of(st.none(), st.just(0), st.integers(1, 2**48))
offsets = st.integers(-(2**40), 2**40)
picks = st.integers(0, 1000)  # an index into the pool of handles made so far (modulo its size)

scalar_values = st.one_of(
    st.none(),
    st.integers(-1000, 1000),
    st.floats(-1000, 1000, allow_nan=False),
    st.booleans(),
    st.binary(max_size=20),
)

tensor_op = st.tuples(
    st.just("tensor"),
    maybe_dims,
    count_delta,
    dtypes,
    st.one_of(st.none(), dims),
    offsets,
    formats,
    maybe_dims,
    count_delta,
    addresses,
)
scalar_op = st.tuples(st.just("scalar"), scalar_values, dtypes)
int_array_op = st.tuples(
    st.just("int_array"), st.one_of(st.none(), st.lists(st.integers(-(2**63), 2**63 - 1))), count_delta
)
float_array_op = st.tuples(
    st.just("float_array"), st.one_of(st.none(), st.lists(st.floats(width=32, allow_nan=False))), count_delta
)
bool_array_op = st.tuples(st.just("bool_array"), st.one_of(st.none(), st.lists(st.booleans())), count_delta)
list_op = st.tuples(
    st.sampled_from(["tensor_list", "scalar_list"]),
    st.one_of(st.none(), st.lists(st.one_of(st.none(), picks), max_size=4)),
    count_delta,
)
get_op = st.tuples(st.just("get"), st.one_of(st.none(), picks), st.integers(0, 10))
init_op = st.tuples(
    st.just("init"),
    st.one_of(st.none(), picks),
    maybe_dims,
    count_delta,
    dtypes,
    st.one_of(st.none(), dims),
    offsets,
    formats,
    maybe_dims,
    count_delta,
    addresses,
)
raw_op = st.tuples(st.just("raw"), st.one_of(st.none(), picks), addresses)
destroy_op = st.tuples(st.just("destroy"), st.one_of(st.none(), picks))
operations = st.lists(
    st.one_of(
        tensor_op, scalar_op, int_array_op, float_array_op, bool_array_op, list_op, get_op, init_op, raw_op, destroy_op
    ),
    min_size=1,
    max_size=40,
)


def count_for(values: list[Any] | None, delta: int | str) -> int:
    """A count argument: the array's length shifted by delta, or 0, or negative."""
    if delta == "zero":
        return 0
    if delta == "negative":
        return -1
    return max(0, (0 if values is None else len(values)) + int(delta))


def fits(values: list[Any] | None, count: int) -> bool:
    """Whether a (values, count) pair is one whose behaviour is fully defined: null, or count within the array."""
    return values is None or 0 <= count <= len(values)


@dataclass
class Model:
    """Which handles the test made, and which of them it believes are alive."""

    handles: list[Any] = field(default_factory=list)
    alive: dict[int, bool] = field(default_factory=dict)

    def add(self, handle: Any) -> None:
        self.handles.append(handle)
        self.alive[id(handle)] = True

    def pick(self, index: int | None, kinds: tuple[str, ...] = KINDS) -> Any:
        candidates = [h for h in self.handles if h.kind in kinds]
        if index is None or not candidates:
            return None
        return candidates[index % len(candidates)]

    def destroy(self, handle: Any) -> None:
        if handle is None or not self.alive[id(handle)]:
            return
        if handle.kind in ("tensor_list", "scalar_list"):
            for member in handle.values:
                self.destroy(member)
        self.alive[id(handle)] = False

    def live(self, kind: str) -> int:
        return sum(1 for h in self.handles if h.kind == kind and self.alive[id(h)])


DESTROY = {
    "tensor": aclnn.aclDestroyTensor,
    "scalar": aclnn.aclDestroyScalar,
    "int_array": aclnn.aclDestroyIntArray,
    "float_array": aclnn.aclDestroyFloatArray,
    "bool_array": aclnn.aclDestroyBoolArray,
    "tensor_list": aclnn.aclDestroyTensorList,
    "scalar_list": aclnn.aclDestroyScalarList,
}
GETTERS = {
    "tensor": [
        aclnn.aclGetViewShape,
        aclnn.aclGetStorageShape,
        aclnn.aclGetViewStrides,
        aclnn.aclGetViewOffset,
        aclnn.aclGetFormat,
        aclnn.aclGetDataType,
        aclnn.aclGetRawTensorAddr,
    ],
    "int_array": [aclnn.aclGetIntArraySize],
    "float_array": [aclnn.aclGetFloatArraySize],
    "bool_array": [aclnn.aclGetBoolArraySize],
    "tensor_list": [aclnn.aclGetTensorListSize],
    "scalar_list": [aclnn.aclGetScalarListSize],
}
ALL_GETTERS = [g for getters in GETTERS.values() for g in getters]
CLASSES = {
    "tensor": aclnn.aclTensor,
    "scalar": aclnn.aclScalar,
    "int_array": aclnn.aclIntArray,
    "float_array": aclnn.aclFloatArray,
    "bool_array": aclnn.aclBoolArray,
    "tensor_list": aclnn.aclTensorList,
    "scalar_list": aclnn.aclScalarList,
}


def create(model: Model, op: tuple[Any, ...]) -> None:
    """Run one creator; check nullptr where the real library returns it and non-null where it guarantees an object."""
    kind = op[0]
    if kind == "tensor":
        _, view, view_delta, dtype, stride, offset, fmt, storage, storage_delta, addr = op
        view_n, storage_n = count_for(view, view_delta), count_for(storage, storage_delta)
        result = aclnn.aclCreateTensor(view, view_n, dtype, stride, offset, fmt, storage, storage_n, addr)
        if (view is None and view_n != 0) or (storage is None and storage_n != 0):
            assert result is None
        elif fits(view, view_n) and fits(storage, storage_n) and fits(stride, view_n):
            assert result is not None
    elif kind == "scalar":
        _, value, dtype = op
        result = aclnn.aclCreateScalar(value, dtype)
        if value is None or dtype in (13, 29, 30, 33, -1, 5, 14, 28, 42, 999, -2):
            assert result is None
    elif kind in ("int_array", "float_array", "bool_array"):
        _, values, delta = op
        size = count_for(values, delta)
        creator = {
            "int_array": aclnn.aclCreateIntArray,
            "float_array": aclnn.aclCreateFloatArray,
            "bool_array": aclnn.aclCreateBoolArray,
        }[kind]
        result = creator(values, size)
        if fits(values, size):
            assert result is not None
            assert len(result.values) == (0 if values is None else size)
    else:
        _, indices, delta = op
        member_kind = "tensor" if kind == "tensor_list" else "scalar"
        values = None if indices is None else [model.pick(i, (member_kind,)) for i in indices]
        size = count_for(values, delta)
        creator = aclnn.aclCreateTensorList if kind == "tensor_list" else aclnn.aclCreateScalarList
        result = creator(values, size)
        if fits(values, size):
            assert result is not None
            assert list(result.values) == ([] if values is None else values[:size])
    if result is not None:
        assert isinstance(result, CLASSES[kind])
        model.add(result)


def step(model: Model, op: tuple[Any, ...]) -> None:
    """Run one operation and check the status it returned."""
    kind = op[0]
    if kind in KINDS:
        create(model, op)
    elif kind == "get":
        _, index, which = op
        handle = model.pick(index, tuple(GETTERS))
        getters = ALL_GETTERS if handle is None else GETTERS[handle.kind]
        _, ret = getters[which % len(getters)](handle)
        assert ret == (NULLPTR if handle is None else OK)
    elif kind == "init":
        _, index, view, view_delta, dtype, stride, offset, fmt, storage, storage_delta, addr = op
        tensor = model.pick(index, ("tensor",))
        view_n, storage_n = count_for(view, view_delta), count_for(storage, storage_delta)
        ret = aclnn.aclInitTensor(tensor, view, view_n, dtype, stride, offset, fmt, storage, storage_n, addr)
        assert ret == (NULLPTR if tensor is None else OK)
    elif kind == "raw":
        _, index, addr = op
        tensor = model.pick(index, ("tensor",))
        assert aclnn.aclSetRawTensorAddr(tensor, addr) == (NULLPTR if tensor is None else OK)
        raw, ret = aclnn.aclGetRawTensorAddr(tensor)
        assert ret == (NULLPTR if tensor is None else OK)
        if tensor is not None:
            assert raw == (addr or 0)
    else:
        _, index = op
        handle = model.pick(index)
        destroy = DESTROY[handle.kind] if handle is not None else DESTROY["tensor"]
        assert destroy(handle) == OK
        model.destroy(handle)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
def test_random_aclnn_sequences_never_raise_and_keep_exact_books(ops: list[tuple[Any, ...]]) -> None:
    """Random create / get / init / destroy sequences never raise, and live handles = created − destroyed."""
    with process.fresh() as proc:
        proc.strict = False
        model = Model()
        for op in ops:
            step(model, op)
            for kind in KINDS:
                assert proc.registry.count(kind) == model.live(kind), (kind, op)
            assert proc.registry.count() == sum(model.live(kind) for kind in KINDS)
        for handle in model.handles:
            assert handle.alive is model.alive[id(handle)]
