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
