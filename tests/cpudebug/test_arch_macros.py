"""A kernel build defines the architecture macros CANN's builds define per SoC family, which
upstream's kernels branch on (`#if __CCE_AICORE__ == 220`): Atlas A2 220 / 2201, Ascend950
310 / 3510; a UT's own -D__CCE_AICORE__ (in its options) wins."""
from __future__ import annotations

import pytest

from opsnn.cpudebug import ut

ARCH = r'''
#include "gtest/gtest.h"
#include "tikicpulib.h"
TEST(arch, macros) {
    EXPECT_EQ(__CCE_AICORE__, WANT_AICORE);
    EXPECT_EQ(__NPU_ARCH__, WANT_NPU_ARCH);
}
'''


@pytest.mark.parametrize(("soc", "aicore", "npu_arch", "extra"), [
    ("ascend910B1", 220, 2201, []),
    ("ascend950pr_9599", 310, 3510, []),
    ("ascend950pr_9599", 350, 3510, ["-D__CCE_AICORE__=350"]),  # as two upstream CMakeLists set it
])
def test_the_soc_sets_the_architecture_macros(runtime, tmp_path, soc, aicore, npu_arch, extra):
    test = tmp_path / "test_arch.cpp"
    test.write_text(ARCH)
    defines = [f"WANT_AICORE={aicore}", f"WANT_NPU_ARCH={npu_arch}", *(e[2:] for e in extra)]
    argv = [str(test), "--soc", soc, *(f"-D{d}" for d in defines), "--workdir", str(tmp_path)]
    assert ut.main(argv) == 0
