"""aclnnHardtanhBackward from several threads at once: each thread its own device (the emulator
backend brings up a private runtime per call), results bit for bit the models'."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import opsnn
from opsnn.dtypes import bfloat16


def _one(i: int):
    rng = np.random.default_rng(i)
    dtype = (np.float32, np.float16, bfloat16)[i % 3]
    semantics = ("ascend910b", "ascend950")[i % 2]
    g = rng.standard_normal(3000).astype(np.float32).astype(dtype)
    x = (rng.standard_normal(3000) * 2).astype(np.float32).astype(dtype)
    got = opsnn.hardtanh_backward(g, x, -1.0, 1.0, semantics=semantics, backend="emulator")
    want = opsnn.hardtanh_backward(g, x, -1.0, 1.0, semantics=semantics, backend="reference")
    return got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}")


def test_concurrent_calls_agree_with_the_models():
    with ThreadPoolExecutor(4) as pool:
        for got, want in pool.map(_one, range(8)):
            np.testing.assert_array_equal(got, want)
