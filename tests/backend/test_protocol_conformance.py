"""Structural conformance: every backend in the table implements the Device protocol exactly.

Behaviour is checked in test_device_protocol.py; this file checks shape, so that drift between
device/interface.py and a backend (a parameter the protocol lacks, a method only the backends
have, a different annotation) fails here instead of surfacing as an AttributeError or a
``hasattr`` probe in a caller. Nothing here constructs a device.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import emulator.device
from emulator.device import BACKENDS
from emulator.device.interface import Device, DeviceCaps
from emulator.device.soc import load_soc

DEVICE_DIR = Path(emulator.device.__file__).parent


def backend_class(spec: str) -> type:
    module_name, class_name = spec.split(":")
    cls: type = getattr(importlib.import_module(module_name), class_name)
    return cls


BACKEND_CLASSES = {name: backend_class(spec) for name, spec in BACKENDS.items()}


def protocol_members() -> dict[str, str]:
    """Each public member of Device and how it is declared: 'method', 'property' or 'attribute'."""
    members = {name: "attribute" for name in typing.get_type_hints(Device)}
    for name, value in vars(Device).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            members[name] = "property"
        elif inspect.isfunction(value):
            members[name] = "method"
    return members


PROTOCOL = protocol_members()


def public_members(cls: type) -> set[str]:
    """What a backend class shows to callers: public attributes, methods and class-level annotations."""
    return {name for name in [*dir(cls), *typing.get_type_hints(cls)] if not name.startswith("_")}


def shape(func: Callable[..., Any]) -> tuple[list[tuple[str, Any, Any, Any]], Any]:
    """A signature with its annotations resolved: [(name, kind, default, type)], return type."""
    hints = typing.get_type_hints(func)
    params = [
        (p.name, p.kind, p.default, hints.get(p.name, inspect.Parameter.empty))
        for p in inspect.signature(func).parameters.values()
    ]
    return params, hints.get("return", inspect.Parameter.empty)


def test_the_protocol_is_not_empty() -> None:
    """The introspection below really sees the protocol's members (a guard for the guard)."""
    kinds = set(PROTOCOL.values())
    assert kinds == {"method", "property", "attribute"}
    assert {"malloc", "create_event", "event_is_ex", "add_task_listener", "races", "caps"} <= set(PROTOCOL)


@pytest.mark.parametrize("backend", BACKEND_CLASSES)
@pytest.mark.parametrize("member", sorted(name for name, kind in PROTOCOL.items() if kind == "method"))
def test_methods_match_the_protocol(backend: str, member: str) -> None:
    """Each protocol method exists on the backend with the same parameters, defaults and annotations."""
    cls = BACKEND_CLASSES[backend]
    impl = inspect.getattr_static(cls, member, None)
    assert inspect.isfunction(impl), f"{cls.__name__}.{member} is missing or not a plain method"
    assert shape(impl) == shape(getattr(Device, member)), f"{cls.__name__}.{member} drifted from Device.{member}"


@pytest.mark.parametrize("backend", BACKEND_CLASSES)
@pytest.mark.parametrize("member", sorted(name for name, kind in PROTOCOL.items() if kind == "property"))
def test_properties_match_the_protocol(backend: str, member: str) -> None:
    """A read-only protocol member is a property of the backend returning the same type."""
    cls = BACKEND_CLASSES[backend]
    impl = inspect.getattr_static(cls, member, None)
    assert isinstance(impl, property) and impl.fget is not None, f"{cls.__name__}.{member} is not a property"
    expected = typing.get_type_hints(getattr(Device, member).fget)["return"]
    assert typing.get_type_hints(impl.fget)["return"] == expected


@pytest.mark.parametrize("backend", BACKEND_CLASSES)
@pytest.mark.parametrize("member", sorted(name for name, kind in PROTOCOL.items() if kind == "attribute"))
def test_attributes_are_declared_with_the_protocol_type(backend: str, member: str) -> None:
    """Data members are annotated on the backend class with the protocol's type, not only set in __init__."""
    cls = BACKEND_CLASSES[backend]
    assert typing.get_type_hints(cls).get(member) == typing.get_type_hints(Device)[member]


@pytest.mark.parametrize("backend", BACKEND_CLASSES)
def test_caps_are_a_class_level_frozen_value(backend: str) -> None:
    """Capabilities are known before a device is opened, and no caller can flip one."""
    caps = BACKEND_CLASSES[backend].caps
    assert isinstance(caps, DeviceCaps)
    with pytest.raises(dataclasses.FrozenInstanceError):
        caps.runs_python_kernels = not caps.runs_python_kernels  # type: ignore[misc]


def test_members_every_backend_has_are_on_the_protocol() -> None:
    """A public member that all backends grew belongs on the protocol (this is how event_is_ex drifted)."""
    common = set.intersection(*(public_members(cls) for cls in BACKEND_CLASSES.values()))
    assert common - set(PROTOCOL) == set()


@pytest.mark.parametrize("backend", BACKEND_CLASSES)
def test_constructor_takes_what_open_device_passes(backend: str) -> None:
    """open_device passes (device_id, soc, eager=, block_workers=) from the settings; every backend accepts it."""
    signature = inspect.signature(BACKEND_CLASSES[backend])
    signature.bind(0, load_soc(), eager=False, block_workers=1)
    for name in ("eager", "block_workers"):
        assert signature.parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
    assert all(p.kind is not inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()), (
        "a **kwargs catch-all would swallow a misspelt or unsupported option silently"
    )


def backend_homes() -> dict[str, str]:
    """Each backend's own part of emulator.device: 'simulated' for the package, 'ascend' for the module."""
    return {name: spec.split(":")[0].split(".")[2] for name, spec in BACKENDS.items()}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved against its place in emulator.device."""
    package = ["emulator", "device", *path.parent.relative_to(DEVICE_DIR).parts]
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            modules.add(module)
            modules.update(f"{module}.{alias.name}" for alias in node.names)
    return modules


def module_files(home: str) -> list[Path]:
    package = DEVICE_DIR / home
    return sorted(package.rglob("*.py")) if package.is_dir() else [DEVICE_DIR / f"{home}.py"]


@pytest.mark.parametrize("backend", BACKEND_CLASSES)
def test_no_backend_imports_another_backend(backend: str) -> None:
    """What backends share sits on the floor (interface, errors, soc, memory_rules), never in a sibling backend."""
    homes = backend_homes()
    others = {f"emulator.device.{home}" for name, home in homes.items() if name != backend}
    files = module_files(homes[backend])
    assert files and all(f.exists() for f in files)
    for path in files:
        for module in imported_modules(path):
            assert not any(module == other or module.startswith(other + ".") for other in others), (
                f"{path.name} imports {module}"
            )


def test_the_device_layer_imports_itself_relatively() -> None:
    """device/ names its own modules relatively, so no line of it can even spell an import from above."""
    for path in sorted(DEVICE_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("emulator"), f"{path.relative_to(DEVICE_DIR)} imports {node.module}"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("emulator") for a in node.names), path


def test_the_device_layer_imports_nothing_above_it() -> None:
    """Arrows point down: device/ imports only emulator.device from the emulator namespace."""
    for path in sorted(DEVICE_DIR.rglob("*.py")):
        for module in imported_modules(path):
            if module == "emulator" or module.startswith("emulator."):
                assert module.startswith("emulator.device"), f"{path.relative_to(DEVICE_DIR)} imports {module}"
