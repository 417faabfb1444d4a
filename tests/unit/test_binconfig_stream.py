"""The binary-config reader: the same syntax as json.loads, an entry at a time, in bounded memory."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.engine.keys import KeySchema, encode_attr_value
from emulator.engine.opp import BinEntry, JsonRefused, read_binary_config
from emulator.engine.opp.jsonstream import array_member

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
)
documents = st.dictionaries(st.sampled_from(["binList", "other", "b"]), values, max_size=4)


def _keep(value: Any, index: int) -> Any:
    return value


@settings(max_examples=200, deadline=None)
@given(documents, st.sampled_from([None, 0, 2]))
def test_the_member_is_what_json_loads_gives(document: dict[str, Any], indent: int | None) -> None:
    """Whatever the object holds and however it is spaced, binList comes out as json.loads reads it."""
    text = json.dumps(document, indent=indent)
    items, other = array_member(text, "binList", _keep)
    member = json.loads(text).get("binList")
    assert (items, other) == ((member, None) if isinstance(member, list) else (None, member))


@settings(max_examples=200, deadline=None)
@given(documents, st.data())
def test_broken_text_is_refused_when_json_loads_refuses_it(document: dict[str, Any], data: st.DataObject) -> None:
    """A cut or a changed character: an error if and only if json.loads raises one (never another exception)."""
    text = json.dumps(document)
    cut = data.draw(st.integers(0, len(text)))
    char = data.draw(st.sampled_from(["", "}", "]", ",", ":", '"', "x", " ", "[", "{"]))
    broken = text[:cut] + char + text[cut + 1 :]
    try:
        json.loads(broken)
        loads_ok = True
    except ValueError:
        loads_ok = False
    try:
        array_member(broken, "binList", _keep)
        ours_ok = True
    except ValueError:
        ours_ok = False
    assert ours_ok == loads_ok


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
        ("[1, 2]", "ValueError: top level is a JSON list, not an object"),
        ('{"binList": [{}] "x": 1}', "JSONDecodeError: Expecting ',' delimiter: line 1 column 18 (char 17)"),
        ('{"binList": []} {}', "JSONDecodeError: Extra data: line 1 column 17 (char 16)"),
        ('{"binList": [NaN]}', "ValueError: invalid literal NaN"),
    ],
)
def test_text_that_is_not_one_object_is_refused(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "op.json"
    path.write_text(text)
    with pytest.raises(JsonRefused) as refused:
        read_binary_config(path)
    assert refused.value.reason == reason


def test_a_repeated_bin_list_counts_as_json_loads_counts_it(tmp_path: Path) -> None:
    """The last binList wins, as with json.loads; the earlier one is not refused for its content."""
    path = tmp_path / "op.json"
    last = {"binInfo": {"jsonFilePath": "a/last.json"}}
    path.write_text(f'{{"binList": [5], "binList": [{json.dumps(last)}]}}')
    assert [e.bin_info.json_file_path for e in read_binary_config(path).bin_list] == ["a/last.json"]


def _big(path: Path, entries: int) -> int:
    tensor = {"name": "x1", "index": 0, "dtype": "float", "format": "ND", "paramType": "required", "shape": [-2]}
    bins = [
        {
            "implMode": "high_performance",
            "inputs": [tensor, {**tensor, "name": "x2", "index": 1}],
            "outputs": [{**tensor, "name": "y", "dtype": "bool"}],
            "deterministic": "ignore",
            "binInfo": {"jsonFilePath": f"ascend910b/greater/Greater_{i:032x}_high_performance.json"},
        }
        for i in range(entries)
    ]
    path.write_text(json.dumps({"binList": bins}))
    return path.stat().st_size


def test_peak_memory_is_the_text_plus_small_records(tmp_path: Path) -> None:
    """5,000 bins of ~600 bytes: the peak stays under 3 KiB a bin, the text included (a whole-tree load
    with a model per bin took over 8 KiB a bin)."""
    path = tmp_path / "big.json"
    size = _big(path, 5000)
    tracemalloc.start()
    try:
        config = read_binary_config(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(config.bin_list) == 5000
    assert config.bin_list[0].inputs[0] is config.bin_list[4999].inputs[0]  # equal tensors share one record
    assert peak < 3 * 1024 * 5000, (peak, size)


@pytest.mark.parametrize("index", [True, 1.0])
def test_a_shared_tensor_does_not_let_a_number_of_the_wrong_type_through(index: Any) -> None:
    """True and 1.0 equal 1 as dict keys: a tensor seen with index 1 must not vouch for them."""
    tensor = {"dtype": "float", "index": 1}
    BinEntry.from_json({"inputs": [tensor]})
    with pytest.raises(ValueError, match=r"entry\.inputs\[0\]\.index is a (boolean|number), not an integer"):
        BinEntry.from_json({"inputs": [{**tensor, "index": index}]})


json_attr_values = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4) | st.lists(st.integers(), max_size=3)
)


@settings(max_examples=200, deadline=None)
@given(st.lists(json_attr_values, min_size=1, max_size=4), st.sampled_from(["int", "float", "bool", "listInt", ""]))
def test_keys_come_out_for_any_attr_values(attr_values: list[Any], kind: str) -> None:
    """Bins whose one attribute holds any JSON scalar or list (a float attr given a string, 2**70, 1e300) get keys."""
    bins = [
        BinEntry.from_json(
            {
                "binInfo": {"jsonFilePath": f"a/b{i}.json"},
                "inputs": [{"dtype": "float", "format": "ND"}],
                "attrs": [{"name": "a", "dtype": kind, "value": value}],
            }
        )
        for i, value in enumerate(attr_values)
    ]
    schema = KeySchema.from_bins(bins)
    for entry in bins:
        assert schema.build_keys(entry)


def test_attr_numbers_encode_as_the_c_casts_do() -> None:
    assert encode_attr_value(1e300, "float") == encode_attr_value(float("inf"), "float")
    assert encode_attr_value(2**64 + 5, "int") == encode_attr_value(5, "int")
    assert encode_attr_value(-1, "int") == b"\xff" * 8
    assert encode_attr_value("x", "float") == b"x"
