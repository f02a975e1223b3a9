"""Upstream's own op_kernel UTs read and built as its cmake/ut.cmake builds them: the cases the
issue named (average_pooling_grad's ';' options, group_norm_swish_grad's 910B test without the
ascend950 branch's -D__CCE_AICORE__=350, sync_batch_norm_gather_stats' ascend310p skipped,
soft_shrink_grad's arch35 UT with its own __CCE_KT_TEST__ entry, a template kernel linked only
through opsnn's entry). Needs a checkout of ops-nn: OPSNN_UPSTREAM_OPS_NN=<checkout> (skipped
otherwise)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from opsnn.cpudebug import ut
from opsnn.cpudebug.ut_cases import read_cases

ROOT = Path(os.environ.get("OPSNN_UPSTREAM_OPS_NN") or "/nonexistent")
pytestmark = pytest.mark.skipif(not (ROOT / "cmake" / "ut.cmake").is_file(),
                                reason="OPSNN_UPSTREAM_OPS_NN=<ops-nn checkout> not set")


def _ut(rel: str) -> Path:
    return ROOT / rel / "tests" / "ut" / "op_kernel"


def _cases(test: Path):
    return {c.soc: c for c in read_cases(test).cases if test in c.test_sources()}


def test_cases_read_as_ut_cmake_reads_them():
    apg = _ut("experimental/pooling/average_pooling_grad")
    assert _cases(apg / "test_average_pooling_grad.cpp")["ascend910B1"].options == [
        "-DDTYPE_GRAD_OUTPUT=float", "-DORIG_DTYPE_GRAD_OUTPUT=DT_FLOAT"]
    # the ascend950 branch's case compiles test_<opFile>*.cpp, opFile being group_norm_swish_grad_apt there
    gnsg = _cases(_ut("norm/group_norm_swish_grad") / "test_group_norm_swish_grad_apt.cpp")
    assert gnsg["ascend910B1"].options == ["-DDTYPE_X=float"]
    assert gnsg["ascend950pr_9599"].options == ["-DDTYPE_X=float", "-D__CCE_AICORE__=350"]
    assert list(_cases(_ut("norm/group_norm_swish_grad") / "test_group_norm_swish_grad.cpp")) == ["ascend910B1"]
    sbn = _cases(_ut("experimental/norm/sync_batch_norm_gather_stats") / "test_sync_batch_norm_gather_stats_apt.cpp")
    assert sorted(sbn) == ["ascend310p", "ascend910B1"]


def test_soft_shrink_grad_builds_with_its_own_cpu_entry(runtime, tmp_path):
    out = tmp_path / "r.json"
    assert ut.main([str(_ut("activation/soft_shrink_grad") / "test_soft_shrink_grad.cpp"), "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["notes"] == [] and [r["soc"] for r in doc["runs"]] == ["Ascend950"]


def test_unmodelled_soc_skipped_while_the_modelled_one_runs(runtime, tmp_path):
    out = tmp_path / "r.json"
    ut.main([str(_ut("experimental/norm/sync_batch_norm_gather_stats") / "test_sync_batch_norm_gather_stats_apt.cpp"),
             "--json", str(out)])
    doc = json.loads(out.read_text())
    assert [r["soc"] for r in doc["runs"]] == ["Ascend910B1"] and doc["skipped"][0].startswith("ascend310p: skipped")
