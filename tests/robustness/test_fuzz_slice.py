"""A short slice of `make fuzz` (tests/robustness/fuzz.py): random cases on every backend against
the reference, in one process per fast engine (the C engine also with its crossovers at their least:
threaded and streaming from the smallest calls)."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz  # noqa: E402

ENGINES = ["numpy"] + (["c", "c-small-crossovers"] if importlib.util.find_spec("opsnn.engine._select") else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_random_cases_agree_with_the_reference(engine):
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("OPSNN_TUNING", None)
    done = subprocess.run([sys.executable, fuzz.__file__, "--worker", str(20 + len(engine)), "8", engine],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    assert '"failed": null' in done.stdout


def test_the_fuzz_sees_a_wrong_backend(monkeypatch):
    """The comparison itself: a fast path that flips one bit of one element is reported."""
    import opsnn
    real = opsnn.threshold_backward

    def broken(grad, feature, threshold, **kw):
        result = real(grad, feature, threshold, **kw)
        if kw.get("backend") == "fast" and result.size:
            flat = result.reshape(-1).view(np.uint8)
            flat[0] ^= 1
        return result

    monkeypatch.setattr(opsnn, "threshold_backward", broken)
    rng = np.random.default_rng(5)
    case = {"forward": False, "semantics": "torch", "layout": "same", "out": "none", "threshold": 0.5,
            "grad": rng.normal(size=100).astype(np.float32), "feature": rng.normal(size=100).astype(np.float32)}
    assert "1 bytes differ" in fuzz.check_case(case, emulate=False)
    case["out"] = "alias"
    assert fuzz.check_case(case, emulate=False) is not None
    monkeypatch.setattr(opsnn, "threshold_backward", real)
    assert fuzz.check_case(case, emulate=True) is None


def test_the_fuzz_engines_are_the_fast_paths_engines():
    from opsnn.backends import fast
    assert {e.split("-")[0] for e in fuzz.ENGINES} == set(fast.ENGINES)
    assert set(ENGINES) <= set(fuzz.ENGINES)


def test_small_crossovers_are_a_valid_tuning():
    from opsnn.engine import machine
    assert machine.parse_override(fuzz.CROSSOVERS_AT_LEAST) == {"parallel_min": 64, "stream_min": 0, "threads": 3}


def test_the_fuzz_has_a_torch_surface_that_sees_a_departure(monkeypatch):
    """fuzz_torch: torch's own op is the oracle for semantics "torch"; one flipped bit is reported,
    a documented NaN departure is counted apart ("known:"), never as agreement."""
    pytest.importorskip("torch")
    import fuzz_torch

    import opsnn
    assert "torch" in [name for name, _, _ in fuzz.SURFACES]
    rng = np.random.default_rng(5)
    case = {"forward": False, "semantics": "torch", "layout": "same", "out": "none", "threshold": 0.5,
            "grad": rng.normal(size=100).astype(np.float32), "feature": rng.normal(size=100).astype(np.float32)}
    assert fuzz_torch.check(case, rng) is None
    real = opsnn.threshold_backward

    def broken(*args, **kw):
        result = real(*args, **kw)
        result.reshape(-1).view(np.uint8)[0] ^= 1
        return result

    monkeypatch.setattr(opsnn, "threshold_backward", broken)
    problem = fuzz_torch.check(case, rng)  # torch.ops.opsnn's bits differ from it first
    assert problem is not None and not problem.startswith(fuzz_torch.KNOWN)
    monkeypatch.setattr(opsnn, "threshold_backward", real)
    snan = np.full(64, 0x7C01, np.uint16).view(np.float16)  # torch's vectorised loop quiets it
    case.update(grad=snan, feature=np.ones(64, np.float16))
    assert fuzz_torch.check(case, rng).startswith(fuzz_torch.KNOWN)


def _capi_or_skip():
    import fuzz_capi
    assert "capi" in [name for name, _, _ in fuzz.SURFACES]
    if fuzz_capi._load() is None:
        pytest.skip(fuzz_capi.prepare())
    return fuzz_capi


def test_the_capi_surface_agrees_for_a_few_seconds():
    """fuzz_capi: random cases of every declared API through the C ABI in this process, for 3 s
    (hundreds of cases): the numpy API's bits or its refusal, in both device modes."""
    import time
    import warnings

    fuzz_capi = _capi_or_skip()
    before = dict(fuzz_capi.COUNTS)
    apis, deadline, index = fuzz.declared_apis(), time.monotonic() + 3, 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # as in the fuzz's workers
        while time.monotonic() < deadline or index < 40:
            rng = np.random.default_rng([31, index])
            index += 1
            case = fuzz.make_declared_case(rng, apis[int(rng.integers(len(apis)))]) if rng.random() < 0.3 \
                else fuzz.make_case(rng)
            problem = fuzz_capi.check(case, rng)  # a documented departure is a label, counted apart
            assert problem is None or problem.startswith(fuzz_capi.KNOWN), \
                f"index {index - 1}: {fuzz.describe(case)}\n{problem}"
    compared = {k: v - before.get(k, 0) for k, v in fuzz_capi.COUNTS.items()}
    assert all(compared.get(k, 0) > 0 for k in ("fast result", "fast refusal", "emulator result",
                                                 "emulator refusal")), compared


def test_the_capi_surface_sees_a_wrong_result_and_a_wrong_acceptance(monkeypatch):
    """One flipped bit in what the fast mode reads from device memory is reported; so is a C ABI
    result where the numpy API refuses; a strided view and a strided out go through as such."""
    fuzz_capi = _capi_or_skip()
    import opsnn
    from opsnn.aclnn.declarations import all_apis
    from opsnn.capi import device_mode
    api = next(a for a in all_apis() if a.numpy_api == "sigmoid_backward")
    rng = np.random.default_rng(9)
    grad = rng.normal(size=(64, 2 * 64)).astype(np.float32)[:, ::2]  # 4096 elements: the fast mode only
    y = np.full((64, 64), 0.5, np.float32)
    case = {"api": "sigmoid_backward", "args": [grad, y], "semantics": "ascend950", "layout": "strided",
            "out": "strided"}
    assert fuzz_capi.check(case, rng) is None
    assert fuzz_capi._api_and_args(case)[0] is api
    real = device_mode.device_array

    def broken(runtime, tensor):
        view = real(runtime, tensor)
        if view.size:
            view[(0,) * view.ndim] = np.nextafter(view[(0,) * view.ndim], np.float32(np.inf))
        return view

    monkeypatch.setattr(device_mode, "device_array", broken)
    problem = fuzz_capi.check(case, rng)
    assert problem is not None and "1 of 4096 elements differ" in problem
    monkeypatch.setattr(device_mode, "device_array", real)

    def refuses(*args, **kw):
        raise TypeError("refused")

    monkeypatch.setattr(opsnn, "sigmoid_backward", refuses)
    problem = fuzz_capi.check(case, rng)
    assert problem is not None and "a result; numpy API: TypeError" in problem


def test_an_empty_tensor_in_a_dtype_without_a_kernel_is_a_known_departure_only_when_empty():
    """aclnnSeluBackward takes int32 (upstream's list) and launches nothing for an empty tensor;
    the numpy API refuses int32 (no kernel) at any size: known when empty, agreeing otherwise (both
    refuse). Found by the fuzz, seed 27504 case 10342."""
    fuzz_capi = _capi_or_skip()
    for shape, expected in (((0, 1750), "known:aclnnSeluBackward empty int32"), ((3, 5), None)):
        grad = np.zeros(shape, np.int32)
        case = {"api": "selu_backward", "args": [grad, grad.copy()], "semantics": "ascend950",
                "layout": "contiguous", "out": "none"}
        problem = fuzz_capi.check(case, np.random.default_rng(1))
        assert problem is None if expected is None else problem.startswith(expected), problem


def test_the_capi_surface_skips_where_the_c_abi_cannot_be_built(monkeypatch):
    import fuzz_capi
    monkeypatch.setattr(fuzz_capi, "_state", {"lib": None, "why": "no C++ compiler found (set CXX)"})
    assert fuzz_capi.prepare() == "capi surface: skipped, the C ABI cannot be built here (no C++ compiler found " \
                                  "(set CXX))"
    case = {"forward": True, "semantics": "ascend910b", "layout": "same", "out": "none", "threshold": 0.5,
            "value": 1.0, "grad": np.ones(4, np.float32), "feature": np.ones(4, np.float32)}
    assert fuzz_capi.check(case, np.random.default_rng(0)) is None
