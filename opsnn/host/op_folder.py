"""An operator folder as upstream's build reads it (ops-nn cmake/func.cmake add_modules_sources),
for the host twin's builds of op_host, op_api and op_kernel (`opsnn run`, opsnn.host.operator).

    <op>/op_host/<op>_def*.cpp, *_infershape*.cpp, *_tiling*.cpp     OpDef, shape inference, tiling
    <op>/op_host/<dir>/*_tiling*.cpp          tiling of one compute unit (CMakeLists COMPUTE_UNIT/TILING_DIR)
    <op>/op_host/op_tiling/**.cpp              more tiling sources
    <op>/op_api/*.cpp  or  <op>/op_host/op_api/*.cpp    the aclnn API and its l0 ops (newer / older layout)
    <op>/op_kernel/<opFile>.cpp                the kernel (opsnn/host/kernels.py)
    <op>/examples/test_aclnn_*.cpp             examples

An operator's op_api may reach another operator's l0 op by including its op_api header by
relative path (ThresholdBackward's "../../../../../activation/relu_grad/op_api/relu_grad.h"): that
folder is a dependency, and its op_api, op_host and op_kernel are built too."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
_LAYER_DIRS = ("op_host", "op_api", "op_kernel")


class OpFolderError(Exception):
    """A path that is no operator folder, or a folder without what a build needs."""


@dataclass(frozen=True)
class OperatorFolder:
    root: Path

    @property
    def name(self) -> str:
        return self.root.name

    @property
    def op_host_dir(self) -> Path | None:
        d = self.root / "op_host"
        return d if d.is_dir() else None

    @property
    def op_api_dir(self) -> Path | None:
        """op_api/ beside op_host (newer layout), else op_host/op_api/ (older)."""
        for d in (self.root / "op_api", self.root / "op_host" / "op_api"):
            if d.is_dir():
                return d
        return None

    @property
    def op_kernel_dir(self) -> Path | None:
        d = self.root / "op_kernel"
        return d if d.is_dir() else None

    def tiling_dirs(self, soc_family: str) -> list[str]:
        """The op_host subfolders holding the tiling of `soc_family` (ascend910b, ascend950), from
        the CMakeLists' add_modules_sources(... COMPUTE_UNIT u... TILING_DIR d...), pairwise."""
        texts = [p.read_text(errors="replace") for p in (self.root / "op_host" / "CMakeLists.txt",
                                                         self.root / "CMakeLists.txt") if p.is_file()]
        for text in texts:
            text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
            variables = {m.group(1): m.group(2).replace('"', "").split()
                         for m in re.finditer(r'set\s*\(\s*(\w+)\s+([^)]*)\)', text)}
            for m in re.finditer(r'add_modules_sources\s*\((.*?)\)', text, re.S):
                words = []
                for w in m.group(1).split():
                    v = re.fullmatch(r'\$\{(\w+)\}', w)
                    words += variables.get(v.group(1), [w]) if v else [w.replace('"', "")]
                units, dirs = _keyword_values(words, "COMPUTE_UNIT"), _keyword_values(words, "TILING_DIR")
                return [d for u, d in zip(units, dirs, strict=False) if u.lower() == soc_family.lower()]
        return []

    def host_sources(self, soc_family: str) -> list[Path]:
        """OpDef, infershape and tiling sources (the SoC's tiling folder included)."""
        d = self.op_host_dir
        if d is None:
            return []
        found = set()
        for pattern in ("*_def*.cpp", "*_infershape*.cpp", "*_tiling*.cpp"):
            found.update(d.glob(pattern))
        for sub in self.tiling_dirs(soc_family):
            found.update((d / sub).glob("*_tiling*.cpp"))
        found.update((d / "op_tiling").rglob("*.cpp"))
        return sorted(p.resolve() for p in found if p.is_file())

    def api_sources(self) -> list[Path]:
        d = self.op_api_dir
        return sorted(p.resolve() for p in d.glob("*.cpp")) if d else []

    def aclnn_headers(self) -> list[Path]:
        """The public aclnn headers (op_api/aclnn_*.h): a CANN install has them under aclnnop/."""
        d = self.op_api_dir
        return sorted(p.resolve() for p in d.glob("aclnn_*.h")) if d else []

    def examples(self) -> list[Path]:
        d = self.root / "examples"
        return sorted(d.glob("test_aclnn_*.cpp")) if d.is_dir() else []


def _keyword_values(words: list[str], keyword: str) -> list[str]:
    """The values after `keyword` in a cmake_parse_arguments call, up to the next upper-case keyword."""
    if keyword not in words:
        return []
    out = []
    for w in words[words.index(keyword) + 1:]:
        if re.fullmatch(r'[A-Z][A-Z_]+', w):
            break
        out.append(w)
    return out


def is_operator_folder(path: Path) -> bool:
    return path.is_dir() and any((path / d).is_dir() for d in _LAYER_DIRS)


def folder_of(path: Path) -> OperatorFolder:
    """The operator folder a file or folder belongs to: the nearest ancestor (or itself) with an
    op_host, op_api or op_kernel folder (an example's <op>/examples/x.cpp gives <op>)."""
    path = Path(path).resolve()
    for d in (path, *path.parents):
        if is_operator_folder(d) and d.name not in _LAYER_DIRS:
            return OperatorFolder(d)
    raise OpFolderError(f"{path} is in no operator folder (a folder with op_host/, op_api/ or op_kernel/; "
                        "give it with --op-dir)")


def _operator_root_of(header: Path) -> Path | None:
    """<op> of a header in <op>/op_api/ or <op>/op_host/op_api/, else None."""
    if header.parent.name != "op_api":
        return None
    root = header.parent.parent
    if root.name == "op_host":
        root = root.parent
    return root if is_operator_folder(root) else None


def dependencies(folder: OperatorFolder) -> list[OperatorFolder]:
    """The operator folders whose op_api headers `folder`'s op_api includes by relative path,
    transitively, in the order found (the folder itself not included)."""
    seen = {folder.root.resolve()}
    out: list[OperatorFolder] = []
    todo = [folder]
    while todo:
        f = todo.pop(0)
        files = [*f.api_sources(), *sorted(f.op_api_dir.glob("*.h"))] if f.op_api_dir else []
        for source in files:
            for inc in _INCLUDE.findall(source.read_text(errors="replace")):
                if not inc.startswith(".."):
                    continue
                target = Path(os.path.normpath(source.parent / inc))
                root = _operator_root_of(target) if target.is_file() else None
                if root is not None and root.resolve() not in seen:
                    seen.add(root.resolve())
                    dep = OperatorFolder(root.resolve())
                    out.append(dep)
                    todo.append(dep)
    return out


def checkout_root(folder: OperatorFolder) -> Path | None:
    """The ops-nn checkout holding the folder (the nearest ancestor with common/inc and cmake/), or
    None for a folder outside one."""
    for d in folder.root.parents:
        if (d / "common" / "inc").is_dir() and (d / "cmake").is_dir():
            return d
    return None


def checkout_include_dirs(root: Path | None) -> list[Path]:
    """What upstream's cmake/variables.cmake puts on op_api's and op_host's include path from the
    checkout (OPAPI_INCLUDE, OP_TILING_INCLUDE): its root, common/inc, common/inc/op_host,
    common/inc/op_api, common/stub/op_api."""
    if root is None:
        return []
    dirs = [root, root / "common" / "inc", root / "common" / "inc" / "op_host", root / "common" / "inc" / "op_api",
            root / "common" / "stub" / "op_api"]
    return [d for d in dirs if d.is_dir()]


__all__ = ["OpFolderError", "OperatorFolder", "checkout_include_dirs", "checkout_root", "dependencies",
           "folder_of", "is_operator_folder"]
