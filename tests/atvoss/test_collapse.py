"""DimensionCollapse examples."""
from __future__ import annotations

import pytest

from opsnn.atvoss import TilingError, dimension_collapse


def test_same_shapes_fold_to_one_dim():
    c = dimension_collapse([(2, 3, 4), (2, 3, 4)], (2, 3, 4))
    assert c.output_dims == (24,) and c.input_dims == ((24,), (24,)) and c.input_strides == ((1,), (1,))


def test_last_axis_broadcast():
    c = dimension_collapse([(1024, 512), (1024, 1)], (1024, 512))
    assert c.output_dims == (1024, 512) and c.output_strides == (512, 1)
    assert c.input_dims == ((1024, 512), (1024, 1)) and c.input_strides == ((512, 1), (1, 0))


def test_left_padding_and_scalar():
    c = dimension_collapse([(2, 3), (3,)], (2, 3))
    assert c.input_dims[1] == (1, 3) and c.input_strides[1] == (0, 1)
    one = dimension_collapse([(7,), (1,)], (7,))
    assert one.output_dims == (7,) and one.input_dims[1] == (1,) and one.input_strides[1] == (0,)
    rank0 = dimension_collapse([(), ()], ())
    assert rank0.output_dims == (1,)


def test_axes_merge_by_pattern():
    c = dimension_collapse([(8, 1, 16), (1, 32, 16)], (8, 32, 16))
    assert c.output_dims == (8, 32, 16)
    assert c.input_strides == ((16, 0, 1), (0, 16, 1))
    c = dimension_collapse([(4, 5, 1, 1), (4, 5, 6, 7)], (4, 5, 6, 7))
    assert c.output_dims == (20, 42) and c.input_strides == ((1, 0), (42, 1))
    c = dimension_collapse([(3, 1, 5), (3, 1, 5)], (3, 1, 5))  # an all-ones axis vanishes
    assert c.output_dims == (15,)


def test_refusals():
    with pytest.raises(TilingError):
        dimension_collapse([(2, 3), (4, 3)], (4, 3))
    with pytest.raises(TilingError):
        dimension_collapse([(1, 2, 3)], (2, 3))
    with pytest.raises(TilingError):
        dimension_collapse([(0, 3)], (0, 3))
