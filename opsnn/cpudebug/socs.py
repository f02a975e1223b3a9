"""SoC names as upstream's build files write them (`ascend910B1`, `ascend910b`, `ascend950pr_9599`),
case-insensitive, to opsnn's platforms."""
from __future__ import annotations

from opsnn.platform import DEFAULT_SOC, SOCS, Platform

_FAMILY_DEFAULTS = {"ascend910b": DEFAULT_SOC, "ascend950": "Ascend950"}


def platform_for(name: str | None) -> Platform:
    """The platform for an upstream SoC name; ValueError naming the known ones otherwise.

    Parameters
    ----------
    name : str or None
        e.g. ``ascend910B1``, ``Ascend910B2``, ``ascend910b`` (the family: its default part),
        ``ascend950pr_9599`` (any Ascend950 part). None: the default SoC.
    """
    if not name:
        return SOCS[DEFAULT_SOC]
    key = name.strip().lower()
    for soc_name, platform in SOCS.items():
        if soc_name.lower() == key:
            return platform
    if key in _FAMILY_DEFAULTS:
        return SOCS[_FAMILY_DEFAULTS[key]]
    if key.startswith("ascend950"):
        return SOCS["Ascend950"]
    raise ValueError(f"unknown SoC {name!r}; known: {', '.join(SOCS)}, ascend910b, ascend950* (case-insensitive)")


# The architecture macros CANN's kernel builds define per SoC family (the CPU-debug build too), which
# upstream's kernels branch on (`#if __CCE_AICORE__ == 220`, `__NPU_ARCH__ == 3510`: ~1,400 places).
_ARCH_MACROS = {"ascend910b": (220, 2201), "ascend950": (310, 3510)}


def arch_defines(name: str | None) -> list[str]:
    """`-D__CCE_AICORE__=... -D__NPU_ARCH__=...` for an upstream SoC name (Atlas A2: 220 / 2201,
    Ascend950: 310 / 3510). A build puts them before a UT's own options, so a UT that sets its own
    value (two upstream CMakeLists pass -D__CCE_AICORE__=350) has the last word."""
    aicore, npu_arch = _ARCH_MACROS[platform_for(name).family]
    return [f"-D__CCE_AICORE__={aicore}", f"-D__NPU_ARCH__={npu_arch}"]
