"""The op-package loader (opbase's ``LoadAllOppPackage`` / ``OpKernelLib`` / binary-config reading).

Emulates how opbase finds and reads op packages on disk:
the SoC sub-directory, custom → vendor → built-in priority, the merged ops-info JSON, the
binary-config search and the kernel JSON of each bin. Module map:

- ``socdir``: SoC name → package sub-directory.
- ``vendors``: ``vendors/config.ini``.
- ``discovery``: the root and the package list.
- ``jsonio``: JSON reads, RFC 7386 merge patch, refusal records.
- ``jsonstream``: one array member of a big JSON object, decoded an item at a time.
- ``jsontypes``: one field read with the JSON type it must have, or a reason naming it.
- ``binconfig``: binary-config records, the per-field walk that words every refusal, file names.
- ``binfast``: a binary config checked in one pass over one decode (the walk reads what it declines).
- ``ops_info_schema``, ``kernel_schema``: the field types an ops-info / kernel JSON file must have.
- ``loader``: ``LoadAllOppPackage`` and ``OppPackages``.

Fidelity notes are in each module; the one project-wide difference from the real code (bad files
are refused one by one instead of failing the load with 561108) is explained in docs/opp.md.
"""

from __future__ import annotations

from emulator.engine.opp.binconfig import (
    DTYPE_STRINGS,
    FORMAT_STRINGS,
    BinaryConfig,
    BinAttr,
    BinEntry,
    BinInfo,
    BinTensor,
    candidate_config_names,
    config_json_name,
    config_json_name_old,
    read_binary_config,
)
from emulator.engine.opp.discovery import PackageRecord, shipped_opp_path
from emulator.engine.opp.jsonio import JsonRefused, Refusal, merge_patch, read_json_object
from emulator.engine.opp.loader import BinaryConfigHit, LoadAllOppPackage, OppPackages
from emulator.engine.opp.socdir import soc_directory
from emulator.engine.opp.vendors import parse_vendors_config

__all__ = [
    "DTYPE_STRINGS",
    "FORMAT_STRINGS",
    "BinAttr",
    "BinEntry",
    "BinInfo",
    "BinTensor",
    "BinaryConfig",
    "BinaryConfigHit",
    "JsonRefused",
    "LoadAllOppPackage",
    "OppPackages",
    "PackageRecord",
    "Refusal",
    "candidate_config_names",
    "config_json_name",
    "config_json_name_old",
    "merge_patch",
    "parse_vendors_config",
    "read_binary_config",
    "read_json_object",
    "shipped_opp_path",
    "soc_directory",
]
