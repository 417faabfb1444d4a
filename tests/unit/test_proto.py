"""Reading C declarations into prototype-table entries: directions, arrays, annotations, refusals."""

from __future__ import annotations

import pytest

from emulator.capi import parse


def test_out_parameters_are_dropped_and_returned() -> None:
    """T ** and a non-const pointer to a number are outputs; the Python arguments keep C order."""
    proto = parse("aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)", header="h")
    assert [p.name for p in proto.inputs] == ["size", "policy"]
    assert [p.name for p in proto.outputs] == ["devPtr"]
    assert proto.c_signature() == "aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)"


def test_an_out_array_and_its_count_come_back_as_one_list() -> None:
    """int64_t **dims[n] with uint64_t *n: one Python value, the list."""
    proto = parse("aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **d[n], uint64_t *n)", header="h")
    assert [p.name for p in proto.outputs] == ["d"]
    assert [p.ctype.kind for p in proto.params] == ["handle", "array", "int"]


def test_input_arrays_handles_and_host_values() -> None:
    """const T * is an array of T (with its count named); aclTensor * is an input handle; @host a value."""
    proto = parse(
        "aclScalar *f(const int64_t *v[size], uint64_t size, aclTensor *out, void *value @host, const char *name)",
        header="h",
    )
    kinds = [(p.name, p.ctype.kind, p.out, p.count) for p in proto.params]
    assert kinds == [
        ("v", "array", False, "size"),
        ("size", "int", False, None),
        ("out", "handle", False, None),
        ("value", "value", False, None),
        ("name", "str", False, None),
    ]
    assert proto.ret.kind == "handle"


@pytest.mark.parametrize(
    ("declaration", "problem"),
    [
        ("aclnnStatus f(const int64_t *a[n], uint64_t m)", "names no parameter"),
        ("aclnnStatus f(int64_t a, int64_t a)", "repeats"),
        ("aclnnStatus f(widget w)", "no C type"),
        ("not a declaration", "cannot read"),
    ],
)
def test_unreadable_declarations_are_refused(declaration: str, problem: str) -> None:
    """A declaration the table cannot read is an error at build time, never a silent unchecked entry."""
    with pytest.raises((ValueError, KeyError), match=problem):
        parse(declaration, header="h")
