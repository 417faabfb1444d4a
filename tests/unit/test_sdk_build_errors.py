"""Why the SDK cannot be built, said in one sentence — and a compile error of its own sources is not a skip."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from emulator.sdk import build as sdk_build
from emulator.sdk.build import SdkBuildFailed, SdkError, build

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the SDK is Linux only")


def test_sources_the_compiler_refuses_are_a_build_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test fixtures skip on SdkError (no compiler, no shared libpython) but fail on SdkBuildFailed."""
    if shutil.which("sh") is None:
        pytest.skip("no sh")
    refusing = tmp_path / "refusing-cc"
    refusing.write_text("#!/bin/sh\necho 'core.c:1: error: refused' >&2\nexit 1\n")
    refusing.chmod(0o755)
    monkeypatch.setenv("CC", str(refusing))
    monkeypatch.setattr(sdk_build, "_python_link", lambda: (["-I/nowhere"], ["-lpython3"]))
    with pytest.raises(SdkBuildFailed, match="refused"):
        build(tmp_path / "sdk", force=True)


def test_no_compiler_is_an_sdk_error_with_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "")
    monkeypatch.setenv("PATH", str(tmp_path))  # no cc, gcc or clang here
    with pytest.raises(SdkError, match="no C compiler found") as caught:
        build(tmp_path / "sdk", force=True)
    assert not isinstance(caught.value, SdkBuildFailed)


def test_a_python_without_shared_libpython_is_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The libraries embed libpython: a static-only Python is refused before anything is compiled."""
    real = sdk_build.sysconfig.get_config_var
    static = lambda name: 0 if name == "Py_ENABLE_SHARED" else real(name)  # noqa: E731
    monkeypatch.setattr(sdk_build.sysconfig, "get_config_var", static)
    monkeypatch.setattr(sdk_build, "_compiler", lambda: "cc")
    with pytest.raises(SdkError, match="no shared libpython") as caught:
        build(tmp_path / "sdk", force=True)
    assert "\n" not in str(caught.value) and not isinstance(caught.value, SdkBuildFailed)
    assert not (tmp_path / "sdk" / "lib64").exists()


def test_a_tree_is_reused_while_its_fingerprint_holds_and_rebuilt_when_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stamp holds the fingerprint (version, every C declaration, the SDK sources, the Python ABI): the same
    stamp reuses the tree without compiling, any other stamp rebuilds it."""
    prefix = tmp_path / "sdk"
    prefix.mkdir()
    stamp = prefix / ".opbase-emu-sdk"
    compiled: list[str] = []

    def no_compiler() -> str:
        compiled.append("asked")
        raise SdkError("no C compiler found")

    monkeypatch.setattr(sdk_build, "_compiler", no_compiler)
    stamp.write_text(sdk_build.fingerprint())
    assert build(prefix).prefix == prefix.resolve() and compiled == []
    stamp.write_text("0" * 16)  # an older emulator's tree
    with pytest.raises(SdkError):
        build(prefix)
    assert compiled == ["asked"]


def test_the_default_prefix_is_a_per_user_cache_keyed_on_the_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert sdk_build.default_prefix() == tmp_path / "opbase-emu" / f"sdk-{sdk_build.fingerprint()}"
