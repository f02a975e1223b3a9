"""IEEE-754 arithmetic in half and float with host-independent NaNs: what binary.py, scalar_ops.py
and unary.py compute with.

Rounding. Every result is rounded once to the instruction's type, to nearest with ties to even;
overflow gives inf; subnormal results and operands are kept (how the A2 vector unit treats
subnormals is not documented: this is IEEE's rule, not a measurement).

- float: numpy's own float32 +, -, *, /, sqrt, which the host FPU rounds correctly.
- half: the operands widened to float64 (exact), the operation done there, the result converted
  to half directly (numpy's float64 -> float16 conversion rounds correctly: checked against
  rounding.to_float). A float64 sum, difference or product of two halves is exact, so those round
  once. A quotient or square root rounds twice (float64, then half), which gives the correctly
  rounded half: double rounding through p' bits cannot differ from direct rounding to p bits for
  +, -, *, /, sqrt when p' >= 2p + 2 (Figueroa, "When is double rounding innocuous?", 1995);
  53 >= 24. The same bound (24 >= 2 * 11 + 2) is why numpy's float16 arithmetic, which goes
  through float32, is also correctly rounded; tests/ascendc/test_binary.py checks half sums and
  products against exact rational arithmetic.
- Exp, Ln, Rsqrt, Reciprocal: computed in float64 and rounded once to the type (see unary.py).

NaNs (arith.canonical_nans' rule, extended). A NaN operand comes through with its quiet bit set
and its sign and payload kept; when both operands are NaN, the first one (src0) does. An invalid
operation on non-NaN operands gives the default quiet NaN (half 0x7E00, float 0x7FC00000) with a
sign defined per operation: sign(a) xor sign(b) for a product or quotient (inf * 0, 0 / 0,
inf / inf), positive for everything else (inf - inf, sqrt(x < 0), ln(x < 0), rsqrt(x < 0)). x86
and ARM disagree on these signs; this rule does not depend on the host."""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
FLOATS = (F16, F32)
# dtype -> (bits type, quiet bit, default NaN, sign bit)
NAN_BITS = MappingProxyType({F16: (np.uint16, 0x0200, 0x7E00, 0x8000),
                             F32: (np.uint32, 0x0040_0000, 0x7FC0_0000, 0x8000_0000)})


def sign_bits(x: np.ndarray) -> np.ndarray:
    """The sign bit of each value of a half/float array, as its bits type (0 or the sign bit)."""
    bits, _, _, sign = NAN_BITS[x.dtype]
    return np.asarray(x).view(bits) & bits(sign)


def settle_nans(out: np.ndarray, operands: list[np.ndarray], invalid_sign: np.ndarray | None = None) -> np.ndarray:
    """Rewrite the NaNs of `out` (half/float, in place) by the module docstring's rule.

    Parameters
    ----------
    out : numpy.ndarray
        The result; its NaN lanes are rewritten.
    operands : list of numpy.ndarray
        The operands in order (each out's type, broadcastable to out: a scalar is a 0-d array).
    invalid_sign : numpy.ndarray or None
        Sign bits (out's bits type) of the default NaN where no operand is NaN; None: positive.

    Returns
    -------
    numpy.ndarray
        out.
    """
    nan = np.isnan(out)
    if not nan.any():
        return out
    bits, quiet, default, _ = NAN_BITS[out.dtype]
    pick = np.full(out.shape, default, dtype=bits)
    if invalid_sign is not None:
        pick |= np.broadcast_to(invalid_sign, out.shape)
    for op in reversed(operands):  # the first NaN operand is the last to be written: it wins
        v = np.broadcast_to(np.asarray(op, dtype=out.dtype), out.shape)
        pick = np.where(np.isnan(v), v.view(bits), pick)
    out.view(bits)[nan] = (pick | bits(quiet))[nan]
    return out


def widen(x: np.ndarray) -> np.ndarray:
    """half -> float64 (exact)."""
    return x.astype(np.float64)


def narrow(x64: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float64 -> half/float, rounded once to nearest even (overflow to inf, subnormals kept)."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return x64.astype(dtype)


def apply_float(ufunc, dtype: np.dtype, *operands: np.ndarray) -> np.ndarray:
    """ufunc(*operands) rounded once to `dtype` (float natively, half through float64), NaNs not
    settled yet."""
    with np.errstate(all="ignore"):
        if dtype == F16:
            return narrow(ufunc(*(widen(np.asarray(v, F16)) for v in operands)), F16)
        return ufunc(*(np.asarray(v, dtype) for v in operands)).astype(dtype, copy=False)
