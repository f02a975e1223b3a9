"""Kernel side of SigmoidGrad: the 910B block-split kernel and its tiling struct; the arch35
DAG kernel in op_kernel/arch35."""
