"""Pieces every elementwise operator of the 910B scheme shares, written once: the 256-byte block
split over big and small cores, the per-core plan and the padding it implies, running a kernel on
exactly-sized tensors under the sanitizer, and recording a kernel launch in an aclnn executor.

It sits above the emulator (opsnn.ascendc) and the aclnn framework and knows no operator."""
from .block_split import (
    BLOCK_SIZE,
    BlockSplit,
    CorePlan,
    CoreShare,
    SplitError,
    block_padding,
    core_plan,
    core_share,
    plan_of,
    share_of,
    split_blocks,
)

__all__ = ["BLOCK_SIZE", "BlockSplit", "CorePlan", "CoreShare", "SplitError", "block_padding", "core_plan",
           "core_share", "plan_of", "share_of", "split_blocks"]
