"""The pyACL face: ``from emulator import acl`` behaves like ``import acl``.

Module layout, names, positional arguments, ``(values…, ret)`` returns and statuses follow
real pyACL; the rules behind them are the real runtime's. This module holds the
generic calls (init / finalize / errors / version); ``acl.rt`` the runtime, ``acl.util`` the
pointer helpers and callback threads, ``acl.media`` dvpp memory; the data-buffer and tensor-descriptor
calls are in ``acl.buffers``, ``app_log`` in ``acl.app_log``. ``acl.op``, ``acl.mdl``, ``acl.hccl`` and the
rest of ``acl.media`` are out of scope and answer 207000 (``acl.unsupported``). Constants live in
``acl.constants`` (real pyACL exports none).
"""

from __future__ import annotations

import hashlib
import json

from pydantic import ValidationError

from emulator import process
from emulator.acl import constants, hccl, mdl, media, op, rt, util
from emulator.acl.app_log import app_log
from emulator.acl.buffers import (
    create_data_buffer,
    create_tensor_desc,
    data_type_size,
    destroy_data_buffer,
    destroy_tensor_desc,
    get_data_buffer_addr,
    get_data_buffer_size,
    get_data_buffer_size_v2,
    get_tensor_desc_dim_v2,
    get_tensor_desc_element_count,
    get_tensor_desc_format,
    get_tensor_desc_num_dims,
    get_tensor_desc_size,
    get_tensor_desc_type,
    update_data_buffer,
)
from emulator.acl.model_ri import C_ONLY
from emulator.boundary import acl_api
from emulator.config import AclConfig
from emulator.config_files import JSON_NESTING_LIMIT, ConfigFileRefused, json_depth, read_config_text
from emulator.errors import AclConfigDiffers, AclInvalidValue, InvalidFile, ParseFile, RepeatFinalize, RepeatInitialize
from emulator.lazylog import lazy_logger
from emulator.leaks import warn_at
from emulator.status import AclError

log = lazy_logger(__name__, logger_name="emulator.acl")

ACL_VERSION = (1, 17, 0)


def _read_config(config_path: str) -> tuple[str, AclConfig]:
    """Content of an acl.json (or "" for none) and its parsed model; raises 100003 / 100006 / 100000.

    The file is read without trusting it (``emulator.config_files``): a FIFO, a device, a symlink
    loop or an oversized file is 100003 (it cannot be opened as a config), bytes that are not UTF-8
    or nesting beyond the limit are 100006 (its JSON cannot be parsed), a key of the wrong type is
    100000 naming the key, as the real runtime fails a key it owns.
    """
    if not config_path:
        return "", AclConfig()
    try:
        text = read_config_text(config_path)
    except ConfigFileRefused as exc:
        if exc.unreadable:
            raise InvalidFile(f"Path {config_path} is invalid. Reason: {exc.reason}.", path=config_path) from None
        raise ParseFile(f"File {config_path} is invalid. Reason: {exc.reason}.", path=config_path) from None
    if max(text.count("{"), text.count("[")) > JSON_NESTING_LIMIT and json_depth(text) > JSON_NESTING_LIMIT:
        raise ParseFile(f"File {config_path} is invalid. Reason: json nesting exceeds {JSON_NESTING_LIMIT} levels.")
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ParseFile(f"File {config_path} is invalid. Reason: parse json failed: {exc}.", path=config_path) from None
    if not isinstance(data, dict):
        raise ParseFile(f"File {config_path} is invalid. Reason: the top level must be an object.")
    mode = data.get("err_msg_mode", "0")
    if mode not in ("0", "1"):
        raise AclInvalidValue("aclInit", mode, "err_msg_mode", '"0" or "1"')
    try:
        return text, AclConfig.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        key = ".".join(str(part) for part in error["loc"])
        log.warning("acl.config", problem="wrong value type", path=config_path, key=key, reason=error["msg"])
        raise AclInvalidValue("aclInit", json.dumps(error["input"]), key, error["msg"].lower()) from None


@acl_api("aclInit")
def init(config_path: str = "") -> int:
    proc = process.current()
    state = proc.acl
    with proc.lock:
        if state.ref_count > 0:
            state.ref_count += 1
            raise RepeatInitialize("aclInit was already called; the config is not read again")
        text, config = _read_config(config_path)
        digest = hashlib.sha256(text.encode()).hexdigest()
        if state.first_config_hash is not None and digest != state.first_config_hash:
            raise AclConfigDiffers(
                f"File {config_path or 'NULL'} is invalid. Reason: config content differs from the first "
                f"aclInit config file path: {state.first_config_path or 'NULL'}.",
                path=config_path,
            )
        default = config.default_device.default_device if config.default_device else None
        if default is not None and not default.isdigit():
            raise AclInvalidValue("aclInit", default, "default_device", "a device id")
        proc.errors.process_mode = config.err_msg_mode == "1"
        proc.runtime.default_device = int(default) if default is not None else None
        state.first_config_hash = state.first_config_hash or digest
        state.first_config_path = state.first_config_path or config_path
        state.config = config
        state.finalized = False
        state.ref_count = 1
        proc.aclnn.mark_initialised()  # aclInit initialises aclnn too
    return AclError.ACL_SUCCESS


def _finalize(proc: process.EmulatedProcess) -> None:
    warn_at("aclFinalize", proc)
    for hook in list(proc.finalize_hooks):
        hook()
    proc.acl.finalized = True
    proc.acl.ref_count = 0


@acl_api("aclFinalize")
def finalize() -> int:
    proc = process.current()
    with proc.lock:
        if proc.acl.finalized:
            raise RepeatFinalize("aclFinalize was already called")
        _finalize(proc)
    return AclError.ACL_SUCCESS


@acl_api("aclFinalizeReference")
def finalize_reference() -> tuple[int, int]:
    proc = process.current()
    with proc.lock:
        state = proc.acl
        if state.ref_count < 1:
            raise RepeatFinalize("aclFinalizeReference without a live aclInit")
        if state.ref_count > 1:
            state.ref_count -= 1
            return state.ref_count, AclError.ACL_SUCCESS
        _finalize(proc)
        return 0, AclError.ACL_SUCCESS


@acl_api("aclrtGetVersion")
def get_version() -> tuple[int, int, int, int]:
    return (*ACL_VERSION, AclError.ACL_SUCCESS)


@acl_api("aclrtGetSocName")
def get_soc_name() -> str:
    return process.current().runtime.soc.soc_version


@acl_api("aclGetRecentErrMsg")
def get_recent_err_msg() -> str | None:
    return process.current().errors.recent()


__all__ = [
    "C_ONLY",
    "app_log",
    "constants",
    "create_data_buffer",
    "create_tensor_desc",
    "data_type_size",
    "destroy_data_buffer",
    "destroy_tensor_desc",
    "finalize",
    "finalize_reference",
    "get_data_buffer_addr",
    "get_data_buffer_size",
    "get_data_buffer_size_v2",
    "get_recent_err_msg",
    "get_soc_name",
    "get_tensor_desc_dim_v2",
    "get_tensor_desc_element_count",
    "get_tensor_desc_format",
    "get_tensor_desc_num_dims",
    "get_tensor_desc_size",
    "get_tensor_desc_type",
    "get_version",
    "hccl",
    "init",
    "mdl",
    "media",
    "op",
    "rt",
    "update_data_buffer",
    "util",
]
