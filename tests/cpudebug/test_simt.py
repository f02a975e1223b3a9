"""SIMT from C++ (kernels/test_simt_kernels.cpp): asc_vf_call<F>(dim3, ...) runs F on every thread
with the built-in variables, lends the threads UB through a __ubuf__ argument (what they wrote
then copies out clean), LocalMemAllocator, Simt::UintDiv against integer division and erfinvf
against erf; a thread that waits for the others, too many threads and a SIMT launch on Atlas A2
are refused by name."""
from __future__ import annotations

import json
from pathlib import Path

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_simt_kernels.cpp"


def _run(tmp_path, capfd, *options):
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--workdir", str(tmp_path), "--json", str(out), *options])
    printed = capfd.readouterr()
    return rc, json.loads(out.read_text())["runs"][0]["launches"], printed.out + printed.err


def test_threads_see_their_indices_and_ub_and_the_launch_is_clean(tmp_path, runtime, capfd):
    rc, [launch], printed = _run(tmp_path, capfd, "--soc", "ascend950")
    assert rc == 0, printed
    assert launch["ok"] and launch["findings"] == []
    assert all(c["instructions"]["asc_vf_call(SIMT)"] == 1 for c in launch["core_stats"])


def test_a_thread_waiting_for_the_others_is_refused_by_name(tmp_path, runtime, capfd):
    rc, [launch], printed = _run(tmp_path, capfd, "--soc", "ascend950", "-DOPSNN_SIMT_MISUSE=1",
                                 "--", "--gtest_filter=*threads*")
    assert rc != 0 and not launch["ok"]
    assert "asc_syncthreads: not modelled" in printed


def test_more_threads_than_a_launch_runs_is_a_contract_violation(tmp_path, runtime, capfd):
    rc, [launch], printed = _run(tmp_path, capfd, "--soc", "ascend950", "-DOPSNN_SIMT_MISUSE=2",
                                 "--", "--gtest_filter=*threads*")
    assert rc != 0 and not launch["ok"]
    assert "1 to 2048 threads, not 4096" in printed


def test_simt_is_ascend950s_only(tmp_path, runtime, capfd):
    rc, [launch], printed = _run(tmp_path, capfd, "--soc", "ascend910B1", "--", "--gtest_filter=*threads*")
    assert rc != 0 and not launch["ok"]
    assert "run on Ascend950 only" in printed
