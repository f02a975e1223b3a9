"""The CMPMASK register: one 128-bit special register per AIV core, and the instructions that
read and write it (SetCmpMask / GetCmpMask; Select writes it too).

What is modelled (Atlas A2, from AscendC's dav_c220 Select implementation, which loads it with
set_cmpmask before every vsel):

- SetCmpMask(src) loads the 16 bytes at src; GetCmpMask(dst) stores them at dst.
- Select in VSEL_CMPMASK_SPR mode loads it from the first 16 bytes of selMask and then selects by
  it: bit i % (256 / sizeof(T)) of the register picks element i, so every 256-byte repeat uses
  the same bits (128 halves or 64 floats a repeat).
- Select in VSEL_TENSOR_SCALAR_MODE loads it with the scalar repeated (the scalar is read from it);
  in VSEL_TENSOR_TENSOR_MODE with selMask's UB address, four times as uint32 (the unit then
  reads the mask from that address). A GetCmpMask after either shows those bytes.
- A register-form compare (AscendC's Compare without dst, "the result is kept in a register")
  writes it; the count forms Compares / Compare, which write their mask to UB, leave it alone
  (what the hardware leaves there then is not documented).

A core's register starts as zeros (not documented). It lives beside the CoreContext (a weak map,
so nothing here outlives the core), per core: cores never share it."""
from __future__ import annotations

import weakref

import numpy as np

from .core import CoreContext
from .local_tensor import LocalTensor, read_local, write_local

CMPMASK_BYTES = 16  # 128 bits

_REGISTERS: weakref.WeakKeyDictionary[CoreContext, np.ndarray] = weakref.WeakKeyDictionary()


def cmpmask(ctx: CoreContext) -> np.ndarray:
    """The core's register: uint8[16], read-write (zeros until something writes it)."""
    reg = _REGISTERS.get(ctx)
    if reg is None:
        reg = _REGISTERS[ctx] = np.zeros(CMPMASK_BYTES, dtype=np.uint8)
    return reg


def set_cmpmask_bytes(ctx: CoreContext, raw: np.ndarray) -> None:
    """Load the register with `raw` (its bytes repeated or cut to 16)."""
    raw = np.ascontiguousarray(raw).view(np.uint8).reshape(-1)
    cmpmask(ctx)[:] = np.resize(raw, CMPMASK_BYTES)


def SetCmpMask(src: LocalTensor) -> None:  # noqa: N802 - AscendC name
    """CMPMASK <- the 16 bytes at src (any element type).

    Parameters
    ----------
    src : LocalTensor
        16 bytes of UB.
    """
    raw = read_local(src.ReinterpretCast(np.uint8), CMPMASK_BYTES, "SetCmpMask")
    src.ctx.counters.issue("SetCmpMask")
    set_cmpmask_bytes(src.ctx, raw)


def GetCmpMask(dst: LocalTensor) -> None:  # noqa: N802 - AscendC name
    """The 16 bytes of CMPMASK -> dst (any element type).

    Parameters
    ----------
    dst : LocalTensor
        16 bytes of UB.
    """
    write_local(dst.ReinterpretCast(np.uint8), cmpmask(dst.ctx).copy(), "GetCmpMask")
