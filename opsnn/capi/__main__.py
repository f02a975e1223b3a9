"""python -m opsnn.capi: where the C ABI is, in the style of `python -m pybind11 --includes`.

    g++ prog.cpp $(python -m opsnn.capi --cflags --libs) -o prog
    python -m opsnn.capi build [--force]        # (re)build lib/ and the generated headers
    python -m opsnn.capi --prefix               # the folder it is built in (ASCEND_CUSTOM_PATH style)

Every flag builds the C ABI first where it is missing or out of date (a note on stderr); where it
cannot be built the flags are printed all the same and the reason goes to stderr, exit status 1.
    python -m opsnn.capi example [OP] [--std c++11]  # compile and run the operator's C++ examples
"""
from __future__ import annotations

import argparse
import sys

from . import build_root, cflags, cmake_dir, include_dir, is_built, lib_dir, libs, pkgconfig_dir


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("build", "example"):
        return _command(argv)
    p = argparse.ArgumentParser(prog="python -m opsnn.capi", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cflags", action="store_true", help="the -I flags")
    p.add_argument("--libs", action="store_true", help="-L, an rpath and the -l names")
    p.add_argument("--includedir", action="store_true", help="the include directory")
    p.add_argument("--libdir", action="store_true", help="the directory of libascendcl.so")
    p.add_argument("--cmakedir", action="store_true", help="for CMake: -Dopsnn_DIR=... (find_package(opsnn))")
    p.add_argument("--pkgconfigdir", action="store_true", help="for PKG_CONFIG_PATH (pkg-config opsnn)")
    p.add_argument("--prefix", action="store_true", help="the build folder: include/, lib/, lib64/, cmake/, pkgconfig/")
    p.add_argument("--kernel-cflags", action="store_true",
                   help="for AscendC kernels and their CPU-debug UTs (docs/cpp-kernels.md): -I, -std, "
                        "-D__CCE_KT_TEST__")
    p.add_argument("--kernel-libs", action="store_true", help="the CPU-debug runtime: -L, an rpath, -lopsnn_kt")
    p.add_argument("--kernel-cmakedir", action="store_true",
                   help="for CMake: -Dopsnn_kernel_DIR=... (find_package(opsnn_kernel); target opsnn::kernel)")
    p.add_argument("--host-cflags", action="store_true",
                   help="for an operator's op_host, op_api and examples (docs/cpp-operators.md): -std and the -I "
                        "flags of the host twin (with --op-dir: the folder's too)")
    p.add_argument("--host-libs", action="store_true", help="the host twin: -L, rpaths, -lopsnn_host -lopsnn_kt")
    p.add_argument("--host-sources", action="store_true",
                   help="the --op-dir folder's op_host and op_api sources (and its dependencies'), and a source "
                        "giving the program its kernel manifest")
    p.add_argument("--host-includedirs", action="store_true", help="the --op-dir build's include folders")
    p.add_argument("--host-cmakedir", action="store_true",
                   help="for CMake: -Dopsnn_host_DIR=... (find_package(opsnn_host); opsnn_host_add_operator)")
    p.add_argument("--op-dir", metavar="DIR", help="the operator folder for --host-*")
    p.add_argument("--soc", default="Ascend910B2", help="the SoC the --op-dir build is for (its tiling sources)")
    args = p.parse_args(argv)
    host = [k for k in ("host_cflags", "host_libs", "host_sources", "host_includedirs", "host_cmakedir")
            if getattr(args, k)]
    if host:  # the host twin (opsnn/host): an operator folder's own build
        from opsnn.host.flags import host_flags
        try:
            status, values = host_flags(host, args.op_dir, args.soc)
        except ValueError as e:
            print(f"python -m opsnn.capi: error: {e}", file=sys.stderr)
            return 2
        print(" ".join(values))
        return status
    kernel = [k for k in ("kernel_cflags", "kernel_libs", "kernel_cmakedir") if getattr(args, k)]
    if kernel:  # the CPU-debug runtime (opsnn/cpudebug), built on first use like the C ABI
        from opsnn.cpudebug.build import kernel_flags
        status, values = kernel_flags(kernel)
        print(" ".join(values))
        return status
    wanted = [k for k in ("cflags", "libs", "includedir", "libdir", "cmakedir", "pkgconfigdir", "prefix")
              if getattr(args, k)]
    if not wanted:
        p.print_help()
        return 2
    status = ensure_built()
    values = {"cflags": cflags, "libs": libs, "includedir": include_dir, "libdir": lib_dir, "cmakedir": cmake_dir,
              "pkgconfigdir": pkgconfig_dir, "prefix": build_root}
    print(" ".join(str(values[k]()) for k in wanted))
    return status


def ensure_built() -> int:
    """Build the C ABI where it is missing or out of date (a note on stderr while it compiles);
    0, or 1 with the reason on stderr where it cannot be built."""
    from .build import BuildUnavailable, build, up_to_date
    try:
        if not up_to_date():
            print(f"opsnn.capi: building the C ABI into {build_root()} ...", file=sys.stderr, flush=True)
            build()
    except (BuildUnavailable, RuntimeError, OSError) as e:
        print(f"opsnn.capi: the C ABI is not built ({build_root()}): {e}", file=sys.stderr)
        return 1
    return 0 if is_built() else 1


def _command(argv: list[str]) -> int:
    from .build import BuildUnavailable, build

    p = argparse.ArgumentParser(prog=f"python -m opsnn.capi {argv[0]}")
    if argv[0] == "build":
        p.add_argument("--force", action="store_true", help="rebuild even when nothing changed")
        p.add_argument("-v", "--verbose", action="store_true", help="print the compiler command")
    else:
        p.add_argument("operator", nargs="?", default="threshold_grad_v2_d")
        p.add_argument("--std", default=None, help="e.g. c++11 (default: the compiler's)")
    args = p.parse_args(argv[1:])
    try:
        if argv[0] == "build":
            print(build(force=args.force, verbose=args.verbose))
            return 0
        from opsnn import registry

        from .programs import run_examples
        return run_examples(registry.get(args.operator), std=args.std)
    except (BuildUnavailable, ValueError, RuntimeError) as e:
        print(f"python -m opsnn.capi {argv[0]}: error: {e}", file=sys.stderr)
        return 1 if isinstance(e, RuntimeError) and not isinstance(e, BuildUnavailable) else 2


if __name__ == "__main__":
    sys.exit(main())
