"""Copy and TransDataTo5HD from C++ (kernels/test_ub_moves.cpp, our own kernels): the headers'
declarations (address-list and LocalTensor-list forms, CopyRepeatParams braces, isSetMask=false)
reach the emulator, and the program's own checks of every value pass."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_ub_moves.cpp"


@pytest.fixture(scope="module")
def record(tmp_path_factory, runtime):
    out = tmp_path_factory.mktemp("moves") / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--json", str(out)])
    return rc, json.loads(out.read_text())["runs"][0]["launches"]


def _instructions(launch) -> Counter:
    c = Counter()
    for core in launch["core_stats"]:
        c.update(core["instructions"])
    return c


def test_every_case_passes_clean(record):
    rc, launches = record
    assert rc == 0
    assert [x["kernel"] for x in launches] == ["transpose_kernel", "transpose_half_kernel", "copy_kernel"]
    assert all(x["ok"] and x["findings"] == [] for x in launches)


def test_the_moves_ran_on_the_emulator(record):
    _, launches = record
    assert _instructions(launches[0])["TransDataTo5HD"] == 1
    assert _instructions(launches[1])["TransDataTo5HD"] == 1
    assert _instructions(launches[2])["Copy"] == 2
