"""`opsnn ut DIR`: every unit test below a folder, one line each as it finishes, then a table.

A unit test is a `test_*.cpp` below a `tests/ut/<layer>/` folder (upstream's layout; the gtest
mains `*_main.cpp` excepted). Each is built and run as `opsnn ut TEST.cpp` would, its output kept,
and judged by ut_verdict.py. The tables at the end are Markdown: docs/cpp-kernels.md carries the
one for upstream's whole tree, made by this command."""
from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path

from .ut_cases import LAYERS, NO_TEST, UtError, layer_of, repo_root_of
from .ut_verdict import Verdict, build_verdict, run_verdict

LABELS = {"passed": "PASS", "ut-defect": "UT-DEFECT", "opsnn-lacks": "LACKS", "finding": "FINDING",
          "environment": "ENV", "unexplained": "FAIL"}


def find_tests(folder: Path, layers: list[str]) -> list[Path]:
    wanted = layers or list(LAYERS)
    out = []
    for p in sorted(folder.rglob("test_*.cpp")):
        parts = p.parts
        if p.name.endswith("_main.cpp"):
            continue
        below_ut = any(parts[k] == "tests" and parts[k + 1] == "ut" and parts[k + 2] in LAYERS
                       for k in range(len(parts) - 3))
        if below_ut and layer_of(p) in wanted:
            out.append(p)
    return out


def judge(doc: dict, test: Path, checkout: Path | None) -> Verdict:
    """The verdict on one test's record (run_one's), or on the error it raised ({"error": ...})."""
    try:
        text = test.read_text(errors="replace")
    except OSError:
        text = ""
    if "error" in doc:
        if doc["error"].endswith(NO_TEST):
            return Verdict("ut-defect", f"{test.name} defines no test (no TEST, TEST_F or TEST_P): upstream's "
                           "build compiles it into the UT program, where it adds nothing to run")
        return Verdict("unexplained", doc["error"])
    runs = doc.get("runs", [])
    if not runs:
        socs = ", ".join(s.split(":")[0] for s in doc.get("skipped", []))
        return Verdict("opsnn-lacks", f"SoC {socs} (no SoC of this test is modelled)")
    verdict = None
    for run in runs:
        if run.get("build_failed"):
            verdict = build_verdict(run["compiler"], run["build_failed"], test, text, run.get("defines", []),
                                    checkout)
            break
    unbuilt = [n for n in doc.get("notes", []) if "never compiles" in n or n.startswith("no AddOpTestCase")]
    if unbuilt:  # whatever it then does, upstream's build does not build it
        then = verdict or run_verdict(runs, [], text, test, checkout)
        return Verdict("ut-defect", unbuilt[0] + ("" if then.passed else f"; then: {then.reason}"),
                       then.compares_values)
    return verdict or run_verdict(runs, doc.get("notes", []), text, test, checkout)


def run_folder(folder: Path, opts, cache: Path, jobs: int, layers: list[str], json_path: str | None, run_one) -> int:
    """Every test below `folder`, each through `run_one(test, opts, cache)` (ut.py's), `jobs` at a
    time; 0 when all pass."""
    tests = find_tests(folder, layers)
    if not tests:
        raise UtError(f"no unit test below {folder} (test_*.cpp under tests/ut/"
                      f"{'|'.join(layers) or 'op_kernel|op_host|op_api'})")
    checkout = repo_root_of(tests[0])
    started = time.perf_counter()
    results: dict[Path, tuple[dict, Verdict]] = {}

    def one(k: int, test: Path):
        o = replace(opts, capture=True, workdir=(opts.workdir / str(k)) if opts.workdir else None)
        t0 = time.perf_counter()
        try:
            doc = run_one(test, o, cache)
        except UtError as e:
            doc = {"test": str(test), "error": str(e), "exit_status": 2}
        except (RuntimeError, OSError, ValueError) as e:  # one test's trouble is its own line, not the survey's end
            doc = {"test": str(test), "error": f"opsnn ut failed on it: {type(e).__name__}: {e}", "exit_status": 2}
        doc["seconds"] = time.perf_counter() - t0
        return test, doc, judge(doc, test, checkout)

    width = len(str(len(tests)))
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = [pool.submit(one, k, t) for k, t in enumerate(tests)]
        for done, future in enumerate(as_completed(futures), 1):
            test, doc, verdict = future.result()
            results[test] = (doc, verdict)
            print(f"[{done:>{width}}/{len(tests)}] {_line(test, folder, verdict, doc)}", flush=True)
    finally:  # on a signal, the tests not started are dropped; the running ones' programs are killed
        pool.shutdown(wait=True, cancel_futures=True)
    seconds = time.perf_counter() - started
    print()
    print("\n".join(tables(folder, {t: v for t, (_, v) in results.items()}, seconds)))
    if json_path:
        out = {"folder": str(folder), "seconds": seconds, "jobs": jobs,
               "counts": dict(Counter(v.klass for _, v in results.values())),
               "tests": [{**doc, "class": v.klass, "reason": v.reason, "compares_values": v.compares_values}
                         for doc, v in (results[t] for t in tests)]}
        try:
            Path(json_path).write_text(json.dumps(out, indent=1, default=str))
        except OSError as e:
            print(f"opsnn ut: error: cannot write {json_path}: {e.strerror or e}", file=sys.stderr)
            return 2
    return 0 if all(v.passed for _, v in results.values()) else 1


def _line(test: Path, folder: Path, v: Verdict, doc: dict) -> str:
    rel = _rel(test, folder)
    secs = "; ".join([*(s.split(" (")[0] for s in doc.get("skipped", [])), f"{doc.get('seconds', 0):.1f} s"])
    if v.passed:
        return f"PASS  {rel} ({'compares values' if v.compares_values else 'compares no value'}; {secs})"
    return f"{LABELS[v.klass]:<9} {rel}: {v.reason} ({secs})"


def _rel(test: Path, folder: Path) -> str:
    try:
        return str(test.resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(test)


def reason_key(v: Verdict) -> str:
    """The reason without where it was met and without the names that differ from UT to UT, so
    that one missing API, or one kind of defect, groups its UTs."""
    r = re.sub(r"; then: .*", "", v.reason)
    r = re.sub(r"\s*\([^()]*:\d+:[^()]*\)\s*$", "", r)  # "(file.h:12: ...)"
    r = re.sub(r" ?\((?:\w+, )*\w+\)", "", r)  # "(entry names)"
    r = re.sub(r"\b(?:ORIG_)?DTYPE_\w+(?:, (?:ORIG_)?DTYPE_\w+)*", "DTYPE_*", r)
    r = re.sub(r" on Ascend\w+", "", r)
    r = re.sub(r" at \S+:\d+", "", r)
    if v.klass == "finding":  # its kind and instruction
        r = ":".join(r.split(":")[:2])
    return v.klass + ": " + " ".join(r.split())


def tables(folder: Path, verdicts: dict[Path, Verdict], seconds: float) -> list[str]:
    """The summary table and the reasons table, in Markdown."""
    counts = Counter(v.klass for v in verdicts.values())
    compared = sum(1 for v in verdicts.values() if v.passed and v.compares_values)
    total = len(verdicts)
    lines = [f"opsnn ut {folder}: {total} unit test(s) in {seconds:.0f} s", "",
             "| result | UTs |", "|---|---|",
             f"| passed, compares values | {compared} |",
             f"| passed, compares no value (runs the kernel, checks no output) | {counts['passed'] - compared} |",
             f"| UT defect (the evidence in the reason) | {counts['ut-defect']} |",
             f"| opsnn lacks what the UT needs | {counts['opsnn-lacks']} |",
             f"| the kernel has a sanitizer finding | {counts['finding']} |",
             f"| the UT's data step needs what this machine lacks | {counts['environment']} |",
             f"| fails, not classified | {counts['unexplained']} |",
             f"| total | {total} |", ""]
    groups: dict[str, list[Path]] = defaultdict(list)
    for test, v in verdicts.items():
        if not v.passed:
            groups[reason_key(v)].append(test)
    if groups:
        lines += ["| first reason | UTs | e.g. |", "|---|---|---|"]
        for key, tests in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            eg = ", ".join(sorted(t.stem.removeprefix("test_") for t in tests)[:3])
            lines.append(f"| {key.replace('|', '/')} | {len(tests)} | {eg} |")
    return lines
