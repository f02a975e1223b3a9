"""Backends of `opsnn.threshold_backward`: reference (the plain formula), fast (fused tiles, threads).

Kept light on purpose: importing opsnn must not import numba, torch or the emulator.
"""
SEMANTICS = ("torch", "ascend910b", "ascend950")
