"""The fault sweep over a compiled C program: every failable call it makes fails in turn.

tests/cabi/programs/fault_lifecycle.c is a careful program: it checks every status, and on the
first failure it undoes what it made, in reverse, and exits 0. A clean run lists the fault points
(the program names each call before it makes it); then each point (the k-th call of function f)
is failed with OPBASE_EMU_FAULTS=f@k, each in its own process, with OPBASE_EMU_LEAK_CHECK=1. For
every point the program must see the injected failure (the natural status, or nullptr), neither
crash nor hang, print no Python traceback, and exit as docs/c_sdk.md says: its own code, else 23
when anything is left alive, else 0. A failure of a call that makes or does something leaves
nothing alive (exit 0, "no leaks"); a failed release leaves its resource alive and the report
says so (exit 23), as on a card.
"""

from __future__ import annotations

import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import HERE, compile_program, environment, run

from emulator.faults import FAILABLE, known_protos, natural_failure
from emulator.sdk.build import Sdk

RELEASES = {
    "aclrtDestroyEvent", "aclDestroyAclOpExecutor", "aclDestroyScalar", "aclDestroyTensor", "aclrtFree",
    "aclrtFreeHost", "aclrtDestroyStream", "aclrtResetDevice", "aclFinalize",
}  # fmt: skip
# a quick cross-section for the default run: a start, an allocation, a creator, both phases, a
# wait, a copy and a release; the full sweep (every point) is marked slow
DEFAULT_POINTS = [
    ("aclrtSetDevice", 1), ("aclrtMalloc", 2), ("aclCreateTensor", 3), ("aclnnAddGetWorkspaceSize", 1),
    ("aclnnAdd", 1), ("aclrtSynchronizeStream", 1), ("aclrtMemcpy", 3), ("aclrtFree", 1),
]  # fmt: skip
SUMMARY = re.compile(r"^SUMMARY: opbase-emu: .*$", re.MULTILINE)


@pytest.fixture(scope="module")
def lifecycle(sdk: Sdk, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fault-sweep")
    return compile_program(sdk, HERE / "programs" / "fault_lifecycle.c", folder / "fault_lifecycle", "ascendcl",
                           "nnopbase", "opapi", cxx=False)  # fmt: skip


def _run(sdk: Sdk, program: Path, tmp: Path, faults: str = "") -> tuple[int, str, str]:
    extra = {"OPBASE_EMU_LEAK_CHECK": "1", **({"OPBASE_EMU_FAULTS": faults} if faults else {})}
    done = run(program, environment(sdk, tmp, **extra))
    return done.returncode, done.stdout, done.stderr


def _points(stdout: str) -> list[tuple[str, int]]:
    counts: Counter[str] = Counter()
    points = []
    for line in stdout.splitlines():
        if line.startswith("call "):
            name = line.removeprefix("call ")
            counts[name] += 1
            points.append((name, counts[name]))
    return points


def test_the_clean_run_is_right_and_leaves_nothing(sdk: Sdk, lifecycle: Path, tmp_path: Path) -> None:
    code, out, err = _run(sdk, lifecycle, tmp_path)
    assert code == 0, err
    assert "ok" in out.splitlines() and "failed" not in out
    assert SUMMARY.findall(err)[-1].startswith("SUMMARY: opbase-emu: no leaks")
    points = _points(out)
    protos = known_protos()
    assert all(protos[name].ret.kind in FAILABLE for name, _ in points)  # every call listed can be failed
    assert set(DEFAULT_POINTS) <= set(points)
    assert len(points) == 35  # 21 to make and do (Add of fp32 needs no workspace), 14 to undo


def _check_point(sdk: Sdk, program: Path, tmp: Path, name: str, nth: int) -> str | None:
    """What is wrong when the nth call of ``name`` fails, or None."""
    proto = known_protos()[name]
    seen = "nullptr" if proto.ret.kind == "handle" else str(natural_failure(proto))
    code, out, err = _run(sdk, program, tmp, f"{name}@{nth}")
    summary = SUMMARY.findall(err)
    problems = []
    if f"failed {name} {seen}" not in out.splitlines():
        problems.append(f"the program did not see '{seen}'")
    if "Traceback" in err or code < 0:
        problems.append(f"crashed (exit {code})" if code < 0 else "a Python traceback on stderr")
    if not summary:
        problems.append("no leak report")
    elif name in RELEASES:
        leaked = not summary[-1].startswith("SUMMARY: opbase-emu: no leaks")
        if code != (23 if leaked else 0):
            problems.append(f"exit {code} with {summary[-1]!r}")
    elif code != 0 or not summary[-1].startswith("SUMMARY: opbase-emu: no leaks"):
        problems.append(f"exit {code}: {summary[-1]}")
    return f"{name}@{nth}: {'; '.join(problems)}" if problems else None


def _sweep(sdk: Sdk, program: Path, tmp: Path, points: list[tuple[str, int]]) -> list[str]:
    def one(point: tuple[str, int]) -> str | None:
        folder = tmp / f"{point[0]}-{point[1]}"
        folder.mkdir()
        return _check_point(sdk, program, folder, *point)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return [problem for problem in pool.map(one, points) if problem]


def test_a_cross_section_of_fault_points(sdk: Sdk, lifecycle: Path, tmp_path: Path) -> None:
    assert _sweep(sdk, lifecycle, tmp_path, DEFAULT_POINTS) == []


@pytest.mark.slow
def test_every_fault_point(sdk: Sdk, lifecycle: Path, tmp_path: Path) -> None:
    code, out, err = _run(sdk, lifecycle, tmp_path)
    assert code == 0, err
    assert _sweep(sdk, lifecycle, tmp_path, _points(out)) == []
