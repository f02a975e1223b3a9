"""C++ kernels across cores under `opsnn ut`: SyncAll waits for real, atomics accumulate, the
workspace calls, a mixed launch's vector cores, the type surface (kernels/test_multicore.cpp, each
launch clean and its values right); and their broken twins (kernels/test_multicore_bad.cpp), each
defect named by core, instruction and source line while the other cores run on."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from opsnn.cpudebug import ut

KERNELS = Path(__file__).resolve().parent / "kernels"
BAD = KERNELS / "test_multicore_bad.cpp"


def _run(tmp_path, source: Path):
    out = tmp_path / "run.json"
    rc = ut.main([str(source), "--soc", "ascend910B1", "--json", str(out)])
    doc = json.loads(out.read_text())
    return rc, {launch["kernel"]: launch for launch in doc["runs"][0]["launches"]}


def _line(marker: str) -> str:
    return f"{BAD.name}:{next(i for i, t in enumerate(BAD.read_text().splitlines(), 1) if marker in t)}"


def test_legal_kernels_run_clean_with_their_values(tmp_path, runtime, capfd):
    rc, launches = _run(tmp_path, KERNELS / "test_multicore.cpp")
    out = capfd.readouterr()
    assert rc == 0, out.out + out.err  # every EXPECT on the values held
    assert set(launches) == {"partial_sums", "atomic_sum", "who_am_i", "type_surface", "requeue_odd_slices",
                             "select_forms", "flag_sums", "raw_ub"}
    for name, launch in launches.items():
        assert launch["ok"] and launch["findings"] == [], name
    assert launches["who_am_i"]["block_dim"] == 2 and len(launches["who_am_i"]["core_stats"]) == 4  # MIX_MODE
    stats = launches["atomic_sum"]["core_stats"][0]["instructions"]
    assert stats["SyncAll"] == 1 and stats["SetAtomicAdd"] == 1 and stats["DataCacheCleanAndInvalid"] == 1


@pytest.fixture(scope="module")
def bad(tmp_path_factory, runtime):
    return _run(tmp_path_factory.mktemp("bad"), BAD)


def _errors(launch):
    return [(f["kind"], f["core"], f["instruction"], f["source"]) for f in launch["findings"] if f["level"] == "error"]


def test_the_program_survives_every_defect(bad):
    rc, launches = bad
    assert rc == 1
    assert not any(launch["ok"] for launch in launches.values())


def test_a_read_without_the_barrier_races(bad):
    _, launches = bad
    assert set(_errors(launches["unsynced_sums"])) == {("gm_read_write_race", 0, "DataCopy", _line("RACE_LINE"))}


def test_a_core_missing_the_barrier_is_named_not_a_hang(bad):
    _, launches = bad
    launch = launches["early_return"]
    assert _errors(launch) == [("sync_all_missing_core", 2, "SyncAll", _line("BARRIER_LINE"))]
    assert launch["aborted_cores"] == [0, 1, 3]


def test_a_core_never_setting_a_flag_is_named_not_a_hang(bad):
    _, launches = bad
    launch = launches["flag_never_set"]
    assert _errors(launch) == [("cross_core_flag_never_set", 1, "CrossCoreWaitFlag", _line("FLAG_LINE"))]
    assert launch["aborted_cores"] == [0, 2, 3]


def test_a_read_before_the_flag_wait_races(bad):
    _, launches = bad
    assert set(_errors(launches["read_before_wait"])) == {
        ("gm_read_write_race", 0, "DataCopy", _line("FLAG_RACE_LINE"))}


def test_plain_writes_to_the_same_bytes_overlap(bad):
    _, launches = bad
    assert _errors(launches["plain_sum"]) == [("gm_write_overlap", 1, "DataCopy", _line("OVERLAP_LINE"))]


def test_a_refused_instruction_names_core_instruction_and_line(bad, capfd):
    _, launches = bad
    launch = launches["refused_on_one_core"]
    assert _errors(launch) == [("core_failed", 1, "Cast", _line("REFUSED_LINE"))]
    assert "float32 -> uint8 is not supported" in launch["findings"][0]["detail"]
    assert launch["aborted_cores"] == [1]


def test_a_failed_assert_or_trap_stops_only_its_core(bad):
    _, launches = bad
    launch = launches["assert_on_one_core"]
    assert sorted(_errors(launch)) == [("assert_failed", 0, "Trap", _line("TRAP_LINE")),
                                       ("assert_failed", 3, "ASSERT", _line("ASSERT_LINE"))]
    assert launch["aborted_cores"] == [0, 3]


def test_the_other_cores_ran_on(tmp_path, runtime, capfd):
    # the EXPECTs after the refused and failed launches (cores 0/2, 1/2 wrote their values) hold
    ut.main([str(BAD), "--soc", "ascend910B1", "--", "--gtest_filter=*stops_only_its_core"])
    out = capfd.readouterr()
    text = out.out + out.err
    assert "a_refused_instruction_stops_only_its_core" in text and "Expected equality" not in text
