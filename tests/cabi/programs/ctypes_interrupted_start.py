"""A Ctrl-C that lands while the SDK's library is loading the emulator (the first call of a Python
program into it): that call fails with its status, the program gets its KeyboardInterrupt once the
call returns, and the next call loads the emulator and works. The interrupt is made to land there
every time by an import hook that raises it when the bridge module is first looked for."""

import ctypes
import importlib.abc
import sys
from typing import Any


class InterruptOnce(importlib.abc.MetaPathFinder):
    armed = True

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "emulator.sdk.bridge" and InterruptOnce.armed:
            InterruptOnce.armed = False
            raise KeyboardInterrupt
        return None


sys.meta_path.insert(0, InterruptOnce())
lib = ctypes.CDLL(sys.argv[1])
try:
    ret = lib.aclInit(None)
    print("returned", ret)
except KeyboardInterrupt:
    print("KeyboardInterrupt after the call")
print("init", lib.aclInit(None))
count = ctypes.c_uint32()
print("devices", lib.aclrtGetDeviceCount(ctypes.byref(count)), count.value > 0)
print("finalize", lib.aclFinalize())
