"""TQueBind<src, dst, depth>: a queue whose buffer makes hops in place, src -> compute -> dst
(VECIN -> VECOUT: the tensor copied in is computed on and copied out from the same UB buffer).

Its life cycle is TQue's (a TQue is CANN's TQueBind<pos, pos, depth>): AllocTensor -> EnQue ->
DeQue, as often as the stages hand the buffer on, -> FreeTensor. Only where its buffers sit
differs: as src's."""
from __future__ import annotations

from .pipe import QuePosition, TQue


class TQueBind(TQue):
    """`TQueBind<src, dst, depth>`.

    Parameters
    ----------
    src, dst : QuePosition
        Where the buffer's tensors come from and go to (the buffers are placed as src's).
    depth : int
        How many tensors the FIFO holds at once.
    name : str or None
        The name findings give its buffers.
    """

    def __init__(self, src: QuePosition, dst: QuePosition, depth: int, name: str | None = None):
        super().__init__(src, depth, name)
        self.dst = dst
