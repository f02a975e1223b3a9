"""A case's result, as the runner makes it and the reports and the progress line read it."""
from __future__ import annotations

from dataclasses import dataclass, field

from opsnn.atk.cases import Case


@dataclass
class Result:
    id: int
    status: str  # passed | failed | skipped
    reason: str = ""
    dtype: str = ""
    shapes: list = field(default_factory=list)
    elements: int = 0
    seconds: float = 0.0
    refused: bool = False
    checks: dict = field(default_factory=dict)  # against -> {"status", "detail"}
    notes: list = field(default_factory=list)
    digest: str = ""  # of the generated inputs (input_digest): equal for equal (seed, case)
    aclnn_name: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "aclnn_name": self.aclnn_name, "status": self.status, "reason": self.reason,
                "dtype": self.dtype,
                "shapes": self.shapes, "elements": self.elements, "seconds": round(self.seconds, 6),
                "refused": self.refused, "checks": self.checks, "notes": self.notes, "inputs_digest": self.digest}


def base_result(case: Case, status: str, reason: str = "") -> Result:
    return Result(case.id, status, reason, case.dtype_label,
                  [list(i.shape) if i.shape is not None else None for i in case.inputs], case.max_elements,
                  aclnn_name=case.aclnn_name)

