"""A C++ kernel's defects under `opsnn ut`: each launch's findings name the core, the instruction
and the kernel's source line; the test program is never brought down (each defective case fails
its gtest case, the others run); a clean launch is clean."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_bad_kernels.cpp"


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(SOURCE.read_text().splitlines(), 1) if marker in text)


@pytest.fixture(scope="module")
def record(tmp_path_factory, runtime):
    tmp = tmp_path_factory.mktemp("bad")
    out = tmp / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--json", str(out)])
    doc = json.loads(out.read_text())
    return rc, {launch["kernel"] + str(i): launch for i, launch in enumerate(doc["runs"][0]["launches"])}


def test_the_program_survives_every_defect_and_fails(record):
    rc, launches = record
    assert rc == 1  # the gtest cases of the defects failed; nothing crashed
    assert [k.rstrip("0123456789") for k in launches] == ["copy_kernel", "copy_kernel", "ub_kernel", "queue_kernel",
                                                           "assert_kernel"]
    assert launches["copy_kernel0"]["ok"] and launches["copy_kernel0"]["findings"] == []


def _errors(launch):
    return [f for f in launch["findings"] if f["level"] == "error"]


def test_out_of_bounds_names_core_instruction_and_line(record):
    _, launches = record
    found = {(f["kind"], f["core"], f["instruction"], f["source"]) for f in _errors(launches["copy_kernel1"])}
    line = f"test_bad_kernels.cpp:{_line('OUT_OF_BOUNDS_LINE')}"
    # core 0 spills into core 1's range; core 1 past the tensor's end
    assert ("gm_write_past_tensor", 1, "DataCopy", line) in found
    assert ("gm_write_overlap", 0, "DataCopy", None) in found or any(k == "gm_write_overlap" for k, *_ in found)


def test_ub_exhaustion(record):
    _, launches = record
    [f] = _errors(launches["ub_kernel2"])
    assert (f["kind"], f["instruction"], f["source"]) == ("ub_exhausted", "InitBuffer",
                                                           f"test_bad_kernels.cpp:{_line('UB_LINE')}")


def test_queue_misuse_stops_only_that_core(record):
    _, launches = record
    launch = launches["queue_kernel3"]
    [f] = _errors(launch)
    assert (f["kind"], f["core"], f["instruction"], f["source"]) == (
        "queue_misuse", 1, "DeQue", f"test_bad_kernels.cpp:{_line('QUEUE_LINE')}")
    assert launch["aborted_cores"] == [1]


def test_assert_fails_its_core_by_its_text_and_line(record):
    _, launches = record
    launch = launches["assert_kernel4"]
    assert not launch["ok"] and launch["aborted_cores"] == [0, 1]  # every core of the launch asserted
    for core, f in enumerate(_errors(launch)):
        assert (f["kind"], f["core"], f["instruction"], f["source"]) == (
            "assert_failed", core, "ASSERT", f"test_bad_kernels.cpp:{_line('ASSERT(GetBlockNum() == 1')}")
        assert "ASSERT(GetBlockNum() == 1 && \"one core only\") failed" in f["detail"]
