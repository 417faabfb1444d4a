"""From C: host callbacks on a subscribed pthread, the acl_base.h objects, dvpp memory, ACL_APP_LOG."""

from __future__ import annotations

from pathlib import Path

from conftest import HERE, compile_program, environment, run

from emulator.sdk.build import Sdk


def test_callbacks_objects_dvpp_and_app_log_from_c(sdk: Sdk, tmp_path: Path) -> None:
    """Each call gives the status the real runtime gives; callbacks run on the report thread after the copy."""
    source = HERE / "programs" / "callbacks.c"
    program = compile_program(sdk, source, tmp_path / "callbacks", "ascendcl", cxx=False)
    done = run(program, environment(sdk, tmp_path, ASCEND_SLOG_PRINT_TO_STDOUT="1", ASCEND_GLOBAL_LOG_LEVEL="3"))
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    got = {line.split()[0]: line.split(" ", 1)[1] for line in lines if " " in line and not line.startswith("[")}
    assert got["launch-unsubscribed"] == "107015"
    assert got["process-unsubscribed"] == "107012"
    assert got["process-timeout-0"] == "100000"
    assert got["subscribe"] == "0" and got["subscribe-again"] == "107011"
    assert got["launch-block"] == "0" and got["launch-bad-type"] == "100000"
    assert got["sync"] == "0"
    assert got["block-saw"] == "42 on-report-thread 1"
    assert got["launch-noblock"] == "0"
    assert got["noblock-saw"] == "42 on-report-thread 1"
    assert got["unsubscribe"] == "0" and got["unsubscribe-again"] == "107011"
    assert got["buffer"] == "1 16 16"
    assert got["buffer-destroy"] == "0 null 100000"
    assert got["desc"] == "3 0 4 size 48 past-end 100000"
    assert got["dvpp"] == "0 aligned 1 free 0 zero 100000"
    assert got["utilization"] == "0 0 -1 bad-device 107001"
    app = [line for line in lines if line.startswith("[ERROR] APP(")]
    assert len(app) == 1 and "main:" in app[0] and "callbacks.c:" in app[0] and '"app line 7 from C"' in app[0]
    assert lines[-1] == "done"
    assert "Traceback" not in done.stderr
