"""The op-package loader: SoC directories, config.ini, ops-info merge, binary-config search, refusals."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs

from emulator.config import Settings
from emulator.engine.opp import (
    BinaryConfig,
    LoadAllOppPackage,
    OppPackages,
    candidate_config_names,
    merge_patch,
    parse_vendors_config,
    soc_directory,
)

SOC = "Ascend910B2"
SOCDIR = "ascend910b"
IMPL = Path("op_impl") / "ai_core" / "tbe"
MOCK = Path(__file__).resolve().parents[3] / "shared" / "data" / "opbase-mock-opp"


# -- helpers -----------------------------------------------------------------------------------
@contextmanager
def captured() -> Iterator[list[dict[str, Any]]]:
    """Capture every log event, whatever level the session configured."""
    wrapper = structlog.get_config()["wrapper_class"]
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG))
    try:
        with capture_logs() as logs:
            yield logs
    finally:
        structlog.configure(wrapper_class=wrapper)


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def op_file_info(value: str, **extra: Any) -> dict[str, Any]:
    return {"opFile": {"value": value}, **extra}


def bin_config(json_file_path: str, dtype: str = "float16") -> dict[str, Any]:
    tensor = {"name": "x", "index": 0, "dtype": dtype, "format": "ND", "paramType": "required", "shape": [-2]}
    return {"binList": [{"inputs": [tensor], "outputs": [tensor], "binInfo": {"jsonFilePath": json_file_path}}]}


def builtin_impl(root: Path) -> Path:
    return root / "built-in" / IMPL


def vendor_impl(root: Path, name: str) -> Path:
    return root / "vendors" / name / IMPL


def ops_info(impl: Path, name: str, data: Any) -> Path:
    return write(impl / "config" / SOCDIR / name, data)


def bin_file(impl: Path, name: str, data: Any, folder: str = "") -> Path:
    return write(impl / "kernel" / "config" / SOCDIR / folder / name, data)


def load(root: Path, *custom: Path, home: Path | None = None) -> OppPackages:
    settings = Settings(opp_path=root, custom_opp_paths=tuple(str(c) for c in custom), home_path=home)
    return LoadAllOppPackage(settings, SOC)


@pytest.fixture
def three_families(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A root with built-in + vendors v1, v2 (config.ini lists v2 first) and two custom packages."""
    root = tmp_path / "opp"
    builtin = {"Op": {"opFile": {"value": "builtin"}, "input0": {"name": "x"}}, "OnlyBuiltin": op_file_info("b")}
    ops_info(builtin_impl(root), "aic-ops-info.json", builtin)
    write(root / "vendors" / "config.ini", "# comment\npriority=v2,v1\n")
    ops_info(vendor_impl(root, "v1"), "v1.json", {"Op": op_file_info("v1"), "OnlyV1": op_file_info("v1only")})
    ops_info(vendor_impl(root, "v2"), "v2.json", {"Op": op_file_info("v2")})
    c1, c2 = tmp_path / "c1", tmp_path / "c2"
    ops_info(c1 / IMPL, "c1.json", {"Op": op_file_info("c1")})
    ops_info(c2 / IMPL, "c2.json", {"Op": op_file_info("c2"), "OnlyBuiltin": None})
    return root, c1, c2


# -- SoC directory ---------------------------------------------------------------------------
def test_soc_directory_exact_table() -> None:
    """Exact SoC names map to their directories."""
    assert soc_directory("Ascend910B2") == "ascend910b"
    assert soc_directory("Ascend910B4-1") == "ascend910b"
    assert soc_directory("Ascend910_9392") == "ascend910_93"
    assert soc_directory("Ascend310P3") == "ascend310p"
    assert soc_directory("Ascend310B1") == "ascend310b"
    assert soc_directory("KirinX90") == "kirinx90"


def test_soc_directory_ascend910b_trap() -> None:
    """The bare "Ascend910B" maps to the old ascend910 directory, "Ascend910B1" to ascend910b."""
    assert soc_directory("Ascend910B") == "ascend910"
    assert soc_directory("Ascend910A") == "ascend910"
    assert soc_directory("Ascend910B1") == "ascend910b"


def test_soc_directory_prefixes() -> None:
    """Names missing from the exact table fall back to the prefix table."""
    assert soc_directory("Ascend950DT_9591") == "ascend950"
    assert soc_directory("Ascend950PR_9599") == "ascend950"
    assert soc_directory("Ascend910_9591") == "ascend910_95"
    assert soc_directory("Ascend350X") == "ascend350"


def test_soc_directory_unknown_is_empty_with_a_warning() -> None:
    """An unknown SoC (even Ascend910_9363, which the runtime knows) gives "" and an Invalid device type warning."""
    with captured() as logs:
        assert soc_directory("Ascend910_9363") == ""
    assert [e["event"] for e in logs] == ["opp.invalid_soc"]
    assert logs[0]["log_level"] == "warning"


# -- vendors/config.ini ------------------------------------------------------------------------
def test_config_ini_skips_comments_and_uses_first_priority_line(tmp_path: Path) -> None:
    """Comment and empty lines are skipped; the first line containing "priority" decides; CRLF is stripped."""
    ini = write(tmp_path / "config.ini", "# priority=commented\r\n\r\nname=x\r\npriority=a,b\r\npriority=c\r\n")
    assert parse_vendors_config(ini) == ["a", "b"]


def test_config_ini_names_are_not_trimmed(tmp_path: Path) -> None:
    """Everything after the first "=" is split on "," without trimming spaces."""
    assert parse_vendors_config(write(tmp_path / "config.ini", "priority=a, b=c\n")) == ["a", " b=c"]


def test_config_ini_priority_line_without_equals_means_no_vendors(tmp_path: Path) -> None:
    """A priority line without "=" stops parsing and gives no vendors."""
    assert parse_vendors_config(write(tmp_path / "config.ini", "priority a,b\npriority=c\n")) == []


def test_config_ini_missing_or_without_priority(tmp_path: Path) -> None:
    """A missing file, a directory or a file with no priority line gives no vendors."""
    assert parse_vendors_config(tmp_path / "absent.ini") == []
    assert parse_vendors_config(tmp_path) == []
    assert parse_vendors_config(write(tmp_path / "config.ini", "# only a comment\n")) == []


# -- ops-info merge ----------------------------------------------------------------------------
def test_packages_are_listed_in_priority_order(three_families: tuple[Path, Path, Path]) -> None:
    """Custom (env order), then vendors (config.ini order), then built-in."""
    root, c1, c2 = three_families
    opp = load(root, c1, c2)
    assert [(p.family, p.name) for p in opp.packages] == [
        ("custom", str(c1)),
        ("custom", str(c2)),
        ("vendor", "v2"),
        ("vendor", "v1"),
        ("built-in", "built-in"),
    ]
    assert opp.status == 0
    assert opp.socdir == SOCDIR
    assert opp.root == root


def test_merge_priority_custom_then_vendor_then_builtin(three_families: tuple[Path, Path, Path]) -> None:
    """The first custom entry wins; without custom the first listed vendor wins; otherwise built-in."""
    root, c1, c2 = three_families
    assert load(root, c1, c2).op_file("Op") == "c1"
    assert load(root, c2, c1).op_file("Op") == "c2"
    assert load(root).op_file("Op") == "v2"
    (root / "vendors" / "config.ini").write_text("priority=v1\n")
    assert load(root).op_file("Op") == "v1"
    (root / "vendors" / "config.ini").unlink()
    assert load(root).op_file("Op") == "builtin"


def test_merge_patch_keeps_sibling_keys_and_null_deletes(three_families: tuple[Path, Path, Path]) -> None:
    """A patch that sets only opFile.value keeps the built-in input0; a null member removes the op."""
    root, c1, c2 = three_families
    opp = load(root, c1, c2)
    assert opp.ops_info["Op"] == {"opFile": {"value": "c1"}, "input0": {"name": "x"}}
    assert opp.op_file("OnlyV1") == "v1only"
    assert "OnlyBuiltin" not in opp.ops_info


def test_legacy_ops_info_file_loads_last(tmp_path: Path) -> None:
    """The built-in "*ops-info-legacy*" file has the lowest priority even when it sorts first."""
    root = tmp_path / "opp"
    ops_info(builtin_impl(root), "aic-ops-info-legacy.json", {"Op": op_file_info("legacy"), "Old": op_file_info("o")})
    ops_info(builtin_impl(root), "zz-ops-info.json", {"Op": op_file_info("regular")})
    opp = load(root)
    assert opp.op_file("Op") == "regular"
    assert opp.op_file("Old") == "o"


def test_merge_patch_follows_rfc_7386() -> None:
    """Objects merge recursively, null deletes, arrays and scalars replace."""
    target = {"a": "b", "c": {"d": "e", "f": "g"}, "l": [1, 2]}
    patch = {"a": "z", "c": {"f": None}, "l": [3], "n": {"x": None}}
    assert merge_patch(target, patch) == {"a": "z", "c": {"d": "e"}, "l": [3], "n": {}}
    assert merge_patch({"a": 1}, ["x"]) == ["x"]


def test_op_file_needs_a_non_empty_string(tmp_path: Path) -> None:
    """opFile.value counts only when it is a non-empty string."""
    root = tmp_path / "opp"
    data = {"Empty": op_file_info(""), "Number": {"opFile": {"value": 3}}, "Flat": {"opFile": "x"}}
    ops_info(builtin_impl(root), "a.json", data)
    opp = load(root)
    assert [opp.op_file(op) for op in ("Empty", "Number", "Flat", "Missing")] == [None, None, None, None]


# -- binary-config search ---------------------------------------------------------------------
def test_candidate_config_names_follow_both_rules_and_op_file() -> None:
    """New rule, old rule, then <opFile>.json, without repeats."""
    assert candidate_config_names("Add", "add") == ["add.json"]
    assert candidate_config_names("MatMulV2", None) == ["mat_mul_v_2.json", "mat_mul_v2.json"]
    assert candidate_config_names("Conv2DBackpropInput", None) == [
        "conv_2_d_backprop_input.json",
        "conv2d_backprop_input.json",
    ]
    assert candidate_config_names("NLLLoss", "nll_loss") == ["n_l_l_loss.json", "nll_loss.json"]
    assert candidate_config_names("MemSetV2", "mem_set_v2_apt")[-1] == "mem_set_v2_apt.json"
    assert candidate_config_names("Op12", None)[0] == "op_1_2.json"


def test_binary_config_search_order(three_families: tuple[Path, Path, Path]) -> None:
    """Custom dirs beat vendor dirs, which beat the built-in flat dir, then its repo folders, ops_legacy last."""
    root, c1, c2 = three_families
    builtin = builtin_impl(root)
    bin_file(builtin, "op.json", bin_config("ascend910b/op/flat.json"), folder="ops_legacy")
    assert load(root).binary_config("Op").path.parent.name == "ops_legacy"
    bin_file(builtin, "op.json", bin_config("ascend910b/op/repo.json"), folder="ops_math")
    assert load(root).binary_config("Op").path.parent.name == "ops_math"
    bin_file(builtin, "op.json", bin_config("ascend910b/op/flat.json"))
    assert load(root).binary_config("Op").path.parent.name == SOCDIR
    bin_file(vendor_impl(root, "v1"), "op.json", bin_config("ascend910b/op/v1.json"))
    assert load(root).binary_config("Op").package.name == "v1"
    bin_file(c2 / IMPL, "op.json", bin_config("ascend910b/op/c2.json"))
    hit = load(root, c1, c2).binary_config("Op")
    assert hit is not None and hit.package.name == str(c2)
    assert isinstance(hit.config, BinaryConfig)


def test_binary_config_through_op_file_alias(tmp_path: Path) -> None:
    """A config file reachable only as <opFile>.json is found through the ops-info alias."""
    root = tmp_path / "opp"
    ops_info(builtin_impl(root), "a.json", {"MemSetV2": op_file_info("mem_set_v2_apt")})
    bin_file(builtin_impl(root), "mem_set_v2_apt.json", bin_config("ascend910b/m/m.json"))
    opp = load(root)
    assert opp.binary_config("MemSetV2").path.name == "mem_set_v2_apt.json"
    assert opp.binary_config("Missing") is None


def test_repo_folder_is_inserted_into_json_file_paths(tmp_path: Path) -> None:
    """Bins from a built-in ops folder get "<repo>/" after the first "/" unless the path already names it."""
    root = tmp_path / "opp"
    data = bin_config("ascend910b/add/Add_x.json")
    data["binList"].append(bin_config("ascend910b/ops_math/add/Add_y.json")["binList"][0])
    bin_file(builtin_impl(root), "add.json", data, folder="ops_math")
    hit = load(root).binary_config("Add")
    paths = [entry.bin_info.json_file_path for entry in hit.config.bin_list]
    assert paths == ["ascend910b/ops_math/add/Add_x.json", "ascend910b/ops_math/add/Add_y.json"]


def test_binary_config_model_reads_the_real_field_shapes(tmp_path: Path) -> None:
    """Null slots, dynamic lists, unknown dtypes and extra fields are read, not refused."""
    root = tmp_path / "opp"
    tensor = {"name": "x", "dtype": "bf16", "format": "ALL", "ori_shape": [1]}
    entry = {
        "inputs": [tensor, None, {"type": "null"}, [tensor, tensor], {**tensor, "dtype": "float99", "format": "X"}],
        "outputs": [tensor],
        "attrs": [{"name": "alpha", "dtype": "float", "value": None}],
        "simplifiedKeyMode": 2,
        "binInfo": {"jsonFilePath": "ascend910b/op/op.json"},
        "someFutureField": True,
    }
    bin_file(builtin_impl(root), "op.json", {"binList": [entry, {"binInfo": {}}]})
    config = load(root).binary_config("Op").config
    first = config.bin_list[0]
    assert first.inputs[1] is None and first.inputs[2] is None and len(first.inputs[3]) == 2
    assert (first.inputs[0].ge_dtype, first.inputs[0].ge_format) == ("DT_BF16", "FORMAT_ND")
    assert (first.inputs[4].ge_dtype, first.inputs[4].ge_format) == (None, None)
    assert first.simplified_key_mode == 2 and first.usable and not config.bin_list[1].usable


# -- refusals ----------------------------------------------------------------------------------
def test_malformed_ops_info_is_refused_and_the_rest_loads(three_families: tuple[Path, Path, Path]) -> None:
    """A broken ops-info file gives a refusal record and an opp.file_refused line with code 561108."""
    root, c1, c2 = three_families
    broken = ops_info(vendor_impl(root, "v2"), "broken.json", '{"Op": {"opFile": ')
    listed = ops_info(c1 / IMPL, "list.json", [1, 2])
    with captured() as logs:
        opp = load(root, c1, c2)
    assert {r.path for r in opp.refused} == {broken, listed}
    assert all(r.code == 561108 for r in opp.refused)
    refused = [e for e in logs if e["event"] == "opp.file_refused"]
    assert {e["path"] for e in refused} == {str(broken), str(listed)}
    assert all(e["code"] == 561108 and e["log_level"] == "warning" and e["reason"] for e in refused)
    assert opp.op_file("Op") == "c1"
    assert opp.op_file("OnlyV1") == "v1only"


def test_nan_literal_is_refused_like_nlohmann(tmp_path: Path) -> None:
    """NaN is not JSON: the file is refused."""
    root = tmp_path / "opp"
    bad = ops_info(builtin_impl(root), "a.json", '{"Op": {"x": NaN}}')
    ops_info(builtin_impl(root), "b.json", {"Good": op_file_info("g")})
    opp = load(root)
    assert [r.path for r in opp.refused] == [bad]
    assert opp.op_file("Good") == "g"


def test_malformed_binary_config_is_skipped_and_search_continues(three_families: tuple[Path, Path, Path]) -> None:
    """A binary-config file that does not parse (or lacks binList) is refused and the next one is used."""
    root, c1, c2 = three_families
    broken = bin_file(c1 / IMPL, "op.json", "{not json")
    no_list = bin_file(vendor_impl(root, "v2"), "op.json", {"bins": []})
    bin_file(builtin_impl(root), "op.json", bin_config("ascend910b/op/op.json"))
    with captured() as logs:
        opp = load(root, c1, c2)
        hit = opp.binary_config("Op")
    assert hit.package.family == "built-in"
    assert [r.path for r in opp.refused] == [broken, no_list]
    assert [e["path"] for e in logs if e["event"] == "opp.file_refused"] == [str(broken), str(no_list)]
    assert opp.binary_config("Op") is hit


def test_kernel_json_malformed_is_refused_and_missing_is_none(tmp_path: Path) -> None:
    """A broken kernel JSON is refused (561108); a missing one is simply absent; a good one is read."""
    root = tmp_path / "opp"
    kernel = builtin_impl(root) / "kernel"
    write(kernel / "ascend910b/op/good.json", {"blockDim": -1, "coreType": "AiCore"})
    bad = write(kernel / "ascend910b/op/bad.json", "{")
    opp = load(root)
    package = opp.builtin
    assert opp.kernel_json(package, "ascend910b/op/good.json") == {"blockDim": -1, "coreType": "AiCore"}
    assert opp.kernel_json(package, "ascend910b/op/bad.json") is None
    assert opp.kernel_json(package, "ascend910b/op/absent.json") is None
    assert [(r.path, r.code) for r in opp.refused] == [(bad, 561108)]
    assert opp.kernel_json_path(package, "ascend910b/op/good.json") == kernel / "ascend910b/op/good.json"


def test_kernel_json_path_outside_the_package_is_refused(tmp_path: Path) -> None:
    """A jsonFilePath that climbs out of the package kernel dir is refused."""
    root = tmp_path / "opp"
    ops_info(builtin_impl(root), "a.json", {})
    opp = load(root)
    assert opp.kernel_json_path(opp.builtin, "../../../../../etc/passwd.json") is None
    assert len(opp.refused) == 1 and opp.refused[0].code is None


def test_vendor_outside_the_root_is_refused(tmp_path: Path) -> None:
    """A config.ini entry escaping vendors/ (by "..", absolute path or symlink) is refused with a log line."""
    root = tmp_path / "opp"
    outside = tmp_path / "elsewhere"
    ops_info(outside / IMPL, "evil.json", {"Op": op_file_info("evil")})
    ops_info(builtin_impl(root), "a.json", {"Op": op_file_info("builtin")})
    (root / "vendors").mkdir(parents=True)
    (root / "vendors" / "linked").symlink_to(outside, target_is_directory=True)
    write(root / "vendors" / "config.ini", f"priority=../../elsewhere,linked,{outside},absent\n")
    with captured() as logs:
        opp = load(root)
    assert [p.family for p in opp.packages] == ["built-in"]
    assert opp.op_file("Op") == "builtin"
    assert len(opp.refused) == 3
    assert [e["event"] for e in logs if e["log_level"] == "warning"] == ["opp.vendor_refused"] * 3


def test_missing_vendor_and_custom_dirs_are_skipped_silently(tmp_path: Path) -> None:
    """Vendors listed but absent and custom entries that do not exist leave no refusal and no warning."""
    root = tmp_path / "opp"
    ops_info(builtin_impl(root), "a.json", {"Op": op_file_info("builtin")})
    write(root / "vendors" / "config.ini", "priority=absent, spaced\n")
    with captured() as logs:
        opp = load(root, tmp_path / "no_custom")
    assert [p.family for p in opp.packages] == ["built-in"]
    assert opp.refused == []
    assert not [e for e in logs if e["log_level"] == "warning"]


def test_missing_root_gives_561107_without_raising(tmp_path: Path) -> None:
    """An OPP path that does not exist loads nothing, warns, and records status 561107."""
    with captured() as logs:
        opp = load(tmp_path / "nowhere", tmp_path)
    assert opp.status == 561107
    assert opp.root is None and opp.packages == [] and opp.ops_info == {}
    assert opp.binary_config("Add") is None
    assert [e["code"] for e in logs if e["event"] == "opp.root_not_found"] == [561107]


def test_opp_latest_under_home_path_wins_for_builtin_but_not_vendors(tmp_path: Path) -> None:
    """$ASCEND_HOME_PATH/opp_latest is the kernel root; vendors are still read under ASCEND_OPP_PATH."""
    root = tmp_path / "opp"
    latest = tmp_path / "home" / "opp_latest"
    ops_info(builtin_impl(root), "a.json", {"Op": op_file_info("opp_path")})
    ops_info(builtin_impl(latest), "a.json", {"Op": op_file_info("latest"), "Latest": op_file_info("l")})
    write(root / "vendors" / "config.ini", "priority=v\n")
    ops_info(vendor_impl(root, "v"), "v.json", {"Vendor": op_file_info("v")})
    opp = load(root, home=tmp_path / "home")
    assert opp.root == latest.resolve()
    assert (opp.op_file("Op"), opp.op_file("Latest"), opp.op_file("Vendor")) == ("latest", "l", "v")
    assert load(root, home=tmp_path / "no_home").op_file("Op") == "opp_path"


# -- the shipped package -----------------------------------------------------------------------
@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend910_9392", "Ascend310P3", "Ascend950DT_9591"])
def test_shipped_package_loads(soc: str) -> None:
    """With no ASCEND_OPP_PATH the package in kernels/opp loads with Add and SearchSorted."""
    opp = LoadAllOppPackage(Settings(), soc)
    assert opp.status == 0 and opp.refused == []
    assert [p.family for p in opp.packages] == ["built-in"]
    assert opp.op_file("Add") == "add"
    assert opp.op_file("SearchSorted") == "search_sorted"
    hit = opp.binary_config("Add")
    assert hit is not None and len(hit.config.bin_list) >= 3
    assert all(entry.usable and entry.inputs[0].ge_dtype for entry in hit.config.bin_list)


def test_shipped_310p_package_has_no_bfloat16() -> None:
    """310P has no bfloat16, so neither its ops-info nor its Add bins list it."""
    opp = LoadAllOppPackage(Settings(), "Ascend310P3")
    assert "bfloat16" not in opp.ops_info["Add"]["input0"]["dtype"]
    assert all(entry.inputs[0].dtype != "bfloat16" for entry in opp.binary_config("Add").config.bin_list)


# -- the real opbase mock packages (from the steering checkout beside this one, when present) ---
def _mock(sub: str) -> Path:
    if not (MOCK / sub).is_dir():
        pytest.skip("the real opbase mock packages are not present")
    return MOCK / sub


def test_real_mock_merge_priority() -> None:
    """merge_priority gives from_custom_opp with the custom path and from_vendor without it."""
    tree = _mock("merge_priority")
    with_custom = Settings(opp_path=tree / "opp", custom_opp_paths=(str(tree / "custom_opp"),))
    assert LoadAllOppPackage(with_custom, "Ascend910A").op_file("AvgPool2D") == "from_custom_opp"
    assert LoadAllOppPackage(Settings(opp_path=tree / "opp"), "Ascend910A").op_file("AvgPool2D") == "from_vendor"


def test_real_mock_valid_vendors() -> None:
    """valid_vendors lists invalid_path,test_path; only test_path exists and loads."""
    tree = _mock("valid_vendors")
    assert parse_vendors_config(tree / "vendors" / "config.ini") == ["invalid_path", "test_path"]
    opp = LoadAllOppPackage(Settings(opp_path=tree), "Ascend910A")
    assert [(p.family, p.name) for p in opp.packages] == [("vendor", "test_path")]
    assert opp.refused == []


# -- hostile files in a package -------------------------------------------------------------------
def test_a_package_file_outside_its_package_is_refused(three_families: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A symlink in a package's ops-info dir to a file elsewhere is refused, not loaded."""
    root, c1, c2 = three_families
    elsewhere = write(tmp_path / "elsewhere" / "evil.json", {"Op": op_file_info("evil")})
    link = vendor_impl(root, "v2") / "config" / SOCDIR / "link.json"
    link.symlink_to(elsewhere)
    opp = load(root, c1, c2)
    assert [r.path for r in opp.refused] == [link]
    assert "outside its package" in opp.refused[0].reason
    assert opp.op_file("Op") == "c1" and "evil" not in str(opp.op_file("Op"))


def test_fifos_and_devices_with_package_names_are_never_read(three_families: tuple[Path, Path, Path]) -> None:
    """A FIFO named *.json would block the load forever; /dev/zero behind a package file's name would never end."""
    root, c1, c2 = three_families
    fifo = builtin_impl(root) / "config" / SOCDIR / "fifo.json"
    os.mkfifo(fifo)
    zero = c1 / IMPL / "config" / SOCDIR / "zero.json"
    zero.symlink_to("/dev/zero")
    opp = load(root, c1, c2)  # returns: neither was read
    reasons = {r.path: r.reason for r in opp.refused}
    assert "not a regular file" in reasons[fifo]
    assert "outside its package" in reasons[zero]
    assert opp.op_file("Op") == "c1" and opp.op_file("OnlyV1") == "v1only"


def test_a_fifo_named_config_ini_does_not_block_the_vendor_list(three_families: tuple[Path, Path, Path]) -> None:
    """vendors/config.ini that is a FIFO is read as no vendor list: the vendor packages are not loaded."""
    root, c1, c2 = three_families
    (root / "vendors" / "config.ini").unlink()
    os.mkfifo(root / "vendors" / "config.ini")
    opp = load(root, c1, c2)
    assert opp.op_file("OnlyV1") is None
    assert opp.op_file("Op") == "c1"
