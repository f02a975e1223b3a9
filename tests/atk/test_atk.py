"""`opsnn atk`: case files in the ATK format (written here in our own words, plus the spec's three
LeakyReluBackward samples verbatim) run against every backend and semantics; input generation for
every range_values form; exit codes 0 / 1 / 2; the reports; --jobs, --cases, --seed, skips."""
import copy
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import opsnn
from opsnn import atk, cli
from opsnn.dtypes import bfloat16

HERE = Path(__file__).resolve().parent
TB = HERE / "threshold_backward_cases.json"
TH = HERE / "threshold_cases.json"
HT = HERE / "hardtanh_backward_cases.json"
LRB = HERE / "leaky_relu_backward_spec_samples.json"

RUNS = [("torch", "fast"), ("torch", "reference"), ("ascend910b", "fast"), ("ascend910b", "emulator"),
        ("ascend950", "fast"), ("ascend950", "reference"), ("ascend950", "emulator")]


def _run(capsys, *argv):
    rc = cli.main(["atk", *map(str, argv)])
    out, err = capsys.readouterr()
    return rc, out, err


def _declared(aclnn_name: str) -> bool:
    try:
        atk.find_api(aclnn_name)
    except atk.BadFile:
        return False
    return True


def _needs(function: str, aclnn_name: str):
    if not hasattr(opsnn, function) or not _declared(aclnn_name):
        pytest.skip(f"opsnn.{function} / {aclnn_name} is not registered yet (another engineer's operator)")


def _write(tmp_path, cases, name="cases.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(cases))
    return path


def _cases(path: Path) -> list:
    return json.loads(path.read_text())


# --- our own files, every backend and semantics ------------------------------------------------

@pytest.mark.parametrize("path", [TB, TH], ids=["ThresholdBackward", "Threshold"])
@pytest.mark.parametrize("semantics,backend", RUNS, ids=[f"{s}-{b}" for s, b in RUNS])
def test_our_case_files_pass(capsys, path, semantics, backend):
    n = len(_cases(path))
    rc, out, err = _run(capsys, path, "--semantics", semantics, "--backend", backend)
    assert rc == 0, out
    assert out.splitlines()[-1] == f"{n} passed, 0 failed, 0 skipped"
    assert err == ""  # stderr is not a terminal here: no progress bar


def test_the_files_cover_every_form():
    forms, dtypes, shapes = set(), set(), set()
    for path in (TB, TH):
        for case in _cases(path):
            for inp in case["inputs"]:
                rv = inp["range_values"]
                dtypes.add(inp["dtype"])
                if inp["shape"] is not None:
                    shapes.add("0-d" if inp["shape"] == [] else "empty" if 0 in inp["shape"] else "n-d")
                if isinstance(rv, list):
                    forms.add("range" if len(rv) == 2 else f"[{rv[0]}]")
                else:
                    forms.add(f"bare {type(rv).__name__}" + (f" {rv}" if isinstance(rv, str) else ""))
    assert {"range", "[nan]", "[inf]", "[-inf]", "bare int", "bare float", "bare str nan", "bare str inf",
            "bare str -inf"} <= forms
    assert {"fp32", "fp16", "bf16", "fp64", "int32", "int8", "uint8", "int16", "int64"} <= dtypes
    assert shapes == {"0-d", "empty", "n-d"}


def test_torch_results_and_refusals_are_compared(capsys, tmp_path):
    report = tmp_path / "r.json"
    rc, out, _ = _run(capsys, TH, "--json", report)
    assert rc == 0
    doc = json.loads(report.read_text())
    by_id = {c["id"]: c for c in doc["cases"]}
    assert by_id[0]["checks"]["torch"]["status"] == "equal"
    # int8 tensor, int32 scalar 1000: opsnn, its reference and torch all refuse the threshold
    assert by_id[16]["refused"] and by_id[16]["status"] == "passed"
    assert by_id[16]["checks"]["torch"]["status"] == "refused"
    assert "PASS case 16" in out and "both refused" in out  # named even without --verbose
    header = next(line for line in out.splitlines() if line.startswith("dtype"))
    assert header.split()[-1] == "refused"


def test_hardtanh_user_file(capsys):
    _needs("hardtanh_backward", "aclnnHardtanhBackward")
    for argv in ([], ["--soc", "Ascend910B3"], ["--soc", "Ascend950", "--backend", "emulator"]):
        rc, out, _ = _run(capsys, HT, *argv)
        assert rc == 0, out
        assert out.splitlines()[-1] == "8 passed, 0 failed, 0 skipped"


@pytest.mark.parametrize("semantics,backend", RUNS, ids=[f"{s}-{b}" for s, b in RUNS])
def test_the_spec_leaky_relu_backward_samples_verbatim(capsys, tmp_path, semantics, backend):
    _needs("leaky_relu_backward", "aclnnLeakyReluBackward")
    report = tmp_path / "r.json"
    rc, out, _ = _run(capsys, LRB, "--semantics", semantics, "--backend", backend, "--json", report)
    assert rc == 0, out
    assert out.splitlines()[-1] == "3 passed, 0 failed, 0 skipped"
    doc = json.loads(report.read_text())
    assert [c["id"] for c in doc["cases"]] == [1, 3, 14]
    if semantics == "torch":
        assert all(c["checks"]["torch"]["status"] == "equal" for c in doc["cases"])


def test_leaky_relu_sample_inputs_follow_the_rules():
    _needs("leaky_relu_backward", "aclnnLeakyReluBackward")
    cases = {c.id: c for c in atk.load_cases(LRB)}
    ours, theirs, _ = atk.make_inputs(cases[1], 0)
    assert ours[0].dtype == bfloat16 and ours[0].shape == (2,)
    assert np.all((ours[0].astype(np.float32) >= -7) & (ours[0].astype(np.float32) <= 7))
    assert np.all(ours[1].astype(np.float32) == 8)  # a bare number fills the tensor
    assert type(ours[2]) is np.float32 and ours[2] == 1 and theirs[2] == 1.0
    assert ours[3] is True
    ours, theirs, _ = atk.make_inputs(cases[3], 0)
    assert np.all(np.isneginf(ours[0])) and np.all(np.isnan(ours[1]))  # bare strings fill
    assert type(ours[2]) is np.float64
    assert ours[3] is True  # ["inf"] on the bool attr: truthy
    ours, _, _ = atk.make_inputs(cases[14], 0)
    assert type(ours[2]) is bfloat16.type and 0 <= float(ours[2]) <= 1
    assert ours[3] is False


# --- input generation -------------------------------------------------------------------------

def _inp(kind, dtype, rv, shape=None, param=None):
    from opsnn.aclnn.signature import ATTR, SCALAR, TENSOR, Param
    if param is None:
        param = {"tensor": Param("t", TENSOR), "scalar": Param("s", SCALAR),
                 "attr": Param("b", ATTR, c_type="bool")}[kind]
    return atk.Input("v", kind, dtype, tuple(shape) if shape is not None else None, rv, param)


def _tensor(dtype, rv, shape=(1000,), seed=0):
    return atk.make_tensor(_inp("tensor", dtype, rv, shape), atk.case_rng(seed, 0))


def test_ranges():
    f = _tensor("fp32", [-3, 5])
    assert f.dtype == np.float32 and f.min() >= -3 and f.max() <= 5 and len(np.unique(f)) > 900
    i = _tensor("int8", [-2, 2])
    assert set(np.unique(i).tolist()) == {-2, -1, 0, 1, 2}  # integers: both ends included
    u = _tensor("uint8", [-20, 20])
    assert u.min() == 0 and u.max() == 20  # within the dtype's range
    t = _tensor("int32", [-1.5, 1.5])
    assert set(np.unique(t).tolist()) <= {-1, 0, 1}  # fractional bounds: truncated as C casts
    b = _tensor("bool", [0, 1])
    assert b.dtype == np.bool_ and set(np.unique(b).tolist()) == {False, True}
    h = _tensor("fp16", [-1, 1])
    assert h.dtype == np.float16
    assert _tensor("bf16", [-1, 1]).dtype == bfloat16
    big = _tensor("fp16", [-1e6, 1e6])  # beyond float16's range: the cast gives inf
    assert np.isinf(big).any()


@pytest.mark.parametrize("rv", [["nan"], "nan", ["inf"], "inf", ["-inf"], "-inf", 8, -8, 2.5, [3]])
def test_one_value_fills_the_tensor(rv):
    value = rv[0] if isinstance(rv, list) else rv
    value = float(value)
    for dt in ("fp32", "fp16", "bf16", "fp64"):
        t = _tensor(dt, rv, (3, 4))
        expect = np.full((3, 4), value, atk.DTYPES[dt])
        assert t.tobytes() == expect.tobytes(), dt


def test_special_values_on_integer_and_bool_tensors():
    assert np.all(_tensor("int8", ["inf"]) == 127) and np.all(_tensor("int8", "-inf") == -128)
    assert np.all(_tensor("uint8", ["-inf"]) == 0) and np.all(_tensor("int32", ["nan"]) == 0)
    assert np.all(_tensor("int32", 8.9) == 8) and np.all(_tensor("uint8", -8) == 0)
    assert np.all(_tensor("bool", ["nan"])) and not np.any(_tensor("bool", 0)) and np.all(_tensor("bool", True))


def test_0d_and_empty_shapes():
    z = _tensor("fp32", [-1, 1], ())
    assert z.shape == () and -1 <= float(z) <= 1
    assert _tensor("fp16", "nan", ()).shape == ()
    e = _tensor("int8", [-1, 1], (0, 3))
    assert e.shape == (0, 3) and e.dtype == np.int8


def test_scalars_take_their_dtype():
    rng = atk.case_rng(0, 0)
    v, t, note = atk.make_scalar(_inp("scalar", "fp16", 0.1), rng)
    assert type(v) is np.float16 and v == np.float16(0.1) and t == float(np.float16(0.1)) and not note
    v, t, _ = atk.make_scalar(_inp("scalar", "bf16", 0.1), rng)
    assert type(v) is bfloat16.type and t == float(bfloat16.type(0.1))
    v, t, _ = atk.make_scalar(_inp("scalar", "int32", 7), rng)
    assert type(v) is np.int32 and t == 7 and type(t) is int
    v, _, _ = atk.make_scalar(_inp("scalar", "int8", 2.7), rng)
    assert v == 2
    v, _, _ = atk.make_scalar(_inp("scalar", "fp32", "-inf"), rng)
    assert type(v) is np.float32 and v == -np.inf
    for rv in (["inf"], "nan", 1000):  # an int8 cannot hold it: passed as it is, with a note
        v, t, note = atk.make_scalar(_inp("scalar", "int8", rv), rng)
        assert type(v) in (float, int) and "does not fit int8" in note
    draws = {int(atk.make_scalar(_inp("scalar", "int32", [-1, 1]), rng)[0]) for _ in range(60)}
    assert draws == {-1, 0, 1}
    v, _, _ = atk.make_scalar(_inp("scalar", "fp64", [0, 1]), rng)
    assert type(v) is np.float64 and 0 <= v < 1


def test_bool_attrs():
    rng = atk.case_rng(0, 0)
    for rv, want in ((True, True), (False, False), (["inf"], True), (["-inf"], True), ("nan", True), (0, False),
                     (1, True)):
        assert atk.make_attr(_inp("attr", "bool", rv), rng)[0] is want, rv


def test_generation_is_reproducible_and_per_case():
    case = atk.load_cases(TB)[0]
    a = atk.input_digest(atk.make_inputs(case, 0)[0])
    assert a == atk.input_digest(atk.make_inputs(case, 0)[0])
    assert a != atk.input_digest(atk.make_inputs(case, 1)[0])
    other = atk.Case(case.id + 1, case.aclnn_name, case.torch_name, case.api, case.inputs)
    assert a != atk.input_digest(atk.make_inputs(other, 0)[0])


def test_seed_on_the_command_line(capsys, tmp_path):
    digests = {}
    for seed in (0, 0, 7):
        report = tmp_path / f"r{seed}.json"
        assert _run(capsys, TB, "--seed", seed, "--json", report)[0] == 0
        digests.setdefault(seed, []).append([c["inputs_digest"] for c in json.loads(report.read_text())["cases"]])
    assert digests[0][0] == digests[0][1]
    assert digests[0][0] != digests[7][0]


# --- exit codes, selection, reports -----------------------------------------------------------

def test_a_broken_backend_is_a_mismatch(capsys, monkeypatch):
    real = opsnn.threshold_backward

    def broken(*args, backend="auto", **kwargs):
        out = real(*args, backend=backend, **kwargs)
        if backend != "reference" and out.size:
            out = out.copy()
            out.reshape(-1)[-1] += 1  # one element off
        return out

    monkeypatch.setattr(opsnn, "threshold_backward", broken)
    rc, out, _ = _run(capsys, TB, "--cases", "0,4")
    assert rc == 1
    assert out.count("FAIL case") == 2 and "differ from the reference" in out and "differ from torch" in out
    assert out.splitlines()[-1] == "0 passed, 2 failed, 0 skipped"


def test_a_backend_raising_where_the_reference_does_not_fails(capsys, monkeypatch):
    real = opsnn.threshold

    def refusing(*args, backend="auto", **kwargs):
        if backend != "reference":
            raise ValueError("no")
        return real(*args, backend=backend, **kwargs)

    monkeypatch.setattr(opsnn, "threshold", refusing)
    rc, out, _ = _run(capsys, TH, "--cases", "0", "--semantics", "ascend910b")
    assert rc == 1 and "opsnn raised ValueError: no; the reference returned fp32 [4, 6]" in out


def _bad(tmp_path, mutate):
    cases = copy.deepcopy(_cases(TB)[:3])
    mutate(cases)
    return _write(tmp_path, cases)


BAD = {
    "unknown dtype": (lambda c: c[1]["inputs"][0].update(dtype="fp8"), ["case 1", "inputs[0]", "dtype", "fp8"]),
    "unknown api": (lambda c: c[2].update(aclnn_name="aclnnNoSuch"), ["case 2", "aclnn_name", "aclnnNoSuch"]),
    "input count": (lambda c: c[0]["inputs"].pop(), ["case 0", "inputs", "takes 3"]),
    "kind": (lambda c: c[1]["inputs"][2].update(type="tensor", shape=[1]), ["case 1", "inputs[2]", "type",
                                                                           "scalar"]),
    "range": (lambda c: c[0]["inputs"][1].update(range_values=[5, 1]), ["case 0", "inputs[1]", "range_values"]),
    "range word": (lambda c: c[0]["inputs"][1].update(range_values="big"), ["case 0", "range_values", "big"]),
    "no range": (lambda c: c[0]["inputs"][1].pop("range_values"), ["case 0", "range_values", "missing"]),
    "shape": (lambda c: c[2]["inputs"][0].update(shape=[2, -1]), ["case 2", "inputs[0]", "shape"]),
    "no shape": (lambda c: c[2]["inputs"][0].update(shape=None), ["case 2", "shape"]),
    "id": (lambda c: c[1].pop("id"), ["index 1", "id"]),
    "duplicate id": (lambda c: c[2].update(id=0), ["case 0", "id", "twice"]),
    "not a case": (lambda c: c.append(3), ["index 3", "object"]),
    "dtype list": (lambda c: c[0]["inputs"][0].update(dtype=["fp32"]), ["case 0", "dtype"]),
    "type list": (lambda c: c[0]["inputs"][0].update(type=["tensor"]), ["case 0", "type"]),
    "inputs": (lambda c: c[0].update(inputs={"x": 1}), ["case 0", "inputs"]),
}


@pytest.mark.parametrize("what", BAD)
def test_a_bad_file_exits_2_naming_case_and_field(capsys, tmp_path, what):
    mutate, words = BAD[what]
    rc, out, err = _run(capsys, _bad(tmp_path, mutate))
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("opsnn atk: error:")
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize("text,word", [("[{", "not JSON"), ('{"a": 1}', "id"), ("3", "array"), ("", "not JSON")])
def test_unreadable_json_exits_2(capsys, tmp_path, text, word):
    path = tmp_path / "bad.json"
    path.write_text(text)
    rc, _, err = _run(capsys, path)
    assert rc == 2 and word in err


@pytest.mark.parametrize("argv,word", [
    (["/no/such/file.json"], "cannot read"),
    ([TB, "--cases", "0-3,99"], "99"),
    ([TB, "--cases", "a-b"], "--cases"),
    ([TB, "--cases", "5-2"], "--cases"),
    ([TB, "--backend", "emulator"], "emulator"),
    ([TB, "--semantics", "ascend910b", "--soc", "Ascend950"], "not both"),
    ([TB, "--soc", "Ascend999"], "Ascend999"),
    ([TB, "--jobs", "0"], "--jobs"),
    ([TB, "--max-elements", "-1"], "--max-elements"),
    ([], "file"),
])
def test_bad_command_lines_exit_2(capsys, argv, word):
    rc, out, err = _run(capsys, *argv)
    assert rc == 2 and out == "" and err.count("\n") == 1 and word in err


def test_an_api_without_a_numpy_function_is_a_bad_file(capsys, tmp_path):
    cases = _cases(TH)[:1]
    cases[0]["aclnn_name"] = "aclnnInplaceThreshold"
    rc, _, err = _run(capsys, _write(tmp_path, cases))
    assert rc == 2 and "numpy" in err and "case 0" in err


def test_cases_selects_ids(capsys, tmp_path):
    report = tmp_path / "r.json"
    rc, out, _ = _run(capsys, TB, "--cases", "0-3,7, 21", "--json", report)
    assert rc == 0 and out.splitlines()[-1] == "6 passed, 0 failed, 0 skipped"
    assert [c["id"] for c in json.loads(report.read_text())["cases"]] == [0, 1, 2, 3, 7, 21]


def test_reports(capsys, tmp_path):
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    rc, out, _ = _run(capsys, TB, "--max-elements", "20", "--json", report, "--junit", junit)
    assert rc == 0
    doc = json.loads(report.read_text())
    assert doc["passed"] + doc["skipped"] == 22 and doc["failed"] == 0 and doc["skipped"] >= 2
    assert doc["aclnn_names"] == "aclnnThresholdBackward" and doc["semantics"] == "torch" and doc["seed"] == 0
    skipped = [c for c in doc["cases"] if c["status"] == "skipped"]
    assert all("more than --max-elements 20" in c["reason"] for c in skipped)
    assert all(f"SKIP case {c['id']}" in out for c in skipped)  # never silently
    assert f"{doc['passed']} passed, 0 failed, {doc['skipped']} skipped" == out.splitlines()[-1]
    lines = out.splitlines()
    table = lines[next(i for i, line in enumerate(lines) if line.startswith("dtype ")):-1]
    assert table[0].split() == ["dtype", "cases", "passed", "failed", "skipped", "refused"]
    assert table[-1].split()[:2] == ["total", "22"]
    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    assert suite.get("tests") == "22" and suite.get("failures") == "0"
    assert int(suite.get("skipped")) == doc["skipped"]
    assert len(suite.findall("testcase")) == 22
    assert len(suite.findall("testcase/skipped")) == doc["skipped"]


def test_junit_names_failures(capsys, tmp_path, monkeypatch):
    real = opsnn.threshold_backward
    monkeypatch.setattr(opsnn, "threshold_backward",
                        lambda *a, backend="auto", **k: real(*a, backend=backend, **k).astype(np.float64)
                        if backend != "reference" else real(*a, backend=backend, **k))
    junit = tmp_path / "r.xml"
    rc, _, _ = _run(capsys, TB, "--cases", "0", "--semantics", "ascend950", "--junit", junit)
    assert rc == 1
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert failure is not None and "dtype fp64, the reference fp32" in failure.get("message")


def test_jobs_give_the_same_results(capsys, tmp_path):
    one, two = tmp_path / "1.json", tmp_path / "2.json"
    assert _run(capsys, TB, "--json", one)[0] == 0
    rc, out, _ = _run(capsys, TB, "--jobs", "2", "--json", two)
    assert rc == 0 and out.splitlines()[-1] == "22 passed, 0 failed, 0 skipped"
    keep = ("id", "status", "inputs_digest", "checks", "refused")
    a, b = ([{k: c[k] for k in keep} for c in json.loads(p.read_text())["cases"]] for p in (one, two))
    assert a == b


def test_soc_chooses_the_family(capsys, tmp_path):
    report = tmp_path / "r.json"
    assert _run(capsys, TB, "--soc", "Ascend950", "--json", report)[0] == 0
    doc = json.loads(report.read_text())
    assert doc["semantics"] == "ascend950" and doc["soc"] == "Ascend950"
    assert all("torch" not in c["checks"] for c in doc["cases"])  # torch computes torch semantics only


def test_memory_skips_are_named():
    cases = atk.load_cases(TB)
    results = atk.run_cases(cases, memory=1000)  # (bytes) less than any case needs
    assert all(r.status == "skipped" and "GiB of memory" in r.reason for r in results)


def test_emulator_default_limit_is_smaller(tmp_path):
    big = _cases(TB)[:1]
    big[0]["inputs"][0]["shape"] = big[0]["inputs"][1]["shape"] = [atk.DEFAULT_MAX_ELEMENTS_EMULATOR + 1]
    cases = atk.load_cases(_write(tmp_path, big))
    r = atk.run_cases(cases, semantics="ascend910b", backend="emulator")[0]
    assert r.status == "skipped" and str(atk.DEFAULT_MAX_ELEMENTS_EMULATOR) in r.reason
    assert atk.skip_reason(cases[0], atk.DEFAULT_MAX_ELEMENTS, 1 << 40) == ""
    assert atk.skip_reason(cases[0], 0, 1 << 40) == ""  # 0: no element limit


def test_the_848m_element_case_is_skipped_not_run(capsys, tmp_path):
    case = json.loads(LRB.read_text())[0]
    for inp in case["inputs"][:2]:
        inp["shape"] = [7, 56, 4, 5, 10, 164, 2, 33]
        inp["dtype"] = "fp16"
    case["id"] = 249
    _needs("leaky_relu_backward", "aclnnLeakyReluBackward")
    rc, out, _ = _run(capsys, _write(tmp_path, [case]))
    assert rc == 0 and "SKIP case 249" in out and "848601600 elements" in out
    assert out.splitlines()[-1] == "0 passed, 0 failed, 1 skipped"
    rc, out, _ = _run(capsys, _write(tmp_path, [case]), "--max-elements", "0")
    assert "SKIP case 249" in out or "passed" in out.splitlines()[-1]  # the memory estimate decides


def test_torch_not_importable_is_a_skipped_comparison(monkeypatch):
    monkeypatch.setattr(atk.oracle, "_TORCH", [None])
    r = atk.run_cases(atk.load_cases(TB)[:2])
    assert all(x.status == "passed" and x.checks["torch"] == {"status": "skipped",
                                                               "detail": "torch is not importable"} for x in r)


def test_an_unknown_torch_function_is_a_skipped_comparison(tmp_path):
    cases = _cases(TB)[:1]
    cases[0]["name"] = "torch.ops.aten.no_such_op"
    r = atk.run_cases(atk.load_cases(_write(tmp_path, cases)))[0]
    assert r.status == "passed" and r.checks["torch"]["status"] == "skipped" and "no_such_op" in \
        r.checks["torch"]["detail"]


def test_nan_bits_count_against_torch_unless_loose(monkeypatch, tmp_path):
    real = opsnn.threshold_backward

    def flip_nan_sign(*a, backend="auto", **k):
        out = real(*a, backend=backend, **k)
        if out.dtype == np.float32:
            out = out.copy()
            bits = out.view(np.uint32)
            bits[np.isnan(out)] ^= np.uint32(0x80000000)
        return out

    monkeypatch.setattr(opsnn, "threshold_backward", flip_nan_sign)
    cases = atk.load_cases(TB)
    case = next(c for c in cases if c.id == 12)  # fp32, grad all NaN
    strict = atk.run_cases([case], backend="reference")[0]
    assert strict.status == "failed" and "NaN bits only" in strict.reason
    loose = atk.run_cases([case], backend="reference", loose_nan=True)[0]
    assert loose.status == "passed" and any("NaN bits differ" in n for n in loose.notes)


def test_progress_bar_only_on_a_terminal():
    class Stream:
        def __init__(self, tty):
            self.tty, self.text = tty, ""

        def isatty(self):
            return self.tty

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    result = atk.Result(0, "passed")
    tty, plain = Stream(True), Stream(False)
    for stream in (tty, plain):
        p = atk.Progress(2, stream)
        p.update(result)
        p.update(atk.Result(1, "failed"))
        p.close()
    assert "\r[" in tty.text and "2/2" in tty.text and "1 failed" in tty.text
    assert plain.text == ""  # a quick run prints nothing; a long one a line every 30 s
    slow = Stream(False)
    p = atk.Progress(3, slow, every=0.0)
    p.update(result)
    assert slow.text == "opsnn atk: 1/3 cases, 0 failed, " + slow.text.split("failed, ")[1]


def test_parse_ids():
    assert atk.parse_ids("0-2, 5,9-9") == {0, 1, 2, 5, 9}
    for bad in ("", "x", "3-1", "-2", "0-99999999999"):
        with pytest.raises(ValueError):
            atk.parse_ids(bad)


def test_help_lists_the_options(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["atk", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for option in ("--seed", "--backend", "--semantics", "--soc", "--jobs", "--cases", "--max-elements",
                   "--json", "--junit", "--loose-nan"):
        assert option in out


def test_cli_knows_the_command():
    assert "atk" in cli.COMMANDS
    assert math.isfinite(atk.MEMORY_SHARE)


def test_a_backend_writing_into_its_inputs_fails(monkeypatch):
    real = opsnn.threshold_backward

    def scribbling(grad, *a, backend="auto", **k):
        out = real(grad, *a, backend=backend, **k)
        if backend != "reference" and grad.size:
            grad.reshape(-1)[0] = 0
        return out

    monkeypatch.setattr(opsnn, "threshold_backward", scribbling)
    r = atk.run_cases(atk.load_cases(TB)[:1], semantics="ascend910b")[0]
    assert r.status == "failed" and "changed its inputs" in r.reason


def test_an_integer_scalar_reaches_torch_as_an_int():
    v, t, _ = atk.make_scalar(_inp("scalar", "int32", True), atk.case_rng(0, 0))
    assert type(v) is np.int32 and v == 1 and type(t) is int and t == 1


def test_a_number_beyond_float64_is_a_bad_file(capsys, tmp_path):
    rc, _, err = _run(capsys, _bad(tmp_path, lambda c: c[0]["inputs"][2].update(range_values=10**400)))
    assert rc == 2 and "case 0" in err and "float64" in err


def test_without_a_name_the_declared_aten_op_is_compared(tmp_path):
    cases = _cases(TB)[:2]
    del cases[0]["name"]
    r = atk.run_cases(atk.load_cases(_write(tmp_path, cases)))
    assert [x.checks["torch"]["status"] for x in r] == ["equal", "equal"]
