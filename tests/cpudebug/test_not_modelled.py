"""A kernel written with AscendC's MicroAPI (Ascend950 register-level code) fails to compile under
`opsnn ut`, and the report says first that MicroAPI is not modelled."""
from __future__ import annotations

from opsnn.cpudebug import ut

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void vf(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    if (g_coreType == AscendC::AIC) return;  // declared: the emulator's cores are vector cores
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<float> r;
    }
}
TEST(vf, compiles) {}
'''


def test_the_excerpt_names_microapi_first():
    stderr = "k.h:26:16: error: 'AscendC::MicroAPI' has not been declared\nk.h:79:9: error: x\n"
    text = ut._compiler_excerpt(stderr)
    assert text.splitlines()[0].startswith("not modelled: AscendC::MicroAPI")
    assert "k.h:26:16" in text.splitlines()[1]
    assert not ut._compiler_excerpt("k.h:1:1: error: 'Foo' is not a member of 'AscendC'\n").startswith("not")


def test_a_microapi_kernel_fails_its_build_by_name(tmp_path, capsys, runtime):
    src = tmp_path / "test_vf.cpp"
    src.write_text('#include "gtest/gtest.h"\n#include "tikicpulib.h"\n' + KERNEL)
    rc = ut.main([str(src), "--soc", "ascend950", "--workdir", str(tmp_path / "w")])
    err = capsys.readouterr().err
    assert rc == 2
    assert "not modelled: AscendC::MicroAPI" in err
    assert "g_coreType" not in err  # that one is declared
