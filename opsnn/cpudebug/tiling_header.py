"""The tiling-data header upstream's build generates for an op_kernel UT (`<op>_tiling_data.h`,
force-included with `-include`) where the test folder has no `<op>_tiling_def.h` of its own.

Upstream (cmake/ut.cmake, tests/ut/op_kernel/scripts/gen_tiling_head_file.py) loads the op's host
tiling library and has the toolkit print a C struct per tiling-data class the op registers. Without
a toolkit, opsnn reads the same declarations from the op_host sources: each
`BEGIN_TILING_DATA_DEF(Name)` ... `TILING_DATA_FIELD_DEF*(...)` ... `END_TILING_DATA_DEF` becomes a
packed struct laid out as the host's TilingDef lays out its buffer (each field aligned to its
element size, a nested struct to 8 bytes, the whole padded to 8; metadef's
CheckAlignAndGenPlaceHolder), and `GET_TILING_DATA` copies the struct
`REGISTER_TILING_DATA_CLASS(<OpType>, Name)` names. A kernel that registers its own struct
(`REGISTER_TILING_DEFAULT`, or atvoss's `BroadcastSch`) gets no structs, as upstream's generator
then emits none of the host's; its GET_TILING_DATA copies `TestUtDefaultTilingStruct` where the
UT's options define that name."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_SIZES = {"int8_t": 1, "uint8_t": 1, "bool": 1, "char": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4,
          "uint32_t": 4, "float": 4, "int": 4, "int64_t": 8, "uint64_t": 8, "double": 8, "size_t": 8}


@dataclass
class Field:
    kind: str  # "scalar", "array", "struct"
    ctype: str
    name: str
    count: int = 1


@dataclass
class TilingStruct:
    name: str
    fields: list[Field]


_BEGIN = re.compile(r"\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)")
_FIELD = re.compile(r"\bTILING_DATA_FIELD_DEF(_ARR|_STRUCT|_WITH_INITVALUE)?\s*\(([^;]*?)\)\s*;")
_REGISTER = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
_OWN_STRUCT = re.compile(r"\b(REGISTER_TILING_DEFAULT|BroadcastSch)\b")


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


_CONSTANT = re.compile(r"#\s*define\s+(\w+)\s+\(?(\d+)[uUlL]*\)?\s*$"
                       r"|\b(?:constexpr|const)\s+(?:static\s+)?[\w:]+\s+(\w+)\s*=\s*(\d+)[uUlL]*\s*;", re.M)


def read_constants(text: str) -> dict[str, int]:
    """Integer constants a source text defines (`#define N 8`, `constexpr int64_t N = 8;`), which
    array fields name as their length."""
    out = {}
    for m in _CONSTANT.finditer(_strip_comments(text)):
        name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        out.setdefault(name, int(value))
    return out


def read_structs(text: str, constants: dict[str, int] | None = None) -> list[TilingStruct]:
    """The BEGIN_TILING_DATA_DEF structs of a source text, in order; an array's length may be one
    of `constants`."""
    constants = constants or {}
    text = _strip_comments(text)
    out = []
    for m in _BEGIN.finditer(text):
        end = text.find("END_TILING_DATA_DEF", m.end())
        body = text[m.end():end if end >= 0 else len(text)]
        fields = []
        for f in _FIELD.finditer(body):
            args = [a.strip() for a in f.group(2).split(",")]
            if f.group(1) == "_ARR" and len(args) >= 3:
                try:
                    count = int(args[1].rstrip("uUlL"), 0)
                except ValueError:
                    if args[1] not in constants:
                        continue  # a length computed by an expression: not readable here
                    count = constants[args[1]]
                fields.append(Field("array", args[0], args[2], count))
            elif f.group(1) == "_STRUCT" and len(args) >= 2:
                fields.append(Field("struct", args[0], args[1]))
            elif len(args) >= 2:
                fields.append(Field("scalar", args[0], args[1]))
        out.append(TilingStruct(m.group(1), fields))
    return out


def _struct_text(s: TilingStruct, sizes: dict[str, int]) -> str:
    lines, offset = [f"struct {s.name} {{"], 0

    def pad(align: int, label: str) -> None:
        nonlocal offset
        if offset % align:
            n = align - offset % align
            lines.append(f"    uint8_t {label}PH[{n}];")
            offset += n

    for f in s.fields:
        if f.kind == "struct":
            pad(8, f.name)
            lines.append(f"    {f.ctype} {f.name};")
            offset += sizes.get(f.ctype, 0)
        else:
            size = _SIZES.get(f.ctype, 4)
            pad(size, f.name)
            lines.append(f"    {f.ctype} {f.name}" + (f"[{f.count}];" if f.kind == "array" else ";"))
            offset += size * f.count
    pad(8, s.name)
    sizes[s.name] = offset
    lines.append("};")
    return "\n".join(lines)


def op_type_of(op_dir: Path, op_name: str) -> str:
    """The op's type: OP_ADD(Type) in its op_host definition, else op_name in CamelCase (as
    upstream's cmake/ut.cmake derives it)."""
    for path in sorted((op_dir / "op_host").rglob("*_def.cpp")) if (op_dir / "op_host").is_dir() else ():
        m = re.search(r"\bOP_ADD\s*\(\s*(\w+)", path.read_text(errors="replace"))
        if m:
            return m.group(1)
    return "".join(w[:1].upper() + w[1:].lower() for w in op_name.split("_"))


def kernel_registers_own_struct(kernel_dir: Path) -> bool:
    """Whether the kernel's sources name REGISTER_TILING_DEFAULT or BroadcastSch (upstream's
    generator greps the same two words)."""
    if not kernel_dir.is_dir():
        return False
    return any(_OWN_STRUCT.search(p.read_text(errors="replace")) for p in kernel_dir.rglob("*")
               if p.is_file() and p.suffix in (".h", ".hpp", ".cpp", ".cc", ".inc"))


def header_text(op_dir: Path, op_name: str) -> str:
    """The generated `<op>_tiling_data.h` for the op in `op_dir`."""
    guard = "OPSNN_UT_" + re.sub(r"\W", "_", op_name).upper() + "_TILING_DATA_H_"
    lines = [f"/* {op_name}_tiling_data.h: generated by opsnn ut from {op_dir.name}/op_host's "
             "BEGIN_TILING_DATA_DEF declarations, as upstream's UT build generates it. */",
             f"#ifndef {guard}", f"#define {guard}", "#include <cstdint>", '#include "kernel_tiling/kernel_tiling.h"']
    if kernel_registers_own_struct(op_dir / "op_kernel") or not (op_dir / "op_host").is_dir():
        # upstream's generator then has GET_TILING_DATA copy `TestUtDefaultTilingStruct`, which a
        # UT's options name (-DTestUtDefaultTilingStruct=XTilingData); without it, the struct the
        # kernel registers where it reads the data
        lines += ["#ifdef TestUtDefaultTilingStruct", "#undef GET_TILING_DATA",
                  "#define GET_TILING_DATA(var, tiling) "
                  "GET_TILING_DATA_WITH_STRUCT(TestUtDefaultTilingStruct, var, tiling)", "#endif"]
        return "\n".join([*lines, "#endif", ""])
    structs: dict[str, TilingStruct] = {}
    registered: dict[str, str] = {}
    texts = [p.read_text(errors="replace") for p in sorted((op_dir / "op_host").rglob("*"))
             if p.is_file() and p.suffix in (".h", ".hpp", ".cpp", ".cc")]
    constants: dict[str, int] = {}
    for text in texts:
        for name, value in read_constants(text).items():
            constants.setdefault(name, value)
    for text in texts:
        for s in read_structs(text, constants):
            structs.setdefault(s.name, s)
        for op_type, name in _REGISTER.findall(_strip_comments(text)):
            registered.setdefault(op_type, name)
    op_type = op_type_of(op_dir, op_name)
    wanted = [name for t, name in registered.items() if t == op_type or t.startswith(op_type + "_")]
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order or name not in structs:
            return
        for f in structs[name].fields:
            if f.kind == "struct":
                visit(f.ctype)
        order.append(name)

    for name in wanted or list(structs):
        visit(name)
    sizes: dict[str, int] = {}
    lines.append("#pragma pack(push, 1)")
    lines.extend(_struct_text(structs[name], sizes) for name in order)
    lines.append("#pragma pack(pop)")
    main = registered.get(op_type)
    if main in structs:
        lines += ["#undef GET_TILING_DATA",
                  f"#define GET_TILING_DATA(var, tiling) GET_TILING_DATA_WITH_STRUCT({main}, var, tiling)"]
    return "\n".join([*lines, "#endif", ""])
