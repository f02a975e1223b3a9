"""Reference arithmetic for the rounding tests: exact rationals rounded to half/float by hand
(round to nearest, ties to even, gradual underflow, overflow to inf), sharing no code with numpy's
conversions or the emulator's."""
from __future__ import annotations

from fractions import Fraction

import numpy as np

# dtype -> (significand bits, exponent of the smallest normal, largest finite)
FORMATS = {np.dtype(np.float16): (11, -14, Fraction(65504)),
           np.dtype(np.float32): (24, -126, Fraction((2**24 - 1) * 2**104))}


def round_fraction(q: Fraction, dtype, negative_zero: bool = False) -> np.generic:
    """q rounded to `dtype`; a zero result takes q's sign (or -0 when q == 0 and negative_zero)."""
    dtype = np.dtype(dtype)
    p, emin, biggest = FORMATS[dtype]
    if q == 0:
        return dtype.type(-0.0 if negative_zero else 0.0)
    neg, a = q < 0, abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()  # 2**e <= a < 2**(e + 2)
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    ulp = Fraction(2) ** (max(e, emin) - p + 1)
    m = a / ulp
    n = m.numerator // m.denominator
    rest = m - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    r = n * ulp
    value = np.inf if r > biggest else float(r)  # float(r) is exact: r is a half/float value
    return dtype.type(-value if neg else value)


def exact(x: np.generic) -> Fraction:
    """A finite half/float value as a Fraction (exact)."""
    return Fraction(float(x))
