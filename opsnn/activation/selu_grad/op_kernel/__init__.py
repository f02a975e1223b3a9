"""Kernel side of SeluGrad: the 910B kernel and its tiling struct; the arch35 DAG in arch35/."""
