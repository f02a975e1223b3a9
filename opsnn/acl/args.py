"""Argument checks shared by the acl calls: what a C signature would guarantee by its types
(an integer of the declared width, a member of an enum) checked here, once, so that a bad Python
value becomes the call's status instead of an exception from deeper down."""
from __future__ import annotations

import numpy as np

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
UINT64_MAX = 2**64 - 1


def is_int(v) -> bool:
    """An integer (Python or numpy), not a bool, a float or anything else."""
    return isinstance(v, int | np.integer) and not isinstance(v, bool | np.bool_)


def is_int64(v) -> bool:
    return is_int(v) and INT64_MIN <= int(v) <= INT64_MAX


def is_uint64(v) -> bool:
    return is_int(v) and 0 <= int(v) <= UINT64_MAX


def is_enum(v, members) -> bool:
    """`v` is one of `members` as an integer (not 1.0, True or an unhashable object)."""
    return is_int(v) and int(v) in members
