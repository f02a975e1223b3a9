"""Errors of the atvoss framework."""
from __future__ import annotations


class TilingError(ValueError):
    """A shape / dtype / platform the tiling refuses (upstream: ge::GRAPH_FAILED)."""


class DagError(ValueError):
    """A DAG that is not well formed (an op on operands it does not take)."""
