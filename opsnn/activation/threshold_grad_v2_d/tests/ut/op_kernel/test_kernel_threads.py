"""run_kernel from many threads at once on one GM (the aclnn layer runs 8 at a time)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from opsnn.activation.threshold_grad_v2_d.op_host import padding, tiling
from opsnn.activation.threshold_grad_v2_d.op_kernel import run_kernel
from opsnn.ascendc import GlobalMemory
from opsnn.platform import Platform

from .kernel_helpers import DTYPES, NP, alloc_tensor, as_bits, random_inputs, reference

PLATFORM = Platform.custom(ub_size=16384, aiv_cores=4)


def test_eight_threads_share_one_gm():
    gm = GlobalMemory()

    def one(i):
        dtype = DTYPES[i % len(DTYPES)]
        threshold = (1.0, -1.5, 0.25)[i % 3]
        n = 3000 + 77 * i
        g, f = random_inputs(dtype, n, threshold, np.random.default_rng(i))
        nbytes = n * NP[dtype].itemsize
        r = tiling(n, dtype, threshold, PLATFORM)
        pad = padding(r)
        args = [alloc_tensor(gm, "input_gradient", g, nbytes, pad), alloc_tensor(gm, "input_feature", f, nbytes, pad),
                alloc_tensor(gm, "output_backprops", None, nbytes, pad)]
        report = run_kernel(gm=gm, platform=PLATFORM, dtype=dtype, block_dim=r.block_dim,
                            tiling=r.tiling_data.to_bytes(), input_gradient=args[0], input_feature=args[1],
                            output_backprops=args[2], sanitize=bool(i % 2))
        out = gm.bytes_view(args[2].addr, nbytes).view(NP[dtype])
        return report, as_bits(out).copy(), as_bits(reference(g, f, threshold, dtype))

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(one, range(32)))
    for report, got, want in results:
        assert report.errors == []
        np.testing.assert_array_equal(got, want)
