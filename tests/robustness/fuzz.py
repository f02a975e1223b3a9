"""Differential fuzz (`make fuzz`; a short slice runs in `make test`): random cases through every
backend, compared bit for bit with the reference, one worker process per fast engine, all at once.

usage: python tests/robustness/fuzz.py [--seconds S] [--seed N] [--engines auto,c,c-small-crossovers,numpy]

A case: the backward or the forward (or, in 3 of 10 cases, a call of another declared operator's
numpy API, LeakyReluBackward, HardtanhBackward, SigmoidBackward, SeluBackward, SoftshrinkBackward,
built from its declaration: one in ten of those on complex64 / complex128 operands, one in five
with a second tensor of another dtype); semantics torch / ascend910b / ascend950; every dtype
(every bit pattern of the 8- and 16-bit ones in some cases);
grad and feature of different dtypes (torch's promotion); layouts: same shape, row / column / scalar
broadcast, 0-d, empty, transposed, strided, reversed, out= (contiguous or not) and out aliasing an
input; thresholds of every kind (ints, floats, +-0.0, +-inf, NaN, values taken from the data). Each
worker process pins one fast engine (auto, c, numpy; c-small-crossovers is the C engine with its
crossovers at their least, OPSNN_TUNING=CROSSOVERS_AT_LEAST: every call of more than a few elements
split over 3 threads and written with streaming stores, which the small random cases would
otherwise never reach) and runs each case on `auto`, `fast`, `reference` and, for the ascend
semantics at small sizes, `emulator`: all must agree with the reference, or all raise the same
exception type. A fifth of the cases also go through opsnn.dask, chunked at random (fuzz_dask.py):
the numpy API's bits on the whole arrays, or its exception type at graph build; a fifth through
opsnn.torch (fuzz_torch.py: torch.ops.opsnn.*, npu_semantics, and torch's own op as the oracle
for semantics "torch", the documented departures counted apart as "known"); and 15 in 100
through the C ABI loaded in-process (fuzz_capi.py: the ascend cases, from the API's declaration,
both device modes, the numpy API's bits or its refusal). A failure prints
the case and its seed and exits 1. Workers turn numpy's
RuntimeWarnings into errors: a warning reaching a user is a defect too.

Nothing is compiled at run time (the C engine is built at install), so there is no compiled-code
cache whose writers could race: the cache orders of issue 20 went with numba."""
from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # fuzz_dask beside this file, whether run as a script or imported
import fuzz_capi  # noqa: E402
import fuzz_dask  # noqa: E402
import fuzz_torch  # noqa: E402

ENGINES = ("auto", "c", "c-small-crossovers", "numpy")
# the C engine threaded and streaming from (nearly) the first element: the paths big calls take
CROSSOVERS_AT_LEAST = "parallel_min=64,stream_min=0,threads=3"
DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")
COMPLEX = ("complex64", "complex128")  # the declared APIs' cases (SigmoidBackward computes them)
SEMANTICS = ("torch", "ascend910b", "ascend950")
EMULATED_MAX = 2048  # elements: the emulator runs Python per instruction
DASK_SHARE = 0.2  # of the cases also run through opsnn.dask (tests/robustness/fuzz_dask.py)
CAPI_SHARE = 0.15  # of the cases also run through the C ABI in-process (fuzz_capi.py; ascend semantics only)
# The other surfaces a case also runs through: (name, share of the cases, check(case, rng) -> None,
# a problem, or a label starting "known:" for a documented departure, counted apart). Add one here.
SURFACES = [("dask", DASK_SHARE, fuzz_dask.check), ("torch", 0.2, fuzz_torch.check),
            ("capi", CAPI_SHARE, fuzz_capi.check)]


def _dtype(name):
    import numpy as np

    from opsnn.dtypes import bfloat16
    return bfloat16 if name == "bfloat16" else np.dtype(name)


def _values(rng, dtype, shape):
    """Random values of `dtype` with the special ones mixed in (floats: +-0, +-inf, NaNs with
    payloads, signalling ones, subnormals; integers: the extremes)."""
    import numpy as np
    n = int(np.prod(shape, dtype=np.int64))
    if dtype.kind == "c":  # each part as a float of its width, specials and any bit pattern included
        part = np.dtype(f"f{dtype.itemsize // 2}")
        v = np.empty(shape, dtype)
        v.real, v.imag = _values(rng, part, shape), _values(rng, part, shape)
        return v
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_).reshape(shape)
    width = dtype.itemsize
    bits = rng.integers(0, 1 << (8 * width), n, dtype=np.uint64).astype(f"u{width}")
    if dtype.kind == "f" or dtype.name == "bfloat16":
        small = rng.normal(scale=rng.choice([1.0, 100.0]), size=n).astype(np.float32).astype(dtype)
        pick = rng.random(n)
        values = np.where(pick < 0.6, small, bits.view(dtype))  # 40 %: any bit pattern at all
        return values.astype(dtype).reshape(shape)
    small = rng.integers(-8, 9, n)
    return np.where(rng.random(n) < 0.6, small.astype(dtype), bits.view(dtype)).reshape(shape)


def _every_pattern(rng, dtype):
    """Every bit pattern of an 8- or 16-bit dtype as the feature (shuffled), random grads."""
    import numpy as np
    width = dtype.itemsize
    feature = rng.permutation(np.arange(1 << (8 * width), dtype=f"u{width}")).view(dtype)
    grad = np.arange(1 << (8 * width), dtype=f"u{width}").view(dtype)
    return grad, feature


def _threshold(rng, data):
    import numpy as np
    kind = rng.integers(0, 9)
    if kind == 0:
        return int(rng.integers(-130, 131))
    if kind == 1:
        return float(rng.choice([0.0, -0.0, 0.5, -0.5, 1.0, 1e-45, 65504.0, 1e30, -1e30]))
    if kind == 2:
        return float(rng.choice([np.inf, -np.inf, np.nan]))
    if kind == 3:
        return int(rng.choice([2**31 - 1, -2**31, 2**31, 255, 256, -129, 2**63 - 1]))
    if kind == 4:
        return np.float32(rng.normal())
    if kind == 5 and data.size:  # a value of the data itself: ties
        v = data.reshape(-1)[rng.integers(0, data.size)]
        return v.item() if data.dtype.kind in "biuf" else float(v.real)  # complex data: its real part
    if kind == 6:
        return 0.0
    return float(rng.normal(scale=50))


def _layout(rng, grad_dtype, feature_dtype, n_hint):
    """(grad, feature, description): arrays of a random layout."""
    kind = str(rng.choice(["same", "row", "column", "scalar", "0-d", "empty", "transposed", "strided",
                           "reversed", "3-d broadcast"]))
    rows = int(rng.integers(1, 64))
    cols = max(1, n_hint // rows)
    if kind == "same":
        g, f = _values(rng, grad_dtype, (rows, cols)), _values(rng, feature_dtype, (rows, cols))
    elif kind == "row":
        g, f = _values(rng, grad_dtype, (rows, cols)), _values(rng, feature_dtype, (cols,))
        if rng.random() < 0.5:
            g, f = _values(rng, grad_dtype, (cols,)), _values(rng, feature_dtype, (rows, cols))
    elif kind == "column":
        g, f = _values(rng, grad_dtype, (rows, cols)), _values(rng, feature_dtype, (rows, 1))
    elif kind == "scalar":
        g, f = _values(rng, grad_dtype, (rows, cols)), _values(rng, feature_dtype, ())
    elif kind == "0-d":
        g, f = _values(rng, grad_dtype, ()), _values(rng, feature_dtype, ())
    elif kind == "empty":
        g, f = _values(rng, grad_dtype, (0, cols)), _values(rng, feature_dtype, (0, cols))
    elif kind == "transposed":
        g, f = _values(rng, grad_dtype, (cols, rows)).T, _values(rng, feature_dtype, (rows, cols))
    elif kind == "strided":
        g = _values(rng, grad_dtype, (rows, 2 * cols))[:, ::2]
        f = _values(rng, feature_dtype, (2 * rows, cols))[::2]
    elif kind == "reversed":
        g, f = _values(rng, grad_dtype, (rows, cols))[::-1], _values(rng, feature_dtype, (rows, cols))[:, ::-1]
    else:
        g, f = _values(rng, grad_dtype, (2, rows, 1)), _values(rng, feature_dtype, (1, cols))
    return g, f, kind


def make_case(rng):
    """One random case: a dict of what to call (arrays included) and a short description."""
    import numpy as np
    forward = rng.random() < 0.25
    semantics = str(rng.choice(SEMANTICS))
    grad_dtype = _dtype(str(rng.choice(DTYPES)))
    feature_dtype = grad_dtype if forward or rng.random() < 0.8 else _dtype(str(rng.choice(DTYPES)))
    n_hint = int(rng.choice([1, 7, 64, 1000, 5000, 70_000, 300_000]))
    if not forward and grad_dtype == feature_dtype and grad_dtype.itemsize <= 2 and grad_dtype != np.bool_ \
            and rng.random() < 0.1:
        grad, feature = _every_pattern(rng, grad_dtype)
        layout = "every pattern"
    else:
        grad, feature, layout = _layout(rng, grad_dtype, feature_dtype, n_hint)
    case = {"forward": forward, "semantics": semantics, "layout": layout, "grad": grad, "feature": feature,
            "threshold": _threshold(rng, feature)}
    if forward:
        case["value"] = _threshold(rng, grad)
    case["out"] = str(rng.choice(["none", "none", "contiguous", "strided", "alias"]))
    return case


def declared_apis() -> list:
    """Every declared operator API with a numpy function other than the two above (LeakyReluBackward,
    HardtanhBackward, and whatever is registered later): fuzzed from its declaration alone."""
    from opsnn.aclnn.declarations import all_apis
    return [a for a in all_apis() if a.numpy_api and a.numpy_api not in ("threshold", "threshold_backward")]


def make_declared_case(rng, api):
    """A random call of a declared API: its tensors (one dtype, mostly floats, a random layout),
    scalars of every kind, bool attrs; semantics and out= as for the threshold cases."""
    import numpy as np
    floats = ("float16", "bfloat16", "float32", "float64")
    pick = rng.random()
    dtype = _dtype(str(rng.choice(floats if pick < 0.75 else COMPLEX if pick < 0.85 else DTYPES)))
    other = dtype if rng.random() < 0.8 else _dtype(str(rng.choice(floats + COMPLEX + DTYPES)))
    n_hint = int(rng.choice([1, 7, 64, 1000, 5000, 70_000]))
    tensors = [p for p in api.inputs if p.kind == "tensor"]
    if len(tensors) == 2:
        a, b, layout = _layout(rng, dtype, other, n_hint)
        arrays = [a, b]
    else:
        arrays, layout = [_values(rng, dtype, (n_hint,)) for _ in tensors], "same"
    args, arrays = [], iter(arrays)
    for p in api.inputs:
        if p.kind == "tensor":
            args.append(next(arrays))
        elif p.kind == "attr" and p.c_type == "bool":
            args.append(bool(rng.random() < 0.5))
        else:
            args.append(_threshold(rng, args[-1] if args and isinstance(args[-1], np.ndarray) else np.zeros(0)))
    return {"api": api.numpy_api, "args": args, "semantics": str(rng.choice(SEMANTICS)), "layout": layout,
            "out": str(rng.choice(["none", "none", "contiguous"]))}


def _run_declared(case, backend):
    import numpy as np

    import opsnn
    fn = getattr(opsnn, case["api"])
    args = [a.copy(order="K") if isinstance(a, np.ndarray) and case["layout"] not in ("transposed", "strided",
                                                                                       "reversed") else a
            for a in case["args"]]
    before = [a.tobytes() for a in args if isinstance(a, np.ndarray)]
    kw = {"semantics": case["semantics"], "backend": backend}
    try:
        if case["out"] == "contiguous":
            kw["out"] = np.empty_like(fn(*args, **kw))
        result = fn(*args, **kw)
        if "out" in kw and result is not kw["out"]:
            return False, "out= given but another array returned"
        if [a.tobytes() for a in args if isinstance(a, np.ndarray)] != before:
            return False, "an input was changed"
        return True, (result.dtype.str, result.shape, np.ascontiguousarray(result).view(np.uint8).tobytes())
    except Exception as e:  # noqa: BLE001 (compared across backends)
        return True, type(e).__name__


def describe(case) -> str:
    import numpy as np
    if "api" in case:
        shown = [f"{a.dtype}{a.shape}" if isinstance(a, np.ndarray) else repr(a) for a in case["args"]]
        return f"{case['api']} {case['semantics']} {case['layout']} out={case['out']}: {', '.join(shown)}"
    g, f = case["grad"], case["feature"]
    what = "threshold" if case["forward"] else "threshold_backward"
    scalars = f"threshold={case['threshold']!r}" + (f", value={case['value']!r}" if case["forward"] else "")
    return (f"{what} {case['semantics']} {case['layout']} out={case['out']}: grad {g.dtype}{g.shape} "
            f"strides {g.strides}, feature {np.asarray(f).dtype}{np.shape(f)}, {scalars}")


def _run(case, backend):
    """(ok, bits or exception type name) of one backend on fresh copies of the case's arrays."""
    import numpy as np

    import opsnn
    grad, feature = case["grad"].copy(order="K"), case["feature"].copy(order="K")
    if case["layout"] in ("transposed", "strided", "reversed"):  # keep the layout, not a compact copy
        grad, feature = case["grad"], case["feature"]
    before = (grad.tobytes(), feature.tobytes())
    kw = {"semantics": case["semantics"], "backend": backend}
    try:
        if case["out"] != "none":
            probe = (opsnn.threshold(grad, case["threshold"], case["value"], **kw) if case["forward"]
                     else opsnn.threshold_backward(grad, feature, case["threshold"], **kw))
            if case["out"] == "contiguous":
                out = np.empty_like(probe)
            elif case["out"] == "strided" and probe.ndim:
                out = np.empty(probe.shape[:-1] + (2 * probe.shape[-1],), probe.dtype)[..., ::2]
            elif case["out"] == "alias" and grad.shape == probe.shape and grad.dtype == probe.dtype \
                    and grad.flags.writeable and case["layout"] not in ("transposed", "strided", "reversed"):
                out = grad = grad.copy()
                before = (grad.tobytes(), feature.tobytes())
            else:
                out = np.empty_like(probe)
            kw["out"] = out
        result = (opsnn.threshold(grad, case["threshold"], case["value"], **kw) if case["forward"]
                  else opsnn.threshold_backward(grad, feature, case["threshold"], **kw))
        if "out" in kw and result is not kw["out"]:
            return False, "out= given but another array returned"
        if "out" not in kw and (grad.tobytes(), feature.tobytes()) != before:
            return False, "an input was changed"
        return True, (result.dtype.str, result.shape, np.ascontiguousarray(result).view(np.uint8).tobytes())
    except Exception as e:  # noqa: BLE001 (compared across backends)
        return True, type(e).__name__


def check_case(case, emulate: bool) -> str | None:
    """None where every backend agrees with the reference; else what differs."""
    import numpy as np
    run = _run_declared if "api" in case else _run
    want = run(case, "reference")
    backends = ["auto", "fast"]
    arrays = case["args"] if "api" in case else (case["grad"], case["feature"])
    size = max(np.size(a) for a in arrays if isinstance(a, np.ndarray))
    if emulate and case["semantics"] != "torch" and size <= EMULATED_MAX:
        backends.append("emulator")
    for backend in backends:
        got = run(case, backend)
        if not got[0]:
            return f"{backend}: {got[1]}"
        if got != want:
            if isinstance(got[1], str) or isinstance(want[1], str):
                return f"{backend}: {got[1] if isinstance(got[1], str) else 'a result'}, reference: " \
                       f"{want[1] if isinstance(want[1], str) else 'a result'}"
            if got[1][:2] != want[1][:2]:
                return f"{backend}: {got[1][:2]}, reference: {want[1][:2]}"
            a = np.frombuffer(got[1][2], np.uint8)
            b = np.frombuffer(want[1][2], np.uint8)
            return f"{backend}: {int(np.count_nonzero(a != b))} bytes differ from the reference"
    return None


def worker(seed: int, seconds: float, engine: str) -> int:
    """Random cases until the time is up; the counts as one JSON line; 1 on a failure."""
    if engine == "c-small-crossovers":
        os.environ["OPSNN_FAST_ENGINE"], os.environ["OPSNN_TUNING"] = "c", CROSSOVERS_AT_LEAST
    else:
        os.environ["OPSNN_FAST_ENGINE"] = engine
    import warnings

    import numpy as np
    warnings.simplefilter("error", RuntimeWarning)  # a numpy warning reaching a user is a defect too
    deadline = time.monotonic() + seconds
    cases, known = 0, {}
    apis = declared_apis()
    for index in itertools.count():
        if time.monotonic() >= deadline:
            break
        rng = np.random.default_rng([seed, index])
        case = make_declared_case(rng, apis[int(rng.integers(len(apis)))]) if apis and rng.random() < 0.3 \
            else make_case(rng)
        try:
            problem = check_case(case, emulate=rng.random() < 0.3)
            for _, share, check in SURFACES:  # the other surfaces (dask, torch...)
                if problem is None and rng.random() < share:
                    problem = check(case, rng)
                    if problem is not None and problem.startswith(fuzz_torch.KNOWN):
                        label = problem[len(fuzz_torch.KNOWN):]
                        known[label] = known.get(label, 0) + 1
                        problem = None
        except Exception:  # noqa: BLE001 (the fuzz itself must not hide a crash)
            problem = traceback.format_exc()
        cases += 1
        if problem:
            print(f"FAIL seed={seed} index={index} engine={engine}: {describe(case)}\n  {problem}", file=sys.stderr)
            print(json.dumps({"engine": engine, "seed": seed, "cases": cases, "known": known, "capi": fuzz_capi.COUNTS,
                              "failed": index}))
            return 1
    print(json.dumps({"engine": engine, "seed": seed, "cases": cases, "known": known, "capi": fuzz_capi.COUNTS,
                      "failed": None}))
    return 0


def _spawn(args: list[str]) -> subprocess.Popen:
    env = dict(os.environ)
    env.pop("OPSNN_FAST_ENGINE", None)
    env.pop("OPSNN_TUNING", None)
    return subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _wait(procs, what: str) -> bool:
    ok = True
    for name, p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            print(f"{what} {name}: exit {p.returncode}\n{out}{err[-4000:]}", file=sys.stderr)
            ok = False
        else:
            print(f"  {what} {name}: {out.strip().splitlines()[-1] if out.strip() else 'ok'}")
    return ok


def fuzz_workers(seconds: float, seed: int, engines=ENGINES) -> bool:
    """One worker per engine at once for `seconds`, worker i on seed + i."""
    procs = [(e, _spawn([__file__, "--worker", str(seed + i), str(seconds), e])) for i, e in enumerate(engines)]
    return _wait(procs, "worker")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", 180)),
                   help="time for the random cases (FUZZ_SECONDS)")
    p.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", time.time_ns() % 100_000)))
    p.add_argument("--engines", default=",".join(ENGINES), help="the fast engines, one worker each")
    p.add_argument("--worker", nargs=3, metavar=("SEED", "SECONDS", "ENGINE"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        return worker(int(args.worker[0]), float(args.worker[1]), args.worker[2])
    print(f"fuzz: seed {args.seed}, {args.seconds:.0f} s of random cases (replay: --seed {args.seed})")
    unknown = set(args.engines.split(",")) - set(ENGINES)
    if unknown:
        p.error(f"unknown engine(s) {', '.join(sorted(unknown))}; known: {', '.join(ENGINES)}")
    print(f"  {fuzz_capi.prepare()}")  # built here once, never by the workers at once
    ok = fuzz_workers(args.seconds, args.seed, tuple(args.engines.split(",")))
    print("fuzz: ok" if ok else "fuzz: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
