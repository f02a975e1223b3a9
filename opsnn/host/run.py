"""`opsnn run EXAMPLE.cpp`: an operator's aclnn example, unchanged, through the developer's own
op_api, infershape, tiling and kernel, on the emulator (docs/cpp-operators.md).

The operator folder is the one the example lies in (<op>/examples/test_aclnn_*.cpp), or --op-dir.
Its op_host and op_api, and those of the operators its op_api reaches, are compiled against the
host twin (opsnn/host/op_build.py) with the example and linked with libopsnn_host and
libopsnn_kt; the kernels are built at their first launch (opsnn/host/kernels.py). Everything is
cached by content. The exit status and output are the example's; a finding of any layer is
printed by that layer with its file and line (the op_host / op_api logs, LaunchKernel's
op_kernel errors, the sanitizer's findings)."""
from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from pathlib import Path

from opsnn.capi.build import BuildUnavailable

from .kernels import KernelBuildError
from .op_build import BuildStats, HostBuildError, OperatorBuild
from .op_folder import OperatorFolder, OpFolderError, folder_of, is_operator_folder

PROG = "opsnn run"


class RunError(Exception):
    """A problem with the command or the build, not the example's result (exit status 2)."""


def build_example(example: Path, op_dir: Path | None, soc: str, verbose: bool = False) -> tuple[OperatorBuild, Path,
                                                                                               BuildStats]:
    """(the operator build, the example program, what the build did)."""
    if not example.is_file():
        raise RunError(f"no such example: {example}")
    try:
        if op_dir is not None:
            if not is_operator_folder(op_dir):
                raise RunError(f"--op-dir {op_dir} is no operator folder (it has no op_host/, op_api/ or op_kernel/)")
            folder = OperatorFolder(op_dir.resolve())
        else:
            folder = folder_of(example)
        build = OperatorBuild(folder, soc, verbose=verbose)
    except OpFolderError as e:
        raise RunError(str(e)) from None
    except ValueError as e:  # an unknown SoC
        raise RunError(str(e)) from None
    if not build.folder.op_host_dir and not build.folder.op_api_dir:
        raise RunError(f"{build.folder.root} has neither op_host/ nor op_api/: nothing to build the example against")
    stats = BuildStats()
    started = time.perf_counter()
    objects = build.compile([*build.sources(), example.resolve()], stats)
    program = build.link(objects, build.work / f"{example.stem}", shared=False, stats=stats)
    build.manifest()
    stats.seconds = time.perf_counter() - started
    return build, program, stats


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog=PROG, description="Build an operator's aclnn example (examples/test_aclnn_*.cpp) unchanged with the "
        "operator's own op_host, op_api and op_kernel, and run it on opsnn's emulator and sanitizer.")
    p.add_argument("example", help="the example source, e.g. <op>/examples/test_aclnn_<op>.cpp")
    p.add_argument("--op-dir", metavar="DIR", help="the operator folder (default: the one the example lies in)")
    p.add_argument("--soc", default="Ascend910B2",
                   help="SoC as opsnn or upstream names it (Ascend910B2, ascend910b, Ascend950, ...)")
    p.add_argument("--sanitize", choices=("on", "off"), default="on",
                   help="on: kernel findings are recorded and an error fails the launch; off: misuse raises at once")
    p.add_argument("--verbose", "-v", action="store_true", help="show the compile and link commands")
    p.epilog = "Arguments after -- go to the example program."
    args_after = []
    if "--" in argv:
        cut = argv.index("--")
        argv, args_after = argv[:cut], argv[cut + 1:]
    args = p.parse_args(argv)
    try:
        build, program, stats = build_example(Path(args.example), Path(args.op_dir) if args.op_dir else None,
                                              args.soc, args.verbose)
    except RunError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except HostBuildError as e:
        print(f"{PROG}: error: the build failed:\n{e}", file=sys.stderr)
        return 2
    except (BuildUnavailable, KernelBuildError, RuntimeError, OSError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    names = ", ".join(f.name for f in build.folders)
    what = (f"built in {stats.seconds:.1f} s ({stats.compiled} compiled, {stats.reused} reused)" if stats.compiled
            or stats.linked else "reused the last build")
    print(f"{PROG}: {Path(args.example).name}: {what}; operators {names}; {build.platform.name}, sanitizer "
          f"{args.sanitize}", file=sys.stderr, flush=True)
    sys.stdout.flush()
    done = subprocess.run([str(program), *args_after], env=build.environment(args.sanitize == "on"))
    rc = done.returncode
    if rc < 0:
        print(f"{PROG}: the example died of signal {signal.Signals(-rc).name}", file=sys.stderr)
        return 128 - rc
    return rc


__all__ = ["RunError", "build_example", "main"]
