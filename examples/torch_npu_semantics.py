"""Train a small MLP a few steps with and without opsnn.torch.npu_semantics and show where the
gradients differ from torch's, and why.

    .venv/bin/python examples/torch_npu_semantics.py [--steps N] [--semantics ascend910b|ascend950]

The model is unchanged: npu_semantics intercepts aten.threshold_backward (the backward of nn.ReLU,
F.relu, nn.Threshold) and aten.threshold (nn.Threshold's forward) on CPU and computes them as the
NPU kernels do. A recording mode inside it compares every intercepted backward call with torch's
answer on the same tensors (opsnn's semantics="torch", which is aten bit for bit) and sorts each
differing element by its cause:
  - NaN feature: torch passes the gradient (NaN <= t is false); ThresholdGradV2D on Atlas A2 selects
    on feature > t, false for NaN, so the gradient becomes 0 (Ascend950 keeps torch's rule);
  - threshold near 0 (|t| <= FLT_EPSILON): both NPUs run ReluGrad, out = grad * (feature > 0), a
    multiply: negative grads give -0.0, inf/NaN grads give NaN where the feature is <= 0, and
    features in (0, t] (or (t, 0] for t < 0) are judged against 0, not t;
  - float16 threshold rounding: in the backward, Atlas A2 compares float16 features with the
    threshold rounded to half (0.3 -> 0.300048828125), torch in float32; in the forward
    (aclnnThreshold) both NPUs convert the threshold to x's dtype and compare in it.
"""
from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
import torch
from torch.utils._python_dispatch import TorchDispatchMode

import opsnn
import opsnn.torch

FLT_EPSILON = float(np.finfo(np.float32).eps)


def causes(grad: np.ndarray, feature: np.ndarray, threshold: float, semantics: str, ours: np.ndarray,
           torch_says: np.ndarray) -> Counter:
    """Each element where the NPU result differs from torch's (by bits), sorted by its cause."""
    u = f"u{ours.dtype.itemsize}"
    g, f = np.broadcast_to(grad, ours.shape), np.broadcast_to(feature, ours.shape)
    differ = ours.view(u) != torch_says.view(u)
    found: Counter = Counter()
    if not differ.any():
        return found
    f32 = f.astype(np.float32)
    nan = np.isnan(f32) & differ
    found["backward: NaN feature: torch passes the gradient, the NPU gives 0"] += int(nan.sum())
    rest = differ & ~nan
    if abs(threshold) <= FLT_EPSILON:
        bad_grad = rest & ~np.isfinite(g.astype(np.float32))
        found["backward: threshold near 0 -> ReluGrad: inf/NaN grad x 0 = NaN"] += int(bad_grad.sum())
        sign = rest & ~bad_grad & (ours == 0) & (torch_says == 0)
        found["backward: threshold near 0 -> ReluGrad: negative grad x 0 = -0.0"] += int(sign.sum())
        found[f"backward: threshold near 0 -> ReluGrad: feature judged against 0, not {threshold:g}"] += int(
            (rest & ~bad_grad & ~sign).sum())
    elif f.dtype == np.float16 and np.float32(np.float16(threshold)) != np.float32(threshold):
        half = float(np.float16(threshold))
        found[f"backward: float16 threshold rounded to half: {threshold:g} -> {half:.12g}"] += int(
            rest.sum())
    else:
        found["backward: other"] += int(rest.sum())
    return +found


class Explain(TorchDispatchMode):
    """Used inside npu_semantics: sees each aten.threshold_backward and the NPU result it got."""

    def __init__(self, semantics: str):
        super().__init__()
        self.semantics = semantics
        self.found: Counter = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))  # -> aten's CPU kernel: npu_semantics's override
        if func is torch.ops.aten.threshold_backward.default:
            g, f, t = opsnn.torch.to_numpy(args[0]), opsnn.torch.to_numpy(args[1]), args[2]
            self.found += causes(g, f, t, self.semantics, opsnn.torch.to_numpy(out),
                                 opsnn.threshold_backward(g, f, t, semantics="torch"))
        elif func is torch.ops.aten.threshold.default:
            x, t, v = opsnn.torch.to_numpy(args[0]), args[1], args[2]
            self.found += forward_causes(x, t, opsnn.torch.to_numpy(out), opsnn.threshold(x, t, v))
        return out


def forward_causes(x: np.ndarray, threshold: float, ours: np.ndarray, torch_says: np.ndarray) -> Counter:
    """nn.Threshold's forward: torch compares float16/bfloat16 in float32, the NPUs in x's dtype."""
    u = f"u{ours.dtype.itemsize}"
    differ = ours.view(u) != torch_says.view(u)
    found: Counter = Counter()
    if differ.any():
        t_x = float(np.array(threshold).astype(x.dtype))
        if x.dtype.itemsize == 2 and t_x != threshold:
            found[f"forward: threshold converted to {x.dtype}: {threshold:g} -> {t_x:.12g}, compared in "
                  f"{x.dtype} (torch: in float32)"] += int(differ.sum())
        else:
            found["forward: other"] += int(differ.sum())
    return found


def mlp(dtype: torch.dtype, seed: int = 0) -> torch.nn.Module:
    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Linear(8, 64), torch.nn.ReLU(),           # backward: threshold_backward(grad, result, 0)
        torch.nn.Linear(64, 64), torch.nn.Threshold(0.3, 0.0),  # backward: threshold_backward(grad, input, 0.3)
        torch.nn.Linear(64, 1)).to(dtype)


def data(dtype: torch.dtype, n: int = 256, nan_rows: int = 0):
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(n, 8, generator=gen)
    y = x[:, :1].sin() + 0.1 * torch.randn(n, 1, generator=gen)
    x[:nan_rows, 3] = float("nan")  # samples with a missing value
    return x.to(dtype), y.to(dtype)


def train(dtype, semantics: str | None, steps: int, nan_rows: int = 0):
    model = mlp(dtype)
    x, y = data(dtype, nan_rows=nan_rows)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    log = []
    for _ in range(steps):
        opt.zero_grad()
        if semantics is None:
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            found = Counter()
        else:
            explain = Explain(semantics)
            with opsnn.torch.npu_semantics(semantics), explain:
                loss = ((model(x) - y) ** 2).mean()
                loss.backward()
            found = explain.found
        grads = [p.grad.detach().clone() for p in model.parameters()]
        log.append((loss.item(), grads, found))
        opt.step()
    return model, log


def compare(title: str, dtype, semantics: str, steps: int, nan_rows: int = 0) -> None:
    print(f"\n== {title}: {dtype}, {semantics} vs torch, {steps} SGD steps ==")
    ref_model, ref = train(dtype, None, steps, nan_rows)
    npu_model, npu = train(dtype, semantics, steps, nan_rows)
    names = [n for n, _ in ref_model.named_parameters()]
    for step, ((l_ref, g_ref, _), (l_npu, g_npu, found)) in enumerate(zip(ref, npu, strict=True)):
        print(f"step {step}: loss torch {l_ref:.6g}  {semantics} {l_npu:.6g}")
        for cause, count in found.most_common():
            print(f"    {count:6d} elements differ, {cause}")
        for name, a, b in zip(names, g_ref, g_npu, strict=True):
            u = torch.int16 if a.element_size() == 2 else torch.int32
            n_diff = int((a.view(u) != b.view(u)).sum())
            if n_diff:
                nan = f", NaN: torch {int(a.isnan().sum())} / {semantics} {int(b.isnan().sum())}"
                print(f"    grad of {name:<9} differs in {n_diff:4d} of {a.numel():5d} elements{nan}")
    with torch.no_grad():
        pairs = list(zip(ref_model.parameters(), npu_model.parameters(), strict=True))
        nan_ref, nan_npu = (sum(int(p.isnan().sum()) for p in ps) for ps in zip(*pairs, strict=True))
        both = [(p - q).abs()[~(p.isnan() | q.isnan())] for p, q in pairs]
        drift = max(float(d.max()) if d.numel() else 0.0 for d in both)
    print(f"after {steps} step(s): NaN parameters torch {nan_ref} / {semantics} {nan_npu}; "
          f"largest difference of the others {drift:.3g}")


def main(argv=None) -> int:
    # the docstring's first paragraph, whole (its first line alone stops mid-sentence)
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--steps", type=int, default=3, help="training steps per comparison")
    parser.add_argument("--semantics", default="ascend910b", choices=opsnn.torch.NPU_SEMANTICS,
                        help="which NPU's rules npu_semantics applies")
    args = parser.parse_args(argv)
    compare("NaN features (2 samples with a missing value)", torch.float32, args.semantics, 1, nan_rows=2)
    compare("float16 threshold rounding", torch.float16, args.semantics, args.steps)
    compare("thresholds near 0 (ReLU's backward runs as ReluGrad)", torch.float32, args.semantics, args.steps)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
