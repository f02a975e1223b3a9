"""C and C++ programs against the C ABI: the operators' own examples (their output against the
numpy API), C++11/C++17, a C program, the headers as C and C++11..20, 8 threads, the link names,
the SoC and sanitizer from the environment, and a Python that cannot start."""
from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

import opsnn
from opsnn import registry
from opsnn.capi import build, cflags, lib_dir, libs, programs

from .conftest import PROGRAMS, run, values

BACKWARD = registry.get("threshold_grad_v2_d")
FORWARD = registry.get("threshold_v2")


def printed(stdout: str) -> list[str]:
    return re.findall(r"result\[\d+\] is: (\S+)", stdout)


def expected_backward() -> list[str]:
    grad = np.array([4.5, 4.4, 4.3, 4.2], np.float32)
    feature = np.array([0.2, 1.2, 2.2, 3.2], np.float32)
    return [f"{v:f}" for v in opsnn.threshold_backward(grad, feature, 1.0, semantics="ascend910b")]


def expected_threshold() -> list[str]:
    x = np.array([0, 1, 2, 3, 4.1, 5, 6, 7], np.float32)
    return [f"{v:f}" for v in opsnn.threshold(x, np.float32(4.1), 10.0, semantics="ascend910b")]


EXAMPLES = {"test_aclnn_threshold_backward": expected_backward, "test_aclnn_threshold": expected_threshold,
            "test_aclnn_inplace_threshold": expected_threshold}


@pytest.mark.parametrize("mode", ["fast", "emulator"])
@pytest.mark.parametrize("std", ["c++11", "c++17"])
@pytest.mark.parametrize("source", programs.examples(BACKWARD) + programs.examples(FORWARD), ids=lambda p: p.stem)
def test_examples_print_the_numpy_api(compiled, source, std, mode):
    done = run(compiled(source, std=std), {"OPSNN_DEVICE_MODE": mode})
    assert done.returncode == 0, done.stdout + done.stderr
    assert printed(done.stdout) == EXAMPLES[source.stem]()
    assert done.stderr == ""  # nothing leaked, nothing warned


def test_every_operator_with_an_aclnn_api_has_a_cpp_example():
    from opsnn.aclnn.declarations import operator_apis
    for op in registry.discover().values():
        if operator_apis(op):
            assert programs.examples(op), op.name


def test_example_under_ascend950_and_the_sanitizer(compiled):
    program = compiled(programs.examples(BACKWARD)[0])
    for env in ({"OPSNN_SOC": "Ascend950"}, {"OPSNN_SANITIZE": "1"}, {"OPSNN_SOC": "Ascend950", "OPSNN_SANITIZE": "1"}):
        done = run(program, env)
        assert done.returncode == 0 and printed(done.stdout) == expected_backward(), (env, done.stderr)


def test_a_sanitizer_error_from_c_is_a_status_and_a_stderr_line(compiled, tmp_path):
    """OPSNN_SANITIZE=1 with a broken kernel (a sitecustomize the embedded Python imports patches
    the 910B kernel to dequeue from an empty queue): aclrtSynchronizeStream is 507015 and the
    findings are on stderr; the example reports the failed synchronize, as on the NPU."""
    import sysconfig
    (tmp_path / "sitecustomize.py").write_text(
        # it runs before the library adds its venv to sys.path: add it here (with its .pth files)
        f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n"
        "import importlib\n"
        "k = importlib.import_module('opsnn.activation.threshold_grad_v2_d.op_kernel.threshold_grad_v2_d')\n"
        "compute = k.KernelThresholdGradV2D.Compute\n"
        "def dequeues_twice(self, progress):\n"
        "    compute(self, progress)\n"
        "    self.in_queue_grad.DeQue()  # nothing is queued any more: a queue misuse\n"
        "k.KernelThresholdGradV2D.Compute = dequeues_twice\n")
    program = compiled(programs.examples(BACKWARD)[0])
    done = run(program, {"OPSNN_SANITIZE": "1", "OPSNN_SOC": "", "PYTHONPATH": str(tmp_path)})
    assert done.returncode != 0
    assert "opsnn sanitizer: synchronize_stream: task" in done.stderr, done.stderr
    assert done.stdout.startswith("aclrtSynchronizeStream failed (synchronize_stream: task 'aclnnThresholdBackward' "
                                  "faulted"), done.stdout  # aclGetRecentErrMsg, read once
    assert "queue_misuse: core 0 tile 0 DeQue in_queue_grad" in done.stdout
    clean = run(program, {"OPSNN_SANITIZE": "1", "OPSNN_SOC": ""})  # the same program, the real kernel
    assert clean.returncode == 0 and printed(clean.stdout) == expected_backward()


@pytest.mark.parametrize("env, init, soc", [
    ({}, 0, "Ascend910B2"), ({"OPSNN_SOC": "Ascend950"}, 0, "Ascend950"),
    ({"OPSNN_SOC": "Ascend910B3"}, 0, "Ascend910B3"), ({"OPSNN_SOC": "Ascend310P"}, 100000, "(null)"),
    ({"OPSNN_SANITIZE": "maybe"}, 100000, "(null)")])
def test_soc_and_sanitizer_from_the_environment(compiled, env, init, soc):
    env = {"OPSNN_SOC": "", "OPSNN_SANITIZE": "", **env}
    facts = values(run(compiled(PROGRAMS / "soc.cpp"), env).stdout)
    assert (int(facts["init"]), facts["soc"]) == (init, soc)
    if init:
        assert facts["set_device"] == "100001"  # the runtime did not start


def test_python_that_cannot_start_is_one_line_and_a_status(compiled):
    done = run(compiled(PROGRAMS / "soc.cpp"), {"OPSNN_CAPI_PYTHON": "/nonexistent/bin/python",
                                                "PYTHONHOME": "/nonexistent"})
    facts = values(done.stdout)
    assert facts["init"] == "500001" and facts["set_device"] == "500001"  # ACL_ERROR_FAILURE, every call
    assert facts["message"].startswith("opsnn: the acl C interface cannot start Python: ")
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("opsnn: the acl C interface cannot start Python")


def test_eight_threads(compiled):
    done = run(compiled(PROGRAMS / "threads.cpp", std="c++11"))
    assert values(done.stdout) == {f"thread{i}": "ok" for i in range(8)}, done.stderr
    assert done.returncode == 0


def test_a_c_program(compiled):
    done = run(compiled(PROGRAMS / "c_program.c", c=True))
    assert done.returncode == 0, done.stderr
    assert values(done.stdout) == {"status": "0", "out": "-7,-7,2,3", "fp16": "0.333252", "finalize": "0"}


@pytest.mark.parametrize("lang, std", [("c", "c99"), ("c", "c11"), ("c++", "c++11"), ("c++", "c++14"),
                                       ("c++", "c++17"), ("c++", "c++20")])
def test_headers_compile_warning_free(capi_built, lang, std):
    cc = "cc" if lang == "c" else build.compiler()[0]
    done = subprocess.run([cc, f"-std={std}", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only",
                           "-x", lang, str(PROGRAMS / "headers_check.c"), *cflags().split()],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_every_exported_function_is_declared(capi_built):
    """The library exports exactly the header's functions (and nothing of the shim's)."""
    nm = subprocess.run(["nm", "-D", "--defined-only", str(lib_dir() / "libascendcl.so")],
                        capture_output=True, text=True)
    if nm.returncode != 0:
        pytest.skip("no nm")
    exported = {line.split()[-1] for line in nm.stdout.splitlines() if " T " in line}
    headers = "".join(p.read_text() for p in (lib_dir().parent / "include").rglob("*.h"))
    declared = set(re.findall(r"\b((?:acl|opsnn)\w+)\(", headers))
    assert exported == declared


@pytest.mark.parametrize("names", [["opapi"], ["opapi_nn", "opapi_math", "ascendcl", "nnopbase"]])
def test_upstream_link_line_without_rpath(capi_built, tmp_path, names):
    """build.sh's line (-L and -l only): links with any of the names, runs with LD_LIBRARY_PATH."""
    source = programs.examples(BACKWARD)[0]
    out = tmp_path / "prog"
    inc = lib_dir().parent / "include"
    cmd = [*build.compiler(), str(source), f"-I{inc}", f"-I{inc / 'aclnnop'}", f"-I{inc / 'aclnn'}",
           f"-L{lib_dir()}", *(f"-l{n}" for n in names), "-o", str(out)]
    assert subprocess.run(cmd, capture_output=True).returncode == 0
    done = run(out, {"LD_LIBRARY_PATH": str(lib_dir())})
    assert printed(done.stdout) == expected_backward(), done.stderr
    assert "-Wl,-rpath," in libs()


def test_cli_flags():
    done = subprocess.run([sys.executable, "-m", "opsnn.capi", "--cflags", "--libs"], capture_output=True,
                          text=True)
    assert done.stdout.strip() == f"{cflags()} {libs()}"
    assert libs().endswith("-lascendcl -lnnopbase -lopapi_nn -lopapi_math")


def test_a_leak_at_finalize_is_reported_on_stderr(compiled):
    done = run(compiled(PROGRAMS / "leak.cpp"))
    assert values(done.stdout) == {"finalize": "0", "free_after_finalize": "100001"}  # ACL_ERROR_UNINITIALIZE
    assert done.stderr.startswith("opsnn: aclFinalize: acl.finalize: leaked resources:\n  device memory 0x")
