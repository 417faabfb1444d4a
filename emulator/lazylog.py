"""A module's logger that imports structlog on its first event, not when the module is imported.

Importing structlog costs about as much as the rest of the faces' own modules together, and most
programs log nothing until an emulated process has started (which configures structlog: see
emulator.plog). ``log = lazy_logger(__name__, logger_name=...)`` stands where
``log = structlog.get_logger(logger_name=...)`` stood: the first attribute read (``log.info``,
``log.bind`` …) makes the real structlog logger with the same arguments and puts it in the module's
``log`` in place of the stand-in, so from then on the module logs exactly as before — no extra
layer on any later call — and configuration, ``capture_logs`` and the plog renderer see the same
events.
"""

from __future__ import annotations

import sys
from typing import Any


class LazyLogger:
    """Stands in the module's ``log`` until the first read, then hands over to structlog's logger."""

    __slots__ = ("_arguments", "_logger", "_module")

    def __init__(self, module: str, arguments: dict[str, Any]) -> None:
        self._module = module
        self._arguments = arguments
        self._logger: Any = None

    def __getattr__(self, name: str) -> Any:
        logger = self._logger
        if logger is None:
            import structlog

            logger = self._logger = structlog.get_logger(**self._arguments)
            namespace = vars(sys.modules[self._module])
            if namespace.get("log") is self:
                namespace["log"] = logger
        return getattr(logger, name)


def lazy_logger(module: str, **arguments: Any) -> Any:
    """``structlog.get_logger(**arguments)`` for ``module``'s ``log``, made on the first event (Any, as structlog's)."""
    return LazyLogger(module, arguments)
