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
 *   1, 2, 101-104, 109  BroadcastBaseTilingData: several dimensions (BroadcastMultiDimSch).
 * The non-contiguous modes (301-305) are not modelled: a launch that runs one fails, naming the
 * mode. */
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
constexpr bool kModelledBrcMode =
    mode == 1 || mode == 2 || (mode >= 101 && mode <= 104) || mode == 109 || mode == 201 || mode == 202;

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

/* Modes 1, 2 (NDDMA) and 101-104, 109 (UB broadcast): the output split at ubSplitAxis; the tiles
 * are the fused index space (the axes before the split axis x ubOuter); core b takes tiles from
 * b * blockFormer (blockTail of them on the last core, blockFormer otherwise). A tile is ubFormer
 * rows of the split axis (ubTail for its last outer index) times every axis after it; its output
 * is contiguous. A CopyInBrc input is gathered into its tile with its strides (0 on a broadcast
 * axis), or (UB broadcast) its un-broadcast block copied into a cache buffer and broadcast in UB;
 * a plain CopyIn input has the output's shape. Both compute the same values: they differ in data
 * movement only. */
template <class BrcDag, bool ubBroadcast>
class BroadcastMultiDimSch {
public:
    __aicore__ inline explicit BroadcastMultiDimSch(const BroadcastBaseTilingData<BrcDag> *tiling) : td_(tiling) {}

    template <class... Args>
    __aicore__ inline void Init(TPipe *pipe, Args... args) {
        runner_.SetArgs(args...);
        runner_.SetVarsFrom(td_->scalarData);
        runner_.InitBuffers(pipe, td_->elemNum, ubBroadcast);
    }

    __aicore__ inline void Process() {
        const int rank = td_->shapeLen, split = td_->ubSplitAxis;
        if (rank <= 0 || rank > 8 || split < 0 || split >= rank || td_->ubOuter <= 0) return;
        int64_t inner = 1;
        for (int j = split + 1; j < rank; ++j) inner *= td_->outputDims[j];
        const int64_t b = static_cast<int64_t>(GetBlockIdx());
        const int64_t tiles = b == td_->blockNum - 1 ? td_->blockTail : td_->blockFormer;
        auto &nd = runner_.Nd();
        nd.on = true;
        nd.ubBroadcast = ubBroadcast;
        nd.rank = rank - split;
        for (int j = split + 1; j < rank; ++j) nd.dims[j - split] = td_->outputDims[j];
        for (int64_t t = 0; t < tiles; ++t) {
            int64_t rest = b * td_->blockFormer + t;
            const int64_t u = rest % td_->ubOuter;
            rest /= td_->ubOuter;
            int64_t idx[8] = {};
            for (int j = split - 1; j >= 0; --j) {
                idx[j] = rest % td_->outputDims[j];
                rest /= td_->outputDims[j];
            }
            const int64_t rows = u == td_->ubOuter - 1 ? td_->ubTail : td_->ubFormer;
            nd.dims[0] = rows;
            for (uint32_t k = 0; k < BrcDag::CopyBrcSize; ++k) {
                const int pos = BrcDag::CopyBrcInputs.pos[k];
                nd.start[pos] = Offset(idx, u, td_->inputBrcStrides[k], split);
                for (int j = split; j < rank; ++j) nd.strides[pos][j - split] = td_->inputBrcStrides[k][j];
            }
            runner_.RunTile(Offset(idx, u, td_->outputStrides, split), rows * inner, static_cast<int>(t & 1));
        }
    }

    template <typename U, int index>
    __aicore__ inline void SetVar(U value) {
        runner_.template SetVar<U, index>(value);
    }

private:
    /* where a tile starts in a tensor of these strides: its indices before the split axis, and
     * outer index u of the split axis */
    __aicore__ inline int64_t Offset(const int64_t *idx, int64_t u, const int64_t *strides, int split) const {
        int64_t off = u * td_->ubFormer * strides[split];
        for (int j = 0; j < split; ++j) off += idx[j] * strides[j];
        return off;
    }

    const BroadcastBaseTilingData<BrcDag> *td_;
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
        } else if constexpr (schMode == 1 || schMode == 2 || (schMode >= 101 && schMode <= 104) || schMode == 109) {
            GET_TILING_DATA_WITH_STRUCT(BroadcastBaseTilingData<BrcDag>, tilingData, tiling);
            TPipe pipe;
            BroadcastMultiDimSch<BrcDag, (schMode > 100)> sch(&tilingData);
            sch.Init(&pipe, args...);
            sch.Process();
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
