"""Correctly rounded results from exact rational arithmetic: an oracle independent of the
emulator's float64 tricks (for the fused multiply-add)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np


def nearest(exact: Fraction, dtype) -> np.generic:
    """`exact` rounded to `dtype` to nearest, ties to the even significand; past the largest
    finite value by half an ulp or more: infinity."""
    t = np.dtype(dtype)
    info = np.finfo(t)
    bits_type = {2: np.uint16, 4: np.uint32}[t.itemsize]
    top = Fraction(float(info.max))
    if abs(exact) >= top + Fraction(float(info.max - np.nextafter(info.max, t.type(0)))) / 2:
        return t.type(np.inf if exact > 0 else -np.inf)
    guess = t.type(float(exact)) if abs(exact) <= top else t.type(info.max if exact > 0 else -info.max)
    cands = [c for c in (np.nextafter(guess, t.type(-np.inf)), guess, np.nextafter(guess, t.type(np.inf)))
             if np.isfinite(c)]
    return min(cands, key=lambda c: (abs(Fraction(float(c)) - exact), int(np.array([c], t).view(bits_type)[0]) & 1))


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c element by element, rounded once to a's type; an infinite or NaN operand, or an
    exact zero (whose sign IEEE sets), gives IEEE's result computed in float64, where it is exact."""
    t = a.dtype
    out = []
    for x, y, z in zip(a, b, c, strict=True):
        exact = None
        if np.isfinite(x) and np.isfinite(y) and np.isfinite(z):
            exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        if exact:
            out.append(nearest(exact, t))
        else:
            with np.errstate(all="ignore"):
                out.append(t.type(np.float64(x) * np.float64(y) + np.float64(z)))
    return np.array(out, t)
