"""The whole-text pass over a binary config accepts exactly what the per-field walk accepts, and reads the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.engine.opp import JsonRefused, read_binary_config
from emulator.engine.opp.binconfig import walk_bin_list
from emulator.engine.opp.binfast import WHOLE_TEXT_LIMIT, whole_bin_list
from emulator.engine.opp.discovery import shipped_opp_path

_TENSOR = {
    "name": "x1",
    "index": 0,
    "dtype": "float16",
    "format": "ND",
    "paramType": "required",
    "shape": [-1, 4],
    "format_match_mode": "FormatAgnostic",
    "dtype_match_mode": "DtypeByte",
    "ori_format": "ND",
}
_ENTRY = {
    "binInfo": {"jsonFilePath": "ascend910b/op/Op_1.json"},
    "inputs": [_TENSOR, None, {"type": "null"}, [_TENSOR, {**_TENSOR, "index": 1}]],
    "outputs": [{**_TENSOR, "name": "y", "shape": [-2]}],
    "attrs": [{"name": "alpha", "dtype": "float", "value": 1.5}, {"name": "mode", "dtype": "str", "value": "ALL"}],
    "deterministic": "ignore",
    "implMode": "high_precision",
    "int64Mode": False,
    "staticKey": "k",
    "simplifiedKeyMode": 0,
    "simplifiedKey": ["a", "b"],
    "optionalInputMode": "gen_placeholder",
    "dynamicParamMode": "folded_with_desc",
    "opMode": "dynamic",
}
_RICH = {"binList": [_ENTRY, {**_ENTRY, "inputs": [], "attrs": None}], "other": [1, 2]}
_CONFIGS = Path(shipped_opp_path()) / "built-in/op_impl/ai_core/tbe/kernel/config/ascend910b"
_DOCUMENTS = [
    _RICH,
    json.loads((_CONFIGS / "add.json").read_text()),
    json.loads((_CONFIGS / "resize_bilinear_v2_grad.json").read_text()),
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
_DELETE = object()


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every object member and array item of a document, as a path from its top."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _places(item, (*path, i))
    return found


def _corrupted(document: dict[str, Any], place: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed: dict[str, Any] = json.loads(json.dumps(document))  # no shared members, unlike a deepcopy
    if not place:
        return changed
    parent = changed
    for step in place[:-1]:
        parent = parent[step]
    if value is _DELETE:
        del parent[place[-1]]
    else:
        parent[place[-1]] = value
    return changed


def _outcome_of_walk(text: str) -> Any:
    try:
        return walk_bin_list(Path("op.json"), text)
    except JsonRefused as exc:
        return ("refused", exc.reason)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(_DOCUMENTS))), st.data(), json_values | st.just(_DELETE))
def test_one_corrupted_field_is_accepted_or_refused_by_both(index: int, data: st.DataObject, value: Any) -> None:
    """Any one member replaced (or deleted): the whole-text pass gives the walk's records, or None where
    the walk refuses the file (which then words the refusal, as before)."""
    document = _DOCUMENTS[index]
    place = data.draw(st.sampled_from(_places(document)))
    text = json.dumps(_corrupted(document, place, value), indent=data.draw(st.sampled_from([None, 1])))
    walked = _outcome_of_walk(text)
    fast = whole_bin_list(text)
    if isinstance(walked, tuple):
        assert fast is None, walked
    else:
        assert fast == walked


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_broken_text_is_never_accepted_when_the_walk_refuses_it(data: st.DataObject) -> None:
    """A cut or a changed character anywhere in the text: accepted only with the walk's records."""
    text = json.dumps(_RICH)
    cut = data.draw(st.integers(0, len(text)))
    char = data.draw(st.sampled_from(["", "}", "]", ",", ":", '"', "x", " ", "[", "{", "1", "NaN", "\ufeff"]))
    broken = text[:cut] + char + text[cut + 1 :]
    walked = _outcome_of_walk(broken)
    fast = whole_bin_list(broken)
    assert fast is None if isinstance(walked, tuple) else fast == walked


@pytest.mark.parametrize(
    ("place", "value", "reason"),
    [
        (("binList", 0, "inputs", 0, "dtype"), 5, "binList[0].inputs[0].dtype is a number, not a string"),
        (("binList", 1, "outputs", 0, "index"), True, "binList[1].outputs[0].index is a boolean, not an integer"),
        (
            ("binList", 0, "inputs", 3, 1, "shape", 1),
            "4",
            "binList[0].inputs[3][1].shape[1] is a string, not an integer",
        ),
        (("binList", 0, "simplifiedKey", 1), 2, "binList[0].simplifiedKey[1] is a number, not a string"),
        (("binList", 0, "attrs", 1), [], "binList[0].attrs[1] is an array, not an object"),
        (("binList", 1, "binInfo"), "x", "binList[1].binInfo is a string, not an object"),
        (("binList",), {}, "binList is an object, not an array"),
    ],
)
def test_a_refusal_names_the_field_as_before(tmp_path: Path, place: tuple[Any, ...], value: Any, reason: str) -> None:
    path = tmp_path / "op.json"
    path.write_text(json.dumps(_corrupted(_RICH, place, value)))
    with pytest.raises(JsonRefused) as refused:
        read_binary_config(path)
    assert refused.value.reason == f"invalid binary config: {reason}"


def test_a_file_too_big_to_decode_whole_is_walked(tmp_path: Path) -> None:
    """Past the limit the whole-text pass declines, and the walk reads the same records."""
    text = json.dumps({"binList": [_ENTRY] * (WHOLE_TEXT_LIMIT // len(json.dumps(_ENTRY)) + 1)})
    assert len(text) > WHOLE_TEXT_LIMIT
    assert whole_bin_list(text) is None
    path = tmp_path / "op.json"
    path.write_text(text)
    assert read_binary_config(path).bin_list == walk_bin_list(path, text)
