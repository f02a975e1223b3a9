"""`opsnn atk FILE --op-dir DIR`: the case file run against the developer's own C++ operator (its
op_api, tiling and kernel, through opsnn.host.operator) on the emulator, instead of opsnn's
Python operators (docs/atk.md, docs/cpp-operators.md).

A case's API is the one the folder's aclnn header declares (by the file's aclnn_name, spelled as
upstream's files spell it). Its output arrays are made from the inputs: the broadcast shape of the
tensor inputs, the first tensor's dtype (what an elementwise activation writes; an API whose out
differs is refused by its op_api, and the case fails naming it). The results are compared with the
file's golden, torch (the case's `name`, or the aten op of an opsnn operator declaring the same
API), by the file's standard (`single_bm` where the case names it, as ATK judges a device), and,
where opsnn has a Python operator declaring the same API, with that operator's reference backend
under the SoC's semantics, bit for bit. A refusal of phase 1 (a parameter status) matches the
other side's refusal."""
from __future__ import annotations

import numpy as np

from opsnn.aclnn.signature import ATTR, ATTR_TYPES, OUT, REF, TENSOR, AclnnApi, Param
from opsnn.atk.cases import BadFile, find_api

_PARAM_STATUSES = (161001, 161002)  # ACLNN_ERR_PARAM_NULLPTR, ACLNN_ERR_PARAM_INVALID


class CppSurface:
    """One loaded C++ operator folder, as the runner calls it."""

    def __init__(self, op_dir: str, soc: str):
        from opsnn.host.op_build import HostBuildError
        from opsnn.host.operator import load_operator
        try:
            self.operator = load_operator(op_dir, soc=soc, sanitize=True)
        except (ValueError, HostBuildError) as e:
            raise BadFile(f"--op-dir {op_dir}: {e}") from None
        self.family = self.operator.build.family
        self._apis: dict[str, AclnnApi] = {}

    @property
    def label(self) -> str:
        return f"C++ operator {self.operator.build.folder.name}"

    def resolve(self, aclnn_name: str) -> AclnnApi:
        """The folder's declaration of `aclnn_name` as an AclnnApi (BadFile where the folder has no
        such API or a parameter ATK cannot fill)."""
        try:
            c_api = self.operator.api(aclnn_name)
        except KeyError as e:
            raise BadFile(str(e.args[0])) from None
        if c_api.name in self._apis:
            return self._apis[c_api.name]
        twin = self.twin(c_api.name)
        params = []
        for p in c_api.params:
            if p.kind == ATTR and p.c_type not in ATTR_TYPES:
                raise BadFile(f"{c_api.name}: parameter {p.name} is a {p.c_type}, which ATK inputs cannot fill "
                              f"(known: {', '.join(ATTR_TYPES)})")
            params.append(Param(p.name, p.kind, c_type=p.c_type))
        # arithmetic=True: against torch the case's own standard applies (single_bm where it names
        # it), as ATK judges a device's results; the NPU's kernel is no torch loop
        api = AclnnApi(c_api.name, header=c_api.header.stem, python="", params=tuple(params),
                       aten=twin.aten if twin else "", arithmetic=True)
        self._apis[c_api.name] = api
        return api

    @staticmethod
    def refusal_matches(ours: BaseException, theirs: BaseException) -> bool:
        """The C++ op_api refuses through its status (OperatorError of phase 1, a parameter status
        161001 / 161002): that is the refusal opsnn's TypeError / ValueError and torch's
        RuntimeError / TypeError / ValueError make."""
        from opsnn.host.operator import OperatorError
        return isinstance(ours, OperatorError) and ours.status in _PARAM_STATUSES and \
            ours.step.endswith("GetWorkspaceSize") and isinstance(theirs, TypeError | ValueError | RuntimeError)

    @staticmethod
    def twin(aclnn_name: str) -> AclnnApi | None:
        """opsnn's Python operator declaring the same API (with a numpy function), or None."""
        try:
            api = find_api(aclnn_name)
        except BadFile:
            return None
        return api if api.numpy_api else None

    def function(self, api: AclnnApi):
        """The callable taking the API's non-out params (ATK's inputs) and returning its out."""
        def run(*inputs):
            arrays = [a for a, p in zip(inputs, api.inputs, strict=True) if p.kind in (TENSOR, REF)
                      and isinstance(a, np.ndarray)]
            shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
            dtype = arrays[0].dtype if arrays else np.float32
            args, it = [], iter(inputs)
            for p in api.params:
                args.append(np.empty(shape, dtype) if p.kind == OUT else next(it))
            return self.operator.call(api.name, *args)
        return run


__all__ = ["CppSurface"]
