/* opsnn's atvoss reduce framework: ReduceSch, the schedule Ascend950 reduce kernels run a DAG with
 * a reduction node on (pre-reduce ops -> Vec::Reduce*Op -> post-reduce ops -> CopyOut):
 *
 *   using Op = ReduceSch<IsContiguous, BatchInvariant, PatternID, LoopARCount, LoopInnerARCount, Dag>;
 *   Op op(&tiling);  op.SetVar<float, 0>(eps);  op.Init(&pipe, x, y, workspace);  op.Process(fill);
 *
 * opsnn's own implementation of the schedule's semantics, on the emulator's instructions:
 *
 * The tensor. The tiling collapses the input to a pattern of alternating kept (A) and reduced (R)
 * axes (reduce_util.h), with its extents, element strides and the output's strides.
 *
 * The split (the template arguments select the loop structure, GetSchLoopInfo): the cores take
 * consecutive A steps (the loop A axes, the last in ubFactorA pieces; factorACntPerCore each); a
 * core walks factorRCntPerCore R tiles of an A step (the inner R axes, the last in ubFactorR
 * pieces); axes no loop names are whole in every tile. A "group" reduce (LoopARCount % 10 > 0)
 * also splits R over groupR cores: each writes its partial result to workspace, SyncAll, then the
 * cores reduce the groupR partials of each A piece (an RA reduction, VL columns a tile).
 *
 * A tile in UB: its axes laid out as upstream's schedule lays them (rows of the last axis rounded
 * up to 32-byte blocks unless useNddma, the split R axis always ubFactorR long, batch-invariant RA
 * tiles of at most a register widened to a register plus a block), copied in with
 * ReduceTileCopyIn, the pre-reduce ops run over the whole tile, the cells that hold no element set
 * to the reduction's padding value (ReduceTilePad), then AscendC's ReduceSum / ReduceMax /
 * ReduceMin<T, AR | RA, true> on its 2-D shape (batch-invariant RA sums: the schedule's own fold,
 * BatchInvariantReduceSumRA). The order of the R tiles' results, as upstream's: with n tiles and p
 * the largest power of two below n (1 for n = 1), tiles i and i + p (i < n - p) are combined
 * element by element before their reduction; the per-tile results then enter a binary-counter
 * cache (result k combined with the cached partials of the trailing one bits of k), so the
 * result is ((r3 + r2) + (r1 + r0)) for four. Then the post-reduce ops over the result and one
 * DataCopyPad to GM.
 *
 * UB: a buffer per pre-reduce node sized for the largest tile (two for the node the reduction
 * reads: a bisection pair), one per post-reduce node, the result and the cache -- each sized for
 * what the tiling's largest tile needs, not upstream's basicBlock pool; a tile larger than
 * basicBlock bytes (which upstream's buffers could not hold) fails the core naming the tiling.
 *
 * Also: PatternID/LoopARCount/LoopInnerARCount all 0 (an empty input: the output filled with
 * Process's first argument, as the output type), and a pattern-A DAG that only copies (the input
 * copied to the output in ubFactorA pieces).
 *
 * Not modelled (the launch fails naming it): the non-contiguous schedules (IsContiguous false),
 * the batch-invariant group reduce, inner A loops (LoopInnerARCount >= 10), ReduceProdOp, nine-axis
 * patterns, custom reduction nodes' own Init/Process/CopyIn/CopyOut. */
#ifndef OPSNN_ATVOSS_REDUCE_REDUCE_SCH_H_
#define OPSNN_ATVOSS_REDUCE_REDUCE_SCH_H_

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "atvoss/reduce/reduce_operator.h"
#include "atvoss/reduce/reduce_tiling_data.h"
#include "atvoss/reduce/reduce_util.h"
#include "atvoss/util/dag.h"
#include "atvoss/util/elems.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/util/vec.h"

namespace Ops {
namespace Base {
namespace ReduceOpTmpl {

/* The loop structure of a kernel's template arguments: PatternID = 10 * pattern + inner pattern,
 * LoopARCount = 10 * (loop A axes) + (loop R axes), LoopInnerARCount = 10 * (inner A axes) +
 * (inner R axes). The loop A axes are the first A axes (0, 2, ..); a group reduce's loop R axes
 * list the loop A axes first, then the R axes (1, 3, ..); the inner R axes are the R axes. */
template <uint32_t PatternID, uint32_t LoopARCount, uint32_t LoopInnerARCount>
__aicore__ constexpr ReduceSchLoopInfo GetSchLoopInfo() {
    ReduceSchLoopInfo li{};
    li.patternID = static_cast<int32_t>(PatternID / CONST10);
    li.reduceDichotomy = CONST1;
    li.loopACount = static_cast<int32_t>(LoopARCount / CONST10);
    li.loopRCount = static_cast<int32_t>(LoopARCount % CONST10);
    li.loopInnerACount = static_cast<int32_t>(LoopInnerARCount / CONST10);
    li.loopInnerRCount = static_cast<int32_t>(LoopInnerARCount % CONST10);
    li.innerPatternID = static_cast<int32_t>(PatternID % CONST10);
    int n = 0;
    for (int k = 0; k < li.loopACount && k < MAX_LOOP_DIM; ++k) {
        li.loopAAxis[k] = 2 * k;
        li.loopRAxis[n++] = 2 * k;
    }
    for (int r = 1; r < MAX_DIM && n < MAX_DIM; r += 2) li.loopRAxis[n++] = r;
    for (int k = 0, a = 0; a < MAX_DIM; ++k, a += 2) li.loopInnerAAxis[k] = a;
    for (int k = 0, r = 1; r < MAX_DIM; ++k, r += 2) li.loopInnerRAxis[k] = r;
    return li;
}

/* the second stage of a group reduce: the groupR partial rows of outSize results, as an RA tensor
 * whose A axis (1) the cores split in registers and whose R axis (0) is one tile */
__aicore__ constexpr ReduceSchLoopInfo GetGroupSchLoopInfo() {
    ReduceSchLoopInfo li{};
    li.patternID = PATTERN_RA;
    li.reduceDichotomy = CONST1;
    li.loopACount = CONST1;
    li.loopAAxis[0] = DIM1;
    li.loopInnerRCount = CONST1;
    li.loopInnerRAxis[0] = DIM0;
    li.innerPatternID = PATTERN_RA;
    return li;
}

/* the power of two the bisection pairs tiles at: the largest below n (1 for n <= 2) */
__aicore__ constexpr uint64_t BisectionPoint(uint64_t n) {
    uint64_t p = 1;
    while (2 * p < n) p *= 2;
    return n == 0 ? 0 : p;
}

/* the cache slot result k goes to: the number of trailing one bits of k */
__aicore__ constexpr int64_t GetCacheID(int64_t k) {
    int64_t c = 0;
    while (k & 1) {
        ++c;
        k >>= 1;
    }
    return c;
}

}  // namespace ReduceOpTmpl
}  // namespace Base
}  // namespace Ops

#ifdef OPSNN_ATVOSS_KERNEL

namespace Ops {
namespace Base {
namespace ReduceOpTmpl {
namespace reduce_sch_detail {

__aicore__ inline uint64_t CeilAlign(uint64_t x, uint64_t a) { return a == 0 ? x : (x + a - 1) / a * a; }
__aicore__ inline uint64_t CeilDiv(uint64_t x, uint64_t a) { return a == 0 ? 0 : (x + a - 1) / a; }

template <class FunList, int i = 0>
constexpr int FindReduceNode() {
    if constexpr (i >= static_cast<int>(FunList::Size)) {
        return -1;
    } else if constexpr (Vec::IsReduceOp<typename FunList::template At<i>::Fun>::Value) {
        return i;
    } else {
        return FindReduceNode<FunList, i + 1>();
    }
}

/* one tile: per pattern axis its first index and extent, and the UB layout the schedule gives it */
struct Tile {
    int dim = 0;
    int64_t start[MAX_DIM] = {};
    int64_t ext[MAX_DIM] = {};
    int64_t ubStride[MAX_DIM] = {};  // elements between neighbours along each axis in UB
    int64_t rows = 0, cols = 0;      // the 2-D reduction: AR {A cells, R cells}, RA {R cells, A cells}
    int64_t cells = 0;               // rows * cols: the tile's UB elements
    int64_t results = 0;             // the reduction's results (A cells, with RA's padding)
};

/* what a stage runs on: the tiling, the loop structure, the pattern */
struct Stage {
    ReduceOpTilingData t;
    ReduceSchLoopInfo li;
    int dim;
    bool firstA, tailA;
    bool fromWorkspace;  // the second stage of a group reduce: the partials, no pre-reduce ops
    bool toWorkspace;    // the first stage of a group reduce: partials to workspace
};

}  // namespace reduce_sch_detail

template <bool isContiguous, bool batchInvariant, uint32_t PatternID, uint32_t LoopARCount, uint32_t LoopInnerARCount,
          class OpDag>
class ReduceSch {
public:
    using FunList = typename OpDag::FunList;
    constexpr static int kNodes = static_cast<int>(FunList::Size);
    constexpr static int kReducePos = reduce_sch_detail::FindReduceNode<FunList>();
    static_assert(kReducePos > 0, "opsnn atvoss: a reduce DAG needs a Vec::Reduce*Op node after its copy-in");
    using ReduceNode = typename FunList::template At<kReducePos>;
    using ReduceOp = typename ReduceNode::Fun;
    using DataType = typename ReduceNode::template FunInArgType<0>;  // the reduction's compute type
    using InDType = typename FunList::template At<0>::OutDataType;   // the first copied-in type
    constexpr static int kReduceIn =
        FunList::template GetIndex<typename ReduceNode::InArgs::template At<0>>();
    static_assert(kReduceIn >= 0 && kReduceIn < kReducePos, "opsnn atvoss: the reduction reads a pre-reduce node");
    constexpr static ReduceSchLoopInfo SchLoopInfo = GetSchLoopInfo<PatternID, LoopARCount, LoopInnerARCount>();
    using Pattern = typename __reducePattern::GetPattern<SchLoopInfo.patternID>::T;
    constexpr static bool isBatchInvariant = batchInvariant;
    constexpr static int64_t kVL = 256 / static_cast<int64_t>(sizeof(DataType));  // a register of DataType
    constexpr static int64_t kBlock = 32;
    constexpr static int64_t kMinBytes = OpDag::MinDtypeBytes;
    constexpr static int kInputs = static_cast<int>(OpDag::InputSize);
    constexpr static int kOutputs = static_cast<int>(OpDag::OutputSize);

    __aicore__ inline explicit ReduceSch(const ReduceOpTilingData *tiling) : tiling_(tiling) {}

    /* the DAG's inputs, then its outputs, then the workspace (GM_ADDRs) */
    template <class... Args>
    __aicore__ inline void Init(TPipe *pipe, Args... args) {
        static_assert(sizeof...(Args) == kInputs + kOutputs + 1,
                      "opsnn atvoss: ReduceSch::Init takes the pipe, one GM_ADDR per DAG input and output, then "
                      "the workspace");
        pipe_ = pipe;
        GM_ADDR all[] = {reinterpret_cast<GM_ADDR>(args)...};
        for (int k = 0; k < kInputs; ++k) in_[k] = all[k];
        for (int k = 0; k < kOutputs; ++k) out_[k] = all[kInputs + k];
        workspace_ = all[kInputs + kOutputs];
        if constexpr (!IsEmpty() && !IsTensorMove()) {
            InitBuffers();
        }
    }

    template <typename U, int index>
    __aicore__ inline void SetVar(U value) {
        if constexpr (OpDag::VarSize > 0) vars_.template Set<index>(value);
    }

    template <class... Args>
    __aicore__ inline void Process(Args... args) {
        if constexpr (!isContiguous) {
            Refuse("the non-contiguous reduce schedules (IsContiguous false) are not modelled");
        } else if constexpr (IsEmpty()) {
            ProcessEmpty(args...);
        } else if constexpr (IsTensorMove()) {
            ProcessMove();
        } else {
            static_assert(SchLoopInfo.loopInnerACount == 0, "opsnn atvoss: inner A loops are not modelled");
            static_assert(Pattern::Dim <= 8, "opsnn atvoss: nine-axis reduce patterns are not modelled");
            if constexpr (ReduceOp::Kind == Vec::ReduceKind::PROD) {
                Refuse("Vec::ReduceProdOp is not modelled (AscendC's ReduceProd is not)");
                return;
            }
            if constexpr (SchLoopInfo.loopRCount == 0) {
                reduce_sch_detail::Stage s = StageOf(*tiling_, SchLoopInfo, false, false);
                RunStage(s);
            } else if constexpr (batchInvariant) {
                Refuse("the batch-invariant group reduce is not modelled");
            } else {
                reduce_sch_detail::Stage one = StageOf(*tiling_, SchLoopInfo, false, true);
                RunStage(one);
                AscendC::SyncAll();
                reduce_sch_detail::Stage two = StageOf(GroupTiling(), GetGroupSchLoopInfo(), true, false);
                RunStage(two);
            }
        }
    }

private:
    using Stage = reduce_sch_detail::Stage;
    using Tile = reduce_sch_detail::Tile;

    __aicore__ constexpr static bool IsEmpty() { return PatternID == 0 && LoopARCount == 0 && LoopInnerARCount == 0; }
    /* a pattern-A DAG that only copies: CopyIn -> the reduction node -> CopyOut */
    __aicore__ constexpr static bool IsTensorMove() {
        return Pattern::ID == PATTERN_A && kReducePos == 1 && kNodes == 3;
    }

    __aicore__ inline void Refuse(const char *what) { opsnn_kt_fail(what, __FILE__, __LINE__); }

    /* ---- types and buffers ---- */
    template <int i>
    using NodeT = typename FunList::template At<i>;
    template <int i>
    using OutT = typename NodeT<i>::OutDataType;
    template <class T>
    constexpr static int64_t BytesOf() {
        if constexpr (std::is_same_v<T, uint1_t>) {
            return 1;
        } else {
            return static_cast<int64_t>(sizeof(T));
        }
    }
    constexpr static bool IsTileNode(int i) {
        return OpDag::Nodes.kind[i] == dag_detail::TENSOR || OpDag::Nodes.kind[i] == dag_detail::COPY_IN;
    }

    __aicore__ inline static Stage StageOf(const ReduceOpTilingData &t, const ReduceSchLoopInfo &li, bool fromWs,
                                           bool toWs) {
        Stage s{};
        s.t = t;
        s.li = li;
        s.fromWorkspace = fromWs;
        s.toWorkspace = toWs;
        switch (li.patternID) {
            case PATTERN_A: s.dim = 1; s.firstA = true; s.tailA = true; break;
            case PATTERN_RA: s.dim = 2; s.firstA = false; s.tailA = true; break;
            default:
                s.dim = li.patternID + 1;  // AR 2, ARA 3, ARAR 4, ...
                s.firstA = true;
                s.tailA = (s.dim % 2) == 1;
        }
        return s;
    }

    /* the partials' tensor of a group reduce's second stage */
    __aicore__ inline ReduceOpTilingData GroupTiling() const {
        const ReduceOpTilingData &t = *tiling_;
        ReduceOpTilingData g{};
        g.ubFactorA = kVL;
        g.ubFactorR = t.groupR;
        g.shape[0] = t.groupR;
        g.shape[1] = t.outSize;
        g.stride[0] = static_cast<int64_t>(reduce_sch_detail::CeilAlign(t.outSize, kVL));
        g.stride[1] = 1;
        g.dstStride[0] = static_cast<int64_t>(t.outSize);
        g.dstStride[1] = 1;
        g.groupR = 1;
        g.outSize = t.outSize;
        g.basicBlock = t.basicBlock;
        g.resultBlock = t.resultBlock;
        g.coreNum = t.coreNum;
        g.useNddma = 0;
        g.factorRCntPerCore = 1;
        g.factorRTotalCnt = 1;
        g.factorATotalCnt = reduce_sch_detail::CeilDiv(t.outSize, kVL);
        g.factorACntPerCore = reduce_sch_detail::CeilDiv(g.factorATotalCnt, static_cast<uint64_t>(t.coreNum));
        return g;
    }

    /* Is axis d kept (A)? */
    __aicore__ inline static bool IsA(const Stage &s, int d) { return (d % 2 == 0) == s.firstA; }
    /* Is axis d the R axis walked in ubFactorR pieces? */
    __aicore__ inline static bool IsSplitR(const Stage &s, int d) {
        const ReduceSchLoopInfo &li = s.li;
        return (li.loopInnerRCount > 0 && li.loopInnerRAxis[li.loopInnerRCount - 1] == d) ||
               (li.loopRCount > 0 && li.loopRAxis[li.loopRCount - 1] == d);
    }
    __aicore__ inline static bool IsSplitA(const Stage &s, int d) {
        return s.li.loopACount > 0 && s.li.loopAAxis[s.li.loopACount - 1] == d;
    }

    /* the UB layout of a tile with the given extents (module comment; upstream's view layout) */
    __aicore__ inline static void Layout(const Stage &s, Tile &tile) {
        using reduce_sch_detail::CeilAlign;
        const int D = s.dim;
        const bool aligned = s.t.useNddma == 0;
        const int64_t inBytes = s.fromWorkspace ? static_cast<int64_t>(sizeof(DataType)) : BytesOf<InDType>();
        const int64_t last = tile.ext[D - 1];
        tile.ubStride[D - 1] = 1;
        if (s.tailA) {  // [R axes][A axes][last A axis], A padded
            int64_t v = static_cast<int64_t>(CeilAlign(last, aligned ? kBlock / kMinBytes : 1));
            int64_t aCells = last;
            for (int d = D - 2; d >= 0; --d) {
                if (IsA(s, d)) {
                    tile.ubStride[d] = v;
                    v *= tile.ext[d];
                    aCells *= tile.ext[d];
                }
            }
            if (!aligned) v = static_cast<int64_t>(CeilAlign(v, kBlock / inBytes));
            if (batchInvariant && v <= kVL) v = static_cast<int64_t>(CeilAlign(v, kVL)) + kBlock / inBytes;
            tile.cols = Pattern::ID == PATTERN_A ? aCells : v;
            int64_t r = 1;
            for (int d = D - 2; d >= 0; --d) {
                if (!IsA(s, d)) {
                    tile.ubStride[d] = v;
                    const int64_t n = IsSplitR(s, d) ? static_cast<int64_t>(s.t.ubFactorR) : tile.ext[d];
                    v *= n;
                    r *= n;
                }
            }
            tile.rows = r;
            tile.results = tile.cols;
        } else {  // [A axes][R axes][last R axis], R padded
            const int64_t blk = aligned ? kBlock / inBytes : 1;
            int64_t v = static_cast<int64_t>(
                CeilAlign(IsSplitR(s, D - 1) ? static_cast<int64_t>(s.t.ubFactorR) : last, blk));
            for (int d = D - 2; d >= 0; --d) {
                if (!IsA(s, d)) {
                    tile.ubStride[d] = v;
                    v *= IsSplitR(s, d) ? static_cast<int64_t>(s.t.ubFactorR) : tile.ext[d];
                }
            }
            if (!aligned) v = static_cast<int64_t>(CeilAlign(v, kBlock / inBytes));
            tile.cols = v;
            int64_t a = 1;
            for (int d = D - 2; d >= 0; --d) {
                if (IsA(s, d)) {
                    tile.ubStride[d] = v;
                    v *= tile.ext[d];
                    a *= tile.ext[d];
                }
            }
            tile.rows = a;
            tile.results = a;
        }
        tile.cells = tile.rows * tile.cols;
    }

    /* the largest tile a stage makes: every split axis at its full piece */
    __aicore__ inline static Tile LargestTile(const Stage &s) {
        Tile tile;
        tile.dim = s.dim;
        for (int d = 0; d < s.dim; ++d) {
            tile.ext[d] = static_cast<int64_t>(s.t.shape[d]);
            const int64_t limit = IsSplitA(s, d) ? static_cast<int64_t>(s.t.ubFactorA)
                                  : IsSplitR(s, d) ? static_cast<int64_t>(s.t.ubFactorR) : tile.ext[d];
            if (tile.ext[d] > limit) tile.ext[d] = limit;
            if (!IsSplitA(s, d) && !IsSplitR(s, d)) {
                for (int k = 0; k < s.li.loopACount; ++k) {
                    if (s.li.loopAAxis[k] == d) tile.ext[d] = 1;  // an outer loop A axis: one index a step
                }
                for (int k = 0; k < s.li.loopInnerRCount; ++k) {
                    if (s.li.loopInnerRAxis[k] == d) tile.ext[d] = 1;
                }
                for (int k = 0; k < s.li.loopRCount; ++k) {
                    if (s.li.loopRAxis[k] == d) tile.ext[d] = 1;
                }
            }
        }
        Layout(s, tile);
        return tile;
    }

    __aicore__ inline void InitBuffers() {
        using reduce_sch_detail::CeilAlign;
        Stage s = StageOf(*tiling_, SchLoopInfo, false, SchLoopInfo.loopRCount > 0);
        Tile big = LargestTile(s);
        int64_t cells = big.cells, results = big.results;
        if (big.cells * BytesOf<InDType>() > static_cast<int64_t>(tiling_->basicBlock)) {
            Refuse("atvoss ReduceSch: a tile of the tiling needs more than basicBlock bytes of UB");
        }
        if constexpr (SchLoopInfo.loopRCount > 0) {
            Stage two = StageOf(GroupTiling(), GetGroupSchLoopInfo(), true, false);
            Tile g = LargestTile(two);
            cells = cells > g.cells ? cells : g.cells;
            results = results > g.results ? results : g.results;
        }
        cells_ = cells;
        resultStride_ = static_cast<int64_t>(CeilAlign(results, kVL));
        const uint64_t n = tiling_->factorRCntPerCore > 0 ? tiling_->factorRCntPerCore : 1;
        int64_t slots = 1;
        for (uint64_t p = BisectionPoint(n); p > 1; p >>= 1) ++slots;  // log2(p) + 1 cache slots
        if (SchLoopInfo.loopRCount > 0 && slots < 2) slots = 2;
        InitNodeBuffers<0>();
        pipe_->InitBuffer(resultBuf_, static_cast<uint32_t>(RegBytes(resultStride_ * sizeof(DataType))));
        pipe_->InitBuffer(cacheBuf_, static_cast<uint32_t>(RegBytes(slots * resultStride_ * sizeof(DataType))));
    }

    __aicore__ inline static int64_t RegBytes(int64_t bytes) { return (bytes + 255) / 256 * 256; }

    template <int i>
    __aicore__ inline void InitNodeBuffers() {
        if constexpr (i < kNodes) {
            if constexpr (IsTileNode(i)) {
                const int64_t elems = i < kReducePos ? cells_ : resultStride_;
                const uint32_t bytes = static_cast<uint32_t>(RegBytes(elems * BytesOf<OutT<i>>()));
                pipe_->InitBuffer(nodeBuf_[i], bytes);
                if constexpr (i == kReduceIn) pipe_->InitBuffer(pairBuf_, bytes);
            }
            InitNodeBuffers<i + 1>();
        }
    }

    template <class T>
    __aicore__ inline LocalTensor<T> NodeTile(int i, int pp) {
        if (i == kReduceIn && pp == 1) return pairBuf_.template Get<T>();
        return nodeBuf_[i].template Get<T>();
    }
    __aicore__ inline LocalTensor<DataType> Result() { return resultBuf_.template Get<DataType>(); }
    __aicore__ inline LocalTensor<DataType> CacheSlot(int64_t k) {
        return cacheBuf_.template Get<DataType>()[static_cast<uint32_t>(k * resultStride_)];
    }

    template <class T>
    __aicore__ inline GlobalTensor<T> Gm(GM_ADDR base, int64_t elems) const {
        GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(base + elems * static_cast<int64_t>(sizeof(T))));
        return g;
    }

    /* ---- a stage ---- */
    __aicore__ inline void RunStage(const Stage &s) {
        using reduce_sch_detail::CeilDiv;
        const ReduceOpTilingData &t = s.t;
        const ReduceSchLoopInfo &li = s.li;
        const uint64_t block = GetBlockIdx();
        Tile tile;
        tile.dim = s.dim;
        for (int d = 0; d < s.dim; ++d) tile.ext[d] = static_cast<int64_t>(t.shape[d]);
        const int aSplit = li.loopACount > 0 ? li.loopAAxis[li.loopACount - 1] : -1;
        const uint64_t aSteps = aSplit >= 0 ? CeilDiv(t.shape[aSplit], t.ubFactorA) : 1;
        if (li.loopRCount == 0) {
            const uint64_t begin = block * t.factorACntPerCore;
            uint64_t end = begin + t.factorACntPerCore;
            if (end > t.factorATotalCnt) end = t.factorATotalCnt;
            const int rSplit = li.loopInnerRCount > 0 ? li.loopInnerRAxis[li.loopInnerRCount - 1] : -1;
            const uint64_t rSteps = rSplit >= 0 ? CeilDiv(t.shape[rSplit], t.ubFactorR) : 1;
            for (uint64_t a = begin; a < end; ++a) {
                DecodeA(s, tile, a, aSteps);
                ReduceRTiles(s, tile, t.factorRCntPerCore, 0, rSteps, aSteps, false);
                Finish(s, tile);
            }
        } else {
            const uint64_t groupR = t.groupR > 0 ? t.groupR : 1;
            uint64_t start = block / groupR * t.factorRTotalCnt + block % groupR * t.factorRCntPerCore;
            uint64_t end = start + t.factorRCntPerCore;
            uint64_t most = (block / groupR + 1) * t.factorRTotalCnt;
            const uint64_t total = t.factorATotalCnt * t.factorRTotalCnt;
            if (most > total) most = total;
            if (start > most) start = most;
            if (end > most) end = most;
            if (start == end) return;
            const int rSplit = li.loopRAxis[li.loopRCount - 1];
            const uint64_t rSteps = CeilDiv(t.shape[rSplit], t.ubFactorR);
            ReduceRTiles(s, tile, end - start, start, rSteps, aSteps, true);
            Finish(s, tile);
        }
    }

    /* the loop A axes' indices of A step `step` (the last loop A axis in ubFactorA pieces) */
    __aicore__ inline static void DecodeA(const Stage &s, Tile &tile, uint64_t step, uint64_t aSteps) {
        for (int k = s.li.loopACount - 1; k >= 0; --k) {
            const int d = s.li.loopAAxis[k];
            if (k == s.li.loopACount - 1) {
                Piece(tile, d, step % aSteps, s.t.ubFactorA, s.t.shape[d]);
                step /= aSteps;
            } else {
                tile.start[d] = static_cast<int64_t>(step % s.t.shape[d]);
                tile.ext[d] = 1;
                step /= s.t.shape[d];
            }
        }
    }

    __aicore__ inline static void Piece(Tile &tile, int d, uint64_t k, uint64_t piece, uint64_t extent) {
        tile.start[d] = static_cast<int64_t>(k * piece);
        const int64_t rest = static_cast<int64_t>(extent) - tile.start[d];
        tile.ext[d] = rest < static_cast<int64_t>(piece) ? rest : static_cast<int64_t>(piece);
    }

    /* R tile `index`: the inner R axes (normal), or the loop R list (group: its A axes too) */
    __aicore__ inline static void DecodeR(const Stage &s, Tile &tile, uint64_t index, uint64_t rSteps,
                                          uint64_t aSteps, bool group) {
        const int count = group ? s.li.loopRCount : s.li.loopInnerRCount;
        const int32_t *axes = group ? s.li.loopRAxis : s.li.loopInnerRAxis;
        for (int k = count - 1; k >= 0; --k) {
            const int d = axes[k];
            if (k == count - 1) {
                Piece(tile, d, index % rSteps, s.t.ubFactorR, s.t.shape[d]);
                index /= rSteps;
            } else if (group && IsSplitA(s, d)) {
                Piece(tile, d, index % aSteps, s.t.ubFactorA, s.t.shape[d]);
                index /= aSteps;
            } else {
                tile.start[d] = static_cast<int64_t>(index % s.t.shape[d]);
                tile.ext[d] = 1;
                index /= s.t.shape[d];
            }
        }
    }

    /* n R tiles from `first` of the current A step: bisection pairs, reductions, the cache; the
     * result in the cache's top slot (or, for pattern A, the result buffer) */
    __aicore__ inline void ReduceRTiles(const Stage &s, Tile &tile, uint64_t n, uint64_t first, uint64_t rSteps,
                                        uint64_t aSteps, bool group) {
        const uint64_t p = BisectionPoint(n);
        const uint64_t pairs = n - p;
        int64_t top = 0;
        for (uint64_t i = 0; i < p; ++i) {
            DecodeR(s, tile, first + i, rSteps, aSteps, group);
            PreReduce(s, tile, 0);
            if (i < pairs) {
                Tile other = tile;
                DecodeR(s, other, first + i + p, rSteps, aSteps, group);
                PreReduce(s, other, 1);
                LocalTensor<DataType> a = NodeTile<DataType>(kReduceIn, 0), b = NodeTile<DataType>(kReduceIn, 1);
                Combine(b, a, b, static_cast<int32_t>(tile.cells));  // tile i + p := f(tile i, tile i + p)
                Compute(s, tile, b);
            } else {
                Compute(s, tile, NodeTile<DataType>(kReduceIn, 0));
            }
            if constexpr (Pattern::ID != PATTERN_A) {
                top = UpdateCache(tile, static_cast<int64_t>(i));
            }
        }
        resultSlot_ = top;
    }

    /* the tile's input in UB, the pre-reduce ops, the padding: the reduction's input in buffer pp */
    __aicore__ inline void PreReduce(const Stage &s, Tile &laid, int pp) {
        Layout(s, laid);
        if (s.fromWorkspace) {
            CopyTileIn<DataType>(NodeTile<DataType>(kReduceIn, pp), workspace_, s, laid);
        } else {
            RunPre<0>(s, laid, pp);
        }
        LocalTensor<DataType> in = NodeTile<DataType>(kReduceIn, pp);
        ReduceOp op;
        const DataType pad = op.template GetPaddingValue<DataType>();
        int64_t dims[8], strides[8];
        for (int d = 0; d < laid.dim; ++d) {
            dims[d] = laid.ext[d];
            strides[d] = laid.ubStride[d];
        }
        ::opsnn_kt::Call("ReduceTilePad", __FILE__, __LINE__, in, pad, laid.cells, Shape(laid.dim, dims),
                         Shape(laid.dim, strides));
    }

    __aicore__ inline static ::opsnn_kt::Fields Shape(int n, const int64_t *v) {
        ::opsnn_kt::Fields f{"Shape", n, {}};
        for (int i = 0; i < n; ++i) f.v[i] = v[i];
        return f;
    }

    template <class T>
    __aicore__ inline void CopyTileIn(const LocalTensor<T> &dst, GM_ADDR base, const Stage &s, const Tile &tile) {
        int64_t offset = 0, dims[8], src[8], ub[8];
        for (int d = 0; d < tile.dim; ++d) {
            offset += tile.start[d] * s.t.stride[d];
            dims[d] = tile.ext[d];
            src[d] = s.t.stride[d];
            ub[d] = tile.ubStride[d];
        }
        ::opsnn_kt::Call("ReduceTileCopyIn", __FILE__, __LINE__, dst, Gm<T>(base, offset), Shape(tile.dim, dims),
                         Shape(tile.dim, src), Shape(tile.dim, ub));
    }

    template <int i>
    __aicore__ inline void RunPre(const Stage &s, const Tile &tile, int pp) {
        if constexpr (i < kReducePos) {
            using Node = NodeT<i>;
            constexpr auto kind = OpDag::Nodes.kind[i];
            if constexpr (kind == dag_detail::COPY_IN) {
                using Holder = typename Node::InArgs::template At<0>;
                CopyTileIn<OutT<i>>(NodeTile<OutT<i>>(i, pp), in_[Holder::Pos], s, tile);
            } else if constexpr (kind == dag_detail::SCALAR) {
                RunScalar<i>(static_cast<int64_t>(tile.cells));
            } else if constexpr (kind == dag_detail::TENSOR) {
                LocalTensor<OutT<i>> dst = NodeTile<OutT<i>>(i, pp);
                Call<Node>(dst, static_cast<int64_t>(tile.cells), pp, std::make_index_sequence<Node::InArgs::Size>{});
            }
            RunPre<i + 1>(s, tile, pp);
        }
    }

    __aicore__ inline void Combine(const LocalTensor<DataType> &dst, const LocalTensor<DataType> &a,
                                   const LocalTensor<DataType> &b, int32_t count) {
        if constexpr (ReduceOp::Kind == Vec::ReduceKind::SUM) {
            AscendC::Add(dst, a, b, count);
        } else if constexpr (ReduceOp::Kind == Vec::ReduceKind::MAX) {
            AscendC::Max(dst, a, b, count);
        } else {
            AscendC::Min(dst, a, b, count);
        }
    }

    /* one tile's reduction into the result buffer */
    __aicore__ inline void Compute(const Stage &s, const Tile &tile, const LocalTensor<DataType> &in) {
        LocalTensor<DataType> res = Result();
        if constexpr (Pattern::ID == PATTERN_A) {
            (void)Vec::Copy<DataType>(res, in, static_cast<int>(tile.cells));
        } else {
            const uint32_t shape[2] = {static_cast<uint32_t>(tile.rows), static_cast<uint32_t>(tile.cols)};
            constexpr auto kind = ReduceOp::Kind;
            if (s.tailA) {
                if constexpr (batchInvariant && kind == Vec::ReduceKind::SUM) {
                    ::opsnn_kt::Call("BatchInvariantReduceSumRA", __FILE__, __LINE__, res, in,
                                     ::opsnn_kt::ReduceShape(shape));
                } else if constexpr (kind == Vec::ReduceKind::SUM) {
                    AscendC::ReduceSum<DataType, AscendC::Pattern::Reduce::RA, true>(res, in, shape, false);
                } else if constexpr (kind == Vec::ReduceKind::MAX) {
                    AscendC::ReduceMax<DataType, AscendC::Pattern::Reduce::RA, true>(res, in, shape, false);
                } else {
                    AscendC::ReduceMin<DataType, AscendC::Pattern::Reduce::RA, true>(res, in, shape, false);
                }
            } else {
                if constexpr (kind == Vec::ReduceKind::SUM) {
                    AscendC::ReduceSum<DataType, AscendC::Pattern::Reduce::AR, true>(res, in, shape, false);
                } else if constexpr (kind == Vec::ReduceKind::MAX) {
                    AscendC::ReduceMax<DataType, AscendC::Pattern::Reduce::AR, true>(res, in, shape, false);
                } else {
                    AscendC::ReduceMin<DataType, AscendC::Pattern::Reduce::AR, true>(res, in, shape, false);
                }
            }
        }
    }

    /* result k into the cache: combined with the slots of k's trailing one bits; returns its slot */
    __aicore__ inline int64_t UpdateCache(const Tile &tile, int64_t k) {
        const int64_t slot = GetCacheID(k);
        const int32_t n = static_cast<int32_t>(tile.results);
        LocalTensor<DataType> acc = CacheSlot(slot);
        (void)Vec::Copy<DataType>(acc, Result(), n);
        for (int64_t j = 0; j < slot; ++j) Combine(acc, acc, CacheSlot(j), n);
        return slot;
    }

    /* the post-reduce ops and the copy out (or, first stage of a group, the partial to workspace) */
    __aicore__ inline void Finish(const Stage &s, const Tile &tile) {
        using reduce_sch_detail::CeilAlign;
        int64_t outLen, outRepeat = 1, srcStride;
        if (s.tailA) {
            outLen = tile.ext[s.dim - 1];
            for (int d = 0; d < s.dim - 1; ++d) {
                if (IsA(s, d)) outRepeat *= tile.ext[d];
            }
            if (s.t.useNddma != 0) {
                outLen *= outRepeat;
                outRepeat = 1;
            }
            srcStride = static_cast<int64_t>(CeilAlign(outLen, kBlock / kMinBytes));
        } else {
            outLen = tile.rows;
            srcStride = outLen;
        }
        result_ = Pattern::ID == PATTERN_A ? Result() : CacheSlot(resultSlot_);
        if (s.toWorkspace) {
            CopyOut<DataType>(Gm<DataType>(workspace_, GroupOffset(s, tile)), result_, outLen, outRepeat, srcStride);
            return;
        }
        int64_t offset = 0;
        for (int d = s.firstA ? 0 : 1; d < s.dim; d += 2) offset += tile.start[d] * s.t.dstStride[d];
        RunPost<kReducePos + 1>(outRepeat * srcStride, offset, outLen, outRepeat, srcStride);
    }

    /* where a group member's partial goes in workspace: row (block % groupR) of outSize results
     * (each row a whole number of registers), at its A piece's position */
    __aicore__ inline int64_t GroupOffset(const Stage &s, const Tile &tile) const {
        using reduce_sch_detail::CeilAlign;
        using reduce_sch_detail::CeilDiv;
        const uint64_t block = GetBlockIdx();
        const uint64_t groupR = s.t.groupR > 0 ? s.t.groupR : 1;
        const int axis = s.li.loopACount > 0 ? s.li.loopAAxis[s.li.loopACount - 1] : (s.firstA ? 0 : 1);
        const uint64_t aSteps = s.li.loopACount > 0 ? CeilDiv(s.t.shape[axis], s.t.ubFactorA) : 1;
        int64_t innerA = 1;
        for (int d = s.tailA ? s.dim - 1 : s.dim - 2; d > axis; d -= 2) innerA *= tile.ext[d];
        return static_cast<int64_t>(block % groupR * CeilAlign(s.t.outSize, kVL) +
                                    block / groupR % aSteps * s.t.ubFactorA * innerA +
                                    block / (groupR * aSteps) * s.t.shape[axis] * innerA);
    }

    template <class T>
    __aicore__ inline void CopyOut(const GlobalTensor<T> &dst, const LocalTensor<T> &src, int64_t outLen,
                                   int64_t outRepeat, int64_t srcStride) {
        DataCopyExtParams p{static_cast<uint16_t>(outRepeat), static_cast<uint32_t>(outLen * sizeof(T)),
                            static_cast<uint32_t>((srcStride - outLen) * static_cast<int64_t>(sizeof(T)) / kBlock),
                            0, 0};
        AscendC::DataCopyPad(dst, src, p);
    }

    template <int i>
    __aicore__ inline void RunPost(int64_t count, int64_t offset, int64_t outLen, int64_t outRepeat,
                                   int64_t srcStride) {
        if constexpr (i < kNodes) {
            using Node = NodeT<i>;
            constexpr auto kind = OpDag::Nodes.kind[i];
            if constexpr (kind == dag_detail::COPY_OUT) {
                using Holder = typename Node::Args::template At<0>;
                using Src = typename Node::InArgs::template At<0>;
                using T = typename Node::template FunInArgType<0>;
                CopyOut<T>(Gm<T>(out_[Holder::Pos], offset), PostOperand<T, Src>(), outLen, outRepeat, srcStride);
            } else if constexpr (kind == dag_detail::COPY_IN) {  // a whole input beside the result (from its start)
                using Holder = typename Node::InArgs::template At<0>;
                using T = OutT<i>;
                AscendC::DataCopyPad(NodeTile<T>(i, 0), Gm<T>(in_[Holder::Pos], 0),
                            DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                            DataCopyPadExtParams<T>{false, 0, 0, T{}});
            } else if constexpr (kind == dag_detail::SCALAR) {
                RunScalar<i>(count);
            } else {
                LocalTensor<OutT<i>> dst = NodeTile<OutT<i>>(i, 0);
                Call<Node>(dst, count, 0, std::make_index_sequence<Node::InArgs::Size>{});
            }
            RunPost<i + 1>(count, offset, outLen, outRepeat, srcStride);
        }
    }

    template <class T, class Src>
    __aicore__ inline LocalTensor<T> PostOperand() {
        constexpr int at = FunList::template GetIndex<Src>();
        if constexpr (at == kReducePos) {
            return result_.template ReinterpretCast<T>();
        } else {
            return NodeTile<T>(at, 0);
        }
    }

    /* ---- running one node: operands as the op declares them ---- */
    template <int i>
    __aicore__ inline void RunScalar(int64_t count) {
        using Node = NodeT<i>;
        auto &out = std::get<i>(scalars_);
        Call<Node>(out, count, 0, std::make_index_sequence<Node::InArgs::Size>{});
    }

    template <class Node, class Out, size_t... J>
    __aicore__ inline void Call(Out &out, int64_t count, int pp, std::index_sequence<J...>) {
        auto operands = std::make_tuple(Operand<Node, static_cast<int>(J)>(pp)...);
        (void)typename Node::Fun(out, std::get<J>(operands)..., static_cast<int>(count));
    }

    template <class Node, int j>
    __aicore__ inline auto Operand(int pp) {
        using A = typename Node::InArgs::template At<j>;
        using T = typename Node::template FunInArgType<j>;
        if constexpr (dag_detail::IsBind<A>::value) {
            constexpr int at = FunList::template GetIndex<A>();
            static_assert(at >= 0, "opsnn atvoss: an operand outside the DAG's node list");
            if constexpr (A::IsScalarOp) {
                return static_cast<T>(std::get<at>(scalars_));
            } else if constexpr (at == kReducePos) {
                return result_.template ReinterpretCast<T>();
            } else {
                constexpr int self = FunList::template GetIndex<Node>();
                static_assert(!(self > kReducePos && at < kReducePos),
                              "opsnn atvoss: a post-reduce op reading a pre-reduce tile is not modelled");
                return NodeTile<T>(at, at == kReduceIn ? pp : 0);
            }
        } else if constexpr (dag_detail::kIsVar<A>) {
            return static_cast<T>(vars_.template Get<A::Pos>());
        } else if constexpr (dag_detail::kIsIn<A>) {
            return Gm<T>(in_[A::Pos], 0).GetValue(0);
        } else {
            static_assert(dag_detail::kIsConst<A>, "opsnn atvoss: an operand that is no node, placeholder or constant");
            return static_cast<T>(A::value);
        }
    }

    /* ---- an empty input; a pure copy ---- */
    using OutDType = typename NodeT<kNodes - 1>::template FunInArgType<0>;

    template <class... Args>
    __aicore__ inline void ProcessEmpty(Args... args) {
        const ReduceOpTilingData &t = *tiling_;
        if (t.outSize == 0) return;
        OutDType value{};
        if constexpr (sizeof...(Args) > 0) value = FillValue(args...);
        const int64_t piece = static_cast<int64_t>(t.ubFactorA);
        TBuf<TPosition::VECCALC> buf;
        pipe_->InitBuffer(buf, static_cast<uint32_t>(RegBytes(piece * sizeof(OutDType))));
        LocalTensor<OutDType> tile = buf.template Get<OutDType>();
        ForEachPiece([&](uint64_t k, int64_t n) {
            AscendC::Duplicate<OutDType>(tile, value, static_cast<int32_t>(n));
            AscendC::DataCopyPad(Gm<OutDType>(out_[0], static_cast<int64_t>(k) * piece), tile,
                        DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(OutDType)), 0, 0, 0});
        });
    }

    /* Process's first argument as the output type, through the vector unit's Cast (RINT for
     * bfloat16, as upstream's empty-tensor fill converts it) */
    template <class T1, class... Rest>
    __aicore__ inline OutDType FillValue(T1 value, Rest...) {
        if constexpr (std::is_same_v<T1, OutDType>) {
            return value;
        } else {
            TBuf<TPosition::VECCALC> tmp;
            pipe_->InitBuffer(tmp, 64);
            LocalTensor<T1> a = tmp.template Get<T1>();
            AscendC::Duplicate<T1>(a, value, static_cast<int32_t>(32 / sizeof(T1)));
            LocalTensor<OutDType> b = a.template ReinterpretCast<OutDType>();
            AscendC::Cast(b, a, std::is_same_v<OutDType, bfloat16_t> ? RoundMode::CAST_RINT : RoundMode::CAST_NONE, 1);
            return b.GetValue(0);
        }
    }

    __aicore__ inline void ProcessMove() {
        using T = InDType;
        const int64_t piece = static_cast<int64_t>(tiling_->ubFactorA);
        TBuf<TPosition::VECCALC> buf;
        pipe_->InitBuffer(buf, static_cast<uint32_t>(RegBytes(piece * sizeof(T))));
        LocalTensor<T> tile = buf.template Get<T>();
        ForEachPiece([&](uint64_t k, int64_t n) {
            const int64_t at = static_cast<int64_t>(k) * piece;
            DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(tile, Gm<T>(in_[0], at), p, DataCopyPadExtParams<T>{false, 0, 0, T{}});
            AscendC::DataCopyPad(Gm<T>(out_[0], at), tile, p);
        });
    }

    /* this core's A steps of ubFactorA output elements (the last one shorter) */
    template <class F>
    __aicore__ inline void ForEachPiece(F &&body) {
        const ReduceOpTilingData &t = *tiling_;
        const uint64_t begin = GetBlockIdx() * t.factorACntPerCore;
        uint64_t end = begin + t.factorACntPerCore;
        if (end > t.factorATotalCnt) end = t.factorATotalCnt;
        for (uint64_t k = begin; k < end; ++k) {
            int64_t n = static_cast<int64_t>(t.ubFactorA);
            if (k == t.factorATotalCnt - 1) n = static_cast<int64_t>(t.outSize) - static_cast<int64_t>(k) * n;
            body(k, n);
        }
    }

    const ReduceOpTilingData *tiling_;
    TPipe *pipe_ = nullptr;
    GM_ADDR in_[kInputs > 0 ? kInputs : 1] = {};
    GM_ADDR out_[kOutputs > 0 ? kOutputs : 1] = {};
    GM_ADDR workspace_ = nullptr;
    int64_t cells_ = 0;
    int64_t resultStride_ = 0;
    int64_t resultSlot_ = 0;
    TBuf<TPosition::VECCALC> nodeBuf_[kNodes];
    TBuf<TPosition::VECCALC> pairBuf_;
    TBuf<TPosition::VECCALC> resultBuf_;
    TBuf<TPosition::VECCALC> cacheBuf_;
    LocalTensor<DataType> result_;
    typename OpDag::VarType vars_;
    typename OpDag::ScalarOpType scalars_;
};

}  // namespace ReduceOpTmpl
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_KERNEL
#endif  // OPSNN_ATVOSS_REDUCE_REDUCE_SCH_H_
