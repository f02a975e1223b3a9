"""The C engine's element rules (modes), their flags and its parameter vector, as the module
exports them (a test compares)."""
from __future__ import annotations

PLAIN, RELU, VIA_FLOAT32, LEAKY, LEAKY_BF16 = 0, 1, 2, 4, 5
CYCLIC, HOST_NAN, KEYED = 0x100, 0x200, 0x400


def params(ranges, mode: int, fill: int = 0, flags: int = 0, layout: tuple = (0, 0, 0)) -> tuple:
    """A Lane's parameter vector: two ranges (lo1, hi1, lo2, hi2), fill, the float layout (sign,
    exponent, quiet: RELU), mode | flags."""
    lo1, hi1, lo2, hi2 = ranges
    return (lo1, hi1, lo2, hi2, fill, *layout, mode | flags)
