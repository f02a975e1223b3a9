"""How `opsnn ut` reads a UT folder's CMakeLists, as upstream's cmake/ut.cmake does: CMake's list
splitting, every AddOpTestCase call, if/elseif/else per SoC's compute unit, the opFile naming the
kernel per compute unit, an op name starting with "ascend", and which tests each case compiles
(no compiler needed)."""
from __future__ import annotations

from pathlib import Path

import pytest

from opsnn.cpudebug import cmake_lists
from opsnn.cpudebug.ut_cases import compute_unit, copied_to_binary_dir, read_cases


def _op(root: Path, name: str, cmake: str, tests=("test_{op}.cpp",), host: dict | None = None) -> Path:
    op = root / name
    ut = op / "tests" / "ut" / "op_kernel"
    ut.mkdir(parents=True)
    (op / "op_kernel").mkdir()
    (op / "op_kernel" / f"{name}.cpp").write_text("// kernel\n")
    (ut / "CMakeLists.txt").write_text(cmake)
    for t in tests:
        path = ut / t.format(op=name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("TEST(a, b) {}\n")
    for rel, text in (host or {}).items():
        (op / "op_host").mkdir(exist_ok=True)
        (op / "op_host" / rel).write_text(text)
    return ut


def _cases(test: Path):
    return [(c.soc, c.options, c.origin.rsplit(":", 1)[1]) for c in read_cases(test).cases
            if test.resolve() in [p.resolve() for p in c.test_sources()]]


def test_options_split_as_a_cmake_list_on_spaces_and_semicolons(tmp_path):
    # average_pooling_grad writes its two defines with a ';' between them
    ut = _op(tmp_path, "apg", 'if ((UT_TEST_ALL OR OP_KERNEL_UT) AND NOT UT_DONE)\n'
             '  set(files ${CMAKE_CURRENT_SOURCE_DIR}/a.cpp ${CMAKE_CURRENT_SOURCE_DIR}/b.cpp)\n'
             '  AddOpTestCase(apg "ascend910B1" "-DDTYPE_G=float;-DORIG_DTYPE_G=DT_FLOAT  -DN=2" "${files}")\n'
             'endif()\n')
    [case] = read_cases(ut / "test_apg.cpp").cases
    assert case.options == ["-DDTYPE_G=float", "-DORIG_DTYPE_G=DT_FLOAT", "-DN=2"]
    # the tiling files after the options are ut.cmake's dependency operators (a path names no folder)
    assert case.dependency_ops == [str(ut / "a.cpp"), str(ut / "b.cpp")]


def test_every_add_op_test_case_is_read(tmp_path):
    ut = _op(tmp_path, "dn", 'AddOpTestCase(dn "ascend910B1" "-DA=1")\n'
             '# AddOpTestCase(dn "ascend910B1" "-DOLD=1")\n'
             'AddOpTestCase(dn "ascend950pr_9599" "-DB=2" MULTI_KERNEL_TARGET norm_common)\n',
             tests=("test_{op}.cpp", "arch35/test_{op}_arch35.cpp"))
    cases = read_cases(ut / "test_dn.cpp").cases
    assert [(c.soc, c.options, c.multi_kernel_target, c.dependency_ops) for c in cases] == [
        ("ascend910B1", ["-DA=1"], False, []), ("ascend950pr_9599", ["-DB=2"], True, ["norm_common"])]
    # each case compiles what ut.cmake globs for its SoC: a MULTI_KERNEL_TARGET case only its arch folder
    assert [p.name for p in cases[0].test_sources()] == ["test_dn.cpp"]
    assert [p.name for p in cases[1].test_sources()] == ["test_dn_arch35.cpp"]
    assert cases[1].kernel_source() is None and cases[0].kernel_source().name == "dn.cpp"


def test_if_else_branches_are_taken_per_compute_unit(tmp_path):
    # group_norm_swish_grad: the 910B test must not get the ascend950 branch's -D__CCE_AICORE__=350
    ut = _op(tmp_path, "gnsg", '''
if ((UT_TEST_ALL OR OP_KERNEL_UT) AND NOT UT_DONE)
    if("ascend950" IN_LIST ASCEND_COMPUTE_UNIT OR "ascend950pr_9599" IN_LIST ASCEND_COMPUTE_UNIT)
        AddOpTestCase(
            gnsg "ascend950pr_9599" "-DDTYPE_X=float -D__CCE_AICORE__=350"
            "${files}")
    elseif(NOT DEFINED NOTHING AND "${ASCEND_COMPUTE_UNIT}" STREQUAL "ascend310p")
        AddOpTestCase(gnsg "ascend310p" "-DP=1")
    else()
        AddOpTestCase(gnsg "ascend910B1" "-DDTYPE_X=float" "${files}")
    endif()
endif()''')
    assert _cases(ut / "test_gnsg.cpp") == [("ascend910B1", ["-DDTYPE_X=float"], "10"),
                                            ("ascend310p", ["-DP=1"], "8"),
                                            ("ascend950pr_9599", ["-DDTYPE_X=float", "-D__CCE_AICORE__=350"], "4")]


def test_kernel_and_tests_named_by_the_op_files_of_each_compute_unit(tmp_path):
    host = {"el_def.cpp": '''
class El : public OpDef {
    El(const char *name) : OpDef(name) {
        OpAICoreConfig aicoreConfig;  // the config one compute unit gets
        aicoreConfig.DynamicCompileStaticFlag(true)
            .ExtendCfgInfo("opFile.value", "el_apt");
        this->AICore().AddConfig("ascend950", aicoreConfig);
    }
};
OP_ADD(El);'''}
    ut = _op(tmp_path, "el", 'AddOpTestCase(el "ascend950pr_9599;ascend910B1" "-DX=1")\n',
             tests=("test_el.cpp", "test_el_apt.cpp"), host=host)
    (tmp_path / "el" / "op_kernel" / "el_apt.cpp").write_text("// arch35 kernel\n")
    by_soc = {c.soc: c for c in read_cases(ut / "test_el.cpp").cases}
    assert by_soc["ascend950pr_9599"].kernel_name == "el_apt" and by_soc["ascend910B1"].kernel_name == "el"
    assert [p.name for p in by_soc["ascend950pr_9599"].test_sources()] == ["test_el_apt.cpp"]
    assert [p.name for p in by_soc["ascend910B1"].test_sources()] == ["test_el.cpp", "test_el_apt.cpp"]


def test_a_first_argument_starting_with_ascend_is_the_soc_list(tmp_path):
    # ut.cmake's AddOpTestCase takes a first argument matching ^ascend for the SoCs (opName left out):
    # an operator named ascend_quant is then read as SoC "ascend_quant", which no build has
    ut = _op(tmp_path, "ascend_quant", 'AddOpTestCase(ascend_quant "ascend950pr_9599" "-DX=1")\n')
    found = read_cases(ut / "test_ascend_quant.cpp")
    assert found.cases == [] and "never compiles this case" in found.misread[0]
    # the form that leaves opName out on purpose is read as upstream reads it
    ut = _op(tmp_path, "gemm", 'AddOpTestCase("ascend910B1" "-DA=half -DB=half" mat_mul)\n')
    [case] = read_cases(ut / "test_gemm.cpp").cases
    assert (case.op_name, case.soc, case.options, case.dependency_ops) == ("gemm", "ascend910B1",
                                                                           ["-DA=half", "-DB=half"], ["mat_mul"])


def test_soc_names_match_compute_units_as_ut_cmake_matches_them():
    assert compute_unit("ascend910B1") == "ascend910b" and compute_unit("ascend910b") == "ascend910b"
    assert compute_unit("ascend950pr_9599") == "ascend950" and compute_unit("ascend310p") == "ascend310p"
    assert compute_unit("ascend910B3") is None  # neither a unit's short nor its long name: skipped upstream


def test_cmake_lists_and_conditions():
    scope = cmake_lists.Scope(variables={"L": "a;b", "EMPTY": ""})
    cmake_lists.Evaluator(scope, {"record"}).run(cmake_lists.parse('''
set(X ${L} "c;d" "e f")  # an unquoted list splits, a quoted one stays whole
list(APPEND X g)
foreach(i IN LISTS L)
  record(${i} "${X}")
endforeach()
if(NOT (DEFINED EMPTY AND EMPTY) AND "b" IN_LIST L AND ("1" EQUAL 1.0 OR OFF))
  record(yes)
endif()
if(MISSING OR "x" MATCHES "^y")
  record(no)
elseif(ON)
  record(elseif)
endif()'''))
    assert scope.variables["X"] == "a;b;c;d;e f;g"
    assert [c[1] for c in scope.calls] == [["a", "a;b;c;d;e f;g"], ["b", "a;b;c;d;e f;g"], ["yes"], ["elseif"]]
    with pytest.raises(cmake_lists.CMakeError, match="without endif"):
        cmake_lists.Evaluator(cmake_lists.Scope(), set()).run(cmake_lists.parse("if(A)\nset(B 1)\n"))


def test_files_the_cmakelists_copies_next_to_the_tests(tmp_path):
    (tmp_path / "op_data").mkdir()
    for name in ("gen_data.py", "compare_data.py"):
        (tmp_path / "op_data" / name).write_text("")
    text = """
    # add_custom_command(OUTPUT x COMMAND ${CMAKE_COMMAND} -E copy old.py ${CMAKE_BINARY_DIR}/tests/ut/op_kernel)
    add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/tests/ut/op_kernel/gen_data.py
        COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_SOURCE_DIR}/op_data/compare_data.py
                ${CMAKE_CURRENT_SOURCE_DIR}/op_data/gen_data.py ${CMAKE_BINARY_DIR}/tests/ut/op_kernel
        DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/op_data/gen_data.py)"""
    assert [p.name for p in copied_to_binary_dir(text, tmp_path)] == ["compare_data.py", "gen_data.py"]
