"""DAGs and DAG stand-ins for the atvoss tests.

Real DAGs are built with the atvoss API. For upstream operators whose DAGs our op set does not
express (l1_loss_grad, kl_div_loss_grad), `DagFacts` carries just what the tilings read of a
DAG, with the buffer counts docs/arch35-atvoss.md derives for them from upstream's sources."""
from __future__ import annotations

from dataclasses import dataclass

from opsnn.atvoss import (
    CMP,
    Cast,
    Compare,
    Const,
    CopyIn,
    CopyInBrc,
    CopyOut,
    Dag,
    Duplicate,
    Mul,
    RoundMode,
    ScalarIn,
    Select,
    ToFloat,
    Var,
)
from opsnn.dtypes import BY_NAME


def hardtanh_grad_like(dtype: str = "float16") -> Dag:
    """Two same-shape inputs widened to float, a compare against a Var, a select, narrowed back:
    the shape of upstream's hardtanh_grad fp16 DAG (10 buffers, MaxDtypeBytes 4, MinDtypeBytes 1)."""
    x = Cast(CopyIn(0, dtype), "float32")
    g = Cast(CopyIn(1, dtype), "float32")
    r = Select(Compare(x, Duplicate(Var(0)), CMP.LE), Duplicate(Const(0.0, "float32")), g)
    return Dag(f"HardtanhGradLike<{dtype}>", [CopyOut(Cast(r, dtype, RoundMode.CAST_RINT), 0)])


def erfinv_like(dtype: str) -> Dag:
    """One input, one op in float32 (fp32: 4 buffers; fp16 through float: 6)."""
    x = Cast(CopyIn(0, dtype), "float32")
    y = Mul(x, x)
    return Dag(f"ErfinvLike<{dtype}>", [CopyOut(Cast(y, dtype, RoundMode.CAST_RINT), 0)])


def threshold_v2_like(dtype: str) -> Dag:
    """x <= threshold ? value : x with ScalarIn threshold / value (bf16 through float32)."""
    x = CopyIn(0, dtype)
    thr, val = ScalarIn(1, dtype), ScalarIn(2, dtype)
    if dtype == "bfloat16":
        xf = Cast(x, "float32")
        r = Select(Compare(xf, ToFloat(thr), CMP.LE), ToFloat(val), xf)
        return Dag("ThresholdCastDag<bf16>", [CopyOut(Cast(r, dtype, RoundMode.CAST_RINT), 0)])
    return Dag(f"ThresholdDag<{dtype}>", [CopyOut(Select(Compare(x, thr, CMP.LE), val, x), 0)])


def copy_brc_pair(dtype: str = "float32") -> Dag:
    """out = a * b, both inputs broadcast in the kernel."""
    return Dag("MulBrc", [CopyOut(Mul(CopyInBrc(0, dtype), CopyInBrc(1, dtype)), 0)])


@dataclass(frozen=True)
class _Input:
    dtype: str
    scalar: bool = False
    brc: bool = True


@dataclass(frozen=True)
class DagFacts:
    """What BroadcastBaseTiling reads of a DAG, given as numbers."""
    name: str
    input_dtypes: tuple[str, ...]
    copy_brc_inputs: tuple[int, ...]
    buffers: int  # GetBufferNum<nddma, cache_brc>() (the only variant these cases use)
    max_dtype_bytes: int
    min_dtype_bytes: int

    @property
    def input_size(self) -> int:
        return len(self.input_dtypes)

    @property
    def inputs(self) -> dict:
        return {i: _Input(d, brc=i in self.copy_brc_inputs) for i, d in enumerate(self.input_dtypes)}

    @property
    def copy_brc_num(self) -> int:
        return len(self.copy_brc_inputs)

    def buffer_num(self, use_nddma: bool = True, cache_brc: bool = False) -> int:
        assert use_nddma, "these stand-ins only answer for the NDDMA / one-dim count"
        return self.buffers

    def dtype_of(self, index: int):
        return BY_NAME[self.input_dtypes[index]]


STAND_INS = {
    "l1_loss_grad": DagFacts("L1LossGrad", ("float16",) * 3, (0, 1, 2), 13, 4, 2),
    "kl_div_loss_grad_fp32": DagFacts("KlDivLossGrad<float>", ("float32",) * 3, (2, 0), 8, 4, 4),
}
