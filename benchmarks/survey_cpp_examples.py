"""`opsnn run` on the aclnn examples of upstream's complete experimental/activation operators
(issue 33's list; docs/cpp-operators.md, "Upstream's examples"): each example built unchanged with
its own operator folder and run on the emulator, sanitizer on. Records each run's exit status,
output and seconds to a JSON file; the values are judged against numpy by the checks in
docs/cpp-operators.md's table (benchmarks/survey_cpp_checks.py).

    .venv/bin/python benchmarks/survey_cpp_examples.py --ops-nn <checkout> [--only relu,gelu] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

OPERATORS = ("threshold_grad_v2_d elu_grad_v2 elu_v2 gelu gelu_grad gelu_grad_v2 hard_sigmoid_grad_v3 hard_sigmoid_v2 "
             "hard_swish_grad hardtanh_grad log_softmax_grad log_softmax_v2 mish mish_grad mish_grad_v2 relu "
             "relu_grad_v2 relu_grad_v4 selu_grad sigmoid_grad sigmoid_v2 silu_grad softplus_v2_grad "
             "softshrink_grad softsign softsign_grad swiglu_clamp swish swish_grad swish_v2").split()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ops-nn", required=True, help="a checkout of hicann/ops-nn")
    p.add_argument("--only", default="", help="comma-separated operator folders (default: all 30)")
    p.add_argument("--soc", default="Ascend910B2")
    p.add_argument("--timeout", type=int, default=1800, help="seconds per example (build included)")
    p.add_argument("--json", default="survey-cpp-examples.json")
    args = p.parse_args(argv)
    root = Path(args.ops_nn) / "experimental" / "activation"
    wanted = [o for o in args.only.split(",") if o] or OPERATORS
    out = Path(args.json)
    runs = json.loads(out.read_text()) if out.is_file() else {}
    for op in wanted:
        for example in sorted((root / op / "examples").glob("test_aclnn_*.cpp")):
            key = f"{op}/{example.name}"
            started = time.perf_counter()
            try:
                done = subprocess.run([sys.executable, "-m", "opsnn", "run", str(example), "--soc", args.soc],
                                      capture_output=True, text=True, timeout=args.timeout)
                rc, stdout, stderr = done.returncode, done.stdout, done.stderr
            except subprocess.TimeoutExpired as e:
                rc, stdout, stderr = "timeout", (e.stdout or b"").decode(errors="replace") if isinstance(
                    e.stdout, bytes) else (e.stdout or ""), f"timed out after {args.timeout} s"
            runs[key] = {"operator": op, "example": example.name, "exit_status": rc, "stdout": stdout[-20000:],
                         "stderr": stderr[-20000:], "seconds": round(time.perf_counter() - started, 1)}
            out.write_text(json.dumps(runs, indent=1))
            print(f"{key}: exit {rc}, {runs[key]['seconds']} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
