"""DAG buffer accounting: BufferNum / MaxDtypeBytes / MinDtypeBytes derived from the DAG."""
from __future__ import annotations

import pytest

from opsnn.activation.relu_grad.op_kernel.arch35 import relu_grad_dag
from opsnn.activation.threshold_grad_v2_d.op_kernel.arch35 import threshold_grad_v2_d_dag
from opsnn.atvoss import CMP, Cast, Compare, CopyIn, CopyOut, Dag, Duplicate, Mul, RoundMode, ScalarIn, Select, Var
from opsnn.atvoss.buffers import max_temp, plan_buffers
from opsnn.atvoss.errors import DagError

from .dags import erfinv_like, hardtanh_grad_like, threshold_v2_like

# (NDDMA count, UB-broadcast count) per ThresholdGradV2D dtype, as the facts derive them
TGV2D = {"float32": (8, 10), "float16": (10, 12), "bfloat16": (10, 12), "int32": (10, 12), "int8": (10, 12),
         "uint8": (10, 12)}


@pytest.mark.parametrize("dtype", TGV2D)
def test_threshold_grad_v2_d(dtype):
    dag = threshold_grad_v2_d_dag(dtype)
    nddma, ub_brc = TGV2D[dtype]
    assert dag.buffer_num(use_nddma=True, cache_brc=True) == nddma
    assert dag.buffer_num(use_nddma=False, cache_brc=True) == ub_brc
    assert (dag.max_dtype_bytes, dag.min_dtype_bytes) == (4, 1)
    assert dag.copy_brc_inputs == (1, 0)  # self first: the broadcast struct's row order
    assert dag.var_num == 1
    assert plan_buffers(dag).total == nddma
    assert plan_buffers(dag, caches=2).total == ub_brc


def test_fun_list_drops_same_type_casts():
    ops = [f.op for f in threshold_grad_v2_d_dag("float32").fun_list]
    assert ops == ["CopyInBrc", "Duplicate", "Compare", "Duplicate", "CopyInBrc", "Select", "CopyOut"]
    ops16 = [f.op for f in threshold_grad_v2_d_dag("float16").fun_list]
    assert ops16 == ["CopyInBrc", "Cast", "Duplicate", "Compare", "Duplicate", "CopyInBrc", "Cast", "Select",
                     "Cast", "CopyOut"]


@pytest.mark.parametrize(("dtype", "buffers", "max_bytes"), [
    ("float16", 5, 2), ("int16", 5, 2), ("float32", 5, 4), ("int32", 5, 4), ("int8", 5, 1), ("uint8", 5, 1),
    ("int64", 5, 8), ("bfloat16", 7, 4)])
def test_threshold_v2_like(dtype, buffers, max_bytes):
    dag = threshold_v2_like(dtype)
    assert dag.buffer_num() == buffers
    assert (dag.max_dtype_bytes, dag.min_dtype_bytes) == (max_bytes, 1)
    assert {i: info.scalar for i, info in dag.inputs.items()} == {0: False, 1: True, 2: True}


def test_upstream_anchors():
    assert erfinv_like("float32").buffer_num() == 4
    assert erfinv_like("float16").buffer_num() == 6
    assert hardtanh_grad_like("float16").buffer_num() == 10


def test_relu_grad_dags():
    assert relu_grad_dag("float32").buffer_num(True, True) == 8  # 2 x 2 in, 2 out, Compare and Select live
    assert relu_grad_dag("int64").max_dtype_bytes == 8
    assert relu_grad_dag("int8").max_dtype_bytes == 2  # computed in half


def test_scalar_ops_take_no_buffer():
    x = CopyIn(0, "float32")
    dag = Dag("d", [CopyOut(Mul(x, Duplicate(ScalarIn(1, "float32"))), 0)])
    assert dag.buffer_num() == 2 + 1 + 2  # in ping/pong, the Duplicate, out ping/pong
    assert max_temp(dag) == 1


def test_dag_errors():
    with pytest.raises(DagError):
        Compare(CopyIn(0, "float32"), CopyIn(1, "float16"), CMP.LE)
    with pytest.raises(DagError):
        Select(CopyIn(0, "uint8"), Var(0), Var(0))
    with pytest.raises(DagError):
        Dag("gap", [CopyOut(CopyIn(1, "float32"), 0)]).inputs  # noqa: B018 - input 0 missing
    with pytest.raises(DagError):
        Cast(CopyIn(0, "float32"), "float16", "RINT")
    assert Cast(CopyIn(0, "float32"), "float16", RoundMode.CAST_RINT).dtype == "float16"
