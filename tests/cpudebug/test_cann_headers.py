"""The CANN header names kernels include resolve to opsnn's (thin headers over kernel_operator.h),
kernel_type.h gives the DT_* / FORMAT_* codes as preprocessor macros, kernel_utils.h also brings
upstream's own header of that name where it is on the include path; the cube headers compile (vector
kernels include them unused) and cube work fails the build by name (Matmul, TCubeTiling, Mmad)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from opsnn.cpudebug import build as kt_build
from opsnn.cpudebug import ut

INCLUDE = Path(kt_build.__file__).resolve().parent / "include"
HOST_INCLUDE = INCLUDE.parent.parent / "host" / "include"
THIN = ["kernel_operator_intf.h", "basic_api/kernel_operator_intf.h", "kernel_basic_intf.h",
        "basic_api/kernel_basic_intf.h", "kernel_vec_intf.h", "basic_api/kernel_vec_intf.h", "kernel_common.h",
        "kernel_tpipe.h", "kernel_tensor.h", "kernel_event.h", "kernel_fp16.h", "kernel_macros.h",
        "kernel_operator_data_copy_intf.h", "kernel_operator_block_sync_intf.h", "kernel_operator_atomic_intf.h",
        "kernel_operator_set_atomic_intf.h", "kernel_operator_common_intf.h", "kernel_operator_sys_var_intf.h",
        "kernel_operator_dump_tensor_intf.h", "kernel_operator_list_tensor_intf.h",
        "impl/dav_c220/kernel_operator_reg_others_impl.h", "kernel_utils.h",
        *(f"lib/math/kernel_operator_{f}_intf.h" for f in ("sin", "cos", "tanh", "erf", "power", "log", "tan")),
        "lib/sigmoid/kernel_operator_sigmoid_intf.h"]


def _compile(tmp_path, text: str, *include_dirs: Path) -> subprocess.CompletedProcess:
    src = tmp_path / "k.cpp"
    src.write_text(text)
    flags = [f"-I{d}" for d in (INCLUDE, HOST_INCLUDE, *include_dirs)]
    return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", *flags, str(src)], capture_output=True, text=True)


@pytest.fixture(autouse=True)
def _compiler(runtime):  # the runtime fixture skips where no C++ compiler is there
    return runtime


@pytest.mark.parametrize("header", THIN)
def test_each_cann_name_gives_the_kernel_api(tmp_path, header):
    r = _compile(tmp_path, f'#include "{header}"\nusing namespace AscendC;\n'
                           "static_assert(IsSameType<half, half>::value, \"\");\n"
                           "void k(GM_ADDR y) { SyncAll(); SetAtomicAdd<float>(); GlobalTensor<float> g; }\n")
    assert r.returncode == 0, r.stderr


def test_kernel_type_gives_the_codes_to_the_preprocessor(tmp_path):
    r = _compile(tmp_path, '#include "kernel_operator.h"\n#include "kernel_type.h"\n'
                           "#if !(DT_FLOAT == 0 && DT_FLOAT16 == 1 && DT_BF16 == 27 && DT_INT8 == 2 \\\n"
                           "      && FORMAT_ND == 2)\n"
                           "#error wrong codes\n#endif\n")
    assert r.returncode == 0, r.stderr
    r = _compile(tmp_path, '#include "kernel_operator.h"\n#if defined(DT_FLOAT)\n#error leaked\n#endif\n')
    assert r.returncode == 0, r.stderr  # kernel_operator.h alone leaves ge::DT_FLOAT usable


def test_the_dt_codes_are_cpp_names_beside_ge_s(tmp_path):
    # `if constexpr (ORIG_DTYPE_Y == DT_INT4)` with using namespace AscendC; ge::DT_* still usable
    r = _compile(tmp_path, '#include "tikicpulib.h"\nusing namespace AscendC;\n#define ORIG_DTYPE_Y DT_INT4\n'
                           "static_assert(ORIG_DTYPE_Y == DT_INT4 && DT_BF16 == 27 && DT_FLOAT16 == 1, \"\");\n"
                           "static_assert(ge::DT_INT4 == DT_INT4, \"\");\n"
                           "void k(GlobalTensor<float> g) { InitOutput(g, 8); InitOutput(g, 8, 1.0f); }\n")
    assert r.returncode == 0, r.stderr
    # a UT's tiling header (forced in first) may make a code a macro of its own: it stays in force
    r = _compile(tmp_path, '#define DT_BF16 bfloat16_t\n#include "tikicpulib.h"\nusing namespace AscendC;\n'
                           "LocalTensor<DT_BF16> t;\nstatic_assert(DT_INT4 == 29, \"\");\n")
    assert r.returncode == 0, r.stderr


def test_kernel_utils_also_brings_the_next_one_on_the_path(tmp_path):
    upstream = tmp_path / "common_inc"
    upstream.mkdir()
    (upstream / "kernel_utils.h").write_text("namespace ops { constexpr int kUpstream = 7; }\n")
    r = _compile(tmp_path, '#include "kernel_utils.h"\nstatic_assert(ops::kUpstream == 7, "");\n'
                           "static_assert(AscendC::GetDataBlockSizeInBytes() == 32, \"\");\n", upstream)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("header", ["lib/matmul_intf.h", "lib/matmul/matmul.h", "kernel_operator_mm_intf.h"])
def test_a_cube_header_a_vector_kernel_includes_compiles(tmp_path, header):
    # many vector kernels include lib/matmul_intf.h and use nothing of it
    r = _compile(tmp_path, f'#include "{header}"\nvoid k() {{ AscendC::SyncAll(); }}\n')
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("text, name", [
    ('#include "lib/matmul_intf.h"\nusing namespace AscendC;\nMatmul<int, int, int> mm;\n', "Matmul"),
    ('#include "lib/matmul_intf.h"\nstruct T { TCubeTiling mm; };\n', "TCubeTiling"),
    ('#include "kernel_operator.h"\nvoid k(AscendC::LocalTensor<float> a) { AscendC::Mmad(a, a, a); }\n',
     "Mmad is cube (AIC) work"),
])
def test_cube_work_fails_the_build_by_name(tmp_path, text, name):
    r = _compile(tmp_path, text)
    assert r.returncode != 0 and name in r.stderr


def test_opsnn_ut_names_the_cube_class_a_test_uses(tmp_path, capsys):
    src = tmp_path / "test_mm.cpp"
    src.write_text('#include "gtest/gtest.h"\n#include "tikicpulib.h"\n#include "lib/matmul_intf.h"\n'
                   "using namespace AscendC;\nMatmul<int, int, int> mm;\nTEST(mm, x) {}\n")
    rc = ut.main([str(src), "--soc", "ascend910B1", "--workdir", str(tmp_path / "w")])
    assert rc == 2 and "Matmul" in capsys.readouterr().err


def test_bf16_is_the_device_compilers_name_of_bfloat16_t(tmp_path):
    # upstream mish: if constexpr (std::is_same_v<TYPE_X, __bf16>) picks the bfloat16 path
    r = _compile(tmp_path, '#include "kernel_operator.h"\n#include <type_traits>\n'
                           "static_assert(std::is_same_v<__bf16, bfloat16_t>, \"\");\n")
    assert r.returncode == 0, r.stderr


def test_instructions_convert_to_ascendcs_function_types_and_calls_stay_unambiguous(tmp_path):
    # upstream's foreach kernels pass Mul / Sub / Exp ... as function-pointer template arguments
    r = _compile(tmp_path, '#include "kernel_operator.h"\nusing namespace AscendC;\n'
                           "template <typename T> using Bin = void(const LocalTensor<T>&, const LocalTensor<T>&,\n"
                           "                                      const LocalTensor<T>&, const int32_t&);\n"
                           "template <typename T> using Bin0 = void(const LocalTensor<T>&, const LocalTensor<T>&,\n"
                           "    const LocalTensor<T>&, uint64_t, uint8_t, const BinaryRepeatParams&);\n"
                           "template <typename T> using Un = void(const LocalTensor<T>&, const LocalTensor<T>&,\n"
                           "                                     const int32_t&);\n"
                           "template <typename T, Bin<T>* op> void Apply(LocalTensor<T>& x) { op(x, x, x, 8); }\n"
                           "void k(LocalTensor<half>& h, LocalTensor<float>& f) {\n"
                           "    Apply<half, Mul>(h); Apply<float, Div>(f);\n"
                           "    Bin0<float>* sub = Sub; Un<float>* e = Exp; Un<half>* s = Sqrt;\n"
                           "    (void)sub; (void)e; (void)s;\n"
                           "    Mul(f, f, f, 8); Mul<float>(f, f, f, 8); Add<half, false>(h, h, h, 64, 1, {});\n"
                           "    Exp(f, f, 8); Sqrt<float, true>(f, f, 64, 1, {});\n"
                           # a repeat count in an int32_t (upstream rms_norm): still the mask/repeat form
                           "    uint64_t m = 64; int32_t r = 2; BinaryRepeatParams p; Add(f, f, f, m, r, p);\n"
                           "    const uint64_t& cm = m; const int32_t& cr = r; Max(f, f, f, cm, cr, p);\n}\n")
    assert r.returncode == 0, r.stderr
