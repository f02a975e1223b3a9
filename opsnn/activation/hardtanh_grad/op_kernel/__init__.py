"""Kernel side of HardtanhGrad: the arch35 DAG kernel (op_kernel/arch35). On Ascend910B the op is
CANN's built-in TBE kernel, which upstream does not ship; functional_models.py stands in for it."""
