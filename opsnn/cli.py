"""opsnn command line: `opsnn tiling|sanitize|example [OP] ...` for any registered operator
(default threshold_grad_v2_d). The CLI knows no operator: it asks opsnn.registry for the
operator's inputs, dtypes and options, and calls the operator's tools.

Every bad input exits 2 with one line on stderr; `opsnn sanitize` exits 1 when the sanitizer
reports an error or the outputs differ from the operator's functional model."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

from opsnn import registry
from opsnn.dtypes import to_numpy
from opsnn.platform import DEFAULT_SOC, SOCS, Platform, get_platform

DEFAULT_OPERATOR = "threshold_grad_v2_d"
MAX_RANK = 8  # what aclnn accepts
MAX_UB_SIZE = 1 << 32  # a UB size must fit the uint32 the platform API reports
MAX_CORES = 65535  # the most cores a launch can name
INT64_MAX = 2**63 - 1  # a dimension and an element count must fit aclnn's int64
DEFAULT_FAMILY = "ascend910b"  # the scheme of a custom platform without --family
COMMANDS = ("tiling", "sanitize", "example", "info", "tune", "atk", "ut", "run", "new-op")


class UsageError(Exception):
    """Bad command-line input: one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse prints usage plus message; we print one line
        raise UsageError(message)


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Defaults in the help, except the empty ones (None, False): "(default: None)" says nothing."""

    def _get_help_string(self, action):
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def parse_shape(text: str, what: str = "--shape") -> tuple[int, ...]:
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
            raise UsageError(f"bad {what} {text!r}: {part!r} is not an integer") from None
        if d < 0:
            raise UsageError(f"bad {what} {text!r}: negative dimension {d}")
        dims.append(d)
    if len(dims) > MAX_RANK:
        raise UsageError(f"bad {what} {text!r}: rank {len(dims)} is more than the {MAX_RANK} dims aclnn accepts")
    if math.prod(dims) > INT64_MAX or any(d > INT64_MAX for d in dims):
        raise UsageError(f"bad {what} {text!r}: more elements than an int64 counts (at most {INT64_MAX})")
    return tuple(dims)


def default_soc(op: registry.Operator) -> str:
    """The SoC used without --soc: DEFAULT_SOC where the operator has a kernel for its family, else
    the first SoC of one it has (LeakyReluGrad's AscendC kernel is for ascend950 only: on
    Ascend910B it is a built-in TBE kernel, with no tiling to show)."""
    if op.op_def.supports(SOCS[DEFAULT_SOC].family):
        return DEFAULT_SOC
    return next((name for name, soc in SOCS.items() if op.op_def.supports(soc.family)), DEFAULT_SOC)


def _platform(args, op: registry.Operator) -> Platform:
    if args.family is not None and args.ub_size is None and args.cores is None:
        raise UsageError("--family describes a custom platform: give it with --ub-size and --cores "
                         "(a --soc has its own family)")
    if args.ub_size is not None or args.cores is not None:
        if args.soc is not None:
            raise UsageError("give either --soc or --ub-size/--cores, not both")
        if args.ub_size is None or args.cores is None:
            raise UsageError("--ub-size and --cores go together")
        if not 0 < args.ub_size <= MAX_UB_SIZE:
            raise UsageError(f"--ub-size must be in [1, {MAX_UB_SIZE}], got {args.ub_size}")
        if not 0 < args.cores <= MAX_CORES:
            raise UsageError(f"--cores must be in [1, {MAX_CORES}], got {args.cores}")
        try:
            return Platform.custom(args.ub_size, args.cores,
                                   family=args.family or SOCS[default_soc(op)].family)
        except ValueError as e:
            raise UsageError(str(e)) from None
    try:
        return get_platform(args.soc or default_soc(op))
    except ValueError as e:
        raise UsageError(str(e)) from None


def _request(op: registry.Operator, args, command: str) -> registry.ToolRequest:
    n_inputs = sum(1 for t in op.op_def.inputs if t.param_type == "REQUIRED")
    if args.input_shapes is not None:
        if args.shape is not None:
            raise UsageError("give either --shape or --input-shapes, not both")
        shapes = tuple(parse_shape(s, "--input-shapes") for s in args.input_shapes)
        if len(shapes) != n_inputs:
            names = ", ".join(t.name for t in op.op_def.inputs[:n_inputs])
            raise UsageError(f"--input-shapes takes {n_inputs} shape(s) ({names}), got {len(shapes)}")
    elif args.shape is not None:
        shapes = (parse_shape(args.shape),) * n_inputs
    else:
        raise UsageError("give --shape S (every input) or --input-shapes S1 S2 ...")
    options = {o.name: getattr(args, o.name) for o in op.options if command in o.commands}
    return registry.ToolRequest(shapes, args.dtype, _platform(args, op), options)


def _gm_guard(request: registry.ToolRequest, op: registry.Operator) -> None:
    """Refuse, before allocating, a sanitize run whose tensors the machine cannot hold."""
    itemsize = to_numpy(request.dtype).itemsize
    n_out = max((math.prod(s) for s in request.input_shapes), default=1)
    total = (sum(math.prod(s) for s in request.input_shapes) + n_out * len(op.op_def.outputs)) * itemsize
    limit = _memory_bytes() // 4
    if total > limit:
        raise UsageError(f"the tensors need {total / 2**30:.1f} GiB of emulated device memory; this machine "
                         f"allows {limit / 2**30:.1f} GiB (a quarter of its RAM)")


def _memory_bytes() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def _tools(op: registry.Operator):
    try:
        return op.tools_module()
    except ValueError as e:
        raise UsageError(str(e)) from None


def _finite_or_named(value):
    """JSON has no inf or NaN: they are written as the strings "inf", "-inf", "nan" (the struct's
    exact bits are in tiling_data)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _finite_or_named(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite_or_named(v) for v in value]
    return value


def _strict_json(doc) -> str:
    return json.dumps(_finite_or_named(doc), allow_nan=False)


def cmd_tiling(op: registry.Operator, args) -> int:
    request = _request(op, args, "tiling")
    try:
        report = _tools(op).tiling_report(request)
    except (ValueError, TypeError, OverflowError) as e:
        raise UsageError(str(e)) from None
    if args.plot:
        from opsnn import plots

        _plot(lambda path: plots.plot_core_plan(report.core_rows(), path,
                                                f"{op.op_type} tiling on {request.platform.name}"), args.plot)
    if args.json:
        print(_strict_json(report.json_dict()))
    else:
        print("\n".join(report.text_lines()))
    return 0


def cmd_sanitize(op: registry.Operator, args) -> int:
    """Tiling + kernel under the sanitizer on exactly-sized random tensors, the outputs compared with
    the operator's functional model; exit 1 on any error finding or mismatch."""
    request = _request(op, args, "sanitize")
    try:
        to_numpy(request.dtype)
    except TypeError as e:
        raise UsageError(str(e)) from None
    _gm_guard(request, op)
    try:
        run = _tools(op).prepare_run(request)
        report = run.launch(sanitize=True)
    except (ValueError, TypeError, OverflowError) as e:
        raise UsageError(str(e)) from None
    mismatches = run.mismatches() if hasattr(run, "mismatches") else None  # None: no model to compare with
    failed = not report.ok or bool(mismatches)
    stats = getattr(report, "core_stats", None)
    if (args.stats or args.plot) and stats is None:
        raise UsageError(f"{op.name}'s launch report carries no per-core statistics")
    if args.plot:
        from opsnn import plots

        _plot(lambda path: plots.plot_kernel_stats([s.to_dict() for s in stats], path,
                                                   f"{op.op_type} on {request.platform.name}",
                                                   [f.to_dict() for f in report.findings]), args.plot)
    if args.json:
        doc = {"block_dim": report.block_dim, "findings": [f.to_dict() for f in report.findings],
               "model_mismatches": None if mismatches is None else [m.to_dict() for m in mismatches]}
        if args.stats:
            doc["stats"] = [s.to_dict() for s in stats]
        print(_strict_json(doc))
        return 1 if failed else 0
    print(f"{op.op_type} sanitize  shapes={[list(s) for s in request.input_shapes]}  dtype={request.dtype}  "
          f"platform {request.platform.name}  block_dim={report.block_dim}")
    from opsnn.ascendc.findings import format_report
    print("\n".join(format_report(report, args.verbose)))
    print(format_model(mismatches))
    if args.stats:
        print("\n".join(format_stats(stats)))
    return 1 if failed else 0


def _plot(draw, text: str) -> None:
    """draw(path) to the file `text` names (.png added when it has no suffix); where it went is
    said on stderr (stdout may be JSON)."""
    path = Path(text)
    if text.endswith(("/", os.sep)) or path.is_dir():
        raise UsageError(f"--plot takes a file name; {text} is a directory (say {path / 'plot.png'})")
    if not path.suffix:
        path = path.with_name(path.name + ".png")
    try:
        draw(path)
    except ImportError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
    except ValueError as e:  # matplotlib: a suffix it has no format for
        raise UsageError(f"cannot write {path}: {e}") from None
    print(f"plot written to {path.resolve()}", file=sys.stderr)


def format_model(mismatches) -> str:
    """One line: the outputs against the functional model."""
    if mismatches is None:
        return "functional model: none registered for this operator: outputs not compared"
    if not mismatches:
        return "functional model: the outputs match it bit for bit"
    return "functional model: MISMATCH " + "; ".join(str(m) for m in mismatches)


def format_stats(stats) -> list[str]:
    lines = [f"  {'core':>4} {'GM->UB B':>12} {'UB->GM B':>12} {'peak UB':>9} {'UB size':>9}  instructions"]
    for s in stats:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(s.instructions.items()))
        lines.append(f"  {s.core:>4} {s.gm_to_ub_bytes:>12} {s.ub_to_gm_bytes:>12} {s.peak_ub_bytes:>9} "
                     f"{s.ub_size:>9}  {counts}")
    return lines


def cmd_example(op: registry.Operator, args) -> int:
    """Run the operator's example (the reference example of its aclnn API), shipped in its folder."""
    import runpy

    if args.std is not None and not args.cpp:
        raise UsageError("--std goes with --cpp")
    if args.kernel_cpp:
        if args.cpp:
            raise UsageError("--kernel-cpp and --cpp are two examples: choose one")
        return _kernel_cpp_example(op)
    if args.cpp:
        return _cpp_examples(op, args.std)
    path = op.example_path()
    if path is None:
        raise UsageError(f"operator {op.name} has no example")
    if not path.is_file():
        raise UsageError(f"the example {path} of {op.name} is missing from this installation")
    try:
        return int(runpy.run_path(str(path), run_name="opsnn_example")["main"]())
    except Exception as e:  # the example's own failure (e.g. a call that no longer fits its API): one line
        import traceback
        where = traceback.extract_tb(e.__traceback__)[-1]
        print(f"opsnn example: {op.name}'s example failed: {type(e).__name__}: {e} "
              f"({Path(where.filename).name}:{where.lineno})", file=sys.stderr)
        return 1


def _kernel_cpp_example(op: registry.Operator) -> int:
    """The operator's AscendC C++ kernel run through its op_kernel UT on the emulator (opsnn ut)."""
    from opsnn.cpudebug import ut

    tests = op.kernel_cpp_tests()
    if not tests:
        with_one = [n for n, o in registry.discover().items() if o.kernel_cpp_tests()]
        if op.kernel_cpp_sources():
            raise UsageError(f"operator {op.name}'s C++ kernel is installed, its op_kernel UT is not (a wheel ships "
                             "no tests): run it from a source checkout")
        raise UsageError(f"operator {op.name} has no C++ kernel; those with one: {', '.join(with_one) or 'none'}")
    status = 0
    for test in tests:
        kernel = test.parents[3] / "op_kernel"
        print(f"{op.op_type}: the AscendC C++ kernel in {kernel} and its op_kernel UT {test.name}, "
              f"run on opsnn's emulator and sanitizer (opsnn ut {test}):", flush=True)
        status = status or ut.main([str(test)])
    return status


def _cpp_examples(op: registry.Operator, std: str | None) -> int:
    from opsnn.capi.build import BuildUnavailable
    from opsnn.capi.programs import examples, run_examples

    if not examples(op):
        raise UsageError(f"operator {op.name} has no C++ example")
    try:
        return run_examples(op, std=std)
    except BuildUnavailable as e:
        raise UsageError(f"the C ABI cannot be built here: {e}") from None
    except RuntimeError as e:  # the compiler's own output: several lines, as it printed them
        print(f"opsnn example: error: compiling failed:\n{e}", file=sys.stderr)
        return 1


def _dtypes(op: registry.Operator) -> list[str]:
    seen = []
    for d in [d for t in op.op_def.inputs for d in t.dtypes] + list(op.scheme_dtypes):
        if d not in seen:
            seen.append(d)
    return seen


def _operator_parser(command: str, op: registry.Operator) -> argparse.ArgumentParser:
    p = _Parser(prog=f"opsnn {command} {op.name}", description=f"{op.op_type}: {op.summary}",
                formatter_class=_Formatter)
    if command == "example":
        p.add_argument("--cpp", action="store_true",
                       help="compile and run the operator's C++ examples against opsnn's C ABI instead "
                            "(the programs upstream ships, unchanged; needs a C++ compiler)")
        p.add_argument("--std", default=None, help="with --cpp: the C++ standard, e.g. c++11 (default: the "
                                                   "compiler's)")
        p.add_argument("--kernel-cpp", action="store_true",
                       help="build and run the operator's AscendC C++ kernel through its op_kernel UT on the "
                            "emulator (opsnn ut; needs a C++ compiler and gtest)")
        return p
    inputs = ", ".join(t.name for t in op.op_def.inputs if t.param_type == "REQUIRED")
    p.add_argument("--shape", default=None, help="one shape for every input: 2,2 or [2,2]; '' or [] for rank 0")
    p.add_argument("--input-shapes", nargs="+", default=None, metavar="S",
                   help=f"one shape per input, in definition order ({inputs})")
    dtypes = _dtypes(op)
    p.add_argument("--dtype", default="float32" if "float32" in dtypes else dtypes[0], choices=dtypes,
                   help="the dtype of every tensor")
    p.add_argument("--soc", default=None, choices=list(SOCS),
                   help=f"a named SoC; without it and without --ub-size/--cores: {default_soc(op)}"
                        + ("" if default_soc(op) == DEFAULT_SOC else
                           f" (where {op.op_type} has a kernel; on {DEFAULT_SOC} it is a built-in one)"))
    p.add_argument("--ub-size", type=int, default=None, help="a custom platform's UB bytes (with --cores)")
    p.add_argument("--cores", type=int, default=None, help="a custom platform's AIV cores (with --ub-size)")
    p.add_argument("--family", default=None, choices=["ascend910b", "ascend950"],
                   help="the scheme a custom platform (--ub-size/--cores) follows; default "
                        f"{SOCS[default_soc(op)].family}")
    for o in op.options:
        if command not in o.commands:
            continue
        flag = "--" + o.name.replace("_", "-")
        if o.type is bool:
            p.add_argument(flag, dest=o.name, action="store_true", help=o.help)
        else:
            p.add_argument(flag, dest=o.name, type=o.type, default=o.default, help=o.help)
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="draw the per-core plan (tiling) or per-core work (sanitize); needs opsnn[plot]")
    if command == "sanitize":
        p.add_argument("--stats", action="store_true",
                       help="per core: bytes GM->UB and UB->GM, vector instructions, peak UB")
        p.add_argument("--verbose", action="store_true",
                       help="one line per finding (by default a finding repeated on many cores is one line)")
    return p


def cmd_tune(args) -> int:
    from opsnn.engine import machine
    if args.reset:
        removed = machine.reset()
        if args.json:
            print(json.dumps({"removed": removed, "tuning": machine.tuning()._asdict()}))
        else:
            print(f"removed {removed}" if removed else f"no calibration to remove ({machine.calibration_path()})")
            print(f"in use: {machine.format_tuning(machine.tuning())}")
        return 0
    if not 0 < args.seconds <= 3600:
        raise UsageError(f"--seconds {args.seconds:g}: expected more than 0 and at most 3600")
    f = machine.facts()
    previous = machine.tuning()
    if not args.json:
        print(f"before: {machine.format_tuning(previous)}")
        print(f"measuring the C lane on {f.model} ({f.usable_cores} usable cores) for about {args.seconds:g} s, "
              f"{machine.REPEATS} passes ...", flush=True)
    try:
        record = machine.calibrate(args.seconds)
    except machine.CalibrationError as e:
        print(f"opsnn tune: error: {e}", file=sys.stderr)
        return 1
    chosen = machine.tuning()
    if args.json:
        print(json.dumps({**record, "previous": previous._asdict(), "tuning": chosen._asdict()}, indent=2))
        return 0
    threads = record["threads"]
    for part, title, sides in (("stream", f"streaming stores (float32 backward, {threads} threads)",
                                ("plain_s", "stream_s")),
                               ("parallel", f"another thread (float32 backward, 1 against {threads} threads)",
                                ("one_thread_s", "all_threads_s"))):
        got = record.get(part)
        if got is None:
            continue
        print(f"{title}: {got['note']}")
        if "elements" in got:
            print(f"  {'elements':>10} {sides[0][:-2]:>14} {sides[1][:-2]:>14} {'ratio':>6}")
            for n, a, b in zip(got["elements"], got[sides[0]], got[sides[1]], strict=True):
                print(f"  {n:>10} {a * 1e6:>11.1f} us {b * 1e6:>11.1f} us {b / a:>6.2f}")
        if "passes" in got:
            print("  each pass: from " + ", ".join(str(p["crossover_elements"] or "none")
                                                  for p in got["passes"]) + " elements on"
                  + ("" if got["agreed"] else " (disagree: not written)"))
    chosen_text = ", ".join(f"{k} {machine.format_size(v)}" for k, v in record["chosen"].items()) or \
        "nothing the passes agreed on"
    print(f"chosen: {chosen_text} (measured in {record['seconds']:.1f} s); written to {record['path']}")
    print(f"in use: {machine.format_tuning(chosen)}")
    print("opsnn tune --reset goes back to the OS-derived values")
    return 0


def _top_parser(ops: dict[str, registry.Operator]) -> argparse.ArgumentParser:
    lines = "\n".join(f"  {name:<22} {op.summary}" + ("" if op.example else " [no example]")
                      for name, op in ops.items())
    p = _Parser(prog="opsnn", formatter_class=argparse.RawDescriptionHelpFormatter,
                description="The CANN ops-nn operator stack, emulated: tiling, kernels under a sanitizer, examples.",
                epilog=f"commands: {', '.join(COMMANDS)}  (opsnn COMMAND [OP] --help)\noperators "
                       f"(default {DEFAULT_OPERATOR}):\n{lines}")
    p.add_argument("command", choices=COMMANDS, help="what to do")
    p.add_argument("operator", nargs="?", default=DEFAULT_OPERATOR, help="which operator")
    return p


def _join_negative_values(argv: list[str], value_options: set[str]) -> list[str]:
    """argparse takes '-1,2' after --shape for an option; glue such values on with '='."""
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if tok in value_options and i + 1 < len(argv) and argv[i + 1].startswith("-") \
                and argv[i + 1] not in value_options and not argv[i + 1].startswith("--"):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def main(argv=None) -> int:
    try:
        rc = _main(argv)
        sys.stdout.flush()  # here, so that a closed pipe is met inside the try
        return rc
    except BrokenPipeError:
        # The reader went away (`opsnn ... | head`): stop quietly, as a command killed by SIGPIPE
        # does; stdout goes to devnull so the interpreter's last flush does not complain either.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 128 + 13  # 128 + SIGPIPE, what a shell reports for such a command


def _main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv else None
    try:
        ops = registry.discover()
        if command in (None, "-h", "--help"):
            _top_parser(ops).print_help()
            return 0 if command else 2
        if command not in COMMANDS:
            raise UsageError(f"unknown command {command!r}; choose from {', '.join(COMMANDS)}")
        if command == "info":  # the installation, not an operator (opsnn/info.py)
            from opsnn import info
            p = _Parser(prog="opsnn info", description="What this installation runs on: versions, the fast engine, "
                        "whether the C lane was built, optional packages, threads, CPU.")
            p.add_argument("--json", action="store_true", help="one JSON object on stdout")
            return info.main(p.parse_args(argv[1:]).json)
        if command == "tune":  # the machine, not an operator (opsnn/engine/machine.py)
            p = _Parser(prog="opsnn tune", description="Time the C lane on this machine and cache the fast path's "
                        "crossovers (streaming stores, a second thread) for it; see docs/machine-tuning.md.",
                        formatter_class=_Formatter)
            p.add_argument("--seconds", type=float, default=10.0, help="about how long to measure")
            p.add_argument("--json", action="store_true", help="the calibration record as one JSON object on stdout")
            p.add_argument("--reset", action="store_true",
                           help="remove this machine's calibration (the OS-derived crossovers stand); measures nothing")
            return cmd_tune(p.parse_args(argv[1:]))
        if command == "ut":  # a C++ kernel's unit test, not an operator (opsnn/cpudebug/ut.py)
            from opsnn.cpudebug import ut
            return ut.main(argv[1:])
        if command == "run":  # a C++ operator's aclnn example, not an operator name (opsnn/host/run.py)
            from opsnn.host import run
            return run.main(argv[1:])
        if command == "new-op":  # writes a new operator's folder (opsnn/op_common/new_op.py)
            from opsnn.op_common import new_op
            try:
                return new_op.main(argv[1:])
            except (ValueError, OSError) as e:  # a taken name, an existing or unwritable folder
                raise UsageError(str(e)) from None
        if command == "atk":  # a case file, not an operator (opsnn/atk/)
            from opsnn import atk
            return atk.main(argv[1:])
        rest = argv[1:]
        name = DEFAULT_OPERATOR
        if rest and not rest[0].startswith("-"):
            name, rest = rest[0], rest[1:]
        try:
            op = registry.get(name)
        except ValueError as e:
            raise UsageError(str(e)) from None
        if command == "example" and op.example is None and "--cpp" not in rest and "--kernel-cpp" not in rest:
            raise UsageError(f"operator {op.name} has no example of its own; those with one: "
                             f"{', '.join(n for n, o in ops.items() if o.example)}")
        parser = _operator_parser(command, op)
        value_options = {s for a in parser._actions if a.nargs != 0 for s in a.option_strings}
        args = parser.parse_args(_join_negative_values(rest, value_options))
        return {"tiling": cmd_tiling, "sanitize": cmd_sanitize, "example": cmd_example}[command](op, args)
    except UsageError as e:
        where = f"opsnn {command}" if command in COMMANDS else "opsnn"
        print(f"{where}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
