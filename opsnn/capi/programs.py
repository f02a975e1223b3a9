"""Compile and run C/C++ programs against the C ABI: the operators' own examples
(`<operator>/examples/*.cpp`), the tests' programs and the benchmark's."""
from __future__ import annotations

import importlib.util
import shlex
import subprocess
import tempfile
from pathlib import Path

from . import cflags, libs
from .build import build, compiler


def examples(op) -> list[Path]:
    """The C++ examples shipped in an operator's folder (examples/*.cpp), sorted."""
    spec = importlib.util.find_spec(op.package)
    folder = Path(next(iter(spec.submodule_search_locations))) / "examples"
    return sorted(folder.glob("*.cpp"))


def compile_program(source: Path, output: Path, *, std: str | None = None, c: bool = False,
                    extra: tuple[str, ...] = (), warnings_as_errors: bool = True) -> Path:
    """Compile one C++ (or, with c=True, C) source with --cflags/--libs; RuntimeError with the
    compiler's output when it fails."""
    build()
    if c:
        tool = ["cc"]
    else:
        tool = compiler()
    cmd = [*tool, *([f"-std={std}"] if std else []),
           *(["-Wall", "-Wextra", "-Werror"] if warnings_as_errors else []),
           str(source), *shlex.split(cflags()), *extra, "-o", str(output), *shlex.split(libs())]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}\n{done.stdout}{done.stderr}")
    return output


def run_examples(op, *, std: str | None = None) -> int:
    """Compile and run each C++ example of `op`; their output goes to this process's stdout.
    The exit status of the first that fails, else 0."""
    sources = examples(op)
    if not sources:
        raise ValueError(f"operator {op.name} has no C++ example")
    with tempfile.TemporaryDirectory(prefix="opsnn-example-") as tmp:
        for source in sources:
            program = compile_program(source, Path(tmp) / source.stem, std=std)
            print(f"# {source.name}", flush=True)
            rc = subprocess.run([str(program)]).returncode
            if rc != 0:
                return rc
    return 0
