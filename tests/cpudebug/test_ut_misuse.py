"""`opsnn ut` under misuse (issue 35, items 9-12): a test that never ends (--timeout), signals to
opsnn (its test program goes with it, no traceback), two runs of one test at once, a workdir or
report that cannot be written (found before anything runs), files that are no unit test, the
--verbose hint (one line per finding), findings outside any tile, and -I."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from opsnn.cpudebug import ut

HANG = r'''
#include <cstdio>
#include <unistd.h>
#include "gtest/gtest.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void spin(GM_ADDR x) {
    for (;;) usleep(100000);  // a kernel that never ends
}
TEST(hang, forever) {
    FILE *f = std::fopen("pid.txt", "w");
    std::fprintf(f, "%d\n", (int)getpid());
    std::fclose(f);
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(32);
    ICPU_RUN_KF(spin, 1, x);
}
'''

QUICK = r'''
#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "extra_define.h"
extern "C" __global__ __aicore__ void fill(GM_ADDR y) {
    AscendC::GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float *)y, 8);
    yg.SetValue(0, EXTRA_VALUE);
}
TEST(quick, fills) {
    float *y = (float *)AscendC::GmAlloc(32);
    ICPU_RUN_KF(fill, 1, (uint8_t *)y);
    EXPECT_EQ(y[0], EXTRA_VALUE);
    AscendC::GmFree(y);
}
'''


def _quick(tmp_path: Path, name: str = "test_quick.cpp") -> tuple[Path, Path]:
    inc = tmp_path / "inc"
    inc.mkdir(exist_ok=True)
    (inc / "extra_define.h").write_text("#define EXTRA_VALUE 7.0f\n")
    test = tmp_path / name
    test.write_text(QUICK)
    return test, inc


def _opsnn_ut(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "opsnn", "ut", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state == "Z"  # a zombie has ended; only its parent's reaping is left


def test_timeout_stops_a_test_that_never_ends(runtime, tmp_path, capfd):
    test = tmp_path / "test_hang.cpp"
    test.write_text(HANG)
    work = tmp_path / "w"
    started = time.monotonic()
    assert ut.main([str(test), "--timeout", "3", "--workdir", str(work)]) == ut.TIMEOUT_STATUS
    assert time.monotonic() - started < 120
    assert "ran past --timeout 3 s on Ascend910B2 and was stopped" in capfd.readouterr().err
    assert _gone(int((work / "pid.txt").read_text()))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_takes_the_test_program_down_with_opsnn(runtime, tmp_path, signum):
    test = tmp_path / "test_hang.cpp"
    test.write_text(HANG)
    work = tmp_path / "w"
    proc = _opsnn_ut(str(test), "--workdir", str(work))
    pid_file = work / "pid.txt"
    deadline = time.monotonic() + 240
    while not (pid_file.is_file() and pid_file.read_text().strip()):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    child = int(pid_file.read_text())
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert f"stopped by {signal.Signals(signum).name}" in err
    for _ in range(50):
        if _gone(child):
            break
        time.sleep(0.1)
    assert _gone(child)


def test_a_signal_stops_a_folder_run_and_its_running_tests(runtime, tmp_path):
    for k in range(3):
        d = tmp_path / f"op{k}" / "tests" / "ut" / "op_kernel"
        d.mkdir(parents=True)
        (d / "test_hang.cpp").write_text(HANG.replace('"pid.txt"', f'"{tmp_path}/pid{k}.txt"'))
    proc = _opsnn_ut(str(tmp_path), "--jobs", "2")
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob("pid*.txt")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    time.sleep(0.5)  # the file is written whole by now
    children = [int(p.read_text()) for p in tmp_path.glob("pid*.txt")]
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM and "Traceback" not in err
    assert len(list(tmp_path.glob("pid*.txt"))) <= 2  # the third test never started
    for _ in range(50):
        if all(_gone(c) for c in children):
            break
        time.sleep(0.1)
    assert all(_gone(c) for c in children)


def test_two_runs_of_one_test_at_once_both_pass(runtime, tmp_path):
    test, inc = _quick(tmp_path, "test_twice.cpp")  # a new file: both runs build it at the same time
    for _ in range(2):
        procs = [_opsnn_ut(str(test), "-I", str(inc)) for _ in range(2)]
        outs = [p.communicate(timeout=600) for p in procs]
        assert [p.returncode for p in procs] == [0, 0], [e for _, e in outs]
        assert all("Text file busy" not in e and "Traceback" not in e for _, e in outs)


def _read_only_dir(tmp_path: Path) -> Path:
    if os.geteuid() == 0:  # permissions do not stop root; /proc's folders stop everyone
        return Path("/proc/1")
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    return d


def test_workdir_and_report_problems_are_found_before_anything_runs(runtime, tmp_path, capsys):
    test, inc = _quick(tmp_path)
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    cases = [(["--workdir", str(_read_only_dir(tmp_path))], "cannot write in --workdir"),
             (["--workdir", str(blocker / "sub")], "cannot create --workdir"),
             (["--json", str(tmp_path / "no" / "such" / "dir" / "r.json")], "cannot write the --json report"),
             (["--json", str(tmp_path)], "cannot write the --json report")]
    for extra, message in cases:
        assert ut.main([str(test), "-I", str(inc), *extra]) == 2, extra
        err = capsys.readouterr().err
        assert message in err and "built in" not in err and "running on" not in err, err
        assert "Traceback" not in err


def test_files_that_are_no_unit_test(tmp_path, capsys):
    (tmp_path / "test_x.py").write_text("print(1)\n")
    (tmp_path / "test_empty.cpp").write_text("  \n")
    (tmp_path / "test_none.cpp").write_text("int f() { return 1; }\n")
    for name, message in (("test_x.py", "is not a C++ source"), ("test_empty.cpp", "is empty"),
                          ("test_none.cpp", "defines no test: no TEST/TEST_F/TEST_P (gtest) and no main()"),
                          ("missing.cpp", "no such test file")):
        assert ut.main([str(tmp_path / name)]) == 2
        assert message in capsys.readouterr().err


def test_include_dirs_from_the_command_line(runtime, tmp_path, capsys):
    test, inc = _quick(tmp_path)
    assert ut.main([str(test)]) == 2  # extra_define.h is nowhere without -I
    assert "extra_define.h: No such file" in capsys.readouterr().err
    assert ut.main([str(test), "-I", str(inc)]) == 0
    assert ut.main([str(test), "-I", str(tmp_path / "none")]) == 2
    assert "-I " in capsys.readouterr().err


UB_ON_FOUR_CORES = r'''
#include "gtest/gtest.h"
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void too_big(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> big;
    pipe.InitBuffer(big, 300 * 1024);  // past every core's UB: one finding a core
}
TEST(ub, four_cores) {
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(32);
    ICPU_RUN_KF(too_big, 4, x);
    AscendC::GmFree(x);
}
'''


def test_verbose_shows_one_line_per_finding(runtime, tmp_path, capfd):
    test = tmp_path / "test_ub.cpp"
    test.write_text(UB_ON_FOUR_CORES)
    ut.main([str(test), "--soc", "ascend910B1"])
    grouped = [ln for ln in capfd.readouterr().err.splitlines() if ln.startswith("  ")]
    assert any("4 findings on core(s) 0-3" in ln for ln in grouped)
    assert grouped[-1].endswith("one line per finding with --verbose")
    ut.main([str(test), "--soc", "ascend910B1", "--verbose"])
    each = [ln for ln in capfd.readouterr().err.splitlines() if ln.startswith("  [error]")]
    assert [ln.split(": core ")[1][0] for ln in each] == ["0", "1", "2", "3"]
    # a C++ kernel declares no tiles: its findings name the core alone, not "tile -" / "tile -1"
    assert "first: core 0 +196608" in " ".join(grouped) and not any(" tile " in ln for ln in grouped + each)
