"""MicroAPI beyond what opsnn models is never a silent no-op: a function the headers lack fails the
build, the report saying first which MicroAPI call is not modelled; a distribution the headers
declare but the emulator lacks fails the launch naming it."""
from __future__ import annotations

import json

from opsnn.cpudebug import ut

HEAD = r'''
#include "gtest/gtest.h"
#include "tikicpulib.h"
using namespace AscendC;
'''

UNDECLARED = HEAD + r'''
extern "C" __global__ __aicore__ void vf(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    if (g_coreType == AscendC::AIC) return;  // declared: the emulator's cores are vector cores
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<float> r, s;
        MicroAPI::MaskReg m = MicroAPI::CreateMask<float>();
        MicroAPI::Histograms(r, s, m);
    }
}
TEST(vf, compiles) {}
'''

UNMODELLED_DIST = HEAD + r'''
extern "C" __global__ __aicore__ void vf(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    LocalTensor<half> t = b.Get<half>();
    Duplicate(t, half(1.0f), 128);
    MicroAPI::RegTensor<half> r;
    MicroAPI::DataCopy<half, MicroAPI::LoadDist::DIST_US_B16>(r, (__local_mem__ half *)t.GetPhyAddr());
}
TEST(vf, runs) {
    uint8_t *x = (uint8_t *)GmAlloc(64);
    ICPU_RUN_KF(vf, 1, x, x, x);
    GmFree(x);
}
'''


def test_the_excerpt_names_an_undeclared_microapi_call_first():
    stderr = "k.h:26:16: error: 'Histograms' is not a member of 'AscendC::MicroAPI'\nk.h:79:9: error: x\n"
    text = ut._compiler_excerpt(stderr)
    assert text.splitlines()[0].startswith("not modelled: this AscendC::MicroAPI call")
    assert "k.h:26:16" in text.splitlines()[1]
    assert not ut._compiler_excerpt("k.h:1:1: error: 'Foo' is not a member of 'AscendC'\n").startswith("not")


def test_an_undeclared_microapi_call_fails_the_build_by_name(tmp_path, capsys, runtime):
    src = tmp_path / "test_vf.cpp"
    src.write_text(UNDECLARED)
    rc = ut.main([str(src), "--soc", "ascend950", "--workdir", str(tmp_path / "w")])
    err = capsys.readouterr().err
    assert rc == 2
    assert "not modelled: this AscendC::MicroAPI call" in err and "Histograms" in err
    assert "RegTensor" not in err and "CreateMask" not in err and "__VEC_SCOPE__" not in err  # those are declared


def test_a_distribution_the_emulator_lacks_fails_the_launch_by_name(tmp_path, runtime):
    src = tmp_path / "test_vf.cpp"
    src.write_text(UNMODELLED_DIST)
    out = tmp_path / "run.json"
    rc = ut.main([str(src), "--soc", "ascend950", "--workdir", str(tmp_path / "w"), "--json", str(out)])
    [launch] = json.loads(out.read_text())["runs"][0]["launches"]
    assert rc == 1 and not launch["ok"]
    [f] = launch["findings"]  # the core stops there, named: core, instruction, line
    assert (f["kind"], f["core"], f["instruction"]) == ("core_failed", 0, "MicroAPI.DataCopy")
    assert f["source"].startswith("test_vf.cpp:") and "LoadDist::DIST_US_B16 is not modelled" in f["detail"]

