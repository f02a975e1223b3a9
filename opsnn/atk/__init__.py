"""`opsnn atk CASES.json`: run ATK case files (upstream's `tests/st/<aclnnApi>/atk_<aclnnApi>.json`
and users' own, format in docs/atk.md) against opsnn, for any registered operator that declares an
aclnn signature with a numpy function (AclnnApi.numpy_api, opsnn/aclnn/signature.py).

Each case's `aclnn_name` names a declared API; its inputs map BY POSITION to the API's non-out
params (ATK names differ: `x` for `self`, `a` for `negativeSlope`), kinds checked. Inputs are
generated from (seed, case id) alone, so a case computes the same whatever --jobs or --cases say.
The case runs through `opsnn.<numpy_api>(*values, semantics=, backend=)` and is compared bit for
bit with backend="reference" and, under torch semantics, with the torch function the case names.

Exit codes: 0 every case passed or was skipped, 1 a mismatch or an error, 2 a bad file or bad
command line (one line on stderr naming the case id and field).

One concern a module: cases (the file), inputs (generation), compare (outcomes against each
other), oracle (torch), limits (elements, memory), runner (one case, many, the pool), result,
progress, reports (table, JSON, JUnit), command (the CLI)."""
from opsnn.atk import oracle
from opsnn.atk.cases import DTYPES, KINDS, BadFile, Case, Input, find_api, load_cases, parse_ids
from opsnn.atk.command import BACKENDS, SEMANTICS, main
from opsnn.atk.compare import Outcome, compare
from opsnn.atk.inputs import CHUNK, case_rng, input_digest, make_attr, make_inputs, make_scalar, make_tensor
from opsnn.atk.limits import (
    DEFAULT_MAX_ELEMENTS,
    DEFAULT_MAX_ELEMENTS_EMULATOR,
    MEMORY_SHARE,
    WORKER_BYTES,
    available_memory,
    estimate_bytes,
    skip_reason,
)
from opsnn.atk.progress import Progress
from opsnn.atk.reports import counts, summary_table, write_json, write_junit
from opsnn.atk.result import Result
from opsnn.atk.runner import run_case, run_cases

__all__ = ["BACKENDS", "CHUNK", "DEFAULT_MAX_ELEMENTS", "DEFAULT_MAX_ELEMENTS_EMULATOR", "DTYPES", "KINDS",
           "MEMORY_SHARE", "SEMANTICS", "WORKER_BYTES", "BadFile", "Case", "Input", "Outcome", "Progress", "Result",
           "available_memory", "case_rng", "compare", "counts", "estimate_bytes", "find_api", "input_digest",
           "load_cases", "main", "make_attr", "make_inputs", "make_scalar", "make_tensor", "oracle", "parse_ids",
           "run_case", "run_cases", "skip_reason", "summary_table", "write_json", "write_junit"]
