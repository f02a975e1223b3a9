"""Backends of `opsnn.threshold_backward`: reference (the plain formula), fast (fused tiles, threads).

Kept light on purpose: importing opsnn must not import torch or the emulator.
"""
from opsnn.op_common.api_args import SEMANTICS  # noqa: F401 (the backends' callers read it here)
