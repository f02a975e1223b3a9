"""The verdicts `opsnn ut DIR` gives (ut_verdict.py): each rule on the compiler's, the program's and
the runtime's own words, and whether a test compares values (no compiler needed)."""
from __future__ import annotations

from pathlib import Path

import pytest

from opsnn.cpudebug.ut_survey import reason_key
from opsnn.cpudebug.ut_verdict import build_verdict, compares_values, run_verdict

TEST = Path("/t/test_op.cpp")


@pytest.fixture
def checkout(tmp_path):
    (tmp_path / "foreach" / "foreach_utils" / "op_kernel").mkdir(parents=True)
    (tmp_path / "foreach" / "foreach_utils" / "op_kernel" / "foreach_one.h").write_text("")
    return tmp_path


@pytest.mark.parametrize("stderr, options, klass, reason", [
    ("k.h:3:10: fatal error: lib/matmul_intf.h: No such file or directory", [], "opsnn-lacks",
     "header lib/matmul_intf.h (k.h:3: lib/matmul_intf.h: No such file or directory)"),
    ("k.h:3:10: fatal error: ../foreach_utils/foreach_one.h: No such file or directory", [], "opsnn-lacks",
     "header ../foreach_utils/foreach_one.h: upstream's build reaches the checkout's "
     "foreach/foreach_utils/op_kernel/foreach_one.h, opsnn's does not"),
    ("k.h:3:10: fatal error: ../nowhere/x.h: No such file or directory", [], "ut-defect",
     "includes ../nowhere/x.h, which is nowhere in the checkout"),
    ("k.h:3:10: fatal error: some_toolkit.h: No such file or directory", [], "opsnn-lacks",
     "header some_toolkit.h, a toolkit header"),
    ("k.cpp:9:5: error: \u2018DTYPE_X\u2019 was not declared in this scope", ["-DDTYPE_Y=float", "-DN=1"],
     "ut-defect", "the code reads DTYPE_X, the UT's options define DTYPE_Y (DTYPE_* come only"),
    ("k.cpp:9:5: error: \u2018DTYPE_X\u2019 was not declared in this scope", ["-DDTYPE_X=float"], "opsnn-lacks",
     "DTYPE_X (k.cpp:9"),
    ("k.h:7:9: error: \u2018ReduceSum\u2019 is not a member of \u2018AscendC\u2019", [], "opsnn-lacks",
     "ReduceSum (k.h:7: \u2018ReduceSum\u2019 is not a member of \u2018AscendC\u2019)"),
    ("b.h:23:17: error: \u2018Reg\u2019 is not a namespace-name", [], "opsnn-lacks", "Reg (b.h:23:"),
    ("f.cpp:34:5: error: no matches converting function \u2018Div\u2019 to type \u2018void (*)(int)\u2019", [],
     "opsnn-lacks", "Div with AscendC's exact signature (the kernel takes its address)"),
    ("u.h:82:5: error: there are no arguments to \u2018TrueType\u2019 that depend on a template parameter, so a "
     "declaration of \u2018TrueType\u2019 must be available", [], "opsnn-lacks", "TrueType (u.h:82:"),
    ('m.h:4:2: error: #error "opsnn: lib/matmul_intf.h is cube work, not modelled"', [], "opsnn-lacks",
     "opsnn: lib/matmul_intf.h is cube work, not modelled"),
    ("/usr/bin/ld: a.o: in function `f': multiple definition of `op_kernel'; b.o: first defined here", [],
     "ut-defect", "op_kernel is defined twice: the test #includes the kernel .cpp"),
    ("/usr/bin/ld: t.o: undefined reference to `op_kernel'", [], "ut-defect",
     "nothing defines the kernel entry op_kernel the test declares extern \"C\""),
    ("k.cpp:1:1: error: expected \u2018;\u2019 before \u2018}\u2019 token", [], "unexplained",
     "compiling fails: k.cpp:1: expected"),
])
def test_build_failures(checkout, stderr, options, klass, reason):
    text = '#include "../../../op_kernel/op.cpp"\nextern "C" void op_kernel(uint8_t *x);\n'
    v = build_verdict(stderr, "compiling", TEST, text, options, checkout)
    assert (v.klass, v.reason[:len(reason)]) == (klass, reason)


def _run(**kw):
    return {"soc": "Ascend910B1", "exit_status": 0, "launches": [], **kw}


def test_run_verdicts():
    finding = {"level": "error", "kind": "gm_write_past_tensor", "instruction": "DataCopy", "source": "k.h:9",
               "detail": "bytes past"}
    v = run_verdict([_run(exit_status=1, launches=[{"kernel": "k", "findings": [finding]}])], [], "")
    assert (v.klass, v.reason) == ("finding", "gm_write_past_tensor: DataCopy at k.h:9: bytes past (1 error(s) in k)")
    assert reason_key(v) == "finding: gm_write_past_tensor: DataCopy"
    refused = {"level": "error", "kind": "core_failed", "instruction": "Maxs", "source": "k.h:3",
               "detail": "EmulatorError: Maxs on bfloat16 -> bfloat16: takes float16, float32"}
    v = run_verdict([_run(exit_status=1, launches=[{"findings": [refused]}])], [], "")
    assert (v.klass, v.reason) == ("opsnn-lacks", "Maxs at k.h:3: EmulatorError: Maxs on bfloat16 -> bfloat16: "
                                                  "takes float16, float32")
    v = run_verdict([_run(exit_status=1, stdout="ModuleNotFoundError: No module named 'tensorflow'")], [], "")
    assert (v.klass, v.reason) == ("environment", "its data step needs the Python module tensorflow")
    v = run_verdict([_run(exit_status=139, signal="SIGSEGV", stdout="x\n")], [], "")
    assert v.klass == "unexplained" and v.reason.startswith("the program died of SIGSEGV on Ascend910B1")
    assert run_verdict([_run(timed_out=True, exit_status=124)], [], "").reason.endswith("at the time limit")
    v = run_verdict([_run(exit_status=70, stderr="opsnn ut: GmAlloc: GmAlloc(0) at t.cpp:8: too small\n")], [], "")
    assert v.reason == "on Ascend910B1: the runtime stopped the program: GmAlloc: GmAlloc(0) at t.cpp:8: too small"
    v = run_verdict([_run(exit_status=1, first_failure="t.cpp:12: Failure", stdout="[  FAILED  ] 1 test")], [], "")
    assert (v.klass, v.reason) == ("unexplained", "on Ascend910B1: t.cpp:12: Failure")
    v = run_verdict([_run()], ["links only through opsnn's generated kernel entry"], "EXPECT_NEAR(y[0], 1, 0);")
    assert (v.klass, v.compares_values) == ("ut-defect", True)
    assert v.reason == "passes only with opsnn's help: links only through opsnn's generated kernel entry"
    assert run_verdict([_run()], [], "").passed


@pytest.mark.parametrize("text, compares", [
    ("EXPECT_NEAR(y[i], want[i], 1e-3);", True),
    ("EXPECT_EQ(out[3], 2.0f);", True),
    ("EXPECT_EQ(*amax, 1.0f);", True),
    ('ASSERT_EQ(system("python3 compare_data.py"), 0);', True),
    ("bool ok = CompareData(a, b);", True),
    ("ASSERT_NE(x, nullptr); EXPECT_EQ(tilingRet, true);", False),
    ("// EXPECT_NEAR(y[0], 1, 0)\nICPU_RUN_KF(k, 1, x);", False),
    ("ICPU_RUN_KF(k, 1, x);", False),
])
def test_whether_a_test_compares_values(text, compares):
    assert compares_values(text) is compares


def test_a_test_upstreams_build_never_compiles_is_a_ut_defect_whatever_it_does(tmp_path):
    from opsnn.cpudebug.ut_survey import judge
    test = tmp_path / "test_op.cpp"
    test.write_text("TEST(a, b) {}\n")
    note = "no AddOpTestCase compiles test_op.cpp (upstream's build takes test_op_apt*.cpp of /x); run with ..."
    failed = {"notes": [note], "runs": [{"soc": "Ascend950", "build_failed": "compiling test_op.cpp",
                                         "compiler": "k.cpp:3:1: error: \u2018DTYPE_X\u2019 was not declared",
                                         "defines": []}]}
    v = judge(failed, test, None)
    assert v.klass == "ut-defect" and v.reason.startswith(note + "; then: the code reads DTYPE_X")
    passed = {"notes": [note], "runs": [{"soc": "Ascend950", "exit_status": 0, "launches": []}]}
    assert (judge(passed, test, None).klass, judge(passed, test, None).reason) == ("ut-defect", note)


def test_refusal_on_a_branch_only_an_undefined_dtype_macro_takes(tmp_path):
    """An instruction refused inside `#if ORIG_DTYPE_X == DT_BF16`, in a UT whose options define no
    ORIG_DTYPE_X, is the UT's defect (the branch holds because both names are 0 in #if); the same
    refusal outside such a branch, or with the macro defined, stays opsnn's to explain."""
    kernel = tmp_path / "op" / "op_kernel" / "k.h"
    kernel.parent.mkdir(parents=True)
    kernel.write_text("#ifndef K_H\n#if ORIG_DTYPE_X == DT_BF16\n#if 1\n#endif\n  Cast(a, b, CAST_NONE);\n"
                      "#else\n  Cast(a, b, CAST_RINT);\n#endif\n  Cast(c, d, CAST_NONE);\n#endif\n")
    test = tmp_path / "op" / "tests" / "ut" / "op_kernel" / "test_op.cpp"
    refused = {"level": "error", "kind": "core_failed", "instruction": "Cast", "source": "k.h:5",
               "detail": "EmulatorError: Cast float32 -> float32 does not take CAST_NONE"}
    v = run_verdict([_run(exit_status=1, launches=[{"findings": [refused]}])], [], "", test, tmp_path)
    assert v.klass == "ut-defect"
    assert v.reason.startswith("the kernel's `#if ORIG_DTYPE_X == DT_BF16` (k.h:2) holds only because the UT's "
                               "options define no ORIG_DTYPE_X")
    assert v.reason.endswith("on that branch Cast at k.h:5: EmulatorError: Cast float32 -> float32 does not take "
                             "CAST_NONE")
    for source, defines in (("k.h:9", []), ("k.h:7", []), ("k.h:5", ["-DORIG_DTYPE_X=DT_FLOAT"])):
        other = dict(refused, source=source)
        v = run_verdict([_run(exit_status=1, defines=defines, launches=[{"findings": [other]}])], [], "", test,
                        tmp_path)
        assert v.klass == "opsnn-lacks", (source, defines)
    unmodelled = dict(refused, detail="EmulatorError: Power on int64 is not modelled")
    v = run_verdict([_run(exit_status=1, launches=[{"findings": [unmodelled]}])], [], "", test, tmp_path)
    assert v.klass == "opsnn-lacks"


def test_a_race_whose_barrier_the_ut_build_compiles_out_is_the_builds(tmp_path):
    """A cross-core race in a kernel whose SyncAll sits inside `#ifndef __CCE_KT_TEST__` is the UT
    build's (it defines the macro, so the cores run unordered there), not the kernel's; the same race
    with the SyncAll outside such a block, or in its #else, stays a finding. An api_contract_violation
    is a finding, as is any sanitizer error."""
    kernel = tmp_path / "op" / "op_kernel" / "k.h"
    kernel.parent.mkdir(parents=True)
    test = tmp_path / "op" / "tests" / "ut" / "op_kernel" / "test_op.cpp"
    race = {"level": "error", "kind": "gm_write_overlap", "instruction": "DataCopyPad", "source": "k.h:9",
            "detail": "core 1 writes bytes [16, 32) of dgamma atomically ..."}
    launch = [{"findings": [race], "kernel": "op"}]
    kernel.write_text("#if A\n#endif\n#ifndef __CCE_KT_TEST__\n#if B\n#endif\n    // wait core\n    SyncAll();\n"
                      "#endif\n")
    v = run_verdict([_run(exit_status=1, launches=launch)], [], "", test, tmp_path)
    assert v.klass == "ut-defect" and v.reason.startswith("the kernel's SyncAll (k.h:7) is compiled only without "
                                                          "__CCE_KT_TEST__")
    assert v.reason.endswith("the finding: gm_write_overlap: DataCopyPad at k.h:9")
    for text in ("SyncAll();\n", "#ifndef __CCE_KT_TEST__\n#else\n  SyncAll();\n#endif\n",
                 "#ifdef __CCE_KT_TEST__\n  SyncAll();\n#endif\n"):
        kernel.write_text(text)
        assert run_verdict([_run(exit_status=1, launches=launch)], [], "", test, tmp_path).klass == "finding", text
    contract = {"level": "error", "kind": "api_contract_violation", "instruction": "Select", "source": "k.h:3",
                "detail": "ApiContractError: continuous mask 128 for float32: AscendC takes 0..64"}
    v = run_verdict([_run(exit_status=1, launches=[{"findings": [contract], "kernel": "op"}])], [], "", test, tmp_path)
    assert v.klass == "finding" and v.reason.startswith("api_contract_violation: Select at k.h:3")


def test_a_launch_on_zero_cores_is_the_uts_defect():
    error = ("ICPU_RUN_KF(op, 0) at test_op.cpp:257: EmulatorError: block_dim must be in [1, 65535], got 0")
    v = run_verdict([_run(exit_status=1, launches=[{"error": error}])], [], "")
    assert v.klass == "ut-defect" and "on 0 cores" in v.reason
    other = error.replace("got 0", "got 70000")
    assert run_verdict([_run(exit_status=1, launches=[{"error": other}])], [], "").klass == "unexplained"


def test_a_file_with_no_test_is_a_ut_defect(tmp_path):
    from opsnn.cpudebug.ut_survey import judge
    test = tmp_path / "test_op_apt.cpp"
    test.write_text('#include "gtest/gtest.h"\n')
    error = f"{test} defines no test: no TEST/TEST_F/TEST_P (gtest) and no main()"
    v = judge({"error": error}, test, None)
    assert v.klass == "ut-defect" and v.reason.startswith("test_op_apt.cpp defines no test")
    assert judge({"error": "something else"}, test, None).klass == "unexplained"


def test_a_ut_tiling_header_lagging_the_operator_is_a_ut_defect(tmp_path):
    """The kernel reads a tiling member the UT folder's <op>_tiling_def.h (which upstream's build
    force-includes) lacks while op_host defines it: the UT's defect. A member nobody defines, or a
    struct the UT header does not define, stays opsnn's to explain."""
    ut = tmp_path / "op" / "tests" / "ut" / "op_kernel"
    host = tmp_path / "op" / "op_host"
    ut.mkdir(parents=True)
    host.mkdir(parents=True)
    (ut / "op_tiling_def.h").write_text("struct OpTilingData {\n  int64_t rows;\n};\n")
    (host / "op_tiling.h").write_text("TILING_DATA_FIELD_DEF(int64_t, rows);\n"
                                      "TILING_DATA_FIELD_DEF(int64_t, hasBias);\n")
    test = ut / "test_op.cpp"
    err = "k.h:165:14: error: \u2018const struct OpTilingData\u2019 has no member named \u2018hasBias\u2019"
    v = build_verdict(err, "compiling", test, "", [], tmp_path)
    assert v.klass == "ut-defect" and v.reason.startswith("the UT folder's op_tiling_def.h defines OpTilingData "
                                                          "without hasBias, which the operator's op_tiling.h has")
    for other in (err.replace("hasBias", "nowhere"), err.replace("OpTilingData", "OtherData")):
        assert build_verdict(other, "compiling", test, "", [], tmp_path).klass == "opsnn-lacks"


def test_an_undeclared_name_in_the_tiling_key_list_op_host_compiles_is_the_operators(tmp_path):
    op = tmp_path / "op"
    (op / "op_kernel").mkdir(parents=True)
    (op / "op_host").mkdir()
    key = op / "op_kernel" / "op_tiling_key.h"
    key.write_text("#define A 0\nASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(g, 1, A, TPL_FLOOR)));\n")
    test = op / "tests" / "ut" / "op_kernel" / "test_op.cpp"
    err = f"{key}:2:60: error: \u2018TPL_FLOOR\u2019 was not declared in this scope"
    assert build_verdict(err, "compiling", test, "", [], tmp_path).klass == "opsnn-lacks"  # op_host does not include it
    (op / "op_host" / "op_tiling.cpp").write_text('#include "../op_kernel/op_tiling_key.h"\n')
    v = build_verdict(err, "compiling", test, "", [], tmp_path)
    assert v.klass == "ut-defect" and v.reason.startswith("TPL_FLOOR in the tiling-key list of op_tiling_key.h:2")
    plain = f"{key}:1:9: error: \u2018TPL_FLOOR\u2019 was not declared in this scope"  # not a TPL list line
    assert build_verdict(plain, "compiling", test, "", [], tmp_path).klass == "opsnn-lacks"


def test_a_kernel_entry_defined_only_in_a_cpp_the_test_does_not_include(tmp_path):
    op = tmp_path / "op"
    (op / "op_kernel").mkdir(parents=True)
    (op / "op_kernel" / "op.cpp").write_text("template <bool a>\n__global__ __aicore__ void op_kernel(GM_ADDR x) {}\n")
    ut = op / "tests" / "ut" / "op_kernel"
    ut.mkdir(parents=True)
    test = ut / "test_op.cpp"
    err = f"{test}:57:32: error: \u2018op_kernel\u2019 was not declared in this scope"
    v = build_verdict(err, "compiling", test, '#include "../../../op_kernel/op.h"\n', [], tmp_path)
    assert v.klass == "ut-defect" and v.reason.startswith("the test names the kernel entry op_kernel, which only "
                                                          "op.cpp defines")
    included = build_verdict(err, "compiling", test, '#include "../../../op_kernel/op.cpp"\n', [], tmp_path)
    assert included.klass == "opsnn-lacks"


def test_a_call_into_the_op_host_helpers_of_tests_ut_common_is_a_ut_defect(tmp_path):
    """upstream's op_kernel UT program compiles test_cube_util.cpp of tests/ut/common and nothing
    else there: a kernel UT calling another of its functions (ExecuteTiling) does not link there."""
    common = tmp_path / "tests" / "ut" / "common"
    common.mkdir(parents=True)
    (common / "tiling_case_executor.cpp").write_text(
        "#include \"x.h\"\nbool ExecuteTiling(const gert::TilingContextPara& p, TilingInfo& info)\n"
        "{\n  return true;\n}\n")
    (common / "test_cube_util.cpp").write_text("void CubeHelper(int x)\n{\n}\n")
    err = "/t/test_op.cpp:200: undefined reference to `ExecuteTiling(gert::TilingContextPara const&, TilingInfo&)'"
    v = build_verdict(err, "linking", TEST, "", [], tmp_path)
    assert v.klass == "ut-defect" and v.reason.startswith("calls ExecuteTiling, which only the checkout's "
                                                          "tests/ut/common/tiling_case_executor.cpp defines")
    linked = "/t/test_op.cpp:200: undefined reference to `CubeHelper(int)'"
    assert build_verdict(linked, "linking", TEST, "", [], tmp_path).klass == "opsnn-lacks"


def test_copying_a_host_tiling_object_as_the_kernels_struct_is_a_ut_defect():
    err = ("t.cpp:46:25: error: use of deleted function \u2018optiling::GluGradTilingData& "
           "optiling::GluGradTilingData::operator=(const optiling::GluGradTilingData&)\u2019")
    v = build_verdict(err, "compiling", TEST, "", [], None)
    assert v.klass == "ut-defect" and v.reason.startswith("the test copy-assigns a host GluGradTilingData")
    other = err.replace("GluGradTilingData", "Widget")
    assert build_verdict(other, "compiling", TEST, "", [], None).klass != "ut-defect"


def test_a_division_by_zero_is_the_uts_only_in_its_own_code(tmp_path):
    kernel = tmp_path / "k.h"
    kernel.write_text("int a;\nint r = a % zero;\n")
    v = run_verdict([_run(exit_status=136, signal="SIGFPE", fault=f"{kernel}:2")], [], "")
    assert v.klass == "ut-defect" and "SIGFPE (an integer division by zero) at k.h:2 `int r = a % zero;`" in v.reason
    from opsnn.cpudebug import build as kt_build
    ours = kt_build.INCLUDE_DIR / "opsnn_kt" / "tensors.h"  # opsnn's own header trapping: opsnn's defect
    for fault in (f"{ours}:20", None, "??:0"):
        v = run_verdict([_run(exit_status=136, signal="SIGFPE", fault=fault)], [], "")
        assert v.klass == "unexplained" and v.reason.startswith("the program died of SIGFPE")
