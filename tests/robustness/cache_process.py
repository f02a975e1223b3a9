"""One process of test_shared_cache.py (and `make fuzz`): a writer that fills the compiled-code
cache at OPSNN_CACHE_DIR as a user's process would, or the checker that then loads what every
writer left and compares the fast path with the reference bit for bit.

usage: python cache_process.py ROLE [ENGINE]
  ROLE: writer1 | writer2 | writer3 (issue 20's three processes) | check
  ENGINE: auto (default) or numba: the fast engine the checker asks for"""
from __future__ import annotations

import os
import sys

if len(sys.argv) > 2:
    os.environ["OPSNN_FAST_ENGINE"] = sys.argv[2]

import numpy as np  # noqa: E402

import opsnn  # noqa: E402

STREAMED = 4_000_000  # int32 elements: past the streaming-store crossover (3 x 16 MB moved)


def writer1():
    x = np.broadcast_to(np.arange(8191, dtype=np.int32), (3, 8191))
    opsnn.threshold(x, 0, 0, backend="fast")
    g = np.arange(1000, dtype=np.int32)
    opsnn.threshold_backward(g, g, 5, backend="fast")


def writer2():
    g, f = np.ones((400, 256), np.float32), np.ones(256, np.float32)
    opsnn.threshold_backward(g, f, 0.5, backend="fast")
    g = np.ones(STREAMED, np.int32)
    opsnn.threshold_backward(g, g, 5, backend="fast")


def writer3():
    s = np.arange(1000, dtype=np.int32)
    opsnn.threshold_backward(s, s, 5, backend="fast")
    g = np.ones(STREAMED, np.float32)
    opsnn.threshold_backward(g, g, 0.0, semantics="ascend910b", backend="fast")  # ReluGrad, streamed
    g = np.ones(STREAMED, np.int32)
    opsnn.threshold_backward(g, g, 5, semantics="ascend910b", backend="fast")  # int32 via float32, streamed


def _floats(rng, n):
    """float32 with every class: normals of both signs, +-0.0, +-inf, quiet and signalling NaNs."""
    x = rng.normal(size=n).astype(np.float32)
    bits = x.view(np.uint32)
    special = rng.integers(0, 8, n)
    patterns = np.array([0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC12345],
                        np.uint32)
    pick = special < 2  # a quarter of the elements
    bits[pick] = patterns[rng.integers(0, len(patterns), int(pick.sum()))]
    return x


def cases():
    """(name, function, arguments, keywords): every mode (plain, ReluGrad, int32 via float32) on
    serial, parallel and streamed sizes, row broadcasts, 2-d strided views and the forward."""
    rng = np.random.default_rng(20)
    out = []
    for n in (1000, 300_000, STREAMED):
        gi, fi = (rng.integers(-100, 101, n).astype(np.int32) for _ in range(2))
        gf, ff = _floats(rng, n), _floats(rng, n)
        out += [(f"int32 plain n={n}", opsnn.threshold_backward, (gi, fi, -69), {}),
                (f"int32 via float32 n={n}", opsnn.threshold_backward, (gi, fi, -69.5), {"semantics": "ascend910b"}),
                (f"float32 plain n={n}", opsnn.threshold_backward, (gf, ff, 0.25), {}),
                (f"float32 relugrad n={n}", opsnn.threshold_backward, (gf, ff, 0.0), {"semantics": "ascend910b"}),
                (f"float32 forward n={n}", opsnn.threshold, (ff, 0.1, -2.0), {})]
    g2, f_row = _floats(rng, 400 * 256).reshape(400, 256), _floats(rng, 256)
    i2 = rng.integers(-9, 10, (3, 8191)).astype(np.int32)
    out += [("float32 row broadcast", opsnn.threshold_backward, (g2, f_row, 0.5), {}),
            ("float32 row broadcast relugrad", opsnn.threshold_backward, (g2, f_row, 0.0), {"semantics": "ascend910b"}),
            ("int32 forward broadcast", opsnn.threshold, (np.broadcast_to(i2[0], (3, 8191)), 0, 0), {}),
            ("float32 transposed", opsnn.threshold_backward, (g2.T, g2[::-1].T, -0.5), {}),
            ("int32 strided 2-d", opsnn.threshold_backward, (i2[:, ::2], i2[::-1, ::2], 3), {})]
    return out


def check() -> int:
    wrong = 0
    for name, fn, args, kw in cases():
        got = fn(*args, backend="fast", **kw)
        want = fn(*args, backend="reference", **kw)
        if got.dtype != want.dtype or got.shape != want.shape:
            print(f"WRONG {name}: {got.dtype}{got.shape}, not {want.dtype}{want.shape}", file=sys.stderr)
            wrong += 1
            continue
        bits = np.uint8 if got.dtype.itemsize == 1 else f"u{got.dtype.itemsize}"
        bad = int(np.count_nonzero(np.ravel(got).view(bits) != np.ravel(want).view(bits)))
        if bad:
            print(f"WRONG {name}: {bad} elements differ", file=sys.stderr)
            wrong += 1
    print("ok" if not wrong else f"{wrong} cases wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    role = sys.argv[1]
    if role == "check":
        sys.exit(check())
    {"writer1": writer1, "writer2": writer2, "writer3": writer3}[role]()
    print("ok")
