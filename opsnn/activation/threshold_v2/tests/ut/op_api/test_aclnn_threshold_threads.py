"""aclnnThreshold from many threads at once, each on its own device: no shared mutable state."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from opsnn import acl

from .. import oracle as o
from .harness import Device


def _one(args):
    i, soc = args
    dev = Device(soc)
    try:
        rng = np.random.default_rng(i)
        dtype = o.DTYPES[i % len(o.DTYPES)]
        x = o.edge_values(dtype, 1000 + 37 * i, rng, around=[i - 3])
        out = dev.empty(x.shape, dtype)
        assert dev.threshold(dev.tensor(x), dev.scalar(i - 3, acl.ACL_INT64), dev.scalar(0.5 * i, acl.ACL_DOUBLE),
                             out) == 0
        expected = (o.forward_950 if soc == "Ascend950" else o.forward_910b)(x, i - 3, 0.5 * i)
        return bool((o.bits(dev.read(out)) == o.bits(expected)).all())
    finally:
        assert dev.close() == []


def test_concurrent_calls_on_both_socs():
    jobs = [(i, ("Ascend950", "Ascend910B2")[i % 2]) for i in range(16)]
    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(_one, jobs))
