"""The elementwise and broadcast schedules run DAGs core by core on the emulator, under the
sanitizer, with exact copies (no finding at all, so no padding to declare)."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import GlobalMemory, KernelArg
from opsnn.atvoss import (
    BroadcastBaseTiling,
    ElewiseBaseTiling,
    launch_broadcast,
    launch_elementwise,
)
from opsnn.dtypes import BY_NAME, bfloat16
from opsnn.platform import Platform

from .dags import copy_brc_pair, threshold_v2_like

PLATFORM = Platform.custom(245760, 64, "ascend950")
SMALL = Platform.custom(16384, 8, "ascend950")  # small UB: many tiles, split axes past 0


def _args(gm: GlobalMemory, named: dict[str, np.ndarray]) -> list[KernelArg]:
    out = []
    for name, a in named.items():
        raw = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
        addr = gm.malloc(max(raw.size, 1))
        gm.bytes_view(addr, raw.size)[:] = raw
        out.append(KernelArg(name, addr, raw.size))
    return out


def _read(gm: GlobalMemory, arg: KernelArg, dtype, shape) -> np.ndarray:
    return np.array(gm.bytes_view(arg.addr, arg.nbytes)).view(dtype).reshape(shape)


def _values(dtype: np.dtype, n: int, rng) -> np.ndarray:
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    v = (rng.standard_normal(n) * 3).astype(np.float32)
    v[::7] = np.nan
    v[1::11] = np.inf
    return v.astype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "bfloat16", "int8", "uint8", "int16", "int32", "int64"])
@pytest.mark.parametrize("n", [1, 513, 8199, 100003])
def test_elementwise_threshold_v2_like(dtype, n):
    dt = np.dtype(BY_NAME.get(dtype, dtype))
    rng = np.random.default_rng(n)
    x = _values(dt, n, rng)
    thr, val = x[[3 % n]].copy(), x[[5 % n]].copy()
    dag = threshold_v2_like(dtype)
    td = ElewiseBaseTiling(dag, PLATFORM).do_tiling((n,), [(n,), (1,), (1,)])
    gm = GlobalMemory()
    args = _args(gm, {"x": x, "threshold": thr, "value": val, "y": np.zeros(n, dt)})
    report = launch_elementwise(dag, gm=gm, platform=PLATFORM, tiling=td, inputs=args[:3], outputs=args[3:],
                                sanitize=True)
    assert report.findings == [] and report.block_dim == td.block_num
    xf = x.astype(np.float32) if dt == bfloat16 else x
    want = np.where(xf <= (thr.astype(np.float32) if dt == bfloat16 else thr)[0], val[0], x)
    assert _read(gm, args[3], dt, (n,)).view(np.uint8).tobytes() == want.astype(dt).view(np.uint8).tobytes()


BRC_CASES = [
    ((1000,), (1000,), PLATFORM, 201),
    ((7,), (1,), PLATFORM, 201),
    ((1,), (300,), PLATFORM, 201),
    ((1024, 512), (1024, 1), PLATFORM, 1),
    ((2, 3), (3,), PLATFORM, 1),
    ((3, 1, 2048), (3, 4, 2048), PLATFORM, 102),
    ((6, 5, 300), (6, 1, 300), SMALL, 1),
    ((9, 1, 7, 40), (1, 5, 7, 1), SMALL, 1),
]


@pytest.mark.parametrize(("a_shape", "b_shape", "platform", "mode"), BRC_CASES)
def test_broadcast_schedules(a_shape, b_shape, platform, mode):
    rng = np.random.default_rng(len(a_shape))
    dt = np.dtype(np.float32)
    a, b = _values(dt, int(np.prod(a_shape)), rng).reshape(a_shape), _values(dt, int(np.prod(b_shape)), rng) \
        .reshape(b_shape)
    dag = copy_brc_pair("float32")
    r = BroadcastBaseTiling(dag, platform).do_tiling([a_shape, b_shape])
    assert r.schedule_mode == mode
    out_shape = np.broadcast_shapes(a_shape, b_shape)
    gm = GlobalMemory()
    args = _args(gm, {"a": a, "b": b, "out": np.zeros(out_shape, dt)})
    report = launch_broadcast(dag, gm=gm, platform=platform, schedule_mode=r.schedule_mode, tiling=r.tiling_data,
                              inputs=args[:2], outputs=args[2:], sanitize=True)
    assert report.findings == []
    with np.errstate(invalid="ignore"):
        want = np.broadcast_to(a, out_shape) * np.broadcast_to(b, out_shape)
    got = _read(gm, args[2], dt, out_shape)
    ok = (got == want) | (np.isnan(got) & np.isnan(want))
    assert ok.all()


def test_ub_broadcast_mode_in_half():
    dag = copy_brc_pair("float16")
    shapes = [(8, 1, 16), (1, 32, 16)]
    r = BroadcastBaseTiling(dag, PLATFORM).do_tiling(shapes)
    assert r.ub_broadcast and r.schedule_mode == 103
    a = np.arange(128, dtype=np.float16).reshape(shapes[0])
    b = (np.arange(512, dtype=np.float16) / 64).reshape(shapes[1])
    gm = GlobalMemory()
    args = _args(gm, {"a": a, "b": b, "out": np.zeros((8, 32, 16), np.float16)})
    report = launch_broadcast(dag, gm=gm, platform=PLATFORM, schedule_mode=r.schedule_mode,
                              tiling=r.tiling_data.to_bytes(), inputs=args[:2], outputs=args[2:], sanitize=True)
    assert report.findings == []
    np.testing.assert_array_equal(_read(gm, args[2], np.float16, (8, 32, 16)), a * b)


def test_sanitizer_sees_a_short_output():
    # the schedule writes the whole output: a tensor declared 4 bytes short is caught, as an error
    dag = copy_brc_pair("float32")
    r = BroadcastBaseTiling(dag, PLATFORM).do_tiling([(64,), (64,)])
    gm = GlobalMemory()
    a = _args(gm, {"a": np.ones(64, np.float32), "b": np.ones(64, np.float32), "out": np.zeros(64, np.float32)})
    short = KernelArg("out", a[2].addr, a[2].nbytes - 4)
    report = launch_broadcast(dag, gm=gm, platform=PLATFORM, schedule_mode=201, tiling=r.tiling_data,
                              inputs=a[:2], outputs=[short], sanitize=True)
    assert [f.kind for f in report.errors] == ["gm_write_past_tensor"]


def test_ub_is_what_the_tiling_sized():
    dag = copy_brc_pair("float32")
    r = BroadcastBaseTiling(dag, PLATFORM).do_tiling([(100000,), (100000,)])
    gm = GlobalMemory()
    args = _args(gm, {"a": np.ones(100000, np.float32), "b": np.ones(100000, np.float32),
                      "out": np.zeros(100000, np.float32)})
    report = launch_broadcast(dag, gm=gm, platform=PLATFORM, schedule_mode=201, tiling=r.tiling_data,
                              inputs=args[:2], outputs=args[2:], sanitize=True)
    assert set(report.ub_used) == {r.tiling_data.ub_former * 4 * dag.buffer_num(True, True)}
    assert max(report.ub_used) <= PLATFORM.ub_size
