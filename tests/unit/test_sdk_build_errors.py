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
