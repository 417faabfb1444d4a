"""The C layer's tests: the SDK is built once per test session, into the session's temp folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from emulator.sdk.build import Sdk, SdkBuildFailed, SdkError, build

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sdk]:
    """The SDK tree (headers, libraries, set_env.sh); the tests skip with the reason when it cannot be built.

    Built once per run: under xdist (the default run's workers) the first worker builds it into a
    folder every worker sees while the others wait on a lock, then find it current and reuse it.
    """
    import fcntl

    if sys.platform != "linux":
        pytest.skip("the SDK is Linux only")
    if shutil.which("g++") is None or shutil.which("cc") is None:
        pytest.skip("no C/C++ compiler on this machine: the SDK's libraries are built with it")
    root = _shared_root(tmp_path_factory)
    try:
        with open(root / "cabi-sdk.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            tree = build(root / "sdk")
        yield tree
    except SdkBuildFailed:
        raise  # the emulator's own sources do not compile: a failure, never a skip
    except SdkError as exc:
        pytest.skip(str(exc))


def environment(sdk: Sdk, tmp: Path, **extra: str) -> dict[str, str]:
    """The SDK's environment for a program, with its own HOME (plog files) and no inherited emulator switches."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "OPBASE_EMU_"))}
    env = sdk.environment(base)
    env["HOME"] = str(tmp)
    env.update(extra)
    return env


def compile_program(sdk: Sdk, source: Path, out: Path, *libraries: str, cxx: bool = True) -> Path:
    """The official examples' build line: -I include -I include/aclnn -L lib64 -l…"""
    compiler = "g++" if cxx else "cc"
    flags = [f"-I{sdk.include}", f"-I{sdk.include / 'aclnn'}", f"-L{sdk.lib64}", *(f"-l{lib}" for lib in libraries)]
    done = subprocess.run([compiler, str(source), *flags, "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


def run(program: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *args], env=env, capture_output=True, text=True, timeout=120)


def _shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every xdist worker of this run sees (the base temp's parent), or the base temp alone."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


@pytest.fixture(scope="session")
def sample_programs(sdk: Sdk, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every sample of test_samples.GOLDENS compiled once per run, in parallel, with its documented line.

    Under xdist the first worker compiles into a shared folder while the others wait on a lock: the
    programs need only the SDK's standard library names, which each worker's environment resolves.
    """
    import fcntl
    import json
    from concurrent.futures import ThreadPoolExecutor

    from test_samples import GOLDENS

    root = _shared_root(tmp_path_factory)
    folder = root / "cabi-samples"
    with open(root / "cabi-samples.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        report = folder / "errors.json"
        if not report.exists():
            folder.mkdir(exist_ok=True)

            def build_one(name: str) -> tuple[str, str]:
                golden = GOLDENS[name]
                flags = [f.format(inc=sdk.include, lib=sdk.lib64) for f in golden.line]
                args = ["g++", str(golden.source), *flags, "-o", str(folder / name)]
                done = subprocess.run(args, capture_output=True, text=True)
                return name, "" if done.returncode == 0 else f"{' '.join(args)}\n{done.stderr}"

            with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
                errors = dict(pool.map(build_one, sorted(GOLDENS)))
            report.write_text(json.dumps(errors))
        errors = json.loads(report.read_text())
    failed = {name: text for name, text in errors.items() if text}
    assert not failed, "\n".join(failed.values())
    return {name: folder / name for name in errors}
