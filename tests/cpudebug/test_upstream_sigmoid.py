"""Upstream's Ascend950 sigmoid kernel (experimental/activation/sigmoid/op_kernel/sigmoid_apt.cpp,
written with AscendC::MicroAPI), unchanged, on real data: its output equals numpy's sigmoid computed
the kernel's way (Muls -1, Exp in float64 rounded once, Adds 1, Div 1 by it, float32 steps; half and
bfloat16 widened exactly and narrowed to nearest even) bit for bit, on two cores with a tail that
is not a multiple of 64 lanes. Upstream's own UT only runs the kernel; this checks its values.

Needs a checkout of ops-nn: OPSNN_UPSTREAM_OPS_NN=<checkout> (skipped otherwise)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from opsnn.cpudebug import ut
from opsnn.dtypes import bfloat16

ROOT = os.environ.get("OPSNN_UPSTREAM_OPS_NN")
OP = Path(ROOT or "/nonexistent") / "experimental" / "activation" / "sigmoid"
pytestmark = pytest.mark.skipif(not (OP / "op_kernel" / "sigmoid_apt.cpp").is_file(),
                                reason="OPSNN_UPSTREAM_OPS_NN=<ops-nn checkout> not set")

KEYS = {"f32": ("float", 300000000000100, np.float32), "f16": ("half", 100000000000100, np.float16),
        "bf16": ("bfloat16_t", 200000000000100, bfloat16)}
N, CORES, UB_FORMER = 1000, 2, 256  # core 0: 2 x 256; core 1: 256 + a tail of 232 (3 registers and 40 lanes)

HARNESS = r'''
#include <cstdio>
#include <vector>
#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "{op}/tests/ut/op_kernel/sigmoid_tiling_def.h"
#include "{op}/op_kernel/sigmoid_apt.cpp"

static void RunSigmoid(const char *name, uint64_t key, size_t elem) {{
    std::vector<uint8_t> in({n} * elem);
    FILE *f = std::fopen((std::string(name) + ".x.bin").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fread(in.data(), 1, in.size(), f), in.size());
    std::fclose(f);
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(in.size()), *y = (uint8_t *)AscendC::GmAlloc(in.size());
    uint8_t *ws = (uint8_t *)AscendC::GmAlloc(32), *tiling = (uint8_t *)AscendC::GmAlloc(sizeof(SigmoidTilingData));
    std::memcpy(x, in.data(), in.size());
    auto *t = reinterpret_cast<SigmoidTilingData *>(tiling);
    t->dim0 = {n};
    t->blockFormer = {block};
    t->ubFormer = {ub};
    t->ubLoopOfFormerBlock = {block} / {ub};
    t->ubTailOfFormerBlock = {ub};
    t->ubLoopOfTailBlock = ({tail} + {ub} - 1) / {ub};
    t->ubTailOfTailBlock = {tail} - (t->ubLoopOfTailBlock - 1) * {ub};
    t->elemNum = {ub};
    ICPU_SET_TILING_KEY(key);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(sigmoid, {cores}, x, y, ws, tiling);
    f = std::fopen((std::string(name) + ".y.bin").c_str(), "wb");
    std::fwrite(y, 1, in.size(), f);
    std::fclose(f);
    AscendC::GmFree(x); AscendC::GmFree(y); AscendC::GmFree(ws); AscendC::GmFree(tiling);
}}
TEST(sigmoid, f32) {{ RunSigmoid("f32", {k_f32}ull, 4); }}
TEST(sigmoid, f16) {{ RunSigmoid("f16", {k_f16}ull, 2); }}
TEST(sigmoid, bf16) {{ RunSigmoid("bf16", {k_bf16}ull, 2); }}
'''


def _sigmoid32(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        e = np.exp((x * np.float32(-1)).astype(np.float64)).astype(np.float32)
        return np.float32(1) / (e + np.float32(1))


@pytest.fixture(scope="module")
def run(tmp_path_factory, runtime):
    work = tmp_path_factory.mktemp("sigmoid")
    block = -(-N // CORES)
    block = -(-block // UB_FORMER) * UB_FORMER
    src = work / "test_sigmoid_values.cpp"
    src.write_text(HARNESS.format(op=OP, n=N, block=block, ub=UB_FORMER, tail=N - block * (CORES - 1), cores=CORES,
                                  k_f32=KEYS["f32"][1], k_f16=KEYS["f16"][1], k_bf16=KEYS["bf16"][1]))
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(N) * 6).astype(np.float32)
    x[:9] = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.0, -88.0, 104.0, -104.0]
    inputs = {}
    for name, (_, _, dtype) in KEYS.items():
        with np.errstate(over="ignore"):
            inputs[name] = x.astype(dtype)
        inputs[name].tofile(work / f"{name}.x.bin")
    out = work / "run.json"
    rc = ut.main([str(src), "--soc", "ascend950pr_9599", "--workdir", str(work), "--json", str(out)])
    return rc, work, inputs, json.loads(out.read_text())["runs"][0]["launches"]


def test_every_launch_is_clean(run):
    rc, _, _, launches = run
    assert rc == 0 and len(launches) == 3
    assert all(x["ok"] and x["findings"] == [] and x["block_dim"] == CORES for x in launches)


@pytest.mark.parametrize("name", sorted(KEYS))
def test_values_equal_numpys_sigmoid_bit_for_bit(run, name):
    _, work, inputs, _ = run
    dtype = KEYS[name][2]
    x = inputs[name]
    y = np.fromfile(work / f"{name}.y.bin", dtype=dtype)
    want = _sigmoid32(x.astype(np.float32)).astype(dtype)
    u = np.uint32 if dtype == np.float32 else np.uint16
    same = (y.view(u) == want.view(u)) | (np.isnan(y.astype(np.float32)) & np.isnan(want.astype(np.float32)))
    assert same.all(), np.flatnonzero(~same)[:10]
