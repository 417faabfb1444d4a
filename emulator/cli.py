"""``opbase-emu``: demo, trace, leaks and config check.

- ``demo`` runs the canonical lifecycle on the simulated NPU with an annotated timeline.
- ``trace SCRIPT -o trace.json`` runs a script with the lifecycle trace on and writes Chrome Trace
  Event JSON (Perfetto / chrome://tracing), optionally the text timeline and an SVG picture.
- ``leaks SCRIPT`` runs a script and prints the leak report and the sanitizer reports it made. The
  exit code is the script's own when it failed; otherwise 23 when anything leaked or was
  reported; otherwise 0 (one rule, ``emulator.leaks.exit_code``, shared with
  OPBASE_EMU_LEAK_CHECK=1 and the C SDK).
- A script that raises is still reported (leaks) or traced (trace): its traceback is printed once,
  from its own frames, and the tools exit 1 as Python would.
- Both take a native program built against the SDK (an ELF executable) in place of the script:
  it runs in the SDK's environment with OPBASE_EMU_TRACE / OPBASE_EMU_LEAK_CHECK set, and its
  emulated process writes the trace or prints the report (stderr) itself when it exits.
- ``config check FILE`` validates an acl.json and says what aclInit and InitSystemConfig decide.
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import shutil
import sys
import threading
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

# Each command imports what it needs when it runs (``--help`` and argument errors import nothing
# of the emulator): the tool's start-up is the Python start-up plus the chosen command's modules.


def _run_script(script: str, script_args: Sequence[str]) -> int:
    """Run a user script as __main__ in this process; the code Python would have exited it with.

    An uncaught exception is printed as Python prints it, from the script's frames down (the
    tool's own frames are not the user's business), and gives 1; the tool then goes on to write
    its report or trace, which is when it is needed most.
    """
    from emulator.leaks import exit_status_code

    argv = sys.argv
    sys.argv = [script, *script_args]
    sys.path.insert(0, str(Path(script).resolve().parent))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)  # sys.exit("message"), as Python prints it
        return exit_status_code(exc.code)
    except BaseException as exc:  # the script's failure is reported, never the tool's
        traceback.print_exception(type(exc), exc, _user_frames(exc.__traceback__), file=sys.stderr)
        return 130 if isinstance(exc, KeyboardInterrupt) else 1
    finally:
        sys.argv = argv
        sys.path.pop(0)
    return 0


def _user_frames(tb: TracebackType | None) -> TracebackType | None:
    """The traceback from the script's first frame: this module's and runpy's frames dropped."""
    while tb is not None and (
        tb.tb_frame.f_code.co_filename == __file__ or tb.tb_frame.f_globals.get("__name__") == "runpy"
    ):
        tb = tb.tb_next
    return tb


def _missing(tool: str, script: str) -> bool:
    """Say in one line that ``script`` cannot be run (as Python's own "can't open file" does).

    A directory runs only through its ``__main__.py``, as ``python DIR`` does; without one, runpy's
    ImportError would come out of the tool's own frames.
    """
    if not os.path.exists(script):
        why = "no such file or directory"
    elif os.path.isdir(script) and not os.path.isfile(os.path.join(script, "__main__.py")):
        why = "a directory without a __main__.py"
    else:
        return False
    print(f"opbase-emu {tool}: cannot open {script!r}: {why}", file=sys.stderr)
    return True


def _progress(stop: threading.Event) -> None:
    """Every second on a long script: how many calls ran so far (stderr)."""
    from emulator import process

    while not stop.wait(1.0):
        tracer = process.current().tracer
        if tracer is not None:
            calls = sum(1 for e in tracer.events if e.kind == "api")
            print(f"\r  ... {calls} calls traced", end="", file=sys.stderr, flush=True)


def _native(program: str) -> str | None:
    """The path of ``program`` when it is a native executable (ELF), not a Python script."""
    path = program if os.sep in program or Path(program).is_file() else shutil.which(program)
    try:
        with open(path or program, "rb") as f:
            return str(path or program) if f.read(4) == b"\x7fELF" else None
    except OSError:
        return None


def _run_native(tool: str, program: str, program_args: Sequence[str], switches: dict[str, str]) -> int | None:
    """Run a program built against the SDK in its environment plus ``switches``; None when it cannot run.

    The program's emulated process does the tool's work itself (the leak report, the trace) at exit.
    """
    import subprocess

    from emulator.sdk.build import SdkError, build

    try:
        sdk = build()
    except SdkError as exc:
        print(f"opbase-emu {tool}: {exc}", file=sys.stderr)
        return None
    try:
        return subprocess.run([program, *program_args], env=sdk.environment() | switches).returncode
    except OSError as exc:
        print(f"opbase-emu {tool}: cannot run {program}: {exc.strerror}", file=sys.stderr)
        return None


def _signal_code(code: int) -> int:
    """A shell's exit code for a child killed by a signal (-6 becomes 134)."""
    return 128 - code if code < 0 else code


def cmd_trace(args: argparse.Namespace) -> int:
    from emulator.trace import start_trace, stop_trace
    from emulator.trace import summary as trace_summary

    native = _native(args.script)
    if native is not None:
        switches = {"OPBASE_EMU_TRACE": str(Path(args.output).resolve())}
        if args.text:
            switches["OPBASE_EMU_TRACE_TEXT"] = str(Path(args.text).resolve())
        if args.svg:
            switches["OPBASE_EMU_TRACE_SVG"] = str(Path(args.svg).resolve())
        code = _run_native("trace", native, args.args, switches)
        return 127 if code is None else _signal_code(code)
    if _missing("trace", args.script):
        return 2
    tracer = start_trace()
    stop = threading.Event()
    if args.progress:
        threading.Thread(target=_progress, args=(stop,), daemon=True).start()
    try:
        code = _run_script(args.script, args.args)
    finally:
        stop.set()
        stop_trace()
    try:
        tracer.write_chrome(args.output)
        if args.text:
            Path(args.text).write_text(tracer.text() + "\n")
        if args.svg:
            Path(args.svg).write_text(tracer.svg())
    except OSError as exc:
        print(f"opbase-emu trace: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return code or 1
    print(trace_summary(tracer, args.output), file=sys.stderr)
    return code


def cmd_leaks(args: argparse.Namespace) -> int:
    from emulator.leaks import exit_code, leak_report

    started = time.perf_counter()
    native = _native(args.script)
    if native is not None:  # the program's process prints the report and applies exit_code's rule itself
        code = _run_native("leaks", native, args.args, {"OPBASE_EMU_LEAK_CHECK": "1"})
        if code is None:
            return 127
        print(f"(program exit code {code}, {time.perf_counter() - started:.2f} s)", file=sys.stderr)
        return _signal_code(code)
    if _missing("leaks", args.script):
        return 2
    os.environ.pop("OPBASE_EMU_LEAK_CHECK", None)  # this command is the check: no second report at exit
    code = _run_script(args.script, args.args)
    report = leak_report(at_exit=True)  # the script has ended: a cache still alive means aclnnFinalize never ran
    print(report.render())
    print(f"(script exit code {code}, {time.perf_counter() - started:.2f} s)", file=sys.stderr)
    return exit_code(code, report)


def cmd_config_check(args: argparse.Namespace) -> int:
    from emulator.config import AclConfig
    from emulator.engine.system import init_system_config

    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if text.strip() else {}
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{path}: aclInit would return 100003 (ACL_ERROR_INVALID_FILE): {exc}")
        return 1
    except json.JSONDecodeError as exc:
        print(f"{path}: aclInit would return 100006 (ACL_ERROR_PARSE_FILE): {exc}")
        debug, reason = init_system_config(str(path), None)
        print(f"aclnnInit: debug kernels {'on' if debug else 'off'} ({reason}); aclnnInit still returns 0")
        return 1
    ok = True
    if not isinstance(data, dict):
        print(f"{path}: the top level must be an object (aclInit: 100006)")
        return 1
    mode = data.get("err_msg_mode", "0")
    if mode not in ("0", "1"):
        print(f'err_msg_mode {mode!r}: aclInit would return 100000 (expected "0" or "1")')
        ok = False
    config = AclConfig.model_validate({k: v for k, v in data.items() if k != "err_msg_mode"})
    print(f"aclInit: err_msg_mode {mode!r} ({'process-wide' if mode == '1' else 'per-thread'} error messages)")
    if config.default_device and config.default_device.default_device is not None:
        print(f"aclInit: default device {config.default_device.default_device}")
    if isinstance(data.get("dump"), dict):
        print(f"aclInit: dump enabled, path {data['dump'].get('dump_path')!r} (aclDumpOpTensors writes there)")
    extra = sorted(set(data) - {"err_msg_mode", "defaultDevice", "dump", "op_debug_config"})
    if extra:
        print(f"ignored keys (the real parsers ignore them too): {', '.join(extra)}")
    debug, reason = init_system_config(str(path), os.environ.get("NPU_COLLECT_PATH"))
    print(f"aclnnInit: debug kernels {'on' if debug else 'off'} ({reason}); aclnnInit returns 0")
    return 0 if ok else 1


def cmd_sdk(args: argparse.Namespace) -> int:
    from emulator.sdk.build import SdkError, build

    try:
        sdk = build(Path(args.prefix) if args.prefix else None, force=args.force)
    except SdkError as exc:
        print(f"opbase-emu sdk: {exc}", file=sys.stderr)
        return 1
    print(sdk.prefix)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Run a native program against the SDK (built on first use) with its environment set."""
    import subprocess

    from emulator.sdk.build import SdkError, build

    try:
        sdk = build()
    except SdkError as exc:
        print(f"opbase-emu run: {exc}", file=sys.stderr)
        return 1
    try:
        return subprocess.run([args.program, *args.args], env=sdk.environment()).returncode
    except OSError as exc:
        print(f"opbase-emu run: cannot run {args.program}: {exc.strerror}", file=sys.stderr)
        return 127


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="opbase-emu", description="CANN opbase / ACL runtime emulator")
    parser.add_argument("--version", action="version", version=f"opbase-emu {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="run the lifecycle on the simulated NPU and show what each step does")
    trace = commands.add_parser("trace", help="run a script or program and write its lifecycle as a Chrome trace")
    trace.add_argument("script")
    trace.add_argument("-o", "--output", default="trace.json")
    trace.add_argument("--text", help="also write the text timeline to this file")
    trace.add_argument("--svg", help="also write an SVG picture of the lanes to this file")
    trace.add_argument("--progress", action="store_true", help="print a call counter while the script runs")
    leaks = commands.add_parser(
        "leaks", help="run a script or program and report what it left alive and misused (exit 23 if any)"
    )
    leaks.add_argument("script")
    sdk = commands.add_parser("sdk", help="write the C/C++ SDK (headers, libraries, set_env.sh) and print its path")
    sdk.add_argument("--prefix", help="where to write it (default: a per-user cache keyed on version and table)")
    sdk.add_argument("--force", action="store_true", help="rebuild even when the tree is current")
    run = commands.add_parser("run", help="run a program in the SDK's environment (no set_env.sh needed)")
    run.add_argument("program")
    config = commands.add_parser("config", help="configuration tools")
    config_commands = config.add_subparsers(dest="config_command", required=True)
    check = config_commands.add_parser("check", help="validate an acl.json and say what it decides")
    check.add_argument("file")
    return parser


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("opbase-emulator")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    """The tool; a reader that closes the pipe early (``opbase-emu demo | head``) ends it quietly, as a shell tool."""
    try:
        code = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would report the failed flush again at exit: point stdout at /dev/null first
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + 13  # killed by SIGPIPE, as a shell reports it
    return code


def _main(argv: Sequence[str] | None) -> int:
    args, rest = build_parser().parse_known_args(argv)
    if rest and args.command not in ("trace", "leaks", "run"):
        build_parser().error(f"unrecognized arguments: {' '.join(rest)}")
    args.args = rest  # the script's own arguments (options the tool does not know go to the script)
    from emulator.config import Settings
    from emulator.plog import configure_logging

    configure_logging(Settings.from_env())  # lines logged before the first emulated process starts
    if args.command == "demo":
        from emulator.demo import run_demo

        steps = run_demo(sys.stdout)
        return 0 if all(s.status == 0 for s in steps) else 1
    if args.command == "trace":
        return cmd_trace(args)
    if args.command == "leaks":
        return cmd_leaks(args)
    if args.command == "config":
        return cmd_config_check(args)
    if args.command == "sdk":
        return cmd_sdk(args)
    if args.command == "run":
        return cmd_run(args)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
