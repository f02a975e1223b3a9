"""TQueBind<src, dst, depth>: a queue whose buffer makes two hops in place, src -> compute -> dst
(VECIN -> VECOUT: the tensor copied in is computed on and copied out from the same UB buffer).

Its life cycle is AllocTensor -> EnQue -> DeQue (the first hop, as a TQue) -> EnQue -> DeQue (the
second hop) -> FreeTensor: a dequeued buffer may be enqueued again once per allocation. Anything
else is queue_misuse, as for TQue."""
from __future__ import annotations

from .local_tensor import LocalTensor
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
        self._second_hop: set[int] = set()  # buffers enqueued again since their AllocTensor

    def AllocTensor(self, dtype) -> LocalTensor:  # noqa: N802 - AscendC name
        tensor = super().AllocTensor(dtype)
        self._second_hop.discard(tensor.buffer.index)
        return tensor

    def EnQue(self, tensor: LocalTensor) -> None:  # noqa: N802 - AscendC name
        """Enqueue an allocated tensor (first hop) or a dequeued one (second hop, once)."""
        buf = self._own(tensor, "EnQue")
        if buf.state == "dequeued" and buf.index not in self._second_hop:
            self._second_hop.add(buf.index)
            buf.state = "allocated"  # TQue.EnQue's precondition; the bytes stay written
        super().EnQue(tensor)
