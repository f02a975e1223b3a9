"""The host twin's metadef side on opsnn's own op_host operator (tests/host/op_host_twin/): an OpDef,
an infershape and a tiling written as ops-nn writes them (PlatformAscendC, BEGIN_TILING_DATA_DEF,
GetTilingData<T>, attributes by index, a TilingParse with compile info), exercised by a gtest
program built against libopsnn_host (test_op_host_twin.cpp: exact tiling bytes, block dim, key and
workspace; RunTiling/RunInferShape's named errors), and an op_host UT built and run by `opsnn ut`
from a small checkout written here (ut_layers' plan: the checkout's tests/ut/common helpers, the
operator's op_host sources). Upstream's own seed UT runs with OPSNN_UPSTREAM_OPS_NN=<checkout>."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from opsnn.capi.build import compiler
from opsnn.host import build as host_build

HERE = Path(__file__).resolve().parent / "op_host_twin"
OP_SOURCES = ("scale_add_def.cpp", "scale_add_infershape.cpp", "scale_add_tiling.cpp")
GTEST = Path("/usr/include/gtest/gtest.h")
GTESTS = ("OpHostTwinRegistry.RegistrationsOfOneOpTypeMerge", "OpHostTwinContexts.TilingThroughTheBuildersAsAUtDoes",
          "OpHostTwinContexts.ATilingContextNeedsCompileAndPlatformInfo", "OpHostTwinContexts.InferShapeAndDataType",
          "OpHostTwinLaunch.RunTilingOnTheSocTable", "OpHostTwinLaunch.RunTilingOnAscend950",
          "OpHostTwinLaunch.PlainStructTilingWithoutTilingParse", "OpHostTwinLaunch.NamedErrors",
          "OpHostTwinLaunch.RunInferShape", "OpHostTwinOpDef.ColumnsPerSocConfig")


@pytest.fixture(scope="module")
def host_library() -> Path:
    if not GTEST.is_file():
        pytest.skip("gtest is not installed (make gtest)")
    try:
        return host_build.build()
    except host_build.BuildUnavailable as e:
        pytest.skip(f"the host twin cannot be built here: {e}")


@pytest.fixture(scope="module")
def twin_program(host_library: Path, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("twin") / "test_op_host_twin"
    cmd = [*compiler(), *host_build.host_cflags(), f"-I{host_build.SRC_DIR}", "-O0", "-g",
           *(str(HERE / s) for s in (*OP_SOURCES, "test_op_host_twin.cpp")), "-o", str(out),
           *host_build.host_libs(), "-lgtest", "-lgtest_main", "-lpthread"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def test_the_program_has_every_case(twin_program: Path):
    listed = subprocess.run([str(twin_program), "--gtest_list_tests"], capture_output=True, text=True).stdout
    names, suite = [], ""
    for line in listed.splitlines():
        if not line.startswith(" "):
            suite = line.strip()
        else:
            names.append(suite + line.strip())
    assert sorted(names) == sorted(GTESTS)


@pytest.mark.parametrize("case", GTESTS)
def test_case(twin_program: Path, case: str):
    done = subprocess.run([str(twin_program), f"--gtest_filter={case}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "[  PASSED  ] 1 test." in done.stdout


UT_HELPER_H = """#pragma once
#include "exe_graph/runtime/tiling_context.h"
#include "platform/platform_infos_def.h"
// a checkout's own UT helper: a platform as a UT's compile-info JSON gives one
fe::PlatFormInfos MakeUtPlatform(int cores, int ub);
"""
UT_HELPER_CPP = """#include <map>
#include <string>
#include "ut_platform_helper.h"
fe::PlatFormInfos MakeUtPlatform(int cores, int ub) {
    fe::PlatFormInfos p;
    p.Init();
    std::map<std::string, std::string> soc = {{"ai_core_cnt", std::to_string(cores)}, {"core_type_list", "AICore"}};
    std::map<std::string, std::string> spec = {{"ub_size", std::to_string(ub)}};
    std::map<std::string, std::string> version = {{"Short_SoC_version", "Ascend910B"}, {"NpuArch", "2201"}};
    p.SetPlatformRes("SoCInfo", soc);
    p.SetPlatformRes("AICoreSpec", spec);
    p.SetPlatformRes("version", version);
    p.SetCoreNumByCoreType("AICore");
    return p;
}
"""
UT_TEST = """#include <gtest/gtest.h>
#include "base/context_builder/op_tiling_context_builder.h"
#include "base/context_builder/op_tiling_parse_context_builder.h"
#include "base/registry/op_impl_space_registry_v2.h"
#include "ut_platform_helper.h"

TEST(ScaleAddUt, TilingOfFloat) {
    fe::PlatFormInfos platform = MakeUtPlatform(4, 131072);
    auto impl = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl("OpsnnScaleAdd");
    ASSERT_NE(impl, nullptr);
    alignas(8) unsigned char compile_info[16] = {};
    auto parse = gert::OpTilingParseContextBuilder().OpType("OpsnnScaleAdd").OpName("n").IONum(2, 1)
                     .CompiledJson("{}").PlatformInfo(&platform).CompiledInfo(compile_info).Build();
    ASSERT_EQ(impl->tiling_parse(reinterpret_cast<gert::KernelContext *>(parse.GetContext())), ge::GRAPH_SUCCESS);
    gert::Tensor x({{10000}, {10000}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, ge::DT_FLOAT);
    auto data = gert::TilingData::CreateCap(64);
    auto ws = gert::ContinuousVector::Create<size_t>(4);
    gert::OpTilingContextBuilder b;
    b.OpType("OpsnnScaleAdd").OpName("n").IONum(2, 1);
    b.AppendAttr(1.5f).AppendAttr(int64_t{2}).AppendAttr(ge::AscendString("k"));
    auto holder = b.InputTensors({&x, &x}).OutputTensors({&x}).CompileInfo(compile_info).PlatformInfo(&platform)
                      .TilingData(reinterpret_cast<gert::TilingData *>(data.get()))
                      .Workspace(reinterpret_cast<gert::ContinuousVector *>(ws.get())).Build();
    ASSERT_EQ(impl->tiling(holder.GetContext()), ge::GRAPH_SUCCESS);
    EXPECT_EQ(holder.GetContext()->GetBlockDim(), @BLOCKS@u);
    EXPECT_EQ(holder.GetContext()->GetTilingKey(), 0u);
}
"""


def _checkout(root: Path, blocks: int) -> Path:
    """A small ops-nn-like checkout: tests/ut/common with a helper, common/inc, and one operator
    (opsnn's own test operator) with an op_host UT expecting `blocks` blocks."""
    (root / "common" / "inc").mkdir(parents=True)
    common = root / "tests" / "ut" / "common"
    common.mkdir(parents=True)
    (common / "ut_platform_helper.h").write_text(UT_HELPER_H)
    (common / "ut_platform_helper.cpp").write_text(UT_HELPER_CPP)
    op = root / "experimental" / "activation" / "opsnn_scale_add"
    (op / "op_host").mkdir(parents=True)
    for name in OP_SOURCES:
        shutil.copy(HERE / name, op / "op_host" / name)
    tests = op / "tests" / "ut" / "op_host"
    tests.mkdir(parents=True)
    test = tests / "test_opsnn_scale_add_tiling.cpp"
    test.write_text(UT_TEST.replace("@BLOCKS@", str(blocks)))
    return test


def _opsnn_ut(test: Path, tmp: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache")}
    return subprocess.run([sys.executable, "-m", "opsnn", "ut", str(test)], capture_output=True, text=True,
                          env=env, timeout=900)


def test_opsnn_ut_builds_an_op_host_ut_from_its_checkout(host_library: Path, tmp_path: Path):
    # 10000 elements, 1024 a block, 4 cores: 4 blocks
    done = _opsnn_ut(_checkout(tmp_path / "good", 4), tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "[  PASSED  ] 1 test." in done.stdout
    # the same UT expecting another block dim fails, on that line
    done = _opsnn_ut(_checkout(tmp_path / "bad", 5), tmp_path)
    assert done.returncode != 0
    assert re.search(r"test_opsnn_scale_add_tiling\.cpp:\d+: Failure", done.stdout + done.stderr)


UPSTREAM = os.environ.get("OPSNN_UPSTREAM_OPS_NN")
SEED_UT = Path(UPSTREAM or "/nonexistent") / "experimental/activation/threshold_grad_v2_d/tests/ut/op_host" \
    / "test_threshold_grad_v2_d_tiling.cpp"


@pytest.mark.skipif(not SEED_UT.is_file(), reason="OPSNN_UPSTREAM_OPS_NN=<ops-nn checkout> not set")
def test_upstream_seed_op_host_ut_passes_unchanged(host_library: Path, tmp_path: Path):
    done = _opsnn_ut(SEED_UT, tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "[  PASSED  ] 1 test." in done.stdout
