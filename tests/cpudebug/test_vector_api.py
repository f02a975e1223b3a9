"""The AscendC vector APIs from C++ (kernels/test_vector_api_kernels.cpp, our own kernel) under
`opsnn ut`: every result region equals a numpy reference computed the way AscendC computes it --
ReduceSum's tree per repeat and repeats in order with GetAccVal<float>() the same bits, ReduceMax's
first index, ReduceMin over masked repeats, WholeReduceSum<float, false> under SetVectorMask's
mask, GatherMask's odd lanes and rsvdCnt, Gather by byte offsets, CreateVecIndex, Sort<true> +
Extract, Tanh's clipped formula, Power, Axpy, Sign, the int32 -> half Cast scaled by SetDeqScale --
and a sharedTmpBuffer smaller than AscendC's formula is a finding naming its line."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_vector_api_kernels.cpp"
COUNT, OUT = 1000, 4096
SLOT = dict(SUM=0, ACC=1, MAX=2, MIN=4, MASKED=8, GM_COUNT=31, GATHER_MASK=32, GATHER=128, SORTED=256,
            SORTED_INDEX=384, TANH=512, POWER=712, AXPY=912, INDEX=1200, DEQ=1300, SIGN=1400, SQRT=1600,
            CUMSUM=1700, LAST_ROW=1764, BRC=1800)
F32 = np.dtype(np.float32)


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(SOURCE.read_text().splitlines(), 1) if marker in text)


def tree(values) -> np.float32:
    x = [np.float32(v) for v in values]
    while len(x) > 1:
        if len(x) % 2:
            x.append(np.float32(-0.0))
        x = [np.float32(x[i] + x[i + 1]) for i in range(0, len(x), 2)]
    return x[0]


def bits(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=F32).view(np.uint32)


@pytest.fixture(scope="module")
def run(tmp_path_factory, runtime):
    work = tmp_path_factory.mktemp("vector_api")
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(COUNT) * 3).astype(F32)
    x[[17, 600]] = np.float32(50.0)  # a tie for ReduceMax: the first index
    x[5] = np.float32(-0.0)
    x[9] = np.float32(3.5)  # a tie for the int32 Cast's RINT
    x.tofile(work / "vec.x.bin")
    out = work / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--workdir", str(work), "--json", str(out), "--",
                  "--gtest_filter=vector_api.*"])
    y = np.fromfile(work / "vec.y.bin", dtype=F32)
    return rc, x, y, json.loads(out.read_text())["runs"][0]["launches"]


def test_the_kernel_runs_clean(run):
    rc, _, _, launches = run
    assert rc == 0
    assert [(x["kernel"], x["ok"], x["findings"]) for x in launches] == [("vector_apis", True, [])]


def test_reductions_and_their_registers(run):
    _, x, y, _ = run
    acc = None
    for r in range(0, COUNT, 64):
        s = tree(x[r:r + 64])
        acc = s if acc is None else np.float32(acc + s)
    assert bits(y[SLOT["SUM"]]) == bits(acc) and bits(y[SLOT["ACC"]]) == bits(acc)
    assert y[SLOT["MAX"]] == 50.0 and bits(y[SLOT["MAX"] + 1]) == 17
    masked = x[:960].reshape(15, 64)[:, :48]
    at = int(np.argmin(masked))
    assert y[SLOT["MIN"]] == masked.min() and bits(y[SLOT["MIN"] + 1]) == at // 48 * 64 + at % 48
    lanes = [j for j in range(64) if (0xF0F0F0F0F0F0F0F0 >> j) & 1]
    want = [tree(x[r * 64:(r + 1) * 64][lanes]) for r in range(15)]
    assert (bits(y[SLOT["MASKED"]:SLOT["MASKED"] + 15]) == bits(want)).all()


def test_gathers_and_index(run):
    _, x, y, _ = run
    odd = x[:128][1::2]
    assert y[SLOT["GM_COUNT"]] == 64 and (bits(y[SLOT["GATHER_MASK"]:SLOT["GATHER_MASK"] + 64]) == bits(odd)).all()
    assert (bits(y[SLOT["GATHER"]:SLOT["GATHER"] + 64]) == bits(x[:64][::-1])).all()
    assert list(y[SLOT["INDEX"]:SLOT["INDEX"] + 100]) == list(range(7, 107))


def test_sort_and_extract(run):
    _, x, y, _ = run
    order = sorted(range(128), key=lambda i: (-float(x[i]), i))
    assert (bits(y[SLOT["SORTED"]:SLOT["SORTED"] + 128]) == bits(x[order])).all()
    assert list(bits(y[SLOT["SORTED_INDEX"]:SLOT["SORTED_INDEX"] + 128])) == order


def test_math_axpy_and_deq(run):
    _, x, y, _ = run
    v = x[:200]
    with np.errstate(all="ignore"):
        c = np.maximum(np.minimum(v, np.float32(8.8)), np.float32(-8.8))
        e = np.exp((c * np.float32(2)).astype(np.float64)).astype(F32)
        tanh = ((e - np.float32(1)) / (e + np.float32(1))).astype(F32)
        power = np.exp((np.float32(2.5) * np.log(np.abs(v).astype(np.float64)).astype(F32)).astype(np.float64))
        power = np.where(v < 0, np.nan, power).astype(F32)
    assert (bits(y[SLOT["TANH"]:SLOT["TANH"] + 200]) == bits(tanh)).all()
    got = y[SLOT["POWER"]:SLOT["POWER"] + 200]
    assert ((bits(got) == bits(power)) | (np.isnan(got) & np.isnan(power))).all()
    axpy = (np.float32(1) + (v * np.float32(0.5)).astype(F32)).astype(F32)
    assert (bits(y[SLOT["AXPY"]:SLOT["AXPY"] + 200]) == bits(axpy)).all()
    sign = np.where(v > 0, 1, np.where(v < 0, -1, 0)).astype(F32)
    assert (bits(y[SLOT["SIGN"]:SLOT["SIGN"] + 200]) == bits(sign)).all()
    deq = (np.rint(x[:64]).astype(np.int32).astype(np.float64) * 0.25).astype(np.float16).astype(F32)  # via int32
    assert (bits(y[SLOT["DEQ"]:SLOT["DEQ"] + 64]) == bits(deq)).all() and y[SLOT["DEQ"] + 9] == 1.0  # rint(3.5) = 4
    square = np.float32(x[2] * x[2])
    assert bits(y[SLOT["SQRT"]]) == bits(np.sqrt(square.astype(np.float64)).astype(F32))
    assert y[SLOT["SQRT"] + 1] == 41  # the integer Ceil(7, 2) * 10 + ConstCeil(64, 64)


def test_cumsum_and_broadcast(run):
    _, x, y, _ = run
    rows = x[:64].reshape(2, 32)
    want = np.empty_like(rows)
    want[:, 0] = rows[:, 0]
    for k in range(1, 32):  # one float32 addition after another, then the implementation's Adds of 0
        want[:, k] = want[:, k - 1] + rows[:, k]
    want = want + np.float32(0)
    assert (bits(y[SLOT["CUMSUM"]:SLOT["CUMSUM"] + 64]) == bits(want.reshape(-1))).all()
    assert (bits(y[SLOT["LAST_ROW"]:SLOT["LAST_ROW"] + 32]) == bits(want[1])).all()
    assert (bits(y[SLOT["BRC"]:SLOT["BRC"] + 16]) == bits(np.repeat(x[:2], 8))).all()
    assert bits(y[SLOT["BRC"] + 16]) == bits(x[3] * np.float32(2))  # xg(3): GM read through the proxy


def test_a_short_work_buffer_is_a_finding_at_its_line(tmp_path, runtime):
    out = tmp_path / "bad.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--workdir", str(tmp_path), "--json", str(out), "--",
                  "--gtest_filter=vector_api_bad.*"])
    assert rc == 1
    [launch] = json.loads(out.read_text())["runs"][0]["launches"]
    kinds = {(f["kind"], f["instruction"], f["source"]) for f in launch["findings"]}
    assert ("local_tensor_overflow", "ReduceMax", f"test_vector_api_kernels.cpp:{_line('SHORT_WORK_LINE')}") in kinds
