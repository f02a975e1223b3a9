"""Kernel side of LeakyReluGrad: the arch35 DAG kernel (op_kernel/arch35). The Ascend910B kernel
is a built-in TBE kernel, not in ops-nn; functional_models.py says what it computes."""
