"""Operator-agnostic l0 ops: data movement every aclnn operator needs around its kernel."""
from .broadcast_to import broadcast_to
from .cast import cast
from .contiguous import contiguous
from .view_copy import view_copy

__all__ = ["broadcast_to", "cast", "contiguous", "view_copy"]
