"""Issue 27 item 7, adversarially: many bad calls across every numpy operator, semantics and backend
each end in opsnn's own TypeError (dtypes, types) or ValueError (shapes, values), raised by opsnn's
code (the raising frame is in opsnn, not deep inside numpy), never anything else, and never write
into out=."""
from __future__ import annotations

import itertools
import os
import traceback

import numpy as np
import pytest

import opsnn

OPSNN_DIR = os.path.dirname(opsnn.__file__)
SEMANTICS = ("torch", "ascend910b", "ascend950")
BACKENDS = ("auto", "fast", "reference", "emulator")
F32 = np.ones((2, 3), np.float32)

OPERATORS = {  # name: (function, good positional arguments after the arrays, number of arrays)
    "threshold_backward": (opsnn.threshold_backward, (0.5,), 2),
    "leaky_relu_backward": (opsnn.leaky_relu_backward, (0.5,), 2),
    "hardtanh_backward": (opsnn.hardtanh_backward, (-1.0, 1.0), 2),
    "threshold": (opsnn.threshold, (0.5, 0.0), 1),
}

BAD_ARRAYS = [  # (label, value): never a valid operand
    ("complex", np.ones((2, 3), np.complex64)),
    ("str", np.array([["a", "b", "c"]] * 2)),
    ("object", np.array([[object()] * 3] * 2, dtype=object)),
    ("datetime", np.zeros((2, 3), "datetime64[s]")),
    ("void", np.zeros((2, 3), "V4")),
    ("structured", np.zeros((2, 3), [("a", "f4")])),
    ("ragged", [[1.0], [1.0, 2.0]]),
    ("none", None),
    ("shape", np.ones((4, 5), np.float32)),
    ("uint32", np.ones((2, 3), np.uint32)),
    ("uint64", np.ones((2, 3), np.uint64)),
]
BAD_SCALARS = [("str", "1"), ("none", None), ("list", [1.0]), ("complex", 1j), ("array", np.ones(2)),
               ("huge-int", 2**70), ("bytes", b"1"), ("dict", {}), ("complex-np", np.complex64(1)),
               ("huge-longdouble", np.longdouble("1e4000") if np.isfinite(np.longdouble("1e4000")) else "x")]
BAD_NAMES = [("semantics", "cuda"), ("semantics", ["torch"]), ("semantics", None), ("semantics", 1),
             ("backend", "gpu"), ("backend", ("fast",)), ("backend", b"fast")]
BAD_OUTS = [("list", [0.0] * 6), ("shape", np.zeros((3, 2), np.float32)), ("dtype", np.zeros((2, 3), np.int64)),
            ("readonly", np.zeros((2, 3), np.float32)), ("scalar", np.float32(0)), ("0d", np.zeros((), np.float32))]
BAD_OUTS[3][1].flags.writeable = False


def bad_calls():
    """(label, function, args, kwargs) for every operator, semantics and backend."""
    for (name, (function, scalars, arrays)), semantics, backend in itertools.product(
            OPERATORS.items(), SEMANTICS, BACKENDS):
        kw = {"semantics": semantics, "backend": backend}
        if backend == "emulator" and semantics == "torch":
            continue  # refused by name; covered below
        for position in range(arrays):
            for label, value in BAD_ARRAYS:
                if label == "shape" and arrays == 1:
                    continue  # one operand: any shape is its own
                if label in ("uint32", "uint64") and semantics == "torch" and arrays > 1:
                    continue  # beside a float operand torch promotes a wide unsigned one and computes
                args = [F32] * arrays
                args[position] = value
                yield f"{name}/{semantics}/{backend}/array{position}-{label}", function, (*args, *scalars), kw
        for position in range(len(scalars)):
            for label, value in BAD_SCALARS:
                if label == "huge-int" and ((name == "leaky_relu_backward" and semantics == "torch") or (
                        name == "threshold_backward" and semantics != "torch")):
                    continue  # read as a double (torch's slope) or a float (aclScalar): accepted, as there
                args = list(scalars)
                args[position] = value
                yield f"{name}/{semantics}/{backend}/scalar{position}-{label}", function, ([F32] * arrays + args), kw
        for label, out in BAD_OUTS:
            yield f"{name}/{semantics}/{backend}/out-{label}", function, ([F32] * arrays + list(scalars)), {
                **kw, "out": out}
    for semantics, backend in itertools.product(SEMANTICS[1:], BACKENDS):  # what the ascend kernels refuse
        kw = {"semantics": semantics, "backend": backend}
        for name in ("threshold_backward", "leaky_relu_backward", "hardtanh_backward"):
            function, scalars, _ = OPERATORS[name]
            for label, (g, x) in {"broadcast": (F32[:1], F32), "rank9": (np.ones((1,) * 9, np.float32),) * 2,
                                  "int64": (np.ones(3, np.int64),) * 2, "bool": (np.ones(3, bool),) * 2,
                                  "mixed": (np.ones(3, np.float16), np.ones(3, np.float32)),
                                  "0d-mixed": (np.float32(1), np.ones(3, np.float16))}.items():
                if name == "threshold_backward" and label in ("broadcast", "int64", "0d-mixed", "mixed"):
                    continue  # ThresholdGradV2D broadcasts and takes int32 / int8 / uint8 ... (its own rules)
                if name == "leaky_relu_backward" and label in ("broadcast", "mixed", "0d-mixed"):
                    continue  # aclnnLeakyReluBackward broadcasts and promotes
                yield f"{name}/{semantics}/{backend}/ascend-{label}", function, (g, x, *scalars), kw
    for backend in BACKENDS[:3]:  # torch's refusals
        kw = {"backend": backend}
        for name in ("leaky_relu_backward", "hardtanh_backward"):
            function, scalars, _ = OPERATORS[name]
            for label, dt in (("int32", np.int32), ("bool", np.bool_), ("uint8", np.uint8)):
                yield f"{name}/torch/{backend}/{label}", function, (np.ones(3, dt), np.ones(3, dt), *scalars), kw
        yield (f"leaky/torch/{backend}/self_is_result-negative", opsnn.leaky_relu_backward, (F32, F32, -0.5, True), kw)
        yield (f"leaky/torch/{backend}/self_is_result-nan", opsnn.leaky_relu_backward, (F32, F32, np.nan, True), kw)
        yield (f"leaky/torch/{backend}/self_is_result-str", opsnn.leaky_relu_backward, (F32, F32, 0.5, "yes"), kw)
        yield (f"leaky/torch/{backend}/slope-1e39", opsnn.leaky_relu_backward, (F32, F32, 1e39), kw)
        yield (f"hardtanh/torch/{backend}/bound-1e39", opsnn.hardtanh_backward, (F32, F32, -1e39, 1.0), kw)
        yield (f"threshold/torch/{backend}/int-threshold-inf", opsnn.threshold_backward,
               (np.ones(3, np.int32), np.ones(3, np.int32), np.inf), kw)
        yield (f"threshold/torch/{backend}/uint8-value-300", opsnn.threshold, (np.ones(3, np.uint8), 0, 300), kw)
        for name, (function, scalars, arrays) in OPERATORS.items():
            yield (f"{name}/torch/{backend}/out-non-native", function, ([F32] * arrays + list(scalars)),
                   {**kw, "out": np.zeros((2, 3), ">f4")})
    for (name, (function, scalars, arrays)), (what, value) in itertools.product(OPERATORS.items(), BAD_NAMES):
        yield f"{name}/{what}-{value!r}", function, ([F32] * arrays + list(scalars)), {what: value}
        yield f"{name}/emulator-torch", function, ([F32] * arrays + list(scalars)), {"backend": "emulator"}


CALLS = list(bad_calls())


def raised_by_opsnn(error: BaseException) -> bool:
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and frames[-1].filename.startswith(OPSNN_DIR)


def test_there_are_many_bad_calls():
    assert len(CALLS) > 1500


@pytest.mark.parametrize("chunk", range(8))
def test_every_bad_call_is_opsnns_type_or_value_error(chunk):
    failures = []
    for label, function, args, kwargs in CALLS[chunk::8]:
        out = kwargs.get("out")
        before = out.copy() if isinstance(out, np.ndarray) else None
        try:
            function(*args, **kwargs)
        except (TypeError, ValueError) as error:
            if not raised_by_opsnn(error):
                failures.append(f"{label}: {type(error).__name__} from {traceback.extract_tb(error.__traceback__)[-1]}"
                                f": {error}")
            elif "unhashable" in str(error) or "Mismatch is between arg" in str(error):
                failures.append(f"{label}: internal message: {error}")
        except Exception as error:  # noqa: BLE001 -- any other type is a failure of this test
            failures.append(f"{label}: {type(error).__name__}: {error}")
        else:
            failures.append(f"{label}: accepted")
        if before is not None and before.tobytes() != out.tobytes():
            failures.append(f"{label}: wrote into out")
    assert not failures, "\n".join(failures[:40]) + f"\n({len(failures)} in all)"
