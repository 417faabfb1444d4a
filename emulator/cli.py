"""``opbase-emu``: the command line (demo now; trace, leaks and config check follow)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from emulator.config import Settings, configure_logging
from emulator.demo import run_demo


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="opbase-emu", description="CANN opbase / ACL runtime emulator")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="run the lifecycle on the simulated NPU and show what each step does")
    args = parser.parse_args(argv)
    configure_logging(Settings.from_env())
    if args.command == "demo":
        steps = run_demo(sys.stdout)
        return 0 if all(s.status == 0 for s in steps) else 1
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
