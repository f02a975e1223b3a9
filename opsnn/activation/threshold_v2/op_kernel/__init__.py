"""Kernel side of ThresholdV2: the arch35 DAG kernels (op_kernel/arch35)."""
