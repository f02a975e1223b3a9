"""opsnn.engine.machine: the machine's facts from a fake sysfs, the thread rule, OPSNN_TUNING, the
precedence override > calibration file > OS > default, the calibration file's checks, and a
calibration run on tiny sizes (its structure only: timings are never asserted)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest

from opsnn import cli
from opsnn.engine import machine
from opsnn.engine.machine import Cache, Facts

MiB = 1 << 20


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path):
    """No test reads or writes the user's cache, nor keeps a Tuning chosen under its environment."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for name in (machine.TUNING_VARIABLE, machine.THREADS_VARIABLE, "OMP_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    machine.tuning.cache_clear()
    yield
    machine.tuning.cache_clear()


def fake_sysfs(root, cpu: int, caches) -> str:
    for i, (level, kind, size, shared) in enumerate(caches):
        d = root / f"cpu{cpu}" / "cache" / f"index{i}"
        d.mkdir(parents=True)
        for name, value in (("level", level), ("type", kind), ("size", size), ("shared_cpu_list", shared)):
            (d / name).write_text(f"{value}\n")
    return str(root)


EPYC = [(1, "Data", "32K", "2"), (1, "Instruction", "32K", "2"), (2, "Unified", "1024K", "2"),
        (3, "Unified", "32768K", "0-3,6")]


def cpuinfo(tmp_path, model="Fake CPU 9000", flags="fpu sse4_2 avx2 f16c avx512f amx_tile nonsense") -> str:
    path = tmp_path / "cpuinfo"
    path.write_text(f"processor\t: 0\nmodel name\t: {model}\nflags\t\t: {flags}\n\n"
                    "processor\t: 1\nmodel name\t: Another\nflags\t\t: sse2\n")
    return str(path)


def facts(caches=(), usable=(0, 1), model="Fake", source="sysfs") -> Facts:
    return Facts(model, (), 64, len(usable), tuple(usable), tuple(caches), source, ())


def caches(l2=MiB, l2_shared=(0,), l3=32 * MiB, l3_shared=(0, 1)) -> tuple[Cache, ...]:
    return (Cache(1, "Data", 32 << 10, l2_shared), Cache(2, "Unified", l2, l2_shared),
            Cache(3, "Unified", l3, l3_shared))


# --- facts -------------------------------------------------------------------------------------

def test_sysfs_is_read_for_the_first_usable_cpu_and_disagreements_with_sysconf_are_recorded(tmp_path):
    root = fake_sysfs(tmp_path / "sys", 2, EPYC)
    fake_sysfs(tmp_path / "sys", 0, [(3, "Unified", "1K", "0")])  # not a usable CPU: never read
    sysconf = {"SC_LEVEL1_DCACHE_SIZE": 32768, "SC_LEVEL2_CACHE_SIZE": MiB, "SC_LEVEL3_CACHE_SIZE": 320 * MiB}.get
    f = machine.read_facts(root, cpuinfo(tmp_path), cpus=(6, 2, 3), sysconf=sysconf)
    assert f.model == "Fake CPU 9000" and f.isa == ("sse4_2", "avx2", "f16c", "avx512f", "amx_tile")
    assert (f.usable_cores, f.cpus, f.cache_source) == (3, (2, 3, 6), "sysfs")
    assert f.caches == (Cache(1, "Data", 32768, (2,)), Cache(1, "Instruction", 32768, (2,)),
                        Cache(2, "Unified", MiB, (2,)), Cache(3, "Unified", 32 * MiB, (0, 1, 2, 3, 6)))
    assert f.disagreements == ("L3: sysfs 32 MiB, sysconf 320 MiB",)
    assert f.sharing(f.cache("L3")) == 3 and f.sharing(f.cache("L2")) == 1  # only the usable CPUs count
    assert f.last_level() == f.caches[-1] and f.last_level_usable() == 32 * MiB


def test_without_sysfs_caches_sysconf_is_the_source_and_without_either_none(tmp_path):
    sysconf = {"SC_LEVEL2_CACHE_SIZE": 2 * MiB, "SC_LEVEL3_CACHE_SIZE": 0, "SC_LEVEL1_ICACHE_SIZE": -1}.get
    f = machine.read_facts(str(tmp_path / "none"), str(tmp_path / "no-cpuinfo"), cpus=(0, 1), sysconf=sysconf)
    assert f.cache_source == "sysconf" and f.caches == (Cache(2, "Unified", 2 * MiB, ()),)
    assert f.model  # platform's fallback, never empty
    f = machine.read_facts(str(tmp_path / "none"), str(tmp_path / "no-cpuinfo"), cpus=(0,), sysconf=lambda n: None)
    assert (f.cache_source, f.caches, f.last_level_usable()) == ("none", (), None)
    assert machine.choose(f, {}).source == {"threads": "os", "parallel_min": "default", "stream_min": "default",
                                            "numpy_tile": "default", "stage_tile": "default"}


def test_an_unreadable_sysfs_entry_is_left_out(tmp_path):
    root = fake_sysfs(tmp_path / "sys", 0, [(1, "Data", "32K", "0"), (2, "Unified", "lots", "0"),
                                            (3, "Unified", "16M", "0-1")])
    got = machine.read_sysfs_caches(0, root)
    assert [c.name for c in got] == ["L1d", "L3"] and got[1].size == 16 * MiB


def test_nothing_is_read_at_import_and_this_machines_facts_are_read_on_first_use():
    code = ("import opsnn; from opsnn.engine import machine as m\n"
            "assert m.facts.cache_info().currsize == 0 and m.tuning.cache_info().currsize == 0\n"
            "f = m.facts(); m.tuning()\n"
            "assert f.usable_cores == len(m.usable_cpus()) >= 1 and f.cache_source in ('sysfs', 'sysconf', 'none')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("text", "size"), [("4096", 4096), ("32768K", 32 * MiB), ("64M", 64 * MiB), ("1g", 1 << 30),
                                            ("2MiB", 2 * MiB), ("16KB", 16384), (" 7 ", 7), ("0", 0)])
def test_sizes(text, size):
    assert machine.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "M", "-1", "1.5M", "12X", "0x10", "1 M B"])
def test_bad_sizes(text):
    with pytest.raises(ValueError, match="is not a size"):
        machine.parse_size(text)


def test_cpu_lists():
    assert machine.parse_cpu_list("0-3,8,10-11\n") == (0, 1, 2, 3, 8, 10, 11)
    assert machine.parse_cpu_list("5") == (5,) and machine.parse_cpu_list("") == ()


# --- the thread rule -----------------------------------------------------------------------------

@pytest.mark.parametrize(("env", "expected"), [
    ({}, (7, "os")), ({"OPSNN_NUM_THREADS": "3"}, (3, "env")), ({"OMP_NUM_THREADS": "1,4"}, (1, "env")),
    ({"OPSNN_NUM_THREADS": "2", "OMP_NUM_THREADS": "1"}, (2, "env")), ({"OMP_NUM_THREADS": "lots"}, (7, "os")),
    ({"OMP_NUM_THREADS": "0"}, (7, "os")), ({"OPSNN_NUM_THREADS": "5000"}, (1024, "env")),
    ({"OPSNN_NUM_THREADS": " ", "OMP_NUM_THREADS": "4"}, (4, "env"))])
def test_thread_rule(env, expected):
    assert machine.thread_rule(env, 7) == expected


@pytest.mark.parametrize("value", ["many", "0", "-2"])
def test_a_bad_opsnn_num_threads_is_an_error_naming_it(value):
    with pytest.raises(ValueError, match=f"^OPSNN_NUM_THREADS='{value}': expected a positive integer$"):
        machine.thread_rule({"OPSNN_NUM_THREADS": value, "OMP_NUM_THREADS": "2"}, 7)


def test_threads_allowed_follows_the_environment(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3,2")
    assert machine.threads_allowed() == 3 and machine.tuning().source["threads"] == "env"
    machine.tuning.cache_clear()
    monkeypatch.setenv(machine.TUNING_VARIABLE, "threads=1")
    assert machine.threads_allowed() == 1 and machine.tuning().source["threads"] == "override"


# --- OPSNN_TUNING --------------------------------------------------------------------------------

def test_override_parsing():
    assert machine.parse_override("parallel_min=32768,stream_min=64M,threads=1") == \
        {"parallel_min": 32768, "stream_min": 64 * MiB, "threads": 1}
    assert machine.parse_override(" numpy_tile = 8K , stage_tile=65536,, ") == {"numpy_tile": 8192, "stage_tile": 65536}
    assert machine.parse_override("stream_min=0") == {"stream_min": 0}  # always stream
    assert machine.parse_override("") == {}


@pytest.mark.parametrize(("text", "message"), [
    ("paralel_min=1", "unknown key 'paralel_min'"), ("stream_min=64Q", "stream_min: '64Q' is not a size"),
    ("threads", "threads has no value"), ("threads=0", "threads=0 is out of range"),
    ("threads=2000", "threads=2000 is out of range"), ("parallel_min=0", "parallel_min=0 is out of range"),
    ("stage_tile=1,stage_tile=2", "stage_tile given twice"), ("numpy_tile=-4", "numpy_tile: '-4' is not a size")])
def test_bad_override_is_an_error_naming_the_variable_and_the_key(text, message):
    with pytest.raises(ValueError) as e:
        machine.parse_override(text)
    assert str(e.value).startswith(f"OPSNN_TUNING={text!r}: ") and message in str(e.value)


def test_a_bad_override_reaches_the_first_call(monkeypatch):
    monkeypatch.setenv(machine.TUNING_VARIABLE, "stream_min=lots")
    with pytest.raises(ValueError, match="OPSNN_TUNING"):
        machine.tuning()


# --- what the OS implies, and the precedence -------------------------------------------------------

def test_os_derived_crossovers_follow_the_caches():
    # the machine today's constants were measured on: L2 1 MiB per core, L3 32 MiB for both cores
    assert machine.os_derived(facts(caches())) == {"stream_min": 36 * MiB, "numpy_tile": 16384, "stage_tile": 65536}
    big = machine.os_derived(facts(caches(l2=2 * MiB, l3=480 * MiB)))
    assert big == {"stream_min": 540 * MiB, "numpy_tile": 32768, "stage_tile": 131072}
    # an L2 shared by two hardware threads gives each half; CPUs over two L3s reach both
    shared = facts(caches(l2_shared=(0, 1), l3_shared=tuple(range(8))), usable=tuple(range(16)))
    assert machine.os_derived(shared) == {"stream_min": 72 * MiB, "numpy_tile": 8192, "stage_tile": 32768}
    assert machine.os_derived(facts()) == {}


def test_precedence_override_then_calibration_then_os_then_default():
    f = facts(caches())
    calibrated = {"parallel_min": 4096, "stream_min": 48 * MiB}
    env = {machine.TUNING_VARIABLE: "stream_min=100M,stage_tile=1024", "OMP_NUM_THREADS": "2"}
    t = machine.choose(f, env, calibrated)
    assert t == machine.Tuning(2, 4096, 100 * MiB, 16384, 1024, {
        "threads": "env", "parallel_min": "calibrated", "stream_min": "override", "numpy_tile": "os",
        "stage_tile": "override"})
    t = machine.choose(f, {}, calibrated)
    assert (t.stream_min, t.source["stream_min"], t.parallel_min) == (48 * MiB, "calibrated", 4096)
    t = machine.choose(f, {}, None)
    assert (t.stream_min, t.source["stream_min"], t.parallel_min, t.source["parallel_min"]) == \
        (36 * MiB, "os", machine.DEFAULT_PARALLEL_MIN, "default")
    t = machine.choose(facts(), {}, None)
    assert (t.stream_min, t.numpy_tile, t.stage_tile, t.threads) == \
        (machine.DEFAULT_STREAM_MIN, machine.DEFAULT_NUMPY_TILE, machine.DEFAULT_STAGE_TILE, 2)


# --- the calibration file --------------------------------------------------------------------------

def record(chosen, fingerprint=None) -> dict:
    return {"format": machine.FORMAT, "fingerprint": fingerprint or machine.fingerprint(machine.facts()),
            "chosen": chosen}


def test_the_calibration_file_is_read_by_tuning_and_reset_removes_it(tmp_path):
    path = machine.calibration_path()
    assert path.startswith(str(tmp_path / "cache" / "opsnn" / "tuning-")) and path.endswith(".json")
    assert machine.reset() is None
    assert machine.write_calibration(record({"parallel_min": 4096, "stream_min": 3 * MiB})) == path
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)]  # no temporary left
    t = machine.tuning()
    assert (t.parallel_min, t.stream_min) == (4096, 3 * MiB)
    assert t.source["parallel_min"] == t.source["stream_min"] == "calibrated"
    assert machine.reset() == path and not os.path.exists(path)
    assert machine.tuning().source["stream_min"] in ("os", "default")


def test_the_file_name_follows_the_fingerprint():
    f = facts(caches())
    other = f._replace(usable_cores=1, cpus=(0,))
    assert machine.calibration_path(f) != machine.calibration_path(other)
    assert machine.calibration_path(f) == machine.calibration_path(facts(caches()))


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    assert machine.cache_dir() == os.path.join(os.path.expanduser("~"), ".cache", "opsnn")


def test_a_file_of_another_machine_is_ignored_with_a_warning(tmp_path):
    path = str(tmp_path / "t.json")
    mine = machine.fingerprint(facts(caches()))
    machine.write_calibration(record({"stream_min": MiB}, {**mine, "cpu": "Another CPU"}), path)
    with pytest.warns(RuntimeWarning, match="made for another machine"):
        assert machine.read_calibration(path, mine) is None
    machine.write_calibration(record({"stream_min": MiB}, mine), path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert machine.read_calibration(path, mine) == {"stream_min": MiB}
        assert machine.read_calibration(str(tmp_path / "absent.json"), mine) is None


@pytest.mark.parametrize("text", ["{not json", "[]", '{"format": 99, "chosen": {}}', '{"format": 1}',
                                  '{"format": 1, "chosen": {"stream_min": "big"}}',
                                  '{"format": 1, "chosen": {"parallel_min": 0}}',
                                  '{"format": 1, "chosen": {"stream_min": true}}',
                                  '{"format": 1, "chosen": {"threads": 4}}', "\udcff"])
def test_a_corrupt_file_is_ignored_with_a_warning(tmp_path, text):
    f = machine.facts()
    path = machine.calibration_path(f)
    os.makedirs(os.path.dirname(path))
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.write(text)
    with pytest.warns(RuntimeWarning, match="ignoring"):
        t = machine.tuning()
    assert "calibrated" not in t.source.values()


# --- calibration ---------------------------------------------------------------------------------

def test_crossover_is_the_step_that_fits_the_measurements_best():
    sizes = [1, 2, 3, 4, 5]
    base = [10, 10, 10, 10, 10]
    assert machine.crossover(sizes, base, [5, 5, 5, 5, 5]) == 0
    assert machine.crossover(sizes, base, [20, 20, 5, 5, 5]) == 2
    assert machine.crossover(sizes, base, [5, 20, 9, 9, 9]) == 2  # a win before a clear loss is not taken
    assert machine.crossover(sizes, base, [20, 20, 5, 11, 5]) == 2  # one noisy size does not move the step
    assert machine.crossover(sizes, base, [20, 20, 9, 30, 30]) is None  # losing the largest by far: never
    assert machine.crossover(sizes, base, [20, 20, 20, 9.6, 9.6]) is None  # 96 % is no win (WIN = 0.95)
    assert machine.crossover(sizes, base, [20, 20, 20, 20, 9]) == 4
    assert machine.crossover([], [], []) is None


def test_calibration_on_tiny_sizes_writes_a_record_tuning_reads(monkeypatch):
    pytest.importorskip("opsnn.engine._select")
    monkeypatch.setattr(machine, "facts", lambda: machine.read_facts()._replace(usable_cores=2, cpus=(0, 1)))
    got = machine.calibrate(0.01, stream_sizes=(4096, 8192), parallel_sizes=(4096, 8192))
    assert got["path"] == machine.calibration_path() and os.path.exists(got["path"])
    assert set(got["chosen"]) == {"stream_min", "parallel_min"} and got["threads"] == 2
    for part, sides in (("stream", ("plain_s", "stream_s")), ("parallel", ("one_thread_s", "all_threads_s"))):
        assert got[part]["elements"] == [4096, 8192] and got[part]["note"]
        assert all(len(got[part][s]) == 2 and all(0 < v < 1 for v in got[part][s]) for s in sides)
    assert got["chosen"]["stream_min"] in (4096 * 12, 8192 * 12, 2 * 8192 * 12)
    assert got["chosen"]["parallel_min"] in (4096 * 4 // 2, 8192 * 4 // 2, 2 * 8192 * 4 // 2)
    with open(got["path"], encoding="utf-8") as fh:
        assert json.load(fh)["chosen"] == got["chosen"]
    t = machine.tuning()
    assert (t.stream_min, t.parallel_min) == (got["chosen"]["stream_min"], got["chosen"]["parallel_min"])
    assert t.source["stream_min"] == t.source["parallel_min"] == "calibrated"


def test_calibration_on_one_core_measures_no_second_thread(monkeypatch, tmp_path):
    pytest.importorskip("opsnn.engine._select")
    monkeypatch.setattr(machine, "facts", lambda: machine.read_facts()._replace(usable_cores=1, cpus=(0,)))
    got = machine.calibrate(0.01, stream_sizes=(4096,), parallel_sizes=(4096,), write=False)
    assert set(got["chosen"]) == {"stream_min"} and "one usable core" in got["parallel"]["note"]
    assert "path" not in got and not os.path.exists(tmp_path / "cache")


def test_calibration_without_the_c_lane_says_so(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "opsnn.engine._select", None)  # import raises, as when not built
    with pytest.raises(machine.CalibrationError, match="needs the C lane"):
        machine.calibrate(0.01, stream_sizes=(4096,), parallel_sizes=(4096,))
    assert not os.path.exists(tmp_path / "cache")


# --- the CLI -----------------------------------------------------------------------------------

def test_tune_reset_and_bad_seconds(capsys):
    assert cli.main(["tune", "--reset"]) == 0
    assert capsys.readouterr().out.startswith("no calibration to remove (")
    machine.write_calibration(record({"stream_min": MiB}))
    assert cli.main(["tune", "--reset", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["removed"] == machine.calibration_path() and got["tuning"]["source"]["stream_min"] != "calibrated"
    assert cli.main(["tune", "--seconds", "0"]) == 2
    assert capsys.readouterr().err == "opsnn tune: error: --seconds 0: expected more than 0 and at most 3600\n"


def test_tune_prints_what_it_measured_and_chose(monkeypatch, capsys):
    pytest.importorskip("opsnn.engine._select")
    calibrate = machine.calibrate
    monkeypatch.setattr(machine, "calibrate", lambda seconds: calibrate(
        seconds, stream_sizes=(4096, 8192), parallel_sizes=(4096, 8192)))
    assert cli.main(["tune", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("before: threads ") and out[1].startswith("measuring the C lane on ")
    assert any(s.startswith("streaming stores (") for s in out)
    assert any(s.startswith("chosen: stream_min ") and machine.calibration_path() in s for s in out)
    assert out[-2].startswith("in use: threads ") and "(calibrated)" in out[-2] and "--reset" in out[-1]
    assert cli.main(["tune", "--seconds", "0.01", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["tuning"]["source"]["stream_min"] == "calibrated" and got["stream"]["elements"] == [4096, 8192]
    assert got["previous"]["source"]["stream_min"] == "calibrated"  # the first run's, seen by the second


def test_tune_without_the_c_lane_is_one_line_and_exit_1(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "opsnn.engine._select", None)
    assert cli.main(["tune", "--seconds", "0.01", "--json"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("opsnn tune: error: calibration needs the C lane")


# --- issue 27 item 15: only what repeated passes agree on is written -------------------------------

def test_passes_agree_within_a_factor_2_and_keep_the_median():
    assert machine.agreed([3, 4, 5], 8) == (True, 4)
    assert machine.agreed([5, 3, 3], 8) == (True, 3)
    assert machine.agreed([None, None, 7], 8) == (True, None)  # none: one past the largest size
    assert machine.agreed([None, None, None], 8) == (True, None)
    # the three runs: parallel_min 2 MiB, 128 KiB, 128 KiB; stream_min 3, 12, 3 MiB
    assert machine.agreed([16, 8, 8], 17) == (False, None)
    assert machine.agreed([2, 6, 2], 15) == (False, None)
    assert machine.agreed([0, None], 2) == (True, None)  # two passes: the upper middle


def _scripted(monkeypatch, crossings):
    """_best_times as if the candidate lane won from crossings[k] on in pass k (None: never)."""
    calls = iter(crossings)

    def best_times(lanes, arrays_for, sizes, *a):
        at = next(calls)
        base = [1.0] * len(sizes)
        return [base, [0.5 if at is not None and s >= at else 1.0 for s in range(len(sizes))]]

    monkeypatch.setattr(machine, "_best_times", best_times)


def test_a_crossover_the_passes_disagree_on_is_not_written(monkeypatch):
    pytest.importorskip("opsnn.engine._select")
    monkeypatch.setattr(machine, "facts", lambda: machine.read_facts()._replace(usable_cores=2, cpus=(0, 1)))
    sizes = tuple(4096 * 2 ** k for k in range(8))
    _scripted(monkeypatch, [1, 5, 1,   2, 2, 3])  # streaming disagrees (1, 5, 1); threads agree (2, 2, 3)
    got = machine.calibrate(0.01, stream_sizes=sizes, parallel_sizes=sizes)
    assert got["chosen"] == {"parallel_min": sizes[2] * 4 // 2}
    assert got["stream"]["agreed"] is False and "disagree" in got["stream"]["note"]
    assert [p["crossover_elements"] for p in got["stream"]["passes"]] == [sizes[1], sizes[5], sizes[1]]
    t = machine.tuning()
    assert t.source["stream_min"] != "calibrated" and t.source["parallel_min"] == "calibrated"


def test_tune_prints_the_disagreement_and_the_previous_settings(monkeypatch, capsys):
    pytest.importorskip("opsnn.engine._select")
    monkeypatch.setattr(machine, "facts", lambda: machine.read_facts()._replace(usable_cores=2, cpus=(0, 1)))
    machine.write_calibration(record({"stream_min": MiB, "parallel_min": 8 << 10}))
    machine.tuning.cache_clear()
    sizes = tuple(4096 * 2 ** k for k in range(8))
    _scripted(monkeypatch, [1, 5, 1, 2, 6, 2])
    calibrate = machine.calibrate
    monkeypatch.setattr(machine, "calibrate", lambda seconds: calibrate(
        seconds, stream_sizes=sizes, parallel_sizes=sizes))
    assert cli.main(["tune", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "before: threads" in out and "stream_min 1 MiB moved (calibrated)" in out.splitlines()[0]
    assert out.count("(disagree: not written)") == 2 and "chosen: nothing the passes agreed on" in out
    assert "(calibrated)" not in out.splitlines()[-2]
