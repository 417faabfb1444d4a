"""``opbase-emu sdk``: an ASCEND_TOOLKIT_HOME-like tree whose libraries forward into the emulator.

Linux only (the libraries are ELF shared objects built with the system C compiler when the
command runs; ``pip install`` stays pure Python). The tree:

- ``include/``: acl/acl.h, acl_base.h, acl_rt.h, aclnn/acl_meta.h, aclnn/aclnn_base.h and
  aclnnop/aclnn_<op>.h, generated from the prototype table (emulator.sdk.headers);
- ``lib64/``: libopbase_emu.so (the core that embeds CPython, once per OS process) and the standard
  names — libascendcl.so (the runtime's functions), libnnopbase.so (acl_meta.h, aclnn_base.h),
  libopapi.so / libopapi_math.so / libopapi_nn.so / libopapi_transformer.so (every op) and
  libacl_op_compiler.so — each a real
  library with its own SONAME, so a program's NEEDED entries are the standard names;
- ``opp/``: the op package as the emulator loads it (a link to the shipped one) with ``opp/lib64``;
- ``set_env.sh`` and ``bin/npu-smi``.

The default prefix is a per-user cache keyed on the emulator version, the prototype table and
the Python ABI, rebuilt when any of them changes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from emulator.capi import META, RUNTIME, Proto
from emulator.engine.opp.discovery import shipped_opp_path
from emulator.kernels import REGISTRY
from emulator.sdk.forwarders import render_forwarders
from emulator.sdk.headers import KNOWN_HEADERS, render_headers

HERE = Path(__file__).resolve().parent
STANDARD = ("libascendcl.so", "libnnopbase.so", "libopapi.so", "libopapi_math.so", "libopapi_nn.so",
            "libopapi_transformer.so", "libacl_op_compiler.so")  # fmt: skip


class SdkError(RuntimeError):
    """The SDK cannot be built here; the message is the one sentence the user needs."""


class SdkBuildFailed(SdkError):
    """The compiler refused the SDK's own sources: a bug of the emulator, not of the machine."""


@dataclass(frozen=True)
class Sdk:
    prefix: Path

    @property
    def include(self) -> Path:
        return self.prefix / "include"

    @property
    def lib64(self) -> Path:
        return self.prefix / "lib64"

    def environment(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """What set_env.sh exports, as a mapping (``opbase-emu run`` uses it without the script)."""
        env = dict(os.environ if base is None else base)
        env.update(
            ASCEND_HOME_PATH=str(self.prefix),
            ASCEND_TOOLKIT_HOME=str(self.prefix),
            ASCEND_OPP_PATH=str(self.prefix / "opp"),
            LD_LIBRARY_PATH=os.pathsep.join(filter(None, (str(self.lib64), env.get("LD_LIBRARY_PATH", "")))),
            PYTHONHOME=sys.base_prefix,
            OPBASE_EMU_PYTHONPATH=os.pathsep.join(p for p in sys.path if p and Path(p).is_dir()),
        )
        return env


def fingerprint() -> str:
    """What the tree depends on: emulator version, every C declaration, the Python ABI."""
    digest = hashlib.sha256()
    try:
        digest.update(metadata.version("opbase-emulator").encode())
    except metadata.PackageNotFoundError:
        digest.update(b"unversioned")
    for proto in _all_protos():
        digest.update(f"{proto.header}:{proto.c_signature()}".encode())
    for name in ("core.c", "forwarders.py", "headers.py", "bridge.py"):
        digest.update((HERE / name).read_bytes())
    digest.update(f"{sys.implementation.cache_tag}-{sysconfig.get_config_var('SOABI')}".encode())
    return digest.hexdigest()[:16]


def default_prefix() -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "opbase-emu" / f"sdk-{fingerprint()}"


def _all_protos() -> list[Proto]:
    return [*RUNTIME, *META, *REGISTRY.prototypes()]


def _python_link() -> tuple[list[str], list[str]]:
    """Compile and link flags for embedding this interpreter; a Python without libpython cannot embed."""
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        raise SdkError(
            "this Python has no shared libpython, which the SDK's libraries embed: use a Python built with "
            "--enable-shared (Debian's python3, pyenv with PYTHON_CONFIGURE_OPTS=--enable-shared)"
        )
    include = sysconfig.get_paths()["include"]
    libdir = sysconfig.get_config_var("LIBDIR")
    version = sysconfig.get_config_var("LDVERSION") or sysconfig.get_python_version()
    return [f"-I{include}"], [f"-L{libdir}", f"-Wl,-rpath,{libdir}", f"-lpython{version}"]


def _compiler() -> str:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise SdkError("no C compiler found (set CC, or install gcc): the SDK's libraries are built when it runs")


def _compile(cc: str, args: list[str]) -> None:
    done = subprocess.run([cc, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SdkBuildFailed(f"building the SDK failed: {' '.join([cc, *args])}\n{done.stderr}")


def build(prefix: Path | None = None, *, force: bool = False) -> Sdk:
    """Write (or reuse) the SDK tree at ``prefix``."""
    if sys.platform != "linux":
        raise SdkError("the SDK is Linux only (its libraries are ELF shared objects)")
    sdk = Sdk((prefix or default_prefix()).resolve())
    stamp = sdk.prefix / ".opbase-emu-sdk"
    key = fingerprint()
    if not force and stamp.exists() and stamp.read_text() == key:
        return sdk
    cc = _compiler()
    cflags, ldflags = _python_link()
    src = sdk.prefix / "src"
    if sdk.include.exists():
        shutil.rmtree(sdk.include)  # a header the table no longer has must not linger
    for folder in (sdk.include, sdk.lib64, src, sdk.prefix / "bin"):
        folder.mkdir(parents=True, exist_ok=True)
    for relative, text in render_headers(REGISTRY).items():
        path = sdk.include / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    shutil.copyfile(HERE / "core.c", src / "core.c")
    groups = {
        "ascendcl": RUNTIME,
        "nnopbase": tuple(p for p in META if not p.header.startswith("aclnnop/")),
        "opapi": (*REGISTRY.prototypes(), *(p for p in META if p.header.startswith("aclnnop/"))),
    }
    op_headers = sorted({entry.header for entry in REGISTRY.entries.values()})
    includes = {"opapi": op_headers, "ascendcl": sorted({p.header for p in RUNTIME} - set(KNOWN_HEADERS))}
    for name, protos in groups.items():
        (src / f"{name}.c").write_text(render_forwarders(protos, includes.get(name, ())))
    common = ["-shared", "-fPIC", "-O2", "-Wall", f"-I{sdk.include}", *cflags]
    _compile(cc, [*common, str(src / "core.c"), "-o", str(sdk.lib64 / "libopbase_emu.so"),
                  "-Wl,-soname,libopbase_emu.so", *ldflags, "-lpthread"])  # fmt: skip
    link_core = [f"-L{sdk.lib64}", "-lopbase_emu", "-Wl,-rpath,$ORIGIN", *ldflags]
    sources = {"libascendcl.so": "ascendcl", "libnnopbase.so": "nnopbase", "libopapi.so": "opapi",
               "libopapi_math.so": "opapi", "libopapi_nn.so": "opapi", "libopapi_transformer.so": "opapi"}  # fmt: skip
    for library, group in sources.items():
        _compile(cc, [*common, str(src / f"{group}.c"), "-o", str(sdk.lib64 / library), f"-Wl,-soname,{library}",
                      *link_core])  # fmt: skip
    (src / "empty.c").write_text("/* libacl_op_compiler: no function of it is emulated yet */\n")
    _compile(cc, [*common, str(src / "empty.c"), "-o", str(sdk.lib64 / "libacl_op_compiler.so"),
                  "-Wl,-soname,libacl_op_compiler.so", *link_core])  # fmt: skip
    _write_opp(sdk)
    _write_env(sdk)
    _write_npu_smi(sdk)
    stamp.write_text(key)
    return sdk


def _write_opp(sdk: Sdk) -> None:
    opp = sdk.prefix / "opp"
    if opp.is_symlink() or opp.exists():
        if opp.is_symlink() or opp.is_file():
            opp.unlink()
        else:
            shutil.rmtree(opp)
    opp.mkdir()
    for entry in shipped_opp_path().iterdir():
        (opp / entry.name).symlink_to(entry)
    (opp / "lib64").symlink_to(sdk.lib64)


def _write_env(sdk: Sdk) -> None:
    env = sdk.environment({})
    lines = ["# Source me: the emulator's SDK in place of a CANN toolkit (opbase-emu sdk wrote this).",
             f'export ASCEND_HOME_PATH="{env["ASCEND_HOME_PATH"]}"',
             f'export ASCEND_TOOLKIT_HOME="{env["ASCEND_TOOLKIT_HOME"]}"',
             f'export ASCEND_OPP_PATH="{env["ASCEND_OPP_PATH"]}"',
             f'export LD_LIBRARY_PATH="{sdk.lib64}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"',
             f'export PATH="{sdk.prefix / "bin"}:$PATH"',
             f'export PYTHONHOME="{env["PYTHONHOME"]}"',
             f'export OPBASE_EMU_PYTHONPATH="{env["OPBASE_EMU_PYTHONPATH"]}"', ""]  # fmt: skip
    (sdk.prefix / "set_env.sh").write_text("\n".join(lines))


def _write_npu_smi(sdk: Sdk) -> None:
    """``npu-smi info`` as build scripts read it: the chip name is row 7, column 3."""
    from emulator.device.soc import DEFAULT_SOC, load_soc

    soc = load_soc(os.environ.get("OPBASE_EMU_SOC", DEFAULT_SOC))
    chip = soc.soc_version.removeprefix("Ascend")
    table = [
        "+------------------------------------------------------------------------------------------------+",
        "| npu-smi (opbase-emulator)          Version: simulated                                          |",
        "+---------------------------+---------------+----------------------------------------------------+",
        "| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|",
        "| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |",
        "+===========================+===============+====================================================+",
        f"| 0     {chip:<20}| OK            | 0.0         0                 0    / 0             |",
        "+===========================+===============+====================================================+",
    ]
    script = sdk.prefix / "bin" / "npu-smi"
    body = "\n".join(table)
    script.write_text(f"#!/bin/sh\n# The simulated NPU, as `npu-smi info` prints a card.\ncat <<'EOF'\n{body}\nEOF\n")
    script.chmod(0o755)
