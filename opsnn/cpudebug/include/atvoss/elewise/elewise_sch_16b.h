/* opsnn's atvoss: ElementwiseSch16B and ElementwiseSchWithScalar, a DAG over same-shape tensors
 * whose tiling holds only the element count, the core count and the tile size (plus, with
 * scalars, the DAG's Vars packed in Var order in scalarData).
 *
 * The kernel derives the split: blockFormer = ceil(dim0 / coreNum) rounded up to a multiple of
 * 512 elements, blockNum = ceil(dim0 / blockFormer), the last core the rest; a core's block in
 * tiles of ubFormer elements, the last one the rest, alternating ping and pong. These schedules
 * take no TPipe from the kernel (upstream places their tiles at fixed UB addresses); here a
 * TPipe of the schedule's own holds the BufferNum tiles of ubFormer * MaxDtypeBytes bytes. */
#ifndef OPSNN_ATVOSS_ELEWISE_SCH_16B_H_
#define OPSNN_ATVOSS_ELEWISE_SCH_16B_H_

#include <cstdint>

#include "atvoss/elewise/elewise_base_struct.h"
#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/util/dag.h"
#include "atvoss/util/dag_runner.h"

namespace Ops {
namespace Base {

namespace opsnn_detail {

constexpr int64_t kBlockAlignElems = 512;

template <class TilingStruct, class ElemDag, bool withScalars>
class ElementwiseSelfSplit {
public:
    __aicore__ inline explicit ElementwiseSelfSplit(const TilingStruct *tiling) : tiling_(tiling) {
        const int64_t dim0 = tiling->dim0, cores = tiling->coreNum > 0 ? tiling->coreNum : 1;
        ubFormer_ = tiling->ubFormer;
        blockFormer_ = ((dim0 + cores - 1) / cores + kBlockAlignElems - 1) / kBlockAlignElems * kBlockAlignElems;
        blockNum_ = blockFormer_ > 0 ? (dim0 + blockFormer_ - 1) / blockFormer_ : 0;
        blockTail_ = dim0 - (blockNum_ - 1) * blockFormer_;
    }

    template <class... Args>
    __aicore__ inline void Init(Args... args) {
        runner_.SetArgs(args...);
        if constexpr (withScalars) runner_.SetVarsFrom(tiling_->scalarData);
        runner_.SetBlockStart(blockFormer_ * static_cast<int64_t>(GetBlockIdx()));
        runner_.InitBuffers(&pipe_, ubFormer_);
    }

    __aicore__ inline void Process() {
        if (ubFormer_ <= 0 || blockNum_ <= 0) return;
        const int64_t block = static_cast<int64_t>(GetBlockIdx()) == blockNum_ - 1 ? blockTail_ : blockFormer_;
        const int64_t loops = (block + ubFormer_ - 1) / ubFormer_;
        RunTiles(runner_, loops, ubFormer_, block - (loops - 1) * ubFormer_);
    }

    template <typename U, int index>
    __aicore__ inline void SetVar(U value) {
        runner_.template SetVar<U, index>(value);
    }

private:
    const TilingStruct *tiling_;
    int64_t ubFormer_ = 0, blockFormer_ = 0, blockNum_ = 0, blockTail_ = 0;
    TPipe pipe_;
    DagRunner<ElemDag> runner_;
};

}  // namespace opsnn_detail

template <uint64_t schMode, class ElemDag>
class ElementwiseSch16B : public opsnn_detail::ElementwiseSelfSplit<EleBaseTilingData16B, ElemDag, false> {
public:
    __aicore__ inline explicit ElementwiseSch16B(const EleBaseTilingData16B *tiling)
        : opsnn_detail::ElementwiseSelfSplit<EleBaseTilingData16B, ElemDag, false>(tiling) {}
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_ELEWISE_SCH_16B_H_
