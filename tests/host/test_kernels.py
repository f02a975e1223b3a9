"""The host twin's kernel libraries (opsnn/host/kernels.py): an operator's kernel compiled per dtype
combination as CANN's device build compiles it, cached by content; the names and errors a
launch reports."""
from __future__ import annotations

import ctypes
import os
from pathlib import Path

import pytest

from opsnn.cpudebug import build as kt_build
from opsnn.host import kernels
from opsnn.host.kernels import KernelBuildError, KernelRequest, Manifest

REPO = Path(__file__).resolve().parents[2]
THRESHOLD_KERNELS = REPO / "opsnn" / "activation" / "threshold_grad_v2_d" / "op_kernel"


@pytest.fixture(scope="module")
def runtime() -> Path:
    try:
        return kt_build.build()
    except kt_build.BuildUnavailable as e:
        pytest.skip(f"the CPU-debug runtime cannot be built: {e}")


def threshold_request(dtype: str = "DT_FLOAT", op_file: str = "threshold_grad_v2_d") -> KernelRequest:
    return KernelRequest("ThresholdGradV2D", op_file, (("input_gradient", dtype), ("input_feature", dtype)),
                         (("output_backprops", dtype),))


def test_snake_case_is_canns_file_name_of_an_op_type():
    assert [kernels.snake_case(t) for t in ("ThresholdGradV2D", "LogSoftmaxV2", "SoftplusV2Grad", "Gelu",
                                            "HardSigmoidGradV3", "SwigluClamp", "ReluGradV4")] == [
        "threshold_grad_v2_d", "log_softmax_v2", "softplus_v2_grad", "gelu", "hard_sigmoid_grad_v3",
        "swiglu_clamp", "relu_grad_v4"]


def test_dtype_defines_name_every_input_and_output_an_output_like_an_input_gets_ref():
    req = KernelRequest("Add", "", (("x", "DT_FLOAT16"), ("y", "DT_BF16")), (("x", "DT_INT8"), ("z", "DT_FLOAT")))
    assert kernels.dtype_defines(req) == [
        "-DDTYPE_X=half", "-DORIG_DTYPE_X=DT_FLOAT16", "-DFORMAT_X=FORMAT_ND",
        "-DDTYPE_Y=bfloat16_t", "-DORIG_DTYPE_Y=DT_BF16", "-DFORMAT_Y=FORMAT_ND",
        "-DDTYPE_X_REF=int8_t", "-DORIG_DTYPE_X_REF=DT_INT8", "-DFORMAT_X_REF=FORMAT_ND",
        "-DDTYPE_Z=float", "-DORIG_DTYPE_Z=DT_FLOAT", "-DFORMAT_Z=FORMAT_ND"]


def test_a_dtype_without_a_cpp_type_is_named():
    with pytest.raises(KernelBuildError, match="input x has dtype DT_COMPLEX64"):
        kernels.dtype_defines(KernelRequest("Op", "", (("x", "DT_COMPLEX64"),), ()))


def test_the_request_text_launch_kernel_writes_parses():
    text = "op_type ThresholdGradV2D\nop_file threshold_grad_v2_d\ninput input_gradient DT_FLOAT\n" \
           "input input_feature DT_FLOAT\noutput output_backprops DT_FLOAT\n"
    assert KernelRequest.parse(text) == threshold_request()
    assert KernelRequest.parse("op_type Relu\nop_file\ninput x DT_INT8\noutput y DT_INT8\n").op_file == ""
    with pytest.raises(KernelBuildError, match="does not know"):
        KernelRequest.parse("op_type Relu\nshape 3\n")


def test_the_source_is_opfile_else_the_op_type_in_snake_case(tmp_path):
    m = Manifest([tmp_path / "a", THRESHOLD_KERNELS])
    assert kernels.kernel_source(m, threshold_request()) == (m, THRESHOLD_KERNELS / "threshold_grad_v2_d.cpp")
    assert kernels.kernel_source(m, threshold_request(op_file=""))[1] == THRESHOLD_KERNELS / "threshold_grad_v2_d.cpp"
    other = Manifest([tmp_path / "b"])
    assert kernels.kernel_source([other, m], threshold_request())[0] is m  # the manifest that has it
    with pytest.raises(KernelBuildError) as e:
        kernels.kernel_source(m, threshold_request(op_file="threshold_grad_v2_d_apt"))
    assert "threshold_grad_v2_d_apt.cpp" in str(e.value) and 'ExtendCfgInfo("opFile.value"' in str(e.value)
    assert str(THRESHOLD_KERNELS) in str(e.value)


def test_the_entry_is_the_op_type_in_snake_case_else_the_only_kernel():
    src = 'template <typename T> __global__ __aicore__ void softsign(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,' \
          ' GM_ADDR tiling) {}\n'
    req = KernelRequest("Softsign", "softsign_apt", (("x", "DT_FLOAT"),), (("y", "DT_FLOAT"),))
    assert kernels.kernel_entry(src, req) == ("softsign", ["x", "y", "workspace", "tiling"], True)
    other = 'extern "C" __global__ __aicore__ void my_kernel(__gm__ uint8_t *x, GM_ADDR tiling) {}'
    assert kernels.kernel_entry(other, req) == ("my_kernel", ["x", "tiling"], False)
    two = other + '\n__global__ __aicore__ void k2(GM_ADDR a) {}'
    with pytest.raises(KernelBuildError, match="its __global__ functions: my_kernel, k2"):
        kernels.kernel_entry(two, req)


def _load(path: Path):
    lib = ctypes.CDLL(str(path), mode=os.RTLD_LOCAL)
    return lib.opsnn_host_kernel


def test_a_combination_builds_once_and_its_cached_build_is_reused(runtime, tmp_path):
    m = Manifest([THRESHOLD_KERNELS], cache_dir=tmp_path / "cache")
    first = kernels.build_library(m, threshold_request("DT_FLOAT16"))
    again = kernels.build_library(m, threshold_request("DT_FLOAT16"))
    assert first.built and not again.built and first.path == again.path
    assert first.entry == "threshold_grad_v2_d"
    assert first.params == ("input_gradient", "input_feature", "output_backprops", "workspace", "tiling")
    assert _load(first.path)  # exports the launch function
    shim = (first.path.parent / "kernel_entry.cpp").read_text()
    assert "threshold_grad_v2_d<(THRESHOLD_GRAD_V2D_SCH_MODE_0)>" in shim
    other = kernels.build_library(m, threshold_request("DT_INT8"))
    assert other.built and other.path != first.path  # each combination its own library


def test_a_changed_header_rebuilds(runtime, tmp_path):
    ops = tmp_path / "op_kernel"
    ops.mkdir()
    (ops / "k.h").write_text("#define K_VALUE 1\n")
    (ops / "k.cpp").write_text('#include "kernel_operator.h"\n#include "k.h"\n'
                               'extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)'
                               ' { (void)K_VALUE; }\n')
    m = Manifest([ops], cache_dir=tmp_path / "cache")
    req = KernelRequest("K", "", (("x", "DT_FLOAT"),), ())
    assert kernels.build_library(m, req).built
    assert not kernels.build_library(m, req).built
    (ops / "k.h").write_text("#define K_VALUE 2\n")
    assert kernels.build_library(m, req).built


TPL_KERNEL = r'''
#include "kernel_operator.h"
#include "t_tiling_key.h"
template <typename D_T_X, uint32_t MODE>
__global__ __aicore__ void t(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {}
'''
TPL_KEY = r'''
#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(T, ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)),
                      ASCENDC_TPL_UINT_DECL(MODE, 1, ASCENDC_TPL_UI_LIST, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16),
                                     ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 0, 1)));
'''


def test_a_template_gets_the_instantiations_of_its_combinations_input_dtype_only(runtime, tmp_path):
    ops = tmp_path / "op_kernel"
    ops.mkdir()
    (ops / "t.cpp").write_text(TPL_KERNEL)
    (ops / "t_tiling_key.h").write_text(TPL_KEY)
    m = Manifest([ops], cache_dir=tmp_path / "cache")
    lib = kernels.build_library(m, KernelRequest("T", "", (("x", "DT_FLOAT16"),), (("y", "DT_FLOAT16"),)))
    shim = (lib.path.parent / "kernel_entry.cpp").read_text()
    assert shim.count("if (key ==") == 2  # MODE 0 and 1, float16 only
    assert "D_T_X=C_DT_FLOAT16, MODE=0" in shim and "D_T_X=C_DT_FLOAT," not in shim


def test_a_template_without_a_tiling_key_header_is_named(runtime, tmp_path):
    ops = tmp_path / "op_kernel"
    ops.mkdir()
    (ops / "t.cpp").write_text(TPL_KERNEL.replace('#include "t_tiling_key.h"\n', ""))
    m = Manifest([ops], cache_dir=tmp_path / "cache")
    with pytest.raises(KernelBuildError, match="template whose instantiations opsnn cannot derive"):
        kernels.build_library(m, KernelRequest("T", "", (("x", "DT_FLOAT"),), (("y", "DT_FLOAT"),)))


def test_a_kernel_that_does_not_compile_shows_the_compilers_first_errors(runtime, tmp_path):
    ops = tmp_path / "op_kernel"
    ops.mkdir()
    (ops / "bad.cpp").write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void bad(GM_ADDR x, '
                                 'GM_ADDR tiling) { undeclared_thing(x); }\n')
    m = Manifest([ops], cache_dir=tmp_path / "cache")
    with pytest.raises(KernelBuildError) as e:
        kernels.build_library(m, KernelRequest("Bad", "", (("x", "DT_FLOAT"),), ()))
    text = str(e.value)
    assert "compiling Bad's kernel" in text and "-DDTYPE_X=float" in text
    assert "bad.cpp:2" in text and "undeclared_thing" in text


def test_library_for_reads_the_manifest_the_environment_names(runtime, tmp_path, monkeypatch):
    monkeypatch.delenv(kernels.MANIFEST_ENV, raising=False)
    monkeypatch.setattr(kernels, "_REGISTERED", [])
    with pytest.raises(KernelBuildError, match="OPSNN_HOST_KERNELS is not set"):
        kernels.library_for("op_type ThresholdGradV2D\n")
    path = Manifest([THRESHOLD_KERNELS], cache_dir=tmp_path / "cache").write(tmp_path / "m.json")
    monkeypatch.setenv(kernels.MANIFEST_ENV, str(path))
    text = "op_type ThresholdGradV2D\nop_file threshold_grad_v2_d\ninput input_gradient DT_FLOAT\n" \
           "input input_feature DT_FLOAT\noutput output_backprops DT_FLOAT\n"
    lib, entry, params = kernels.library_for(text).split("\n")
    assert Path(lib).is_file() and entry == "threshold_grad_v2_d"
    assert params == "input_gradient, input_feature, output_backprops, workspace, tiling"
    monkeypatch.delenv(kernels.MANIFEST_ENV)
    monkeypatch.setattr(kernels, "_REGISTERED", [])
    kernels.register_manifest(path)  # an operator loaded into this process
    assert kernels.library_for(text).split("\n")[0] == lib
    (tmp_path / "bad.json").write_text("{}")
    monkeypatch.setenv(kernels.MANIFEST_ENV, str(tmp_path / "bad.json"))
    with pytest.raises(KernelBuildError, match="no kernel manifest of this opsnn"):
        kernels.library_for(text)
