"""`opsnn ut`'s command line, SoC names, the build flags for
one's own build (python -m opsnn.capi --kernel-cflags --kernel-libs, the CMake package) and
`opsnn example OP --kernel-cpp`."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from opsnn.cli import main as cli
from opsnn.cpudebug import ut
from opsnn.cpudebug.socs import platform_for

ROOT = Path(__file__).resolve().parents[2]
OWN_UT = ROOT / "opsnn/activation/threshold_grad_v2_d/tests/ut/op_kernel/test_threshold_grad_v2_d.cpp"


def test_soc_names_as_upstream_writes_them():
    assert platform_for("ascend910B1").name == "Ascend910B1"
    assert platform_for("ASCEND910B3").name == "Ascend910B3"
    assert platform_for("ascend910b").name == "Ascend910B2"
    assert platform_for("ascend950pr_9599").name == "Ascend950"
    with pytest.raises(ValueError, match="unknown SoC 'ascend310p'"):
        platform_for("ascend310p")


def test_command_errors_exit_2(tmp_path, capsys):
    assert cli(["ut", str(tmp_path / "missing.cpp")]) == 2
    assert "no such test file" in capsys.readouterr().err
    assert cli(["ut", str(OWN_UT), "--soc", "ascend310p"]) == 2
    assert "unknown SoC 'ascend310p'" in capsys.readouterr().err


def test_a_compile_error_is_shown_by_name(runtime, tmp_path, capsys):
    bad = tmp_path / "test_bad.cpp"
    bad.write_text('#include "kernel_operator.h"\n#include "gtest/gtest.h"\n'
                   'TEST(bad, call) { AscendC::NoSuchInstruction(); }\n')
    assert ut.main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert "compiling test_bad.cpp failed" in err and "NoSuchInstruction" in err


def test_json_report_and_options_from_cmakelists(runtime, tmp_path):
    out = tmp_path / "r.json"
    assert ut.main([str(OWN_UT), "-D", "DTYPE_INPUT_GRADIENT=bfloat16_t", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    [run] = doc["runs"]
    assert run["defines"] == ["-DDTYPE_INPUT_GRADIENT=bfloat16_t"] and doc["exit_status"] == 0
    assert run["soc"] == "Ascend910B1"  # the folder's AddOpTestCase SoC, the command line gave none
    assert [launch["block_dim"] for launch in run["launches"]] == [1, 8, 4]
    assert all(launch["ok"] and launch["instructions"] > 0 for launch in run["launches"])


def test_sanitizer_off_still_runs(runtime, tmp_path):
    out = tmp_path / "r.json"
    assert ut.main([str(OWN_UT), "--sanitize", "off", "--json", str(out), "--", "--gtest_filter=*one_core*"]) == 0
    [run] = json.loads(out.read_text())["runs"]
    assert [launch["sanitize"] for launch in run["launches"]] == [False] and run["launches"][0]["findings"] == []


def _flags(*which: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "opsnn.capi", *which], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_own_build_with_the_printed_flags(runtime, tmp_path):
    cflags, libs = _flags("--kernel-cflags"), _flags("--kernel-libs")
    assert "-D__CCE_KT_TEST__" in cflags and "-lopsnn_kt" in libs
    exe = tmp_path / "t"
    subprocess.run(["g++", *cflags, "-DDTYPE_INPUT_GRADIENT=half", str(OWN_UT), "-o", str(exe), "-lgtest",
                    "-lgtest_main", *libs], check=True, capture_output=True)
    done = subprocess.run([str(exe)], capture_output=True, text=True)
    assert done.returncode == 0 and "[  PASSED  ] 3 tests." in done.stdout
    assert done.stderr.count(": clean (") == 3  # each launch's line, from the runtime


@pytest.mark.skipif(shutil.which("cmake") is None, reason="no cmake on this machine")
def test_own_build_with_the_cmake_package(runtime, tmp_path):
    (tmp_path / "CMakeLists.txt").write_text(f"""cmake_minimum_required(VERSION 3.16)
project(kt CXX)
find_package(opsnn_kernel REQUIRED)
find_package(GTest REQUIRED)
add_executable(test_op {OWN_UT})
target_compile_definitions(test_op PRIVATE DTYPE_INPUT_GRADIENT=int32_t)
target_link_libraries(test_op PRIVATE opsnn::kernel GTest::gtest_main)
""")
    [cmake_dir] = _flags("--kernel-cmakedir")
    build = tmp_path / "build"
    subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(build), f"-Dopsnn_kernel_DIR={cmake_dir}"], check=True,
                   capture_output=True)
    subprocess.run(["cmake", "--build", str(build)], check=True, capture_output=True)
    done = subprocess.run([str(build / "test_op")], capture_output=True, text=True)
    assert done.returncode == 0 and "[  PASSED  ] 3 tests." in done.stdout


def test_example_kernel_cpp(runtime, capfd):
    assert cli(["example", "threshold_grad_v2_d", "--kernel-cpp"]) == 0
    out, err = capfd.readouterr()
    assert "the AscendC C++ kernel in" in out and "[  PASSED  ] 3 tests." in out
    assert cli(["example", "leaky_relu_grad", "--kernel-cpp"]) == 2
    assert "has no C++ kernel; those with one: threshold_grad_v2_d" in capfd.readouterr().err
