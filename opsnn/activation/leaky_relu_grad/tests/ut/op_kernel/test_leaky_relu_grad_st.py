"""Upstream's ST rows (tests/st/arch35/ttk_kernel_leaky_relu_grad_st.csv: five cases, absolute
precision 1e-8) on the emulated Ascend950 kernel against upstream's golden, torch's
leaky_relu_backward in the tensors' own dtype: equal bit for bit (NaN equals NaN), since the DAG
computes torch's formula. The fp16 rows mix in NaN, -0.0 and inf as the csv's ranges say."""
import math
import zlib

import numpy as np
import pytest

from opsnn.activation.leaky_relu_grad.op_host.arch35 import leaky_relu_grad_tiling
from opsnn.activation.leaky_relu_grad.op_kernel.arch35 import run_kernel
from opsnn.op_common.kernel_run import run_exact
from opsnn.platform import Platform

from ...torch_oracle import same, torch_leaky_relu_backward

PLATFORM = Platform.custom(245760, 64, family="ascend950")
SPECIALS = (np.nan, -0.0, np.inf)

ROWS = [  # name, dtype, shape, slope, value range, specials mixed in
    ("fuzz_124", np.float32, (18, 24), 458.9240251987642, (-3.4028235e38, 3.4028235e38), False),
    ("fuzz_44", np.float16, (1,), -752.277139130999, (-1, 1), True),
    ("fuzz_107", np.float32, (2, 28, 38), 291.962, (-1, 1), False),
    ("fuzz_122", np.float16, (38,), 0.0, (-1, 1), True),
    ("fuzz_128", np.float16, (5, 13), -83.338, (-1, 1), True),
]


def _data(rng, dtype, shape, lo, hi, specials):
    v = rng.uniform(lo / 2, hi / 2, shape) * 2  # (the halves keep the range's width finite)
    if specials:
        v = np.where(rng.random(shape) < 0.3, rng.choice(SPECIALS, shape), v)
    with np.errstate(over="ignore"):
        return v.astype(dtype)


@pytest.mark.parametrize("name, dtype, shape, slope, value_range, specials", ROWS, ids=[r[0] for r in ROWS])
def test_st_row(name, dtype, shape, slope, value_range, specials):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for _ in range(3):
        g, x = (_data(rng, dtype, shape, *value_range, specials) for _ in range(2))
        r = leaky_relu_grad_tiling((shape, shape), dtype, slope, PLATFORM)
        done = run_exact(run_kernel, platform=PLATFORM, block_dim=r.block_dim, tiling=r.tiling_data.to_bytes(),
                         inputs={"gradients": g.reshape(-1), "features": x.reshape(-1)},
                         outputs={"backprops": (np.dtype(dtype), math.prod(shape))}, padding={}, dtype=dtype,
                         schedule_mode=r.schedule_mode)
        assert done.report.ok
        golden = torch_leaky_relu_backward(g, x, slope, False)
        assert same(done.outputs["backprops"].reshape(shape), golden)
