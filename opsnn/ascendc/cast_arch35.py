"""Cast as the arch35 DAGs use it: the A2 Cast (cast.py), except that float32 -> bfloat16 keeps
a NaN's payload the way float32 -> half does here: the top mantissa bits, not forced quiet (a
NaN whose kept bits are all zero gets the lowest one, so that it stays NaN). The A2 Cast goes
through ml_dtypes, which turns every NaN into the default one; for a NaN that came from a
bfloat16 (every NaN these DAGs narrow) this gives back exactly the bfloat16 it started as."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

from .cast import Cast as A2Cast
from .local_tensor import LocalTensor, read_local, write_local
from .rounding import RoundMode

_F32 = np.dtype(np.float32)


def Cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, count: int) -> None:  # noqa: N802
    count = int(count)
    if src.dtype == _F32 and dst.dtype == bfloat16 and count > 0:
        nan = np.isnan(read_local(src, count, "Cast"))
        if nan.any():
            high = (read_local(src, count, "Cast").view(np.uint32)[nan] >> 16).astype(np.uint16)
            high |= ((high & 0x7F) == 0).astype(np.uint16)
            A2Cast(dst, src, round_mode, count)
            out = read_local(dst.ReinterpretCast(np.uint16), count, "Cast").copy()
            out[nan] = high
            write_local(dst.ReinterpretCast(np.uint16), out, "Cast")
            return
    A2Cast(dst, src, round_mode, count)
