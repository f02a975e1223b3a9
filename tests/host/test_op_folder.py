"""Operator folders as upstream's build reads them (opsnn/host/op_folder.py): which sources are
op_host and op_api for a SoC, which operators an op_api reaches, the checkout's include paths."""
from __future__ import annotations

from pathlib import Path

import pytest

from opsnn.host import op_folder
from opsnn.host.op_folder import OperatorFolder, OpFolderError

REPO = Path(__file__).resolve().parents[2]


def _touch(root: Path, *paths: str, text: str = "") -> None:
    for rel in paths:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A tree in ops-nn's layout: an old-layout operator (op_host/op_api) that reaches a new-layout
    one (op_api beside op_host) by relative include, which has an arch35 tiling for ascend950."""
    root = tmp_path / "ops-nn"
    _touch(root, "cmake/func.cmake", "common/inc/op_host/util.h", "common/inc/op_api/x.h", "common/stub/op_api/y.h")
    a = "experimental/activation/op_a"
    _touch(root, f"{a}/op_host/op_a_def.cpp", f"{a}/op_host/op_a_infershape.cpp", f"{a}/op_host/op_a_tiling.cpp",
           f"{a}/op_host/op_tiling/more/extra.cpp", f"{a}/op_host/helper.cpp", f"{a}/op_host/op_api/op_a.cpp",
           f"{a}/op_host/op_api/aclnn_op_a.h", f"{a}/op_kernel/op_a.cpp", f"{a}/examples/test_aclnn_op_a.cpp")
    (root / a / "op_host" / "op_api" / "aclnn_op_a.cpp").write_text(
        '#include "aclnn_op_a.h"\n#include "../../../../../activation/op_b/op_api/op_b.h"\n'
        '#include "../../../../../common/inc/op_host/util.h"\n')
    b = "activation/op_b"
    _touch(root, f"{b}/op_host/op_b_def.cpp", f"{b}/op_host/op_b_infershape.cpp",
           f"{b}/op_host/arch35/op_b_tiling_arch35.cpp", f"{b}/op_api/op_b.cpp", f"{b}/op_api/op_b.h",
           f"{b}/op_kernel/op_b_apt.cpp")
    (root / b / "op_host" / "CMakeLists.txt").write_text(
        'set(SUPPORT_COMPUTE_UNIT "ascend950")\nset(SUPPORT_TILING_DIR "arch35")\n'
        "add_modules_sources(HOSTNAME x DIR ${CMAKE_CURRENT_SOURCE_DIR} OPTYPE op_b ACLNNTYPE aclnn_exclude\n"
        "  COMPUTE_UNIT ${SUPPORT_COMPUTE_UNIT} TILING_DIR ${SUPPORT_TILING_DIR} DISABLE_IN_OPP TRUE)\n")
    return root


def test_an_examples_folder_is_the_operator_above_it(checkout):
    f = op_folder.folder_of(checkout / "experimental/activation/op_a/examples/test_aclnn_op_a.cpp")
    assert f.root == (checkout / "experimental/activation/op_a").resolve()
    assert op_folder.checkout_root(f) == checkout.resolve()
    with pytest.raises(OpFolderError, match="in no operator folder"):
        op_folder.folder_of(checkout / "cmake" / "func.cmake")


def test_sources_by_layer_as_add_modules_sources_globs_them(checkout):
    a = OperatorFolder((checkout / "experimental/activation/op_a").resolve())
    names = [p.name for p in a.host_sources("ascend910b")]
    assert names == ["op_a_def.cpp", "op_a_infershape.cpp", "op_a_tiling.cpp", "extra.cpp"]  # not helper.cpp
    assert [p.name for p in a.api_sources()] == ["aclnn_op_a.cpp", "op_a.cpp"]
    assert [p.name for p in a.aclnn_headers()] == ["aclnn_op_a.h"]
    assert a.op_api_dir.name == "op_api" and a.op_api_dir.parent.name == "op_host"


def test_a_compute_units_tiling_folder_comes_with_that_soc_only(checkout):
    b = OperatorFolder((checkout / "activation/op_b").resolve())
    assert b.tiling_dirs("ascend950") == ["arch35"] and b.tiling_dirs("ascend910b") == []
    assert "op_b_tiling_arch35.cpp" in [p.name for p in b.host_sources("ascend950")]
    assert "op_b_tiling_arch35.cpp" not in [p.name for p in b.host_sources("ascend910b")]
    assert b.op_api_dir == b.root / "op_api"


def test_an_op_api_reaching_another_operators_op_api_header_depends_on_it(checkout):
    a = OperatorFolder((checkout / "experimental/activation/op_a").resolve())
    deps = op_folder.dependencies(a)
    assert [d.root for d in deps] == [(checkout / "activation/op_b").resolve()]  # common/inc is no operator
    assert op_folder.dependencies(deps[0]) == []


def test_the_checkouts_include_folders_in_cmakes_order(checkout):
    assert op_folder.checkout_include_dirs(checkout) == [
        checkout, checkout / "common/inc", checkout / "common/inc/op_host", checkout / "common/inc/op_api",
        checkout / "common/stub/op_api"]
    assert op_folder.checkout_include_dirs(None) == []


def test_opsnns_own_threshold_folder_reaches_relu_grad():
    f = op_folder.folder_of(REPO / "opsnn/activation/threshold_grad_v2_d/examples/test_aclnn_threshold_backward.cpp")
    assert [d.name for d in op_folder.dependencies(f)] == ["relu_grad"]
    assert op_folder.checkout_root(f) is None
