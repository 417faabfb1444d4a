"""Run many CLI commands at once and keep what each printed: the CLI tests' module fixtures start
every command they look at together (each is a fresh interpreter, seconds of start-up) and wait once."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class Runs:
    tmp: Path
    results: dict[str, Run]

    def __getitem__(self, name: str) -> Run:
        return self.results[name]


def clean_environment(tmp: Path) -> dict[str, str]:
    """This environment without the emulator's switches, importing this checkout, logging into ``tmp``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPBASE_EMU_", "ASCEND_", "NPU_COLLECT"))}
    return env | {"PYTHONPATH": str(REPO), "ASCEND_PROCESS_LOG_PATH": str(tmp / "log")}


def run_together(
    commands: Mapping[str, tuple[Sequence[str], Mapping[str, str]]], cwd: Path, env: dict[str, str]
) -> dict[str, Run]:
    """Each named command (its arguments and extra environment), all started before any is waited for."""
    procs = {
        name: subprocess.Popen(
            list(args), cwd=cwd, env=env | dict(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for name, (args, extra) in commands.items()
    }
    results = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=600)  # generous: the machine may be shared and loaded
        results[name] = Run(proc.returncode, out, err)
    return results
