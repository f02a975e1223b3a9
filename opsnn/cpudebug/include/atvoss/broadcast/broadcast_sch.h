/* opsnn's atvoss: BroadcastSch<schMode, Dag>, a DAG over inputs the output's shape broadcasts,
 * its tiling read from the kernel's tiling pointer by the schedule mode.
 *
 * Modelled: the one-dimension modes (the host collapsed every shape to one axis; an input of one
 * element has its scalarFlag bit set and is read once and duplicated over its tile, on the first
 * two tiles -- ping and pong -- after which the tiles keep it):
 *   201  BroadcastOneDimTilingData: core b starts at element b * blockFormer * ubFormer and runs
 *        blockTail tiles if it is the last core (b == blockNum - 1), blockFormer otherwise, each
 *        ubFormer elements but the last core's last one (ubTail); the Vars come from scalarData.
 *   202  BroadcastOneDimTilingDataAdvance: tiles of tileNum elements, ubOuter = ceil(dimLen /
 *        tileNum) of them split as blockFormer = ceil(ubOuter / blockNum) per core, the last core
 *        the rest, the last tile dimLen's remainder.
 * The multi-dimension modes (1, 2, 101-109, NDDMA gathers and UB broadcasts) and the
 * non-contiguous ones (301-305) are not: a launch that runs one fails, naming the mode. */
#ifndef OPSNN_ATVOSS_BROADCAST_SCH_H_
#define OPSNN_ATVOSS_BROADCAST_SCH_H_

#include <cstdint>

#include "atvoss/broadcast/broadcast_base_struct.h"
#include "atvoss/elewise/elewise_sch.h"
#include "atvoss/util/dag.h"
#include "atvoss/util/dag_runner.h"

namespace Ops {
namespace Base {

namespace opsnn_detail {
template <uint64_t mode>
constexpr bool kModelledBrcMode = mode == 201 || mode == 202;

/* the one-dim loop: `loops` tiles of `former` elements, the last `tail`; broadcast inputs
 * duplicated on the first two tiles (each parity's tile once) */
template <class Runner>
__aicore__ inline void RunOneDim(Runner &runner, int64_t loops, int64_t former, int64_t tail) {
    for (int64_t i = 0; i < loops; ++i) {
        runner.SetDuplicateBroadcast(i < 2);
        runner.RunTile(i * former, i + 1 == loops ? tail : former, static_cast<int>(i & 1));
    }
}
}  // namespace opsnn_detail

template <class BrcDag>
class BroadcastOneDimSch {
public:
    __aicore__ inline explicit BroadcastOneDimSch(const BroadcastOneDimTilingData *tiling) : tiling_(tiling) {}

    template <class... Args>
    __aicore__ inline void Init(TPipe *pipe, Args... args) {
        runner_.SetArgs(args...);
        runner_.SetVarsFrom(tiling_->scalarData);
        runner_.SetBroadcastInputs(tiling_->scalarFlag);
        runner_.SetBlockStart(tiling_->blockFormer * tiling_->ubFormer * static_cast<int64_t>(GetBlockIdx()));
        runner_.InitBuffers(pipe, tiling_->ubFormer);
    }

    __aicore__ inline void Process() {
        const bool last = static_cast<int64_t>(GetBlockIdx()) == tiling_->blockNum - 1;
        opsnn_detail::RunOneDim(runner_, last ? tiling_->blockTail : tiling_->blockFormer, tiling_->ubFormer,
                                last ? tiling_->ubTail : tiling_->ubFormer);
    }

    template <typename U, int index>
    __aicore__ inline void SetVar(U value) {
        runner_.template SetVar<U, index>(value);
    }

private:
    const BroadcastOneDimTilingData *tiling_;
    opsnn_detail::DagRunner<BrcDag> runner_;
};

template <class BrcDag>
class BroadcastOneDimAdvanceSch {
public:
    __aicore__ inline explicit BroadcastOneDimAdvanceSch(const BroadcastOneDimTilingDataAdvance *tiling)
        : tiling_(tiling) {}

    template <class... Args>
    __aicore__ inline void Init(Args... args) {
        const int64_t tile = tiling_->tileNum, cores = tiling_->blockNum;
        if (tile <= 0 || cores <= 0) return;
        const int64_t ubOuter = (tiling_->dimLen + tile - 1) / tile;
        const int64_t blockFormer = (ubOuter + cores - 1) / cores;
        const bool last = static_cast<int64_t>(GetBlockIdx()) == cores - 1;
        loops_ = last ? ubOuter - (cores - 1) * blockFormer : blockFormer;
        tail_ = last ? tiling_->dimLen - (ubOuter - 1) * tile : tile;
        runner_.SetArgs(args...);
        runner_.SetBroadcastInputs(tiling_->scalarFlag);
        runner_.SetBlockStart(blockFormer * tile * static_cast<int64_t>(GetBlockIdx()));
        runner_.InitBuffers(&pipe_, tile);
    }

    __aicore__ inline void Process() { opsnn_detail::RunOneDim(runner_, loops_, tiling_->tileNum, tail_); }

    template <typename U, int index>
    __aicore__ inline void SetVar(U value) {
        runner_.template SetVar<U, index>(value);
    }

private:
    const BroadcastOneDimTilingDataAdvance *tiling_;
    int64_t loops_ = 0, tail_ = 0;
    TPipe pipe_;
    opsnn_detail::DagRunner<BrcDag> runner_;
};

template <uint64_t schMode, class BrcDag>
class BroadcastSch {
public:
    __aicore__ inline explicit BroadcastSch(GM_ADDR &tiling) : tiling(tiling) {}

    /* A mode not modelled fails the launch naming it (not the build: a kernel's entry for every
     * tiling key instantiates every mode, and a UT runs the ones its tilings choose). */
    template <class... Args>
    __aicore__ inline void Process(Args... args) {
        if constexpr (!opsnn_detail::kModelledBrcMode<schMode>) {
            ::opsnn_kt::Call("Atvoss.BroadcastSch", __FILE__, __LINE__, static_cast<int64_t>(schMode));
        } else if constexpr (schMode == 201) {
            GET_TILING_DATA_WITH_STRUCT(BroadcastOneDimTilingData, tilingData, tiling);
            TPipe pipe;
            BroadcastOneDimSch<BrcDag> sch(&tilingData);
            sch.Init(&pipe, args...);
            sch.Process();
        } else if constexpr (schMode == 202) {
            GET_TILING_DATA_WITH_STRUCT(BroadcastOneDimTilingDataAdvance, tilingData, tiling);
            BroadcastOneDimAdvanceSch<BrcDag> sch(&tilingData);
            sch.Init(args...);
            sch.Process();
        }
    }

    GM_ADDR tiling;
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_BROADCAST_SCH_H_
