"""`opsnn atk`'s command line: options, validation, the run, what is printed and written."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from opsnn.atk.cases import BadFile, load_file, parse_ids
from opsnn.atk.limits import DEFAULT_MAX_ELEMENTS, DEFAULT_MAX_ELEMENTS_EMULATOR
from opsnn.atk.progress import Progress
from opsnn.atk.reports import (
    counts,
    last_line,
    nan_summary,
    shapes_label,
    summary_table,
    warnings_for,
    write_json,
    write_junit,
)
from opsnn.atk.runner import run_cases
from opsnn.platform import FAMILIES, SOCS

SEMANTICS = ("torch", *FAMILIES)
BACKENDS = ("fast", "reference", "emulator")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadFile(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="opsnn atk", formatter_class=argparse.ArgumentDefaultsHelpFormatter,
                description="Run an ATK case file (upstream's tests/st/<aclnnApi>/atk_<aclnnApi>.json or your "
                            "own) against opsnn: each case through --backend, compared bit for bit with the "
                            "reference backend and, under torch semantics, with the torch function it names. "
                            "Exit 0: all passed or skipped; 1: a mismatch or error; 2: a bad file. docs/atk.md.")
    p.add_argument("file", help="the case file (a JSON array of cases)")
    p.add_argument("--seed", type=int, default=0, help="input generation seed (one rng per case from seed and id)")
    p.add_argument("--backend", choices=BACKENDS, default="fast", help="the backend under test")
    p.add_argument("--semantics", choices=SEMANTICS, default=None,
                   help="whose arithmetic: torch or an SoC family (default torch)")
    p.add_argument("--soc", choices=list(SOCS), default=None, help="an SoC: its family's semantics")
    p.add_argument("--jobs", type=int, default=1, help="processes running cases")
    p.add_argument("--cases", default=None, help="the ids to run, e.g. 0-9,14 (default all)")
    p.add_argument("--max-elements", type=int, default=None,
                   help=f"skip cases with a tensor larger than this, 0 for no limit (default "
                        f"{DEFAULT_MAX_ELEMENTS}; {DEFAULT_MAX_ELEMENTS_EMULATOR} with --backend emulator)")
    p.add_argument("--json", metavar="FILE", default=None, help="write a JSON report")
    p.add_argument("--junit", metavar="FILE", default=None, help="write a JUnit XML report")
    p.add_argument("--loose-nan", action="store_true",
                   help="against torch, count any NaN equal to any NaN (torch's vectorised CPU loops change NaN "
                        "bits; the comparison with the reference stays bit for bit)")
    p.add_argument("-v", "--verbose", action="store_true", help="a line for every case, passed ones too")
    p.add_argument("--op-dir", metavar="DIR", default=None,
                   help="run the cases against this C++ operator folder (its op_api, tiling and kernel on the "
                        "emulator, SoC from --soc, default Ascend910B2) instead of opsnn's operators; compared "
                        "with torch (the file's golden) and, where opsnn declares the API, its reference")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(argv)
    except BadFile as e:
        print(f"opsnn atk: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("opsnn atk: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.semantics is not None and args.soc is not None:
        raise BadFile("give either --semantics or --soc, not both")
    semantics = SOCS[args.soc].family if args.soc else (args.semantics or "torch")
    surface = None
    if args.op_dir is not None:  # a C++ operator folder: its kernel runs the SoC's semantics
        if args.semantics is not None:
            raise BadFile("--op-dir runs the operator's own kernel: give --soc, not --semantics")
        if args.jobs != 1:
            raise BadFile("--op-dir runs the cases in this process (one emulated device): --jobs 1")
        from opsnn.atk.cpp_surface import CppSurface
        surface = CppSurface(args.op_dir, args.soc or "Ascend910B2")
        semantics = surface.family
    if args.backend == "emulator" and semantics == "torch":
        raise BadFile("--backend emulator runs the NPU's semantics only: give --semantics ascend910b|ascend950 "
                      "or --soc")
    if args.jobs < 1:
        raise BadFile(f"--jobs must be at least 1, got {args.jobs}")
    if args.max_elements is not None and args.max_elements < 0:
        raise BadFile(f"--max-elements must be >= 0, got {args.max_elements}")
    outputs = _outputs(args)
    loaded = load_file(args.file, surface.resolve if surface else None)
    cases = loaded.cases
    if args.cases is not None:
        try:
            wanted = parse_ids(args.cases)
        except ValueError as e:
            raise BadFile(str(e)) from None
        present = {c.id for c in cases}
        missing = sorted(wanted - present)
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            raise BadFile(f"--cases names ids the file does not have: {shown}")
        cases = [c for c in cases if c.id in wanted]
    max_elements = args.max_elements
    if max_elements is None:
        max_elements = DEFAULT_MAX_ELEMENTS_EMULATOR if args.backend == "emulator" else DEFAULT_MAX_ELEMENTS
    for warning in loaded.warnings:
        _warn(warning)
    progress = Progress(len(cases))
    start = time.perf_counter()
    try:
        results = run_cases(cases, seed=args.seed, semantics=semantics, backend=args.backend, jobs=args.jobs,
                            max_elements=max_elements, progress=progress, loose_nan=args.loose_nan,
                            surface=surface)
    finally:
        progress.close()
    elapsed = time.perf_counter() - start
    meta = {"file": str(args.file), "file_name": Path(args.file).stem,
            "aclnn_names": ",".join(dict.fromkeys(c.aclnn_name for c in cases)), "semantics": semantics,
            "soc": args.soc, "backend": args.backend, "seed": args.seed, "jobs": args.jobs,
            "max_elements": max_elements, "loose_nan": args.loose_nan, "seconds": round(elapsed, 3)}
    for r in results:
        if r.status != "passed" or r.refused or args.verbose:  # an expected refusal is named too
            label = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[r.status]
            text = r.reason or "; ".join(f"{k}: {v['status']}" for k, v in r.checks.items())
            print(f"{label} case {r.id} ({r.dtype} {shapes_label(r.shapes)}): {text}")
    print(f"{surface.label if surface else f'{args.backend} backend'}, {semantics} semantics, seed {args.seed}, "
          f"{elapsed:.1f} s")
    print(summary_table(results))
    for warning in warnings_for(results):
        _warn(warning)
    written = True
    for (option, path), write in zip(outputs, (write_json, write_junit), strict=True):
        if path is not None:
            try:
                write(path, results, meta)
            except OSError as e:  # checked before the run; the disk may still fill up since
                print(f"opsnn atk: error: cannot write the {option} report {path}: {e.strerror or e}",
                      file=sys.stderr)
                written = False
    line = nan_summary(results)
    if line:
        print(line)
    print(last_line(results))
    _, failed, _ = counts(results)
    return 1 if failed or not written else 0


def _warn(text: str) -> None:
    print(f"opsnn atk: warning: {text}", file=sys.stderr)


def _outputs(args) -> list[tuple[str, str | None]]:
    """The report files, each checked writable before any case runs (a report that cannot be
    written after an hour of cases is an hour lost): opened for appending, which changes no existing
    file, and removed again where it did not exist."""
    outputs = [("--json", args.json), ("--junit", args.junit)]
    given = [(o, p) for o, p in outputs if p is not None]
    if len(given) == 2 and os.path.abspath(given[0][1]) == os.path.abspath(given[1][1]):
        raise BadFile(f"--json and --junit name the same file {given[0][1]}")
    for option, path in given:
        existed = os.path.lexists(path)
        try:
            with open(path, "a", encoding="utf-8"):
                pass
        except OSError as e:
            raise BadFile(f"cannot write the {option} report {path}: {e.strerror or e}") from None
        if not existed:
            os.unlink(path)
    return outputs
