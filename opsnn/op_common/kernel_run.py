"""Running one kernel launch outside aclnn: exactly-sized tensors in a fresh GM, random inputs,
the launch under the sanitizer with the padding the tiling declares, and the outputs compared
with the operator's functional model. What `opsnn sanitize` and the op_kernel tests of every
operator do."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport, Padding, launch
from opsnn.platform import Platform


@dataclass(frozen=True)
class KernelRun:
    report: LaunchReport
    outputs: dict[str, np.ndarray]  # each output as the kernel left it (logical bytes only)


# The functional model of a run: its inputs by kernel argument name (flat, as copied in) -> the
# outputs the kernel should leave, by name (flat, bit for bit).
Model = Callable[[Mapping[str, np.ndarray]], Mapping[str, np.ndarray]]
FIRST_SHOWN = 8  # mismatching indices a Mismatch lists


@dataclass(frozen=True)
class Mismatch:
    """An output whose bits differ from the functional model's somewhere.

    Parameters
    ----------
    output : str
        The kernel argument's name.
    count : int
        Elements that differ.
    total : int
        Elements compared.
    first : tuple of int
        The first (up to 8) flat indices that differ.
    """
    output: str
    count: int
    total: int
    first: tuple[int, ...]

    def to_dict(self) -> dict:
        return {**asdict(self), "first": list(self.first)}

    def __str__(self) -> str:
        return (f"{self.output}: {self.count} of {self.total} element(s) differ from the functional model, "
                f"first at flat index {', '.join(map(str, self.first))}")


def compare_bits(name: str, got: np.ndarray, want: np.ndarray) -> Mismatch | None:
    """got against want bit for bit (NaN payloads and signed zeros count); None when they agree."""
    want = np.ascontiguousarray(np.asarray(want, dtype=got.dtype)).reshape(-1)
    if want.size != got.size:
        raise ValueError(f"the functional model gives {want.size} elements of {name}, the kernel {got.size}")
    u = f"u{got.dtype.itemsize}"
    differ = np.flatnonzero(got.reshape(-1).view(u) != want.view(u))
    if not differ.size:
        return None
    return Mismatch(name, int(differ.size), int(got.size), tuple(int(i) for i in differ[:FIRST_SHOWN]))


def random_values(rng: np.random.Generator, dtype: np.dtype, n: int) -> np.ndarray:
    """n values of `dtype`: the full range for integers, a spread around 0 for floats."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    return (rng.standard_normal(n) * 2).astype(np.float32).astype(dtype)


def launch_kernel(kernel: Callable, arg_names: Sequence[str], *, gm: GlobalMemory, platform: Platform,
                  block_dim: int, tiling: bytes, args: Mapping[str, KernelArg | None],
                  sanitize: bool = False) -> LaunchReport:
    """Launch `kernel(ctx, *gm_addrs, tiling)` over `block_dim` cores with its GM_ADDR arguments
    taken from `args` in the kernel's own order (`arg_names`); a missing name is a nullptr."""
    unknown = set(args) - set(arg_names)
    if unknown:
        raise TypeError(f"unknown kernel argument(s) {', '.join(sorted(unknown))}; the kernel takes "
                        f"{', '.join(arg_names)}")
    return launch(kernel, gm=gm, platform=platform, block_dim=block_dim,
                  args=tuple(args.get(n) for n in arg_names), tiling=tiling, sanitize=sanitize)


class ExactRun:
    """One kernel's tensors at their exact size in a fresh GM (which pads each allocation to 512
    bytes, as the device pool does), the inputs copied in, ready to launch as often as wanted
    (`opsnn sanitize` launches once, the emulator benchmark many times). Given the operator's
    functional `model`, `mismatches()` compares the outputs with it."""

    def __init__(self, run_kernel: Callable, *, platform: Platform, block_dim: int, tiling: bytes,
                 inputs: Mapping[str, np.ndarray], outputs: Mapping[str, tuple[np.dtype, int]],
                 padding: Mapping[str, tuple[Padding, ...]], model: Model | None = None, **options):
        self.run_kernel, self.platform, self.block_dim, self.tiling = run_kernel, platform, block_dim, bytes(tiling)
        self.options = options
        self.model = model
        # the inputs as given, for the model: a kernel writing its inputs must not change the answer
        self.inputs = {name: np.array(host).reshape(-1) for name, host in inputs.items()} if model else {}
        self.gm = GlobalMemory()
        self.args: dict[str, KernelArg] = {}
        for name, host in inputs.items():
            raw = np.ascontiguousarray(host).reshape(-1).view(np.uint8)
            addr = self.gm.malloc(max(raw.size, 1))
            self.gm.bytes_view(addr, raw.size)[:] = raw
            self.args[name] = KernelArg(name, addr, raw.size, padding.get(name, ()))
        self.output_dtypes = {name: np.dtype(dtype) for name, (dtype, _) in outputs.items()}
        for name, (dtype, n) in outputs.items():
            nbytes = np.dtype(dtype).itemsize * n
            self.args[name] = KernelArg(name, self.gm.malloc(max(nbytes, 1)), nbytes, padding.get(name, ()))

    @property
    def num_elements(self) -> int:
        """Elements of the first output (what throughput is counted in)."""
        name, dtype = next(iter(self.output_dtypes.items()))
        return self.args[name].nbytes // dtype.itemsize

    def launch(self, sanitize: bool = True) -> LaunchReport:
        return self.run_kernel(gm=self.gm, platform=self.platform, block_dim=self.block_dim, tiling=self.tiling,
                               sanitize=sanitize, **self.args, **self.options)

    def mismatches(self) -> list[Mismatch] | None:
        """The outputs whose bits differ from the functional model's (after a launch); None when
        the run has no model."""
        if self.model is None:
            return None
        got = self.outputs()
        found = (compare_bits(name, got[name], want) for name, want in self.model(self.inputs).items())
        return [m for m in found if m is not None]

    def outputs(self) -> dict[str, np.ndarray]:
        """Each output as the kernel left it (logical bytes only), copied out."""
        return {name: np.array(self.gm.bytes_view(self.args[name].addr, self.args[name].nbytes)).view(dtype)
                for name, dtype in self.output_dtypes.items()}


def run_exact(run_kernel: Callable, *, platform: Platform, block_dim: int, tiling: bytes,
              inputs: Mapping[str, np.ndarray], outputs: Mapping[str, tuple[np.dtype, int]],
              padding: Mapping[str, tuple[Padding, ...]], sanitize: bool = True, **options) -> KernelRun:
    """ExactRun, launched once: the report and the outputs."""
    run = ExactRun(run_kernel, platform=platform, block_dim=block_dim, tiling=tiling, inputs=inputs,
                   outputs=outputs, padding=padding, **options)
    report = run.launch(sanitize)
    return KernelRun(report, run.outputs())
