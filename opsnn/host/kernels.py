"""The host twin's kernel libraries: an operator's own AscendC kernel, built as CANN's device build
builds it and run by LaunchKernel (src/launch) on the emulator.

CANN compiles an operator's kernel once per dtype combination of its OpDef (the DataType lists'
columns), with `DTYPE_<NAME>` / `ORIG_DTYPE_<NAME>` / `FORMAT_<NAME>` for every input and output
(an output named like an input gets `_REF`; ops-nn scripts/util/ascendc_impl_build.py), from
`op_kernel/<opFile>.cpp` where opFile is the SoC's `ExtendCfgInfo("opFile.value", ...)` (the op
type in snake case when none). Here each combination is a shared object of its own (dlopen'ed
apart: the same template instantiated for two dtypes never meets), compiled as `opsnn ut` compiles
kernels (opsnn/cpudebug/include first, opsnn/host/include after, `__CCE_KT_TEST__`), built at the
first launch that needs it and cached by content (the compile command, the generated entry and
every header the compiler read).

Each library exports `opsnn_host_kernel(void *const *args)` (the kernel with its GM arguments
inputs..., outputs..., workspace, tiling; a kernel template through the entry that chooses its
instantiation by tiling key, opsnn/cpudebug/tpl_entry.py) and the kernel's parameter names.

What a program's kernels are built from is its manifest (`Manifest`, written by `opsnn run` and
opsnn.host.operator): the operator folders' op_kernel directories, extra include directories and
options; OPSNN_HOST_KERNELS names it. LaunchKernel calls `library_for` in the program's embedded
Python (libopsnn_kt's opsnn_kt_python_call) with the OpDef's facts for one launch."""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from opsnn.capi.build import compiler
from opsnn.cpudebug import build as kt_build
from opsnn.cpudebug.tpl_entry import tiling_key_entry
from opsnn.cpudebug.ut_build import compiler_excerpt, depfile_dependencies, write_if_changed

MANIFEST_ENV = "OPSNN_HOST_KERNELS"
MANIFEST_VERSION = 1

# ge::DataType names -> the C++ element type CANN's device build defines DTYPE_* as
# (ascendc_impl_build.py's DTYPE_MAP, by ge name); the ones opsnn's kernel headers know.
C_TYPES = {"DT_FLOAT": "float", "DT_FLOAT16": "half", "DT_BF16": "bfloat16_t", "DT_INT8": "int8_t",
           "DT_INT16": "int16_t", "DT_INT32": "int32_t", "DT_INT64": "int64_t", "DT_UINT8": "uint8_t",
           "DT_UINT16": "uint16_t", "DT_UINT32": "uint32_t", "DT_UINT64": "uint64_t", "DT_BOOL": "bool",
           "DT_DOUBLE": "double"}


class KernelBuildError(Exception):
    """A kernel that cannot be built for a launch: no source, no entry, a compile error (its first
    errors), a dtype with no C++ type. LaunchKernel reports the text as the op_kernel layer's."""


@dataclass
class Manifest:
    """How a program's kernels are built: where their sources are, what else they compile with."""
    op_kernel_dirs: list[Path]
    include_dirs: list[Path] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    cache_dir: Path | None = None  # default: beside libopsnn_kt (host-kernels/)

    def write(self, path: Path) -> Path:
        doc = {"opsnn_host_kernels": MANIFEST_VERSION, "op_kernel_dirs": [str(d) for d in self.op_kernel_dirs],
               "include_dirs": [str(d) for d in self.include_dirs], "options": list(self.options),
               "cache_dir": str(self.cache_dir) if self.cache_dir else None}
        path = Path(path)
        write_if_changed(path, json.dumps(doc, indent=1) + "\n")
        return path

    @classmethod
    def read(cls, path: Path) -> Manifest:
        try:
            doc = json.loads(Path(path).read_text())
        except (OSError, ValueError) as e:
            raise KernelBuildError(f"cannot read the kernel manifest {path}: {e}") from None
        if not isinstance(doc, dict) or doc.get("opsnn_host_kernels") != MANIFEST_VERSION:
            raise KernelBuildError(f"{path} is no kernel manifest of this opsnn (version {MANIFEST_VERSION})")
        cache = doc.get("cache_dir")
        return cls([Path(d) for d in doc.get("op_kernel_dirs", [])], [Path(d) for d in doc.get("include_dirs", [])],
                   list(doc.get("options", [])), Path(cache) if cache else None)

    def cache(self) -> Path:
        return self.cache_dir or kt_build.lib_dir().parent / "host-kernels"


@dataclass(frozen=True)
class KernelRequest:
    """One launch's facts from the OpDef: the op type, the SoC config's opFile ("" when none), and
    the chosen combination's dtype for every input and output, in the OpDef's order."""
    op_type: str
    op_file: str
    inputs: tuple[tuple[str, str], ...]
    outputs: tuple[tuple[str, str], ...]

    @classmethod
    def parse(cls, text: str) -> KernelRequest:
        """The request LaunchKernel writes: `op_type T`, `op_file F`, then `input NAME DT_*` and
        `output NAME DT_*` lines in the OpDef's order."""
        fields: dict[str, str] = {}
        inputs, outputs = [], []
        for line in text.splitlines():
            words = line.split()
            if not words:
                continue
            if words[0] in ("input", "output") and len(words) == 3:
                (inputs if words[0] == "input" else outputs).append((words[1], words[2]))
            elif words[0] in ("op_type", "op_file"):
                fields[words[0]] = words[1] if len(words) > 1 else ""
            else:
                raise KernelBuildError(f"a kernel request line opsnn does not know: {line!r}")
        if not fields.get("op_type"):
            raise KernelBuildError("a kernel request without op_type")
        return cls(fields["op_type"], fields.get("op_file", ""), tuple(inputs), tuple(outputs))


@dataclass(frozen=True)
class KernelLibrary:
    path: Path
    entry: str            # the kernel function's name (what a launch is reported as)
    params: tuple[str, ...]  # its parameter names (the findings' tensor names)
    built: bool           # compiled now (False: the cached build was current)


def snake_case(op_type: str) -> str:
    """An op type's file name as CANN derives it: ThresholdGradV2D -> threshold_grad_v2_d,
    LogSoftmaxV2 -> log_softmax_v2 (a capital starts a word after a lower-case letter or a digit,
    and inside a run of capitals before a lower-case letter)."""
    out = []
    for i, c in enumerate(op_type):
        if c.isupper() and i > 0:
            prev = op_type[i - 1]
            nxt = op_type[i + 1] if i + 1 < len(op_type) else ""
            if prev != "_" and (not prev.isupper() or nxt.islower()):
                out.append("_")
        out.append(c.lower())
    return "".join(out)


def kernel_source(manifests: Manifest | list[Manifest], request: KernelRequest) -> tuple[Manifest, Path]:
    """(the manifest, op_kernel/<opFile>.cpp) of the first operator folder that has the source."""
    manifests = [manifests] if isinstance(manifests, Manifest) else manifests
    name = request.op_file or snake_case(request.op_type)
    for m in manifests:
        for d in m.op_kernel_dirs:
            if (d / f"{name}.cpp").is_file():
                return m, d / f"{name}.cpp"
    where = ", ".join(str(d) for m in manifests for d in m.op_kernel_dirs) or "no op_kernel folder"
    origin = f'the OpDef\'s ExtendCfgInfo("opFile.value", "{name}")' if request.op_file else \
        f"{request.op_type} in snake case (its OpDef names no opFile)"
    raise KernelBuildError(f"no kernel source for {request.op_type}: {name}.cpp ({origin}) is in none of "
                           f"the program's op_kernel folders ({where})")


_GLOBAL_FN = re.compile(r'(template\s*<[^<>]*>\s*)?(?:extern\s+"C"\s+)?__global__\s+(?:__aicore__\s+)?void\s+(\w+)'
                        r'\s*\(([^)]*)\)')


def kernel_entry(source_text: str, request: KernelRequest) -> tuple[str, list[str], bool]:
    """(name, parameter names, is a template) of the kernel function: the op type in snake case
    (softsign_apt.cpp defines softsign), else opFile, else the file's only __global__ function."""
    text = re.sub(r'//[^\n]*|/\*.*?\*/', " ", source_text, flags=re.S)
    found = {m.group(2): m for m in _GLOBAL_FN.finditer(text)}
    for name in (snake_case(request.op_type), request.op_file):
        if name in found:
            break
    else:
        if len(found) != 1:
            listed = ", ".join(found) or "none"
            raise KernelBuildError(f"no kernel function {snake_case(request.op_type)} in the kernel source "
                                   f"(its __global__ functions: {listed})")
        name = next(iter(found))
    m = found[name]
    params = []
    for p in (x.strip() for x in m.group(3).split(",")):
        word = re.search(r'(\w+)\s*$', p)
        if word is None:
            raise KernelBuildError(f"kernel {name}: cannot read its parameter {p!r}")
        params.append(word.group(1))
    return name, params, m.group(1) is not None


def dtype_defines(request: KernelRequest) -> list[str]:
    """-DDTYPE_<NAME>=<type> -DORIG_DTYPE_<NAME>=DT_* -DFORMAT_<NAME>=FORMAT_ND for every input and
    output (an output named like an input: <NAME>_REF), as CANN's device build defines them."""
    out, seen = [], set()
    for kind, params in (("input", request.inputs), ("output", request.outputs)):
        for name, dtype in params:
            macro = name.upper()
            if kind == "output" and macro in seen:
                macro += "_REF"
            seen.add(macro)
            if dtype not in C_TYPES:
                raise KernelBuildError(f"{request.op_type}: {kind} {name} has dtype {dtype}, which opsnn's kernel "
                                       f"headers have no C++ type for (known: {', '.join(C_TYPES)})")
            out += [f"-DDTYPE_{macro}={C_TYPES[dtype]}", f"-DORIG_DTYPE_{macro}={dtype}", f"-DFORMAT_{macro}=FORMAT_ND"]
    return out


def _shim(source: Path, name: str, params: list[str], template: bool, request: KernelRequest) -> str:
    """The library's one translation unit: the kernel source, the tiling-key entry of a template
    (instantiations of this combination's input dtypes only), and the exported launch function."""
    declaration = f'extern "C" void {name}({", ".join(f"GM_ADDR {p}" for p in params)});'
    lines = ['#include "kernel_operator.h"', '#include "ascendc/host_api/tiling/template_argument.h"',
             f'#include "{source}"']
    if template:
        c_dt = {i: "C_" + dtype for i, (_, dtype) in enumerate(request.inputs)}
        entry = tiling_key_entry(declaration, source.read_text(errors="replace"), source.parent, c_dt)
        if entry is None:
            raise KernelBuildError(f"kernel {name} in {source} is a template whose instantiations opsnn cannot "
                                   "derive: it needs a *_tiling_key.h in its op_kernel folder declaring its "
                                   "template arguments (ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL)")
        lines.append(entry)
    args = ", ".join(f"static_cast<GM_ADDR>(a[{i}])" for i in range(len(params)))
    lines += [f'extern "C" void opsnn_host_kernel(void *const *a) {{ {name}({args}); }}', ""]
    return "\n".join(lines)


def content_key(command: list[str], deps: list[str], shim: str = "") -> str:
    """A compile's cache key: its command, the generated source it compiles (`shim`) and the
    bytes of every file its last compile read (op_build's objects use it too)."""
    h = hashlib.sha256("\0".join(command).encode())
    h.update(shim.encode())
    for path in deps:
        try:
            h.update(Path(path).read_bytes())
        except OSError:
            h.update(b"missing:" + path.encode())
    return h.hexdigest()


def _excerpt(stderr: str, limit: int = 20) -> str:
    """The compiler's first errors (with the lines that locate them), not its whole output."""
    return compiler_excerpt(stderr, limit)  # ut_build's: one rule for what of a compile failure to show


def build_library(manifests: Manifest | list[Manifest], request: KernelRequest) -> KernelLibrary:
    """The kernel library for one dtype combination: the cached build when its content key (command,
    entry, every header read) is unchanged, else compiled now (beside, then renamed).

    Raises
    ------
    KernelBuildError
        No source, no kernel function, a template without a tiling-key header, a dtype with no
        C++ type, or the compiler's errors.
    """
    manifest, source = kernel_source(manifests, request)
    name, params, template = kernel_entry(source.read_text(errors="replace"), request)
    defines = dtype_defines(request)
    shim = _shim(source, name, params, template, request)
    combo = "-".join(dtype.removeprefix("DT_").lower() for _, dtype in (*request.inputs, *request.outputs))
    tag = hashlib.sha256("\0".join([str(source), *defines]).encode()).hexdigest()[:12]
    work = manifest.cache() / f"{source.stem}-{combo}-{tag}"
    work.mkdir(parents=True, exist_ok=True)
    library, stamp, dep, shim_path = work / "kernel.so", work / "stamp", work / "kernel.d", work / "kernel_entry.cpp"
    if not shim_path.is_file() or shim_path.read_text() != shim:
        shim_path.write_text(shim)
    command = [*compiler(), *kt_build.kernel_cflags(), "-DASCENDC_CPU_DEBUG", "-DDETERMINISTIC_MODE=0",
               f"-I{source.parent}", *(f"-I{d}" for d in manifest.include_dirs), *manifest.options, *defines,
               "-O0", "-g", "-w", "-fPIC", "-shared", "-MD", "-MF", str(dep), str(shim_path),
               "-o", "{out}", *kt_build.kernel_libs()]
    if library.is_file() and stamp.is_file() and dep.is_file() and \
            stamp.read_text() == content_key(command, depfile_dependencies(dep), shim):
        return KernelLibrary(library, name, tuple(params), False)
    kt_build.build()
    with tempfile.TemporaryDirectory(prefix="build-", dir=work) as tmp:
        out = Path(tmp) / "kernel.so"
        done = subprocess.run([str(out) if c == "{out}" else c for c in command], capture_output=True, text=True)
        if done.returncode != 0:
            raise KernelBuildError(f"compiling {request.op_type}'s kernel {source} failed "
                                   f"({' '.join(defines[::3])}):\n{_excerpt(done.stderr)}")
        os.replace(out, library)
    stamp.write_text(content_key(command, depfile_dependencies(dep), shim))
    return KernelLibrary(library, name, tuple(params), True)


_REGISTERED: list[Path] = []  # manifests of the operators loaded into this process (opsnn.host.operator)


def register_manifest(path: Path) -> None:
    """Make a loaded operator's kernels findable by LaunchKernel in this process (after the one
    OPSNN_HOST_KERNELS names)."""
    path = Path(path).resolve()
    if path not in _REGISTERED:
        _REGISTERED.append(path)


def library_for(request_text: str) -> str:
    """LaunchKernel's call (through opsnn_kt_python_call): the library for one launch, built where
    needed, as `path\\nkernel name\\nparam, param, ...`. The manifests: $OPSNN_HOST_KERNELS, then
    those the process's loaded operators registered."""
    env = os.environ.get(MANIFEST_ENV, "").strip()
    paths = [Path(env)] if env else []
    paths += [p for p in _REGISTERED if p not in paths]
    if not paths:
        raise KernelBuildError(f"no kernel manifest: {MANIFEST_ENV} is not set (`opsnn run` and "
                               "opsnn.host.operator set it; for a program of your own, see docs/cpp-operators.md)")
    lib = build_library([Manifest.read(p) for p in paths], KernelRequest.parse(request_text))
    return f"{lib.path}\n{lib.entry}\n{', '.join(lib.params)}"


__all__ = ["C_TYPES", "KernelBuildError", "KernelLibrary", "KernelRequest", "MANIFEST_ENV", "Manifest",
           "build_library", "dtype_defines", "kernel_entry", "kernel_source", "library_for", "register_manifest",
           "snake_case"]
