"""opsnn command line: example | tiling | sanitize."""
from __future__ import annotations

import argparse
import json
import sys

from opsnn.dtypes import to_numpy
from opsnn.platform import SOCS, Platform, get_platform


class UsageError(Exception):
    """Bad command-line input: message on stderr, exit code 2."""


def parse_shape(text: str) -> tuple[int, ...]:
    """'2,2', '[2,2]', '2x2', '' or '[]' (rank 0)."""
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    body = body.replace("x", ",").strip()
    if not body:
        return ()
    dims = []
    for part in body.split(","):
        part = part.strip()
        try:
            d = int(part)
        except ValueError:
            raise UsageError(f"bad --shape {text!r}: {part!r} is not an integer") from None
        if d < 0:
            raise UsageError(f"bad --shape {text!r}: negative dimension {d}")
        dims.append(d)
    return tuple(dims)


def _platform(args) -> Platform:
    if args.ub_size is not None or args.cores is not None:
        if args.soc is not None:
            raise UsageError("give either --soc or --ub-size/--cores, not both")
        if args.ub_size is None or args.cores is None:
            raise UsageError("--ub-size and --cores go together")
        try:
            return Platform.custom(args.ub_size, args.cores)
        except ValueError as e:
            raise UsageError(str(e)) from None
    try:
        return get_platform(args.soc)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _num_elements(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _tiling_for(args):
    from opsnn.activation.threshold_grad_v2_d.op_host import TilingError, tiling

    platform = _platform(args)
    shape = parse_shape(args.shape)
    try:
        return platform, shape, tiling(_num_elements(shape), args.dtype, args.threshold, platform)
    except (TilingError, TypeError) as e:
        raise UsageError(str(e)) from None


def cmd_tiling(args) -> int:
    from opsnn.activation.threshold_grad_v2_d.op_host import core_plan

    platform, shape, result = _tiling_for(args)
    if args.json:
        print(json.dumps(result.to_json_dict()))
        return 0
    d = result.tiling_data
    print(f"ThresholdGradV2D tiling  shape={list(shape)}  dtype={result.dtype}  n={result.num_elements}")
    print(f"platform {platform.name}: ub_size={platform.ub_size} aiv_cores={platform.aiv_cores}")
    rows = [("block_dim", result.block_dim), ("tiling_key", result.tiling_key),
            ("workspace_size", result.workspace_size), *d.upstream_dict().items()]
    for key, value in rows:
        print(f"  {key:<18} {value}")
    print(f"  {'tiling_data':<18} {d.to_bytes().hex()}")
    itemsize = to_numpy(result.dtype).itemsize
    print("per-core plan (elements):")
    print(f"  {'core':>4} {'kind':>5} {'start':>12} {'end':>12} {'tiles':>6} {'tile':>7} {'tail':>7} {'pad_bytes':>9}")
    for p in core_plan(d, result.block_dim):
        pad = max(0, p.end - max(p.start, result.num_elements)) * itemsize
        print(f"  {p.core:>4} {'big' if p.big else 'small':>5} {p.start:>12} {p.end:>12} {p.tile_num:>6} "
              f"{d.tile_data_num:>7} {p.tail_num:>7} {pad:>9}")
    return 0


def cmd_sanitize(args) -> int:
    """Tiling + kernel under the sanitizer on exactly-sized random tensors; exit 1 on any error finding."""
    from opsnn.activation.threshold_grad_v2_d.op_kernel.sanitize import format_report, sanitize_tiling

    platform, shape, result = _tiling_for(args)
    report = sanitize_tiling(result, platform, upstream_int8_temp=args.upstream_int8_temp)
    if args.json:
        print(json.dumps({"block_dim": report.block_dim, "findings": [f.to_dict() for f in report.findings]}))
    else:
        print(f"ThresholdGradV2D sanitize  shape={list(shape)}  dtype={result.dtype}  n={result.num_elements}  "
              f"platform {platform.name}  block_dim={report.block_dim}")
        print("\n".join(format_report(report)))
    return 0 if report.ok else 1


def cmd_example(args) -> int:
    """Run examples/test_aclnn_threshold_backward.py (spec §10) from the checkout this package
    lives in: the example is a developer's script, kept where upstream keeps it, not package data."""
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "examples" / "test_aclnn_threshold_backward.py"
    if not example.is_file():
        raise UsageError(f"the reference example {example} is missing: `opsnn example` runs it from the "
                         "source checkout (an installed wheel does not ship examples/)")
    return int(runpy.run_path(str(example), run_name="opsnn_example")["main"]())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="opsnn", description="ThresholdGradV2D operator stack, emulated")
    sub = parser.add_subparsers(dest="command", required=True)

    def shape_args(p):
        p.add_argument("--shape", required=True, help="e.g. 2,2 or [2,2]; '' or [] for rank 0")
        p.add_argument("--dtype", default="float32")
        p.add_argument("--soc", default=None, help=f"one of {', '.join(SOCS)} (default Ascend910B2)")
        p.add_argument("--ub-size", type=int, default=None)
        p.add_argument("--cores", type=int, default=None)
        p.add_argument("--threshold", type=float, default=1.0)
        p.add_argument("--json", action="store_true")

    p = sub.add_parser("tiling", help="print the tiling of a shape")
    shape_args(p)
    p.set_defaults(func=cmd_tiling)
    p = sub.add_parser("sanitize", help="run tiling + kernel under the sanitizer and report findings")
    shape_args(p)
    p.add_argument("--upstream-int8-temp", action="store_true",
                   help="size the int8/uint8 float32 temporary as upstream does (2 B/element)")
    p.set_defaults(func=cmd_sanitize)
    p = sub.add_parser("example", help="run the reference example (spec §10)")
    p.set_defaults(func=cmd_example)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # argparse itself exits 2 on bad usage
    try:
        return args.func(args)
    except UsageError as e:
        print(f"opsnn {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
