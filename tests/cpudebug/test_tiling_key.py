"""GET_TPL_TILING_KEY and the extern "C" entry `opsnn ut` gives a kernel template, with CANN's
layout (template_argument.h): arguments packed in declaration order from the lowest bit, each in
its declared width (DATATYPE 8, BOOL 1, UINT its own); a UINT by its index in the declared values
(LIST, RANGE, MIX), a DATATYPE by its C_DT_* code; a combination ASCENDC_TPL_SEL lacks is the
all-ones key. Our own kernel, laid out as upstream's: a typename, an integer and a bool argument."""
from __future__ import annotations

import json

import numpy as np
import pytest

from opsnn.cpudebug import ut

from .conftest import op_tree

KERNEL = r'''
#include "kernel_operator.h"
#include "opk_tiling_key.h"
using namespace AscendC;
template <typename D_T, bool FLAG, uint32_t MODE>
__global__ __aicore__ void opk(GM_ADDR y, GM_ADDR tiling) {
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    yg.SetValue(0, static_cast<int32_t>(sizeof(D_T)));
    yg.SetValue(1, static_cast<int32_t>(MODE));
    yg.SetValue(2, FLAG ? 1 : 0);
}
'''
KEY = r'''
#include "ascendc/host_api/tiling/template_argument.h"
#define OPK_MODE_LAST 9
ASCENDC_TPL_ARGS_DECL(Opk, ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT16, C_DT_FLOAT, ASCENDC_TPL_INPUT(0)),
                      ASCENDC_TPL_UINT_DECL(MODE, 4, ASCENDC_TPL_UI_MIX, 1, 2, 4, OPK_MODE_LAST),
                      ASCENDC_TPL_BOOL_DECL(FLAG, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT16),
                                     ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 3),
                                     ASCENDC_TPL_BOOL_SEL(FLAG, 0)),
                ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                                     ASCENDC_TPL_BOOL_SEL(FLAG, 1),
                                     ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT),
                                     ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_RANGE, 1, 2, 2)), );
'''
TEST = r'''
#include <cstdio>
#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "opk_tiling_key.h"
extern "C" __global__ __aicore__ void opk(GM_ADDR y, GM_ADDR tiling);
static void RunOpk(uint64_t key, const char *out) {
    int32_t *y = (int32_t *)AscendC::GmAlloc(32);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(32);
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(opk, 1, (uint8_t *)y, tiling);
    FILE *f = std::fopen(out, "wb");
    std::fwrite(y, 4, 3, f);
    std::fclose(f);
    AscendC::GmFree(y); AscendC::GmFree(tiling);
}
TEST(opk, keys) {
    FILE *f = std::fopen("keys.txt", "w");
    std::fprintf(f, "%llu %llu %llu %llu %llu\n",
                 (unsigned long long)GET_TPL_TILING_KEY(C_DT_FLOAT16, 3, 0),
                 (unsigned long long)GET_TPL_TILING_KEY(C_DT_FLOAT, 2, 1),
                 (unsigned long long)GET_TPL_TILING_KEY(C_DT_FLOAT, 3, 1),  /* no SEL has it */
                 (unsigned long long)GET_TPL_TILING_KEY(C_DT_FLOAT16, 5, 0),  /* not declared */
                 (unsigned long long)GET_TPL_TILING_KEY(C_DT_FLOAT16, 3));   /* one argument short */
    std::fclose(f);
}
TEST(opk, half_mode3) { RunOpk(GET_TPL_TILING_KEY(C_DT_FLOAT16, 3, 0), "a.bin"); }
TEST(opk, float_mode2_flag) { RunOpk(GET_TPL_TILING_KEY(C_DT_FLOAT, 2, 1), "b.bin"); }
TEST(opk, raw_key_no_instantiation) { RunOpk(2, "c.bin"); }
'''


@pytest.fixture(scope="module")
def ran(tmp_path_factory, runtime):
    root = tmp_path_factory.mktemp("key")
    test = op_tree(root, "opk", KERNEL, TEST, {"op_kernel/opk_tiling_key.h": KEY})
    work = root / "work"
    rc = ut.main([str(test), "--soc", "ascend910B1", "--workdir", str(work),
                  "--json", str(root / "run.json")])
    return rc, work, json.loads((root / "run.json").read_text())["runs"][0]["launches"]


def test_keys_follow_canns_layout(ran):
    _, work, _ = ran
    keys = [int(k) for k in (work / "keys.txt").read_text().split()]
    # D_T bits 0-7 by code (float16 1, float 0); MODE bits 8-11 by index in [2, 3, 4, 9]; FLAG bit 12
    assert keys[0] == 1 | 1 << 8
    assert keys[1] == 0 | 0 << 8 | 1 << 12
    assert keys[2:] == [2**64 - 1] * 3


def test_the_entry_runs_the_instantiation_the_key_names(ran):
    _, work, launches = ran
    assert np.fromfile(work / "a.bin", dtype=np.int32).tolist() == [2, 3, 0]
    assert np.fromfile(work / "b.bin", dtype=np.int32).tolist() == [4, 2, 1]
    assert [x["ok"] for x in launches] == [True, True, False]


def test_a_key_no_combination_has_fails_its_launch_by_name(ran):
    rc, _, launches = ran
    assert rc == 1
    [f] = launches[2]["findings"]  # the core stops there, the launch reports it
    assert f["kind"] == "core_failed" and "opk: no instantiation for this tiling key" in f["detail"]
