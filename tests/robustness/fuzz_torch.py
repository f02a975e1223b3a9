"""The torch surface of the differential fuzz (tests/robustness/fuzz.py): a case of the numpy API
run again as torch.ops.opsnn.<op> (must be the numpy API's bits, or its exception in torch's
convention), under npu_semantics for the ascend semantics (aten's op intercepted: the numpy API's
bits), and for semantics "torch" against torch's own aten op (the oracle: torch 2.13 CPU).

`check(case, rng)` returns None (agrees), a problem (a failure), or a KNOWN label: a departure from
torch that the docs state as an exception (docs/leaky-relu-grad.md §7, docs/integrations.md),
counted apart by the worker, never hidden in the agreeing count."""
from __future__ import annotations

import numpy as np

SIZE_MAX = 70_000  # elements: torch's op and opsnn's op again per case
KNOWN = "known:"
# the documented departures, all NaN bits only: (operator, dtype of the result) -> why
NAN_EXCEPTIONS = {
    # README: torch's vectorised loop writes 0xFFFF for a passed bfloat16 NaN and quiets a passed
    # float16 signalling NaN; opsnn keeps the bits (as torch's scalar loop)
    ("threshold_backward", "float16"): "vectorised loop quiets a passed signalling NaN (README)",
    ("threshold_backward", "bfloat16"): "vectorised loop writes 0xFFFF for a passed NaN (README)",
    ("threshold", "float16"): "vectorised loop quiets a passed signalling NaN (README)",
    ("hardtanh_backward", "float16"): "vectorised loop quiets a passed signalling NaN (as threshold's)",
    # docs/hardtanh-grad.md: NaN payloads are not reproduced where torch's loops rewrite them
    ("hardtanh_backward", "bfloat16"): "vectorised loop writes 0xFFFF for a passed NaN grad (as threshold's)",
    ("leaky_relu_backward", "float16"): "vectorised loop quiets a kept signalling NaN grad",
    ("leaky_relu_backward", "float32"): "vectorised loop quiets a kept signalling NaN grad; NaN slope",
    ("leaky_relu_backward", "float64"): "vectorised loop quiets a kept signalling NaN grad; NaN slope",
    ("threshold", "bfloat16"): "a NaN value: scalar loop 0x7FC0, vectorised 0xFFFF",
}
# docs/nan-payloads.md: mixed dtypes, a float16 operand converted to the wider common dtype first (torch's
# conversion copy: its vectorised part quiets a NaN, its scalar part writes 0x7FFFFFFF)
MIXED_NAN = "a float16 NaN operand promoted to a wider float (the conversion copy's loops)"
# docs/sigmoid-grad.md: a float16 grad broadcast along the last axis (a stride-0 operand of torch's
# vectorised body), y's NaN where both are NaN in the first vector of each step; opsnn grad's
SIGMOID_F16_BROADCAST_NAN = "grad broadcast along the last axis: vectorised body keeps y's NaN (docs/sigmoid-grad.md)"


# docs/sigmoid-grad.md, docs/nan-payloads.md: complex sigmoid_backward, torch's scalar loops contract the
# complex products into fused multiply-adds (per loop shape); opsnn the vectorised body's products
# everywhere: torch's bits where its vectorised body ran (NaN bits aside); in its scalar loops each
# part within 8 eps |dy| |1 - y| |y|, NaN and inf where torch has them unless a product overflows
COMPLEX_ROUNDING = ("sigmoid_backward complex: torch's scalar loops' fused multiply-adds and NaN bits "
                    "(docs/sigmoid-grad.md)")


def _complex_within(t, want, arrays) -> bool:
    """t and want (complex, torch's and opsnn's) differ only as COMPLEX_ROUNDING allows."""
    from opsnn.op_common.torch_loops import torch_vector_mask
    if t.dtype != want.dtype or t.shape != want.shape or want.dtype.kind != "c":
        return False
    info = np.finfo(want.real.dtype)
    vector = torch_vector_mask(arrays[:2], want.dtype, want.dtype.itemsize // 2)
    u = f"u{want.real.dtype.itemsize}"
    with np.errstate(all="ignore"):
        g, y = (np.broadcast_to(np.asarray(a).astype(np.complex128), want.shape) for a in arrays[:2])
        inner = np.abs(1 - y) * np.abs(y)
        bound = 8 * info.eps * np.abs(g) * inner
        overflow = (inner > info.max) | (np.abs(g) * inner > info.max)  # an infinite product: inf - inf
        for a, b in ((t.real, want.real), (t.imag, want.imag)):
            nan = np.isnan(a) & np.isnan(b)
            if not np.all(((a.view(u) == b.view(u)) | nan)[vector]):
                return False
            same_kind = (np.isnan(a) == np.isnan(b)) & (np.isposinf(a) == np.isposinf(b)) & (
                np.isneginf(a) == np.isneginf(b))
            if not np.all(same_kind | overflow):
                return False
            finite = np.isfinite(a) & np.isfinite(b)
            if not np.all(np.abs(a[finite].astype(np.float64) - b[finite].astype(np.float64)) <= bound[finite]):
                return False
    return True


# docs/selu-grad.md: where grad and result are both NaN, which one torch's kernel keeps varies by
# lane (float16 within a vector, float32 / float64 with a broadcast operand); opsnn keeps one rule
BOTH_NAN = {"selu_backward": "grad and result both NaN: which NaN torch keeps varies by lane (docs/selu-grad.md)"}


def _both_nan_where_differ(t, want, arrays) -> bool:
    differ = (_bits(t) != _bits(want)).reshape(want.shape)
    with np.errstate(invalid="ignore"):
        a, b = (np.broadcast_to(np.asarray(x).astype(np.float64), want.shape) for x in arrays[:2])
    return bool(np.all(np.isnan(a[differ]) & np.isnan(b[differ])))


def _grad_broadcast_last(arrays, shape) -> bool:
    return bool(shape) and shape[-1] > 1 and np.shape(arrays[0])[-1:] in ((), (1,))


# declared APIs with no aten op of their own: the aten call that computes them (torch's oracle, and
# what npu_semantics intercepts): nn.SELU's backward is elu_backward with SELU's constants
ATEN_CALLS = {"selu_backward": lambda torch: lambda g, r: torch.ops.aten.elu_backward(
    g, 1.6732632423543772848170429916717, 1.0507009873554804934193349852946, 1, True, r)}


def _torch():
    try:
        import torch

        import opsnn.torch as ot
    except ImportError:
        return None, None
    return torch, ot


def _scalar(v):
    return v.item() if isinstance(v, np.generic) else v


def _call(fn, *args):
    try:
        return True, fn(*args)
    except Exception as e:  # noqa: BLE001 (compared across surfaces)
        return False, e


def _bits(a) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.reshape(-1).view(f"u{a.dtype.itemsize}") if a.dtype.itemsize in (1, 2, 4, 8) else a.view(np.uint8)


def _same(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(_bits(a), _bits(b))


def _nan_only(a, b) -> bool:
    """a and b differ only where both are NaN."""
    if a.dtype != b.dtype or a.shape != b.shape or a.dtype.kind != "f" and a.dtype.name != "bfloat16":
        return False
    with np.errstate(invalid="ignore"):  # a signalling NaN widened
        fa, fb = a.astype(np.float64).reshape(-1), b.astype(np.float64).reshape(-1)
    differ = _bits(a) != _bits(b)
    return bool(np.all(np.isnan(fa[differ]) & np.isnan(fb[differ])))


def _calls(case):
    """(name, numpy-API callable, torch.ops.opsnn callable, aten callable, tensors' arrays)."""
    import opsnn
    torch, ot = _torch()
    sem = case["semantics"]
    if "api" in case:
        name = case["api"]
        arrays = [np.ascontiguousarray(a) if isinstance(a, np.ndarray) else _scalar(a) for a in case["args"]]
        from opsnn.torch import _generic
        if name not in _generic.OPS:  # no numpy API declared: no torch surface
            return None
        aten_name = _generic.OPS[name].api.aten
        if not aten_name and name not in ATEN_CALLS:  # nothing of torch's to compare with or intercept
            return None
        aten_fn = ATEN_CALLS[name](torch) if not aten_name else getattr(torch.ops.aten, aten_name)
        return (name, lambda *a: getattr(opsnn, name)(*a, semantics=sem),
                lambda *a: getattr(torch.ops.opsnn, name)(*a, sem), aten_fn, arrays)
    if case["forward"]:
        arrays = [np.ascontiguousarray(case["grad"]), _scalar(case["threshold"]), _scalar(case["value"])]
        return ("threshold", lambda *a: opsnn.threshold(*a, semantics=sem),
                lambda *a: torch.ops.opsnn.threshold(*a, sem), torch.ops.aten.threshold, arrays)
    arrays = [np.ascontiguousarray(case["grad"]), np.ascontiguousarray(case["feature"]), _scalar(case["threshold"])]
    return ("threshold_backward", lambda *a: opsnn.threshold_backward(*a, semantics=sem),
            lambda *a: torch.ops.opsnn.threshold_backward(*a, sem), torch.ops.aten.threshold_backward, arrays)


def check(case, rng) -> str | None:
    torch, ot = _torch()
    if torch is None:
        return None
    calls = _calls(case)
    if calls is None:
        return None
    name, numpy_fn, op_fn, aten_fn, arrays = calls
    if max((a.size for a in arrays if isinstance(a, np.ndarray)), default=0) > SIZE_MAX:
        return None
    try:
        tensors = [ot.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a for a in arrays]
    except (TypeError, ValueError):  # a dtype torch has no tensor of (this fuzz makes none today)
        return None
    ok, want = _call(numpy_fn, *arrays)
    # 1. torch.ops.opsnn.<op>: the numpy API, errors in torch's convention
    got_ok, got = _call(op_fn, *tensors)
    if ok != got_ok:
        return f"torch.ops.opsnn.{name}: {'a result' if got_ok else repr(got)}, numpy API: " \
               f"{'a result' if ok else repr(want)}"
    if ok and not _same(ot.to_numpy(got), np.asarray(want)):
        return f"torch.ops.opsnn.{name}: not the numpy API's bits"
    if not ok and isinstance(want, TypeError) != isinstance(got, NotImplementedError):
        return f"torch.ops.opsnn.{name}: {type(got).__name__} for the numpy API's {type(want).__name__}"
    sem = case["semantics"]
    if sem != "torch":  # 2. npu_semantics: aten's op intercepted, the numpy API's answer
        with ot.npu_semantics(sem):
            got_ok, got = _call(aten_fn, *tensors)
        if ok != got_ok or (ok and not _same(ot.to_numpy(got), np.asarray(want))):
            return f"npu_semantics({sem}) aten.{name}: differs from the numpy API"
        return None
    # 3. semantics "torch": torch's own op is the oracle
    t_ok, t = _call(aten_fn, *tensors)
    if isinstance(t, TypeError):  # a scalar aten cannot take as a Python number: not a comparison
        return None
    if ok != t_ok:
        return f"aten.{name}: {'a result' if t_ok else repr(t)[:120]}, opsnn: {'a result' if ok else repr(want)[:120]}"
    if not ok:
        return None
    t, want = ot.to_numpy(t), np.asarray(want)
    if _same(t, want):
        return None
    if _nan_only(t, want):
        why = NAN_EXCEPTIONS.get((name, want.dtype.name))
        tensors = [a for a in arrays if isinstance(a, np.ndarray)]
        if why is None and len({a.dtype for a in tensors}) > 1 and want.dtype.itemsize > 2 \
                and any(a.dtype == np.float16 for a in tensors):
            why = MIXED_NAN
        if why is None and name == "sigmoid_backward" and want.dtype == np.float16 \
                and _grad_broadcast_last(arrays, want.shape):
            why = SIGMOID_F16_BROADCAST_NAN
        if why is None and name in BOTH_NAN and _both_nan_where_differ(t, want, arrays):
            why = BOTH_NAN[name]
        if why is not None:
            return f"{KNOWN}{name} {want.dtype.name}: {why}"
    if name == "sigmoid_backward" and _complex_within(t, want, arrays):
        return f"{KNOWN}{COMPLEX_ROUNDING}"
    return f"aten.{name}: {int(np.count_nonzero(_bits(t) != _bits(want)))} elements differ from torch's"
