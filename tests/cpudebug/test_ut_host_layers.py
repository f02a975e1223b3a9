"""`opsnn ut` on an op_host / op_api test: the layer from its folder, the plan from
opsnn.host.ut_layers.plan(layer, test, socs, defines), and the build, cache and runs by the same
machinery as a kernel UT (one object per source, the plan's flags, libraries and environment, one
run per SoC). The host twin's own planning is tested with it (tests/host); here a stand-in plan
checks ut.py's side of the seam."""
from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import opsnn.host
from opsnn.cpudebug import ut

TEST = r'''
#include <cstdlib>
#include <cstring>
#include "gtest/gtest.h"
#include "helper.h"
TEST(host, plan_reaches_the_program) {
    EXPECT_EQ(Helper(), HOST_DEFINE);                      // a second source, an include folder, a define
    EXPECT_STREQ(std::getenv("HOST_UT_VALUE"), "42");      // the plan's environment
    EXPECT_NE(std::getenv("OPSNN_UT_SOC"), nullptr);       // the SoC of this run
}
'''


@dataclass
class StandInPlan:
    sources: list[Path]
    include_dirs: list[Path]
    cflags: list[str]
    libs: list[str]
    env: dict = field(default_factory=dict)
    socs: list[str] = field(default_factory=list)


def test_a_host_layer_test_is_planned_by_the_host_twin_and_built_like_a_kernel_ut(runtime, tmp_path, monkeypatch):
    folder = tmp_path / "op" / "tests" / "ut" / "op_host"
    folder.mkdir(parents=True)
    test = folder / "test_op_tiling.cpp"
    test.write_text(TEST)
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "helper.h").write_text("int Helper();\n")
    helper = tmp_path / "helper.cpp"
    helper.write_text('#include "helper.h"\nint Helper() { return HOST_DEFINE; }\n')
    asked = []

    def plan(layer, test_path, socs, defines):
        asked.append((layer, Path(test_path), list(socs), list(defines)))
        return StandInPlan([Path(test_path), helper], [inc], ["-std=c++17"], ["-lgtest_main", "-lgtest", "-lpthread"],
                           {"HOST_UT_VALUE": "42"}, ["ascend910B1", "ascend950"])

    stand_in = types.SimpleNamespace(plan=plan)
    monkeypatch.setitem(sys.modules, "opsnn.host.ut_layers", stand_in)
    # `from opsnn.host import ut_layers` takes the package's attribute where an earlier test imported the real one
    monkeypatch.setattr(opsnn.host, "ut_layers", stand_in, raising=False)
    out = tmp_path / "r.json"
    assert ut.main([str(test), "-D", "HOST_DEFINE=7", "--soc", "ascend910b1", "--json", str(out)]) == 0
    assert asked == [("op_host", test.resolve(), ["Ascend910B1"], ["-DHOST_DEFINE=7"])]
    doc = json.loads(out.read_text())
    assert doc["layer"] == "op_host" and [r["soc"] for r in doc["runs"]] == ["Ascend910B1", "Ascend950"]
    assert [r["exit_status"] for r in doc["runs"]] == [0, 0]
    assert doc["runs"][0]["reused_build"] is False and doc["runs"][1]["reused_build"] is True
    # a changed source rebuilds; an unchanged one is reused
    assert ut.main([str(test), "-D", "HOST_DEFINE=7", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["runs"][0]["reused_build"] is True
    helper.write_text('#include "helper.h"\nint Helper() { return HOST_DEFINE + 1; }\n')
    assert ut.main([str(test), "-D", "HOST_DEFINE=7", "--json", str(out)]) == 1
    assert json.loads(out.read_text())["runs"][0]["reused_build"] is False


def test_op_api_folder_is_its_layer(tmp_path):
    folder = tmp_path / "op" / "tests" / "ut" / "op_api"
    folder.mkdir(parents=True)
    assert ut.layer_of(folder / "test_aclnn_op.cpp") == "op_api"
    assert ut.layer_of(tmp_path / "op" / "tests" / "ut" / "op_kernel" / "test_op.cpp") == "op_kernel"
    assert ut.layer_of(tmp_path / "test_loose.cpp") == "op_kernel"


def test_aclnn_tests_kept_under_op_host_are_op_api_tests(tmp_path):
    # upstream's cmake/ut.cmake collects an op_host folder's test_aclnn_*.cpp (and tests/ut/op_host/op_api/)
    # into the op_api UT module; test_*_tiling / test_*_infershape stay op_host tests
    host = tmp_path / "op" / "tests" / "ut" / "op_host"
    assert ut.layer_of(host / "test_aclnn_op_backward.cpp") == "op_api"
    assert ut.layer_of(host / "op_api" / "test_op_l0.cpp") == "op_api"
    assert ut.layer_of(host / "test_op_tiling.cpp") == "op_host"
    assert ut.layer_of(host / "test_op_infershape.cpp") == "op_host"
    for name in ("test_aclnn_op_backward.cpp", "test_op_tiling.cpp"):
        (host / name).parent.mkdir(parents=True, exist_ok=True)
        (host / name).write_text("TEST(A, b) {}\n")
    from opsnn.cpudebug.ut_survey import find_tests
    assert [p.name for p in find_tests(tmp_path, ["op_api"])] == ["test_aclnn_op_backward.cpp"]
    assert [p.name for p in find_tests(tmp_path, ["op_host"])] == ["test_op_tiling.cpp"]
