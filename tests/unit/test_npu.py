"""emulator.npu: the Pythonic layer over the acl and aclnn faces (numpy in, numpy out).

Real values against numpy for ops of every shape of signature (tensor + scalar, tensor pair,
unary, reduction with an int array and a dtype, an int64 attribute, matmul, a tensor list, a
dtype attribute), the real statuses and messages on failure, nothing left alive by a session
(also after an exception), and a loop over the whole registry proving the converter takes every
parameter of every op and reaches the op's own null check.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import ml_dtypes
import numpy as np
import pytest

from emulator import acl, aclnn, npu, process
from emulator.leaks import leak_report
from emulator.status import AclnnStatus

BF16 = np.dtype(ml_dtypes.bfloat16)


@pytest.fixture
def s(emu: process.EmulatedProcess) -> Iterator[npu.Session]:
    with npu.Session() as session:
        yield session
    assert emu.registry.live() == []


def test_add_with_alpha_and_broadcast(s: npu.Session) -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    out = s.call("aclnnAdd", s.tensor(x), s.tensor(y), s.scalar(2.5, np.float32))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out.numpy(), x + 2.5 * y, rtol=1e-6)
    # a Python number becomes the scalar; numpy arrays become device copies for the call
    np.testing.assert_allclose(s.ops.add(x, y, alpha=1).numpy(), x + y, rtol=1e-6)


def test_mul_int32_into_a_requested_output(s: npu.Session) -> None:
    x = np.arange(-6, 6, dtype=np.int32).reshape(3, 4)
    y = np.full((3, 4), 3, dtype=np.int32)
    out = s.call("aclnnMul", x, y, npu.Out((3, 4), np.int32))
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out.numpy(), x * y)
    # the (shape, dtype) tuple is the same request
    np.testing.assert_array_equal(s.ops.mul(x, y, ((3, 4), np.int32)).numpy(), x * y)


@pytest.mark.parametrize(
    ("api", "golden"),
    [("aclnnExp", np.exp), ("aclnnAbs", np.abs), ("aclnnNeg", np.negative), ("aclnnTanh", np.tanh)],
)
def test_unary(s: npu.Session, api: str, golden: Callable[[np.ndarray], np.ndarray]) -> None:
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_allclose(s.call(api, x).numpy(), golden(x), rtol=1e-5, atol=1e-6)


def test_unary_on_a_strided_view(s: npu.Session) -> None:
    """A view with strides and an offset into a longer storage: the op reads only the view."""
    storage = np.arange(10, dtype=np.float32)
    base = s.tensor(storage)
    view = base.view((2, 2), (4, 2), 1)  # elements 1, 3, 5, 7
    np.testing.assert_array_equal(view.numpy(), [[1, 3], [5, 7]])
    np.testing.assert_array_equal(s.ops.neg(view).numpy(), [[-1, -3], [-5, -7]])
    same = s.tensor(storage, shape=(2, 2), strides=(4, 2), offset=1)
    np.testing.assert_array_equal(same.numpy(), view.numpy())


@pytest.mark.parametrize("keepdim", [False, True])
def test_reduce_sum_with_dims_keepdim_and_dtype(s: npu.Session, keepdim: bool) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    expected = x.sum(axis=(0, 2), keepdims=keepdim)
    out = s.call(
        "aclnnReduceSum", x, dims=[0, 2], keep_dims=keepdim, dtype=np.float32, out=npu.Out(expected.shape, np.float32)
    )
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    # the C names bind too, and an aclDataType value is taken as is
    again = s.ops.reduce_sum(
        x, dims=[0, 2], keepDims=keepdim, dtype=npu.acl_dtype(np.float32), out=(expected.shape, np.float32)
    )
    np.testing.assert_allclose(again.numpy(), expected, rtol=1e-6)


def test_softmax(s: npu.Session) -> None:
    x = np.random.default_rng(0).normal(size=(3, 5)).astype(np.float32)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(s.ops.softmax(x, -1).numpy(), e / e.sum(-1, keepdims=True), rtol=1e-5)


def test_matmul(s: npu.Session) -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 3)).astype(np.float32)
    b = rng.normal(size=(3, 5)).astype(np.float32)
    out = s.call("aclnnMatmul", a, b, npu.Out((4, 5), np.float32), 0)
    np.testing.assert_allclose(out.numpy(), a @ b, rtol=1e-5, atol=1e-6)


def test_cat_takes_a_tensor_list_and_leaves_its_members_usable(s: npu.Session) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.full((1, 3), 9, dtype=np.float32)
    ta = s.tensor(a)
    out = s.call("aclnnCat", [ta, b], 0, npu.Out((3, 3), np.float32))
    np.testing.assert_array_equal(out.numpy(), np.concatenate([a, b]))
    # the list owned fresh aclTensors over ta's memory: ta itself is still alive
    np.testing.assert_array_equal(ta.numpy(), a)
    lst = s.tensor_list([ta, ta])
    np.testing.assert_array_equal(s.ops.cat(lst, 1, npu.Out((2, 6), np.float32)).numpy(), np.concatenate([a, a], 1))


@pytest.mark.parametrize("dst", [np.int32, np.float16, BF16])
def test_cast(s: npu.Session, dst: np.dtype) -> None:
    x = np.array([[-2.5, 0.0, 1.25], [3.0, 7.5, -8.0]], dtype=np.float32)
    out = s.call("aclnnCast", x, dst, npu.Out(x.shape, dst))
    assert out.dtype == np.dtype(dst)
    np.testing.assert_array_equal(out.numpy(), x.astype(dst))


def test_bfloat16_round_trip_and_dtype_mapping(s: npu.Session) -> None:
    x = np.array([1.5, -2.0, 3.25], dtype=BF16)
    t = s.tensor(x)
    assert t.acl_dtype == acl_dtype_value("ACL_BF16")
    np.testing.assert_array_equal(t.numpy(), x)
    assert npu.acl_dtype(np.float16) == acl_dtype_value("ACL_FLOAT16")
    assert npu.host_dtype(acl_dtype_value("ACL_BF16")) == BF16


def acl_dtype_value(name: str) -> int:
    return int(getattr(aclnn, name))


def test_in_place_op_returns_the_tensor_it_wrote(s: npu.Session) -> None:
    x = np.arange(4, dtype=np.float32)
    t = s.tensor(x)
    assert s.ops.inplace_add(t, np.ones(4, np.float32), 3) is t
    np.testing.assert_array_equal(t.numpy(), x + 3)


def test_optional_outputs_left_out_are_nullptr(s: npu.Session) -> None:
    x = np.random.default_rng(2).normal(size=(2, 8)).astype(np.float32)
    out = s.call("aclnnLayerNorm", x, [8], None, None, 1e-5)
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), (x - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)


def test_mismatched_shapes_raise_the_real_status_and_message(emu: process.EmulatedProcess) -> None:
    with npu.Session() as s:
        x = s.tensor(np.ones((2, 3), np.float32))
        with pytest.raises(npu.NpuError) as info:
            s.call("aclnnAdd", x, np.ones((4,), np.float32), 1.0, npu.Out((2, 3), np.float32))
        err = info.value
        assert err.status == AclnnStatus.ACLNN_ERR_PARAM_INVALID == 161002
        assert err.api == "aclnnAddGetWorkspaceSize"
        assert "cannot broadcast" in (err.recent_message or "")
        assert "161002" in str(err)
        # the call's temporaries (y's copy, alpha, the requested out) are gone already: only x is alive
        assert emu.registry.count("tensor") == 1
    assert emu.registry.live() == []


def test_null_argument_raises_161001(s: npu.Session) -> None:
    with pytest.raises(npu.NpuError) as info:
        s.call("aclnnMul", np.ones(2, np.float32), None, None)
    assert info.value.status == AclnnStatus.ACLNN_ERR_PARAM_NULLPTR


def test_bad_arguments_are_type_errors(s: npu.Session) -> None:
    with pytest.raises(ValueError, match="not an op"):
        s.call("aclnnNoSuchOp")
    with pytest.raises(TypeError, match="missing argument 'other'"):
        s.call("aclnnMul", np.ones(2, np.float32))
    with pytest.raises(TypeError, match="no parameter"):
        s.call("aclnnMul", np.ones(2, np.float32), np.ones(2, np.float32), bogus=1)
    with pytest.raises(AttributeError):
        _ = s.ops.no_such_op


def test_session_leaves_nothing_alive_and_finalizes(emu: process.EmulatedProcess) -> None:
    with npu.Session() as s:
        x = s.tensor(np.ones((2, 2), np.float32))
        s.scalar(1.0)
        s.int_array([1, 2])
        s.float_array([0.5])
        s.bool_array([True])
        s.scalar_list([1, 2])
        s.tensor_list([x, np.zeros(2, np.float32)])
        s.malloc(64)
        s.ops.add(x, x, 1.0)
        assert emu.registry.live() != []
    assert emu.registry.live() == []
    report = leak_report()
    assert not report and report.caches == []  # no leaks, and aclnnFinalize released the tiling caches
    assert acl.init() == 0  # acl.finalize ran: a new init is a first init
    assert acl.finalize() == 0


def test_session_tears_down_after_an_exception(emu: process.EmulatedProcess) -> None:
    with pytest.raises(KeyError, match="boom"), npu.Session() as s:
        s.tensor(np.ones(3, np.float32))
        s.ops.exp(np.ones(3, np.float32))
        raise KeyError("boom")
    assert emu.registry.live() == []


def test_session_borrows_an_initialised_runtime(emu: process.EmulatedProcess) -> None:
    """Inside someone else's acl.init the session drops only its own reference and leaves aclnn's
    lifecycle (aclnnInit / aclnnFinalize) to that owner."""
    assert acl.init() == 0
    with npu.Session() as s:
        s.ops.neg(np.ones(2, np.float32))
    assert {r.kind for r in emu.registry.live()} == {"tiling_parse"}  # released by the owner's aclnnFinalize
    assert acl.init() == 100002  # still initialised by the outer owner
    assert aclnn.aclnnFinalize() == 0
    assert acl.finalize() == 0
    assert emu.registry.live() == []


def test_release_destroys_early(emu: process.EmulatedProcess, s: npu.Session) -> None:
    t = s.tensor(np.ones(2, np.float32))
    before = emu.registry.count("tensor")
    s.release(t)
    assert not t.alive
    assert emu.registry.count("tensor") == before - 1
    s.release(t)  # a second release is a no-op


def test_every_registry_param_is_convertible() -> None:
    """Every C parameter of every op's phase 1 is of a kind Session.call converts."""
    unconvertible = [(api, p.c_decl) for api in npu.apis() for p in npu.signature(api).inputs if not npu.converts(p)]
    assert unconvertible == []
    names = [npu.snake(api.removeprefix("aclnn")) for api in npu.apis()]
    assert len(set(names)) == len(names)


# ops whose real null check returns another status: aclnnStack's CheckParams returns 561103 for it
NULL_STATUS = {
    api: AclnnStatus.ACLNN_ERR_INNER_NULLPTR
    for api in ("aclnnStack", "aclnnBitwiseNot", "aclnnLinspace", "aclnnUpsampleBilinear2d", "aclnnTriangularSolve")
}
DATA_DEPENDENT = ("aclnnNonzero",)  # an int64 index out of the worst-case shape, not one like self


@pytest.mark.parametrize("api", npu.apis())
def test_every_op_goes_through_the_converter_to_its_null_check(s: npu.Session, api: str) -> None:
    """Every op called through Session.call with nullptr handles reaches its own null check (161001; 561103
    for the ops whose real null check returns that), so each argument was converted and bound in C order,
    and the call leaves nothing behind."""
    plain = {"int": 0, "float": 0.0, "bool": False, "str": None}
    args = [None if p.ctype.kind == "handle" else plain[p.ctype.kind] for p in npu.signature(api).inputs]
    with pytest.raises(npu.NpuError) as info:
        s.call(api, *args)
    assert info.value.status == NULL_STATUS.get(api, AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)
    assert info.value.api == f"{api}GetWorkspaceSize"


def test_every_elementwise_op_runs_with_omitted_outputs(s: npu.Session) -> None:
    """A tensor-in, tensor-out op with all its outputs left out runs on real values."""
    x = np.linspace(0.5, 2.0, 6, dtype=np.float32).reshape(2, 3)
    ran = []
    for api in npu.apis():
        params = npu.signature(api).inputs
        integer_only = api == "aclnnBitwiseNot"  # its list has no float32: 161002, as on the card
        if api in DATA_DEPENDENT:  # the caller sizes their out for the worst case (npu.Out)
            continue
        if all(npu.is_tensor(p) and p.name in ("self", "out") for p in params) and not integer_only:
            assert s.call(api, x).shape == (2, 3)
            ran.append(api)
    assert {"aclnnExp", "aclnnAbs", "aclnnSqrt", "aclnnRelu"} <= set(ran)


def test_npu_imports_only_the_faces_and_the_metadata() -> None:
    """emulator.npu is built only on the two faces (plus the registry's prototype table, the dtype
    table, statuses and the error base) and its own modules — never on the engine or the device."""
    import ast
    from pathlib import Path

    imported: set[str] = set()
    for path in sorted(Path(npu.__file__).parent.glob("*.py")):
        froms = [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.ImportFrom) and n.module]
        imported |= {node.module for node in froms if node.module}
        imported |= {f"emulator.{a.name}" for node in froms if node.module == "emulator" for a in node.names}
    own = {"emulator.npu.values", "emulator.npu.params", "emulator.npu.session"}
    allowed = {"__future__", "collections.abc", "dataclasses", "types", "typing", "functools", "re", "emulator",
               "emulator.acl", "emulator.aclnn", "emulator.errors", "emulator.status", "emulator.meta.dtypes",
               "emulator.capi.proto", "emulator.kernels", *own}  # fmt: skip
    assert imported <= allowed, imported - allowed
    assert own <= imported


def test_zero_d_and_empty_tensors_keep_their_shape(s: npu.Session) -> None:
    """A 0-d host array is a 0-d aclTensor (not 1-d), and an empty one reads back empty."""
    scalar = s.tensor(np.float32(2.5))
    assert scalar.shape == () and aclnn.aclGetViewShape(scalar.handle)[0] == []
    assert scalar.numpy().shape == () and scalar.numpy() == np.float32(2.5)
    empty = s.tensor(np.zeros((0, 3), np.float32))
    assert empty.numpy().shape == (0, 3)


def test_readme_example_runs(emu: process.EmulatedProcess, capsys: pytest.CaptureFixture[str]) -> None:
    """README.md's emulator.npu example runs as written and leaves nothing alive."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## The Pythonic layer: emulator.npu", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "161002" in out and "broadcast" in out
    assert emu.registry.live() == []


def test_a_failed_workspace_malloc_destroys_the_planned_executor(
    emu: process.EmulatedProcess, s: npu.Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Phase 1 planned an executor, the workspace malloc then fails: the error carries the malloc's
    status and the executor that never ran is destroyed (no leak)."""
    x = s.tensor(np.ones((3, 4), np.float16))
    y = s.tensor(np.ones((3, 4), np.float32))
    out = s.empty((3, 4), np.float32)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, s.scalar(1.5).handle, out.handle)
    assert ret == 0 and ws > 0  # this mixed-precision Add (Cast, then Axpy) needs a workspace
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0
    monkeypatch.setattr(acl.rt, "malloc", lambda size, policy: (0, 207001))  # ACL_ERROR_RT_MEMORY_ALLOCATION
    with pytest.raises(npu.NpuError) as info:
        s.call("aclnnAdd", x, y, 1.5, out)
    assert (info.value.api, int(info.value.status)) == ("aclrtMalloc", 207001)
    assert emu.registry.count("executor") == 0
    monkeypatch.undo()


def test_a_nullptr_from_a_create_function_is_an_npu_error_without_status(s: npu.Session) -> None:
    """aclCreateScalar returns nullptr (no status) for a dtype it does not take (ACL_STRING)."""
    with pytest.raises(npu.NpuError, match="aclCreateScalar returned nullptr") as info:
        s.scalar(b"\0" * 8, aclnn.ACL_STRING)
    assert info.value.status is None


def test_teardown_runs_in_the_canonical_order(emu: process.EmulatedProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/lifecycle_add.py's order: destroy what was created, free, then the stream, the device,
    aclnnFinalize and acl.finalize last."""
    calls: list[str] = []

    def spy(module: object, name: str) -> None:
        real = getattr(module, name)

        def wrapper(*args: object) -> object:
            calls.append(name)
            return real(*args)

        monkeypatch.setattr(module, name, wrapper)

    for name in ("destroy_stream", "reset_device", "free"):
        spy(acl.rt, name)
    for name in ("aclnnFinalize", "aclDestroyTensor", "aclDestroyScalar"):
        spy(aclnn, name)
    spy(acl, "finalize")
    with npu.Session() as s:
        s.tensor(np.ones(2, np.float32))
        s.scalar(1.0)
    assert calls == [
        "aclDestroyScalar", "aclDestroyTensor", "free", "destroy_stream", "reset_device", "aclnnFinalize", "finalize",
    ]  # fmt: skip
    assert emu.registry.live() == []


@pytest.mark.no_leaks
def test_a_session_passes_the_no_leaks_marker() -> None:
    """The pytest plugin's leak check (what a leak hunter's suite runs) finds nothing after a session."""
    with npu.Session() as s:
        np.testing.assert_allclose(s.ops.exp(np.ones(3, np.float32)).numpy(), np.exp(np.ones(3)), rtol=1e-6)
        seq, values = np.array([1.0, 2.0, 3.0], np.float32), np.array([2.5, 0.0], np.float32)
        # an AI CPU op: its task space lives until aclnnFinalize, which the session runs
        found = s.ops.search_sorted(seq, values, False, False, None, npu.Out((2,), np.int64))
        np.testing.assert_array_equal(found.numpy(), np.searchsorted(seq, values))
