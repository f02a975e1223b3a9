"""Reductions from C++ under `opsnn ut` (kernels/test_reduce_kernels.cpp, our own Ascend950 kernels):
MicroAPI Reduce / ReduceDataBlock, the high-level ReduceSum / ReduceMax<T, AR | RA>, and the atvoss
reduce framework (ReduceSch) running DAGs of our own -- y = sqrt(sum(x * x)) over AR and ARA
tensors with several R tiles an A step, two cores, an A tail, a group reduce whose partials go
through workspace, the batch-invariant RA sum; y = max(|x|) * scale with a Var; an empty input
filled. Each output equals, bit for bit, numpy computed the way AscendC orders the work:
tests/ascendc/reduce_reference.py for a tile's reduction, and here the schedule's split, its
tile layout (rows padded to 32-byte blocks), the bisection pairs and the binary-counter cache.
A tiling whose tile needs more than basicBlock bytes fails the core naming it."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from opsnn.cpudebug import ut
from tests.ascendc.exact_rounding import fma
from tests.ascendc.reduce_reference import reduce_ar, reduce_ra, register_reduce

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_reduce_kernels.cpp"
VL = 64  # floats in a register


def _tiling(shape, stride, dst_stride, ub_a, ub_r, a_total, a_per_core, r_total, r_per_core, group_r=1, out_size=0,
            core_num=1, basic=65536, result=4096, nddma=0) -> bytes:
    """ReduceOpTilingData, field by field (528 bytes)."""
    def arr(values, fmt):
        v = list(values) + [0] * (9 - len(values))
        return struct.pack(f"<9{fmt}", *v)
    head = struct.pack("<10Q3if", a_per_core, a_total, ub_a, r_per_core, r_total, ub_r, group_r, out_size, basic,
                       result, core_num, core_num, nddma, 0.0)
    return head + arr(shape, "Q") + arr(stride, "q") + arr(dst_stride, "q") + arr([], "Q") * 3


def _write(work: Path, name: str, inputs, out_bytes, tiling: bytes, block_dim: int) -> None:
    for k, a in enumerate(inputs):
        np.ascontiguousarray(a).tofile(work / f"{name}.in{k}.bin")
    np.array(out_bytes, dtype=np.uint64).tofile(work / f"{name}.outsizes.bin")
    (work / f"{name}.tiling.bin").write_bytes(tiling)
    np.array([block_dim], dtype=np.uint32).tofile(work / f"{name}.blockdim.bin")


def _out(work: Path, name: str, k: int, dtype) -> np.ndarray:
    return np.fromfile(work / f"{name}.out{k}.bin", dtype=dtype)


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view({2: np.uint16, 4: np.uint32}[a.dtype.itemsize])


def _values(rng, n: int) -> np.ndarray:
    return (rng.uniform(-1, 1, n) * np.exp2(rng.integers(-8, 8, n))).astype(np.float32)


# ---- the schedule, as its documentation orders it ----

def _align(n: int, a: int) -> int:
    return -(-n // a) * a


def _bisect(n: int) -> int:
    p = 1
    while 2 * p < n:
        p *= 2
    return p


def _combine_tiles(tiles: list, reduce_tile) -> np.ndarray:
    """n tiles of one A step: tiles i and i + p summed before their reduction (p the largest power
    of two below n), the results through the binary-counter cache."""
    n = len(tiles)
    p = _bisect(n)
    cache: dict[int, np.ndarray] = {}
    top = 0
    for i in range(p):
        t = tiles[i] + tiles[i + p] if i < n - p else tiles[i]
        acc = reduce_tile(t)
        slot = 0
        while (i >> slot) & 1:
            slot += 1
        for j in range(slot):
            acc = acc + cache[j]
        cache[slot] = acc
        top = slot
    return cache[top]


def _ar_reference(x: np.ndarray, ub_a: int, ub_r: int) -> np.ndarray:
    """[A, R] -> sum(x * x): A in ubFactorA rows, R in ubFactorR pieces each padded to
    ubFactorR rounded up to 8 floats with zeros."""
    a_len, r_len = x.shape
    out = np.empty(a_len, np.float32)
    cols = _align(ub_r, 8)
    for a0 in range(0, a_len, ub_a):
        rows = x[a0:a0 + ub_a]
        tiles = []
        for r0 in range(0, r_len, ub_r):
            t = np.zeros((rows.shape[0], cols), np.float32)
            piece = rows[:, r0:r0 + ub_r]
            t[:, :piece.shape[1]] = piece * piece
            tiles.append(t)
        out[a0:a0 + ub_a] = _combine_tiles(tiles, lambda t: reduce_ar("sum", t, True))
    return out


def _ara_reference(x: np.ndarray, ub_a: int, ub_r: int, batch_invariant: bool, op: str = "l2",
                   scale: float = 1.0) -> np.ndarray:
    """[A0, R, A1] -> per (a0, a1): A0 in ubFactorA pieces, R in ubFactorR pieces; a tile is R rows
    of the A0 piece's rows of A1 (each padded to 8 floats), batch-invariant: a row of at most a
    register widened to a register and a block."""
    a0_len, r_len, a1_len = x.shape
    a1_pad = _align(a1_len, 8)
    out = np.empty((a0_len, a1_len), np.float32)
    for a0 in range(0, a0_len, ub_a):
        block = x[a0:a0 + ub_a]
        na0 = block.shape[0]
        width = na0 * a1_pad
        if batch_invariant and width <= VL:
            width = _align(width, VL) + 8
        tiles = []
        for r0 in range(0, r_len, ub_r):
            piece = block[:, r0:r0 + ub_r, :]
            fill = 0.0 if op == "l2" else -np.inf
            t = np.full((ub_r, width), fill, np.float32)
            for k in range(na0):
                values = piece[k] * piece[k] if op == "l2" else np.abs(piece[k])
                t[:values.shape[0], k * a1_pad:k * a1_pad + a1_len] = values
            tiles.append(t)
        if op == "l2":
            res = _combine_tiles(tiles, lambda t: reduce_ra("sum", t, True, batch_invariant))
        else:
            res = np.maximum.reduce([reduce_ra("max", t, True) for t in tiles]) * np.float32(scale)
        for k in range(na0):
            out[a0 + k] = res[k * a1_pad:k * a1_pad + a1_len]
    return out


def _group_reference(x: np.ndarray, ub_a: int, ub_r: int, group_r: int) -> np.ndarray:
    """AR group (the sums): each of groupR cores reduces its R tiles of an A piece to a partial (the cache),
    the partials (rows of workspace) then reduced RA over groupR rows, 64 columns a tile."""
    a_len, r_len = x.shape
    r_tiles = -(-r_len // ub_r)
    per = -(-r_tiles // group_r)
    cols = _align(ub_r, 8)
    partial = np.zeros((group_r, _align(a_len, VL)), np.float32)
    for a0 in range(0, a_len, ub_a):
        rows = x[a0:a0 + ub_a]
        for g in range(group_r):
            tiles = []
            for k in range(g * per, min((g + 1) * per, r_tiles)):
                t = np.zeros((rows.shape[0], cols), np.float32)
                piece = rows[:, k * ub_r:(k + 1) * ub_r]
                t[:, :piece.shape[1]] = piece * piece
                tiles.append(t)
            partial[g, a0:a0 + rows.shape[0]] = _combine_tiles(tiles, lambda t: reduce_ar("sum", t, True))
    out = np.empty(a_len, np.float32)
    for c0 in range(0, a_len, VL):
        n = min(VL, a_len - c0)
        t = np.zeros((group_r, _align(n, 8)), np.float32)
        t[:, :n] = partial[:, c0:c0 + n]
        out[c0:c0 + n] = reduce_ra("sum", t, True)[:n]
    return out


@pytest.fixture(scope="module")
def good(tmp_path_factory, runtime):
    work = tmp_path_factory.mktemp("reduce")
    rng = np.random.default_rng(11)
    cases = {}
    # MicroAPI
    x = _values(rng, 64)
    x16 = rng.integers(-30000, 30000, 128).astype(np.int16)
    _write(work, "micro", [x, x16], [1024], b"\0" * 8, 1)
    cases["micro"] = (x, x16)
    # the high-level reductions: within a register, over registers with a tail, not aligned
    for name, (rows, cols) in {"pattern_a": (5, 24), "pattern_b": (3, 1100), "pattern_c": (40, 37)}.items():
        v = _values(rng, rows * cols)
        _write(work, name, [v, v.astype(np.float16)], [rows * 4, cols * 4, rows * 2],
               struct.pack("<II", rows, cols), 1)
        cases[name] = (v.reshape(rows, cols), rows, cols)
    # ReduceSch: AR [11, 300], A in 4-row pieces (3 steps: 2 cores), R in 70-float tiles (5 a step)
    xa = _values(rng, 11 * 300).reshape(11, 300)
    _write(work, "l2_ar", [xa], [11 * 4, 11 * 4], _tiling([11, 300], [300, 1], [1, 1], 4, 70, 3, 2, 5, 5, out_size=11,
                                                    core_num=2), 2)
    cases["l2_ar"] = xa
    # AR [3, 4200] in R tiles of 2060 floats: a row over 32 registers, padded to 2064 (aligned: the
    # fold in groups of 16 registers; unpadded it would halve across the row)
    xl = _values(rng, 3 * 4200).reshape(3, 4200)
    _write(work, "l2_ar_long", [xl], [3 * 4, 3 * 4],
           _tiling([3, 4200], [4200, 1], [1, 1], 3, 2060, 1, 1, 3, 3, out_size=3), 1)
    cases["l2_ar_long"] = xl
    # ARA [5, 85, 12]: A0 in 2-row pieces (3 steps, 2 cores), R in 40-row tiles (3 a step: a
    # bisection pair and the cache), 40 rows enough for the batch-invariant order to differ
    xr = _values(rng, 5 * 85 * 12).reshape(5, 85, 12)
    ara = _tiling([5, 85, 12], [1020, 12, 1], [12, 12, 1], 2, 40, 3, 2, 3, 3, out_size=60, core_num=2)
    _write(work, "l2_ara", [xr], [60 * 4, 60 * 4], ara, 2)
    _write(work, "l2_ara_bi", [xr], [60 * 4, 60 * 4], ara, 2)
    cases["l2_ara"] = xr
    # AR group [6, 700]: A in 3-row pieces (2), R in 64-float tiles (11) over groupR = 3 cores each
    xg = _values(rng, 6 * 700).reshape(6, 700)
    _write(work, "l2_group", [xg], [6 * 4, 6 * 4],
           _tiling([6, 700], [700, 1], [1, 1], 3, 64, 2, 1, 11, 4, group_r=3, out_size=6, core_num=6), 6)
    cases["l2_group"] = xg
    # absmax over ARA [3, 9, 20] with a NaN-free input, scale 0.5
    xm = _values(rng, 3 * 9 * 20).reshape(3, 9, 20)
    absmax = _tiling([3, 9, 20], [180, 20, 1], [20, 20, 1], 3, 4, 1, 1, 3, 3, out_size=60) + struct.pack("<f4x", 0.5)
    _write(work, "absmax", [xm], [60 * 4], absmax, 1)
    cases["absmax"] = xm
    # empty: 100 half outputs in pieces of 32 over 2 cores, filled with the float 1.0e-5
    empty = _tiling([0], [1], [1], 32, 1, 4, 2, 1, 1, out_size=100, core_num=2) + struct.pack("<f4x", 1.0e-5)
    _write(work, "empty", [np.zeros(8, np.float16)], [100 * 2], empty, 2)
    # the MicroAPI of upstream's norm reductions: unaligned rows, tail clearing, Mula, MulDstAdd, bits
    xm = _values(rng, 256)
    _write(work, "micro_rows", [xm], [192 * 4, 8 * 4, 64 * 4, 3 * 64 * 4, 8 * 4, 128 * 4, 128 * 4,
                                       256 * 4], b"\0" * 8, 1)
    cases["micro_rows"] = xm
    out = work / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend950", "--workdir", str(work), "--json", str(out),
                  "--", "--gtest_filter=reduce.*"])
    return rc, work, json.loads(out.read_text())["runs"][0]["launches"], cases


def test_the_kernels_run_clean(good):
    rc, _, launches, _ = good
    assert rc == 0
    assert len(launches) == 12 and all(x["ok"] and x["findings"] == [] for x in launches)


def test_micro_api_reductions(good):
    _, work, _, cases = good
    x, x16 = cases["micro"]
    y = _out(work, "micro", 0, np.float32)
    total = register_reduce("sum", np.concatenate([x, np.zeros(0, np.float32)]), 37)
    assert _bits(y[:1]) == _bits(np.array([total], np.float32)) and (y[1:64] == 0).all()
    assert y[64] == x.max() and y[64:66].view(np.uint32)[1] == int(np.argmax(x))
    blocks = [register_reduce("sum", x[8 * b:8 * b + 8], max(0, min(8, 44 - 8 * b))) if b < 6 else np.float32(0)
              for b in range(8)]
    assert (_bits(y[128:136]) == _bits(np.array(blocks, np.float32))).all()
    assert y[192:256].view(np.int32)[0] == int(x16[:100].astype(np.int64).sum())


def test_micro_api_of_upstreams_norm_reductions(good):
    """Rows of 37 floats at unaligned addresses: copied through StoreUnAlign (+ Post) unchanged;
    each row's squares (Mula) over a register whose tail ShiftLefts cleared, summed by the tree,
    stored one sum at a time; MulDstAdd fused; Move MERGING, And, ShiftRights on x's bits; the
    scalar bit counts; Duplicate of lane 0 (the Reduce's result); a mask UnPack; UnPack / Pack of
    half-words; loads and stores through an AddrReg (i * 128 + j * 64)."""
    _, work, _, cases = good
    x = cases["micro_rows"]
    y0 = _out(work, "micro_rows", 0, np.float32)
    assert (_bits(y0[1:186]) == _bits(x[:185])).all() and y0[0] == 0 and (y0[186:] == 0).all()
    sums = []
    for k in range(5):
        sq = np.zeros(VL, np.float32)
        sq[:37] = x[37 * k:37 * k + 37] * x[37 * k:37 * k + 37]
        sums.append(register_reduce("sum", sq, VL))
    y1 = _out(work, "micro_rows", 1, np.float32)
    assert (_bits(y1[:5]) == _bits(np.array(sums, np.float32))).all() and (y1[5:] == 0).all()
    assert (_bits(_out(work, "micro_rows", 2, np.float32)) == _bits(fma(x[:64], x[64:128], x[128:192]))).all()
    xi = x[:64].view(np.int32)
    y3 = _out(work, "micro_rows", 3, np.int32)
    assert (y3[:64] == np.concatenate([xi[:10], np.full(54, -1, np.int32)])).all()
    assert (y3[64:128] == xi & np.int32(-65536)).all() and (y3[128:] == xi >> 20).all()
    assert list(_out(work, "micro_rows", 4, np.int32)) == [0, 1, 0, 2, 4, 2, -1, 32]
    y5 = _out(work, "micro_rows", 5, np.float32)
    assert (_bits(y5[:64]) == _bits(np.full(64, sums[-1], np.float32))).all()
    assert (y5[64:] == (np.arange(64) < 50)).all()
    y6 = _out(work, "micro_rows", 6, np.int32)
    halves = x[:64].view(np.uint16)
    assert (y6[:64].view(np.uint32) == halves[64:].astype(np.uint32)).all()
    assert (y6[64:].view(np.uint16)[:64] == halves[64:]).all() and (y6[96:] == 0).all()
    assert (_bits(_out(work, "micro_rows", 7, np.float32)) == _bits(x * np.float32(2))).all()


@pytest.mark.parametrize("name", ["pattern_a", "pattern_b", "pattern_c"])
def test_high_level_reductions_bit_for_bit(good, name):
    _, work, _, cases = good
    x, rows, cols = cases[name]
    assert (_bits(_out(work, name, 0, np.float32)) == _bits(reduce_ar("sum", x, True))).all()
    assert (_bits(_out(work, name, 1, np.float32)) == _bits(reduce_ra("sum", x, False))).all()
    assert (_out(work, name, 2, np.float16) == x.astype(np.float16).max(axis=1)).all()


def _check_l2(work: Path, name: str, sums: np.ndarray) -> None:
    """y1 the sums, y0 their square roots, bit for bit"""
    assert (_bits(_out(work, name, 1, np.float32)) == _bits(sums.reshape(-1))).all()
    assert (_bits(_out(work, name, 0, np.float32)) == _bits(np.sqrt(sums).reshape(-1))).all()


def test_reduce_sch_ar_several_tiles_two_cores(good):
    _, work, _, cases = good
    _check_l2(work, "l2_ar", _ar_reference(cases["l2_ar"], 4, 70))
    _check_l2(work, "l2_ar_long", _ar_reference(cases["l2_ar_long"], 3, 2060))


@pytest.mark.parametrize("name, batch_invariant", [("l2_ara", False), ("l2_ara_bi", True)])
def test_reduce_sch_ara(good, name, batch_invariant):
    _, work, _, cases = good
    _check_l2(work, name, _ara_reference(cases["l2_ara"], 2, 40, batch_invariant))


def test_the_batch_invariant_order_is_another(good):
    _, work, _, _ = good
    assert (_bits(_out(work, "l2_ara", 1, np.float32)) != _bits(_out(work, "l2_ara_bi", 1, np.float32))).any()


def test_reduce_sch_group_through_workspace(good):
    _, work, _, cases = good
    _check_l2(work, "l2_group", _group_reference(cases["l2_group"], 3, 64, 3))


def test_reduce_sch_max_with_a_var(good):
    _, work, _, cases = good
    want = _ara_reference(cases["absmax"], 3, 4, False, op="max", scale=0.5).reshape(-1)
    assert (_out(work, "absmax", 0, np.float32) == want).all()


def test_reduce_sch_empty_input_fills_the_output(good):
    _, work, _, _ = good
    assert (_out(work, "empty", 0, np.float16) == np.float16(1.0e-5)).all()


def test_a_tile_past_basic_block_fails_naming_it(tmp_path, runtime):
    x = np.ones((4, 300), np.float32)
    _write(tmp_path, "too_big", [x], [16, 16], _tiling([4, 300], [300, 1], [1, 1], 4, 300, 1, 1, 1, 1, out_size=4,
                                                   basic=1024), 1)
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend950", "--workdir", str(tmp_path), "--json", str(out),
                  "--", "--gtest_filter=reduce_bad.*"])
    launch = json.loads(out.read_text())["runs"][0]["launches"][0]
    assert rc != 0 and not launch["ok"]
    finding = launch["findings"][0]
    assert finding["kind"] == "core_failed" and "basicBlock" in finding["detail"]
