"""The extern "C" entry of a kernel template: its instantiation chosen by the tiling key.

A kernel whose template parameters are the arguments its tiling-key header declares
(ASCENDC_TPL_ARGS_DECL) is instantiated by the build, one instantiation per combination
ASCENDC_TPL_SEL allows. Two builds need that entry: `opsnn ut` (a kernel UT declaring the kernel
`extern "C"`) and the host twin's kernel libraries (opsnn/host/kernels.py: one per dtype
combination of the OpDef, where a DATATYPE argument bound to an input by ASCENDC_TPL_INPUT(n)
keeps only that input's dtype, as CANN's device build compiles it)."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

from .cpp_text import top_level_split


def tiling_key_entry(declaration: str, kernel: str, kernel_dir: Path,
                     input_dtypes: dict[int, str] | None = None) -> str | None:
    """The extern "C" definition for `declaration` (`extern "C" void name(params);`) of a kernel
    template in `kernel` whose template parameters are the arguments a tiling-key header of
    `kernel_dir` declares: one case per combination ASCENDC_TPL_SEL allows, its tiling key packed
    as CANN's GET_TPL_TILING_KEY packs it (template_argument.h: declaration order, first argument
    in the lowest bits, each in its declared width; a UINT argument by its index in the declared
    list, a DATATYPE one by its C_DT_* code), so ICPU_SET_TILING_KEY(GET_TPL_TILING_KEY(...))
    selects the instantiation; a key no combination has fails the launch naming the key and the
    keys that exist. The keys are C++ constant expressions of the header's own names (the
    compiler evaluates them).

    input_dtypes: input index -> C_DT_* name (C_DT_FLOAT, ...) of one dtype combination; a
    DATATYPE argument declared with ASCENDC_TPL_INPUT(n) keeps only input n's dtype.

    None where the kernel is no such template or the header is not understood."""
    m = re.search(r'void\s+(\w+)\s*\(([^)]*)\)', declaration)
    if m is None:
        return None
    name, params = m.group(1), m.group(2)
    t = re.search(r'template\s*<([^<>]*)>\s*(?:__global__\s+)?(?:__aicore__\s+)?void\s+' + re.escape(name) + r'\s*\(',
                  kernel)
    if t is None:
        return None
    tparams = []  # (name, is_type)
    for p in _top_split(t.group(1)):
        words = p.split("=")[0].split()
        if len(words) < 2:
            return None
        tparams.append((words[-1], words[0] in ("typename", "class")))
    for key_header in sorted(kernel_dir.rglob("*tiling_key.h")):
        spec = _tpl_spec(key_header.read_text(errors="replace"))
        if spec is None:
            continue
        decl, sels = spec
        names = [d[0] for d in decl]
        if sorted(names) != sorted(n for n, _ in tparams):
            if len(names) != len(tparams):
                continue
            # the same count under other names (upstream swish: schMode, dType declared; schMode,
            # attrWork in the kernel): CANN's generated instantiations pass the values in the
            # declaration's order, so the kernel's parameters take them by position
            tparams = [(n, is_type) for n, (_, is_type) in zip(names, tparams, strict=True)]
        return _tpl_entry(name, params, tparams, decl, sels, input_dtypes or {})
    return None


def _top_split(text: str) -> list[str]:
    """`text` split at its top-level commas (outside parentheses and braces), empties dropped."""
    return [x for x in top_level_split(text, "({", ")}") if x]


def _macro_args(text: str, macro: str) -> list[list[str]]:
    """The argument lists of every call of `macro` in `text` (balanced parentheses)."""
    calls = []
    for m in re.finditer(r'\b' + macro + r'\s*\(', text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        calls.append(_top_split(text[m.end():i - 1]))
    return calls


_NO_KEY_BITS = ("KERNEL_TYPE", "TILING_STRUCT")  # a combination's kernel type and tiling struct: not arguments
_TPL_PARAM = re.compile(
    r'ASCENDC_TPL_(DATATYPE|DTYPE|FORMAT|UINT|BOOL|KERNEL_TYPE|TILING_STRUCT)_(?:DECL|SEL)\s*\((.*)\)\s*$', re.S)
_TPL_INPUT = re.compile(r'ASCENDC_TPL_INPUT\s*\(\s*(\d+)\s*\)')


def _tpl_param(text: str):
    """(kind, name, args) of one ASCENDC_TPL_*_DECL / _SEL call, or None."""
    m = _TPL_PARAM.match(text.strip())
    if m is None:
        return None
    args = _top_split(m.group(2))
    return (m.group(1), args[0] if args else "", args[1:])


def _tpl_spec(header: str):
    """([(name, kind, width, values)], [[(name, kind, values)] per ASCENDC_TPL_ARGS_SEL]) of a
    tiling-key header, or None. UINT values are the declaration's tokens after the mode flag."""
    header = re.sub(r'//[^\n]*|/\*.*?\*/', " ", header, flags=re.S)
    decls = _macro_args(header, "ASCENDC_TPL_ARGS_DECL")
    if len(decls) != 1:
        return None
    decl = []
    for item in decls[0][1:]:
        p = _tpl_param(item)
        if p is None or p[0] in _NO_KEY_BITS:
            return None
        kind, pname, args = p
        if kind == "UINT":
            if len(args) < 2:
                return None
            decl.append((pname, kind, args[0], args[1:]))
        else:
            decl.append((pname, kind, "1" if kind == "BOOL" else "8", args))
    sels = []
    for group in _macro_args(header, "ASCENDC_TPL_ARGS_SEL"):
        combination = []
        for item in group:
            p = _tpl_param(item)
            if p is None:
                return None
            if p[0] not in _NO_KEY_BITS:
                combination.append((p[1], p[0], p[2]))
        sels.append(combination)
    return (decl, sels) if sels else None


def _uint_values(args: list[str]) -> list[str] | None:
    """A UINT's value tokens after its mode flag: LIST as written; RANGE / MIX expanded where the
    bounds are integers (None otherwise)."""
    mode, rest = args[0], args[1:]
    if mode == "ASCENDC_TPL_UI_LIST":
        return rest
    try:
        nums = [int(x, 0) for x in rest]
    except ValueError:
        return None
    ranges, out = nums[0], []
    for r in range(ranges):
        out += [str(v) for v in range(nums[1 + 2 * r], nums[2 + 2 * r] + 1)]
    return out + ([str(v) for v in nums[1 + 2 * ranges:]] if mode == "ASCENDC_TPL_UI_MIX" else [])


def _bound_input(dvalues: list[str]) -> int | None:
    """n of a DATATYPE declaration's ASCENDC_TPL_INPUT(n), else None."""
    for v in dvalues:
        m = _TPL_INPUT.search(v)
        if m is not None:
            return int(m.group(1))
    return None


def _tpl_entry(name: str, params: str, tparams, decl, sels, input_dtypes: dict[int, str]) -> str | None:
    combos = []
    for sel in sels:
        by_name = {n: (k, v) for n, k, v in sel}
        lists = []
        for pname, kind, _, dvalues in decl:
            if pname not in by_name:
                return None
            values = by_name[pname][1]
            if kind == "UINT":
                values = _uint_values(values)
                if values is None:
                    return None
            values = [v for v in values if "ASCENDC_TPL_INPUT" not in v]
            bound = _bound_input(dvalues) if kind in ("DATATYPE", "DTYPE") else None
            if bound is not None and bound in input_dtypes:
                values = [v for v in values if v == input_dtypes[bound]]
            lists.append(values)
        combos += [c for c in itertools.product(*lists) if c not in combos]
    if not combos:
        return None
    kinds = {pname: kind for pname, kind, _, _ in decl}
    cases = []
    for combo in combos:
        shift, parts = "0", []
        for (_, kind, width, dvalues), value in zip(decl, combo, strict=True):
            bits = (f"::opsnn_kt::TplTilingIndex({{{', '.join(dvalues)}}}, ({value}))" if kind == "UINT"
                    else f"static_cast<uint64_t>({value})")
            parts.append(f"({bits} << ({shift}))")
            shift = f"{shift} + ({width})"
        values = dict(zip((d[0] for d in decl), combo, strict=True))
        targs = []
        for tname, is_type in tparams:
            v = values[tname]
            if is_type:
                targs.append(f"typename ::opsnn_kt::TplDType<static_cast<uint64_t>({v})>::type")
            elif kinds[tname] == "BOOL":
                targs.append(f"static_cast<bool>({v})")
            else:
                targs.append(f"({v})")
        label = ", ".join(f"{d[0]}={v}" for d, v in zip(decl, combo, strict=True))
        cases.append((" | ".join(parts), ", ".join(targs), label))
    args = ", ".join(re.findall(r'(\w+)\s*(?:,|$)', params.strip()))
    body = "".join(f"    if (key == ({k})) {{ {name}<{t}>({args}); return; }}\n" for k, t, _ in cases)
    # the failure names the key asked for and every key that exists, with its arguments
    known = "".join(f'    n += std::snprintf(text + n, sizeof(text) - n, "{"; " if i else " "}%llu (%s)", '
                    f'static_cast<unsigned long long>({k}), "{label}");\n'
                    f"    if (n >= static_cast<int>(sizeof(text))) n = static_cast<int>(sizeof(text)) - 1;\n"
                    for i, (k, _, label) in enumerate(cases))
    return (f'#include <cstdio>\nextern "C" void {name}({params}) {{\n'
            f"    const uint64_t key = opsnn_kt_tiling_key();\n{body}"
            f"    char text[4096];\n"
            f'    int n = std::snprintf(text, sizeof(text), "{name}: no instantiation for this tiling key (%llu); '
            f'the kernel has GET_TPL_TILING_KEY of the ASCENDC_TPL_SEL combinations:", '
            f"static_cast<unsigned long long>(key));\n{known}"
            f"    opsnn_kt_fail(text, __FILE__, __LINE__);\n}}")


__all__ = ["tiling_key_entry"]
