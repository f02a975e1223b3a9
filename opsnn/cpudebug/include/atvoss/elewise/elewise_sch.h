/* opsnn's atvoss: ElementwiseSch, a DAG over same-shape tensors, split by the host
 * (EleBaseTilingData).
 *
 * Core b starts at element b * blockFormer (inputs read as one element start at 0) and runs
 * ubLoopOfTailBlock tiles if it is the last core (b == blockNum - 1), ubLoopOfFormerBlock
 * otherwise; every tile is ubFormer elements but the last, ubTailOf{Tail,Former}Block; tiles
 * alternate between the ping and pong buffers. UB: BufferNum tiles of ubFormer * MaxDtypeBytes
 * bytes from the kernel's TPipe. */
#ifndef OPSNN_ATVOSS_ELEWISE_SCH_H_
#define OPSNN_ATVOSS_ELEWISE_SCH_H_

#include <cstdint>

#include "atvoss/elewise/elewise_base_struct.h"
#include "atvoss/util/dag.h"
#include "atvoss/util/dag_runner.h"
#include "atvoss/util/vec.h"

namespace Ops {
namespace Base {

namespace opsnn_detail {
/* tiles of `count` elements, `former` each but the last: the loop every elementwise schedule runs */
template <class Runner>
__aicore__ inline void RunTiles(Runner &runner, int64_t loops, int64_t former, int64_t tail) {
    for (int64_t i = 0; i < loops; ++i) {
        runner.RunTile(i * former, i + 1 == loops ? tail : former, static_cast<int>(i & 1));
    }
}
}  // namespace opsnn_detail

template <uint64_t schMode, class ElemDag>
class ElementwiseSch {
public:
    __aicore__ inline explicit ElementwiseSch(const EleBaseTilingData *baseTilingData, TPipe *pipe)
        : tilingData_(baseTilingData), pipe_(pipe) {}

    /* GM_ADDRs: the DAG's inputs by index, then its outputs */
    template <class... Args>
    __aicore__ inline void Init(Args... args) {
        runner_.SetArgs(args...);
        runner_.SetBlockStart(tilingData_->blockFormer * static_cast<int64_t>(GetBlockIdx()));
        runner_.InitBuffers(pipe_, tilingData_->ubFormer);
    }

    __aicore__ inline void Process() {
        const bool last = static_cast<int64_t>(GetBlockIdx()) == tilingData_->blockNum - 1;
        opsnn_detail::RunTiles(runner_, last ? tilingData_->ubLoopOfTailBlock : tilingData_->ubLoopOfFormerBlock,
                               tilingData_->ubFormer,
                               last ? tilingData_->ubTailOfTailBlock : tilingData_->ubTailOfFormerBlock);
    }

    /* the value of the DAG's Var<U, index> */
    template <typename U, int index>
    __aicore__ inline void SetVar(U value) {
        runner_.template SetVar<U, index>(value);
    }

private:
    const EleBaseTilingData *tilingData_;
    TPipe *pipe_;
    opsnn_detail::DagRunner<ElemDag> runner_;
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_ELEWISE_SCH_H_
