/* opsnn's atvoss, host side: BroadcastBaseTiling<OpDag>, the tiling of a DAG whose inputs the
 * output's shape broadcasts (opsnn's own implementation; the rules are docs/arch35-atvoss.md §4,
 * the Python twin opsnn/atvoss/broadcast_tiling.py and collapse.py).
 *
 * 1. Platform: the context's (AIV cores, UB bytes), else its BroadcastCompileInfo.
 * 2. Shapes: every input's storage shape and the output's, a 0-d shape as [1].
 * 3. DimensionCollapse: left-pad the inputs to the output's rank; per axis, a bit mask of the inputs
 *    whose dim is 1 (input 0 the most significant bit; a dim neither 1 nor the output's fails);
 *    merge an axis into the previous group when its mask equals the previous one, or the previous
 *    mask is all ones and the previous output dim is 1; drop an all-ones axis of output dim 1;
 *    strides right to left, 0 where an input is 1 and the output is not. A rank above 8 fails.
 * 4. One dimension: a DAG with no Var and at most 4 GM tensors takes schedule 202
 *    (BroadcastOneDimTilingDataAdvance: tiles of floor(floor(ub / alive) / 512) * 512 bytes,
 *    fewer or smaller when the elements do not fill the cores, blocks of at least two tiles);
 *    the others 201 (BroadcastOneDimTilingData: tiles of 128-byte units, shrunk toward 2N / cores
 *    elements when fewer than half the cores would work). alive = the DAG's buffers with its
 *    broadcast inputs cached (GetBufferNum<true, true>) + extra buffers.
 * 5. Several dimensions: UB broadcast (101-104, 109) or an NDDMA gather (1, 2), the split axis
 *    the first from the right whose running product exceeds the tile, blocks over the fused tiles;
 *    BroadcastBaseTilingData's rows: the output, then each CopyInBrc input in FunList order.
 * Workspace 16 MiB. Not modelled: non-contiguous inputs (schedules 301-305: DoTiling fails saying
 * so when the context says an input is a view with its own strides, which it never does here),
 * preferMultiCore's extra split (the plain split is kept). */
#ifndef OPSNN_HOST_ATVOSS_BROADCAST_TILING_H_
#define OPSNN_HOST_ATVOSS_BROADCAST_TILING_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "atvoss/broadcast/broadcast_base_struct.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/ge_error_codes.h"
#include "op_common/op_host/tiling_base_util.h"  // EnsureNotScalar
#include "op_common/log/log.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {

constexpr uint64_t BROADCAST_MAX_DIMS = 8;
constexpr int SCH_MODE_UB_BROADCAST = 100;
constexpr int SCH_MODE_NDDMA_WITHOUT_LOOP_CACHE_BRC = 1;
constexpr int SCH_MODE_NDDMA_WITH_LOOP_CACHE_BRC = 2;
constexpr int SCH_MODE_ONE_DIM = 201;
constexpr int SCH_MODE_ONE_DIM_ADVANCE = 202;
constexpr int64_t MAX_IN_OUT_ARGS_NUMBER = 4;
constexpr uint64_t DEFAULT_TILING_WORKSPACE_SIZE = 16 * 1024 * 1024;
constexpr int64_t CACHE_LINE = 128;
constexpr int64_t CACHE_LINE_512 = 512;
constexpr int64_t DB_LOOP = 2;
constexpr int64_t PER_CORE_MIN_UB_BYTE = 8 * 1024;

enum class BROADCAST_KERNEL_TYPE : uint32_t { KERNEL_TYPE_BOTH = 0, KERNEL_TYPE_NDDMA = 1, KERNEL_TYPE_UB_BROADCAST = 2 };

struct BroadcastCompileInfo {
    bool isAscendC{false};
    uint64_t coreNum = 0;
    uint64_t ubSize = 0;
};


namespace brc_detail {
constexpr int64_t kNddmaDcacheSize = 8192;  // bytes

inline int64_t CeilDiv(int64_t a, int64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

inline std::vector<int64_t> Strides(const std::vector<int64_t> &dims, const std::vector<int64_t> &out) {
    std::vector<int64_t> strides(dims.size());
    int64_t base = 1;
    for (size_t k = dims.size(); k-- > 0;) {
        if (dims[k] == 1 && out[k] != 1) {
            strides[k] = 0;  // a broadcast axis: the same element for every output index
        } else {
            strides[k] = base;
            base *= dims[k];
        }
    }
    return strides;
}
}  // namespace brc_detail

/* step 3 of the file comment: dims and strides of every input, then of the output, folded */
inline ge::graphStatus DimensionCollapse(const std::vector<gert::Shape> &inShapes, const gert::Shape &outShapes,
                                         std::vector<std::vector<int64_t>> &dims,
                                         std::vector<std::vector<int64_t>> &strides) {
    const gert::Shape &outShape = EnsureNotScalar(outShapes);
    const size_t rank = outShape.GetDimNum(), k = inShapes.size();
    if (k == 0 || k > 16) return ge::GRAPH_FAILED;
    std::vector<int64_t> out(rank);
    for (size_t a = 0; a < rank; ++a) out[a] = outShape.GetDim(a);
    std::vector<std::vector<int64_t>> padded;
    for (const gert::Shape &s0 : inShapes) {
        const gert::Shape &s = EnsureNotScalar(s0);
        if (s.GetDimNum() > rank) return ge::GRAPH_FAILED;
        std::vector<int64_t> p(rank - s.GetDimNum(), 1);
        for (size_t a = 0; a < s.GetDimNum(); ++a) p.push_back(s.GetDim(a));
        padded.push_back(p);
    }
    std::vector<uint32_t> flags(rank, 0);
    for (size_t a = 0; a < rank; ++a) {
        for (size_t i = 0; i < k; ++i) {
            const int64_t d = padded[i][a];
            if (d <= 0 || out[a] <= 0 || (d != 1 && d != out[a])) return ge::GRAPH_FAILED;
            if (d == 1) flags[a] |= 1u << (k - 1 - i);
        }
    }
    const uint32_t target = (1u << k) - 1;
    std::vector<std::vector<size_t>> groups{{0}};
    uint32_t prev = flags[0];
    for (size_t j = 1; j < rank; ++j) {
        if (flags[j] == prev || (prev == target && out[j - 1] == 1)) {
            groups.back().push_back(j);
            prev = flags[j];
        } else if (!(flags[j] == target && out[j] == 1)) {
            groups.push_back({j});
            prev = flags[j];
        }
    }
    auto fold = [&groups](const std::vector<int64_t> &shape) {
        std::vector<int64_t> f;
        for (const auto &g : groups) {
            int64_t p = 1;
            for (size_t a : g) p *= shape[a];
            f.push_back(p);
        }
        return f;
    };
    dims.clear();
    strides.clear();
    const std::vector<int64_t> outF = fold(out);
    for (const auto &p : padded) {
        dims.push_back(fold(p));
        strides.push_back(brc_detail::Strides(dims.back(), outF));
    }
    dims.push_back(outF);
    strides.push_back(brc_detail::Strides(outF, outF));
    return ge::GRAPH_SUCCESS;
}

/* what the tilings below read: the collapsed dims and strides (the inputs', then the output's),
 * the platform, the caller's extra UB bytes and buffers, the kernel type asked for */
struct BroadcastTilingInput {
    std::vector<std::vector<int64_t>> dims, strides;
    int64_t coreNum = 0, ubSize = 0, extraSize = 0, extraBufferNum = 0;
    uint32_t kernelType = static_cast<uint32_t>(BROADCAST_KERNEL_TYPE::KERNEL_TYPE_BOTH);
};

/* The split of a DAG's elements (the file comment's steps 4 and 5), pure: BroadcastBaseTiling
 * feeds it the context's shapes and platform and puts the result in the context's tiling data. */
template <typename OpDag>
struct BroadcastSplit {
    using Data = BroadcastBaseTilingData<OpDag>;
    /* the one-dim DAGs schedule 202 takes */
    constexpr static bool kAdvance = OpDag::InputSize + OpDag::OutputSize <= MAX_IN_OUT_ARGS_NUMBER && OpDag::VarSize == 0;

    static int64_t Alive(const BroadcastTilingInput &in, bool useNddma) {
        const int64_t buffers = useNddma ? OpDag::template GetBufferNum<true, true>()
                                         : OpDag::template GetBufferNum<false, true>();
        return buffers + in.extraBufferNum;
    }

    template <class Flag>
    static Flag ScalarFlag(const BroadcastTilingInput &in) {
        Flag flag = 0;
        for (size_t i = 0; i + 1 < in.dims.size(); ++i) flag = static_cast<Flag>(flag | ((in.dims[i][0] == 1) << i));
        return flag;
    }

    /* schedule 201 */
    static ge::graphStatus OneDim(const BroadcastTilingInput &in, BroadcastOneDimTilingData &d) {
        using brc_detail::CeilDiv;
        const int64_t alive = Alive(in, true), size = OpDag::MaxDtypeBytes, cores = in.coreNum;
        const int64_t ub = in.ubSize - in.extraSize, n = in.dims.back()[0];
        if (alive <= 0 || n <= 0 || cores <= 0) return ge::GRAPH_FAILED;
        int64_t uf = (ub / alive) / CACHE_LINE * CACHE_LINE / size;
        if (uf <= 0) return ge::GRAPH_FAILED;
        int64_t ubTail = 0, blockFormer = 0, blockTail = 0, blockNum = 0;
        auto split = [&](int64_t f) {
            uf = f;
            const int64_t ubOuter = CeilDiv(n, uf);
            ubTail = n % uf != 0 ? n % uf : uf;
            blockFormer = CeilDiv(ubOuter, cores);
            blockTail = ubOuter % blockFormer != 0 ? ubOuter % blockFormer : blockFormer;
            blockNum = CeilDiv(ubOuter, blockFormer);
        };
        split(uf);
        if (blockNum < cores / 2 && uf * size * alive > PER_CORE_MIN_UB_BYTE) {  // few tiles: smaller ones
            const int64_t perCore = 2 * n / cores;
            const int64_t aligned = CeilDiv(perCore * size, CACHE_LINE) * CACHE_LINE / size;
            const int64_t lowest = (PER_CORE_MIN_UB_BYTE / alive) / CACHE_LINE * CACHE_LINE / size;
            split(std::max(std::min(uf, aligned), lowest));
        }
        d.scalarFlag = ScalarFlag<int32_t>(in);
        d.ubSplitAxis = 0;
        d.ubFormer = static_cast<int32_t>(uf);
        d.ubTail = static_cast<int32_t>(ubTail);
        d.blockNum = static_cast<int32_t>(blockNum);
        d.blockFormer = blockFormer;
        d.blockTail = blockTail;
        return ge::GRAPH_SUCCESS;
    }

    /* schedule 202 */
    static ge::graphStatus OneDimAdvance(const BroadcastTilingInput &in, BroadcastOneDimTilingDataAdvance &d) {
        using brc_detail::CeilDiv;
        const int64_t alive = Alive(in, true), cores = in.coreNum;
        const int64_t ub = in.ubSize - in.extraSize, n = in.dims.back()[0];
        if (alive <= 0 || n <= 0 || cores <= 0) return ge::GRAPH_FAILED;
        int64_t tile = (ub / alive) / CACHE_LINE_512 * CACHE_LINE_512 / OpDag::MaxDtypeBytes;
        if (tile <= 0) return ge::GRAPH_FAILED;
        const int64_t inputLine = CACHE_LINE_512 / OpDag::MinDtypeBytes, line = CACHE_LINE_512 / OpDag::MaxDtypeBytes;
        if (cores * inputLine > n) {
            tile = inputLine;  // too few elements for every core: fewer cores
        } else if (cores * tile > n) {
            tile = n / cores / line * line;  // smaller tiles, every core busy
        }
        const int64_t ubOuter = CeilDiv(n, tile);
        int64_t blockFormer = CeilDiv(ubOuter, cores);
        if (blockFormer == 1) blockFormer = DB_LOOP;  // at least two tiles a core: ping and pong
        d.dimLen = n;
        d.tileNum = static_cast<int32_t>(tile);
        d.blockNum = static_cast<int16_t>(CeilDiv(ubOuter, blockFormer));
        d.scalarFlag = ScalarFlag<int16_t>(in);
        return ge::GRAPH_SUCCESS;
    }

    static bool IsUbBroadcast(const BroadcastTilingInput &in) {
        if (in.kernelType == static_cast<uint32_t>(BROADCAST_KERNEL_TYPE::KERNEL_TYPE_NDDMA)) return false;
        if (in.kernelType == static_cast<uint32_t>(BROADCAST_KERNEL_TYPE::KERNEL_TYPE_UB_BROADCAST)) return true;
        const auto &strides_ = in.strides;
        const auto &dims_ = in.dims;
        const std::vector<int64_t> &outStrides = strides_.back();
        int brcIdx = -1;
        for (size_t i = 0; i + 1 < strides_.size() && brcIdx < 0; ++i) {
            for (size_t j = 0; j < outStrides.size(); ++j) {
                if (strides_[i][j] == 0 && outStrides[j] != 0) {
                    brcIdx = static_cast<int>(i);
                    break;
                }
            }
        }
        if (brcIdx < 0) return false;  // every input the output's shape: NDDMA
        if constexpr (OpDag::CopyBrcSize == 0) return true;
        for (uint32_t c = 0; c < OpDag::CopyBrcSize; ++c) {  // a long contiguous last axis under a broadcast one
            const int i = OpDag::CopyBrcInputs.pos[c];
            const auto &st = strides_[i];
            bool innerBrc = false;
            for (size_t j = 0; j + 1 < st.size(); ++j) innerBrc = innerBrc || (st[j] == 0 && outStrides[j] != 0);
            if (st.back() != 0 && innerBrc &&
                dims_[i].back() * InputBytes(i) >= brc_detail::kNddmaDcacheSize / 2) {
                return true;
            }
        }
        const int64_t bytes = InputBytes(brcIdx);  // 1- and 2-byte types whose last dim fills 32-byte blocks
        return bytes <= 2 && bytes > 0 && dims_.back().back() % (32 / bytes) == 0 && !IsBool(brcIdx);
    }

    static int64_t InputBytes(int i) { return InputBytesOf(i, std::make_index_sequence<OpDag::InputSize>{}); }
    template <size_t... I>
    static int64_t InputBytesOf(int i, std::index_sequence<I...>) {
        int64_t bytes = 0;
        ((bytes = static_cast<int>(I) == i ? OpDag::template InputDtypeBytes<I>() : bytes), ...);
        return bytes;
    }
    /* bool is a 1-byte type the UB broadcast does not take (int8/uint8/int16/uint16/half/bf16 do) */
    static bool IsBool(int i) { return IsBoolOf(i, std::make_index_sequence<OpDag::InputSize>{}); }
    template <size_t... I>
    static bool IsBoolOf(int i, std::index_sequence<I...>) {
        bool b = false;
        ((b = static_cast<int>(I) == i ? std::is_same_v<typename OpDag::InHolders::template At<I>::DType, bool> : b),
         ...);
        return b;
    }

    /* schedules 1, 2, 101-104, 109 */
    static ge::graphStatus MultiDim(const BroadcastTilingInput &in, Data &d, uint64_t &schMode) {
        using brc_detail::CeilDiv;
        const auto &strides_ = in.strides;
        const auto &dims_ = in.dims;
        const bool ubBrc = IsUbBroadcast(in);
        const int64_t buffers = Alive(in, !ubBrc);
        const int64_t ub = in.ubSize - in.extraSize;
        if (in.coreNum <= 0 || buffers <= 0) return ge::GRAPH_FAILED;
        int64_t maxElem = ub * 8 / (buffers * 8 * static_cast<int64_t>(OpDag::MaxDtypeBytes));
        const int64_t align = 256 / static_cast<int64_t>(OpDag::MinDtypeBytes);
        maxElem = maxElem / align * align;
        if (maxElem <= 0) return ge::GRAPH_FAILED;
        const std::vector<int64_t> &out = dims_.back();
        const int64_t rank = static_cast<int64_t>(out.size());
        int64_t total = 1;
        for (int64_t d : out) total *= d;
        int64_t split = 0, inner = total / out[0], p = 1;
        for (int64_t i = rank - 1; i >= 0; --i) {
            p *= out[i];
            if (p > maxElem) {
                split = i;
                inner = p / out[i];
                break;
            }
        }
        const int64_t ubFormer = maxElem / inner;
        const int64_t ubOuter = CeilDiv(out[split], ubFormer);
        const int64_t ubTail = out[split] - (ubOuter - 1) * ubFormer;
        int64_t fused = ubOuter;
        for (int64_t i = 0; i < split; ++i) fused *= out[i];
        const int64_t blockFormer = CeilDiv(fused, in.coreNum);
        const int64_t blockNum = CeilDiv(fused, blockFormer);
        const int64_t r = rank - split;
        std::memset(&d, 0, sizeof(Data));
        Data *base_ = &d;
        base_->shapeLen = static_cast<int32_t>(rank);
        base_->ubSplitAxis = static_cast<int32_t>(split);
        base_->ubFormer = static_cast<int32_t>(ubFormer);
        base_->ubTail = static_cast<int32_t>(ubTail);
        base_->ubOuter = ubOuter;
        base_->blockFormer = blockFormer;
        base_->blockTail = fused - (blockNum - 1) * blockFormer;
        base_->dimProductBeforeUbInner = fused;
        base_->elemNum = maxElem;
        base_->blockNum = blockNum;
        for (int64_t j = 0; j < rank; ++j) {
            base_->outputDims[j] = out[j];
            base_->outputStrides[j] = strides_.back()[j];
        }
        std::vector<bool> isBrc(OpDag::InputSize, false);
        for (uint32_t c = 0; c < OpDag::CopyBrcSize; ++c) {
            const int i = OpDag::CopyBrcInputs.pos[c];
            isBrc[i] = true;
            for (int64_t j = 0; j < rank; ++j) {
                base_->inputBrcDims[c][j] = dims_[i][j];
                base_->inputBrcStrides[c][j] = strides_[i][j];
            }
        }
        for (uint32_t i = 0; i < OpDag::InputSize; ++i) {  // an input no CopyInBrc reads: the tile's rows
            if (isBrc[i]) continue;
            base_->inputDims[i][0] = ubFormer;
            base_->inputDims[i][1] = ubTail;
            for (int64_t j = 0; j < rank; ++j) base_->inputStrides[i][j] = strides_[i][j];
        }
        schMode = ubBrc ? (r > 4 ? SCH_MODE_UB_BROADCAST + 9 : SCH_MODE_UB_BROADCAST + r)
                        : (r > 5 ? SCH_MODE_NDDMA_WITH_LOOP_CACHE_BRC : SCH_MODE_NDDMA_WITHOUT_LOOP_CACHE_BRC);
        return ge::GRAPH_SUCCESS;
    }

};

template <typename OpDag>
class BroadcastBaseTiling {
public:
    explicit BroadcastBaseTiling(gert::TilingContext *context,
                                 uint32_t kernelType = static_cast<uint32_t>(BROADCAST_KERNEL_TYPE::KERNEL_TYPE_BOTH))
        : context_(context), kernelType_(kernelType) {}

    ge::graphStatus DoTiling(int64_t extraSize = 0, int64_t extraBufferNum = 0, bool preferMultiCore = false) {
        (void)preferMultiCore;  // its extra split is not modelled (the file comment)
        extraSize_ = extraSize;
        extraBufferNum_ = extraBufferNum;
        if (GetPlatformInfo() != ge::GRAPH_SUCCESS) {
            OP_LOGE(context_, "Get platform info failed.");
            return ge::GRAPH_FAILED;
        }
        if (GetShapeInfo() != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
        if (DimensionCollapse(inShapes_, outShape_, dims_, strides_) != ge::GRAPH_SUCCESS ||
            dims_.back().size() > BROADCAST_MAX_DIMS) {
            OP_LOGE(context_, "dimension collapse failed: the input shapes do not broadcast to the output's");
            return ge::GRAPH_FAILED;
        }
        if (Split() != ge::GRAPH_SUCCESS) {
            OP_LOGE(context_, "Do broadcast tiling failed.");
            return ge::GRAPH_FAILED;
        }
        size_t *workspaces = context_->GetWorkspaceSizes(1);
        OP_CHECK_NULL_WITH_CONTEXT(context_, workspaces);
        workspaces[0] = DEFAULT_TILING_WORKSPACE_SIZE;
        return ge::GRAPH_SUCCESS;
    }

    uint64_t GetSchMode() { return schMode_; }

    /* the value into the chosen tiling struct's scalarData, packed in call order */
    template <typename T>
    void SetScalar(T value) {
        char *data = oneDim_ != nullptr ? oneDim_->scalarData : base_ != nullptr ? base_->scalarData : scalarData_;
        if (offset_ + sizeof(T) > BROADCAST_MAX_SCALAR_BYTES) {
            OP_LOGE(context_, "SetScalar: the scalars need more than %lu bytes", BROADCAST_MAX_SCALAR_BYTES);
            return;
        }
        std::memcpy(data + offset_, &value, sizeof(T));
        offset_ += sizeof(T);
    }

    ge::graphStatus SetOpInputStorageShapes(const std::vector<gert::Shape> &opInputStorageShapes) {
        if (opInputStorageShapes.empty()) {
            OP_LOGE(context_, "SetOpInputStorageShapes: no shapes");
            return ge::GRAPH_FAILED;
        }
        inShapes_ = opInputStorageShapes;
        return ge::GRAPH_SUCCESS;
    }

private:
    using Data = BroadcastBaseTilingData<OpDag>;

    ge::graphStatus GetPlatformInfo() {
        if (context_ == nullptr) return ge::GRAPH_FAILED;
        if (fe::PlatFormInfos *info = context_->GetPlatformInfo()) {
            platform_ascendc::PlatformAscendC platform(info);
            coreNum_ = platform.GetCoreNumAiv();
            platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize_);
        } else if (const auto *compile = context_->GetCompileInfo<BroadcastCompileInfo>()) {
            coreNum_ = compile->coreNum;
            ubSize_ = compile->ubSize;
        }
        return coreNum_ > 0 && ubSize_ > 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
    }

    ge::graphStatus GetShapeInfo() {
        if (inShapes_.empty()) {  // SetOpInputStorageShapes gives them otherwise
            for (size_t i = 0; i < OpDag::InputSize; ++i) {
                const gert::StorageShape *in = context_->GetInputShape(i);
                OP_CHECK_NULL_WITH_CONTEXT(context_, in);
                inShapes_.push_back(EnsureNotScalar(in->GetStorageShape()));
            }
        }
        const gert::StorageShape *out = context_->GetOutputShape(0);
        OP_CHECK_NULL_WITH_CONTEXT(context_, out);
        outShape_ = EnsureNotScalar(out->GetStorageShape());
        return ge::GRAPH_SUCCESS;
    }

    BroadcastTilingInput Input() const {
        BroadcastTilingInput in;
        in.dims = dims_;
        in.strides = strides_;
        in.coreNum = static_cast<int64_t>(coreNum_);
        in.ubSize = static_cast<int64_t>(ubSize_);
        in.extraSize = extraSize_;
        in.extraBufferNum = extraBufferNum_;
        in.kernelType = kernelType_;
        return in;
    }

    /* the split into the context's tiling data of the schedule it chose, the block dim set */
    ge::graphStatus Split() {
        using S = BroadcastSplit<OpDag>;
        const BroadcastTilingInput in = Input();
        uint32_t blocks = 0;
        if (dims_.back().size() == 1 && S::kAdvance) {
            auto *d = context_->GetTilingData<BroadcastOneDimTilingDataAdvance>();
            OP_CHECK_NULL_WITH_CONTEXT(context_, d);
            if (S::OneDimAdvance(in, *d) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
            schMode_ = SCH_MODE_ONE_DIM_ADVANCE;
            blocks = static_cast<uint32_t>(d->blockNum);
        } else if (dims_.back().size() == 1) {
            oneDim_ = context_->GetTilingData<BroadcastOneDimTilingData>();
            OP_CHECK_NULL_WITH_CONTEXT(context_, oneDim_);
            if (S::OneDim(in, *oneDim_) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
            std::memcpy(oneDim_->scalarData, scalarData_, sizeof(scalarData_));
            schMode_ = SCH_MODE_ONE_DIM;
            blocks = static_cast<uint32_t>(oneDim_->blockNum);
        } else {
            base_ = context_->GetTilingData<Data>();
            OP_CHECK_NULL_WITH_CONTEXT(context_, base_);
            if (S::MultiDim(in, *base_, schMode_) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
            std::memcpy(base_->scalarData, scalarData_, sizeof(scalarData_));
            blocks = static_cast<uint32_t>(base_->blockNum);
        }
        context_->SetBlockDim(blocks);
        return ge::GRAPH_SUCCESS;
    }

    gert::TilingContext *context_ = nullptr;
    uint32_t kernelType_ = 0;
    int64_t extraSize_ = 0, extraBufferNum_ = 0;
    uint64_t coreNum_ = 0, ubSize_ = 0;
    std::vector<gert::Shape> inShapes_;
    gert::Shape outShape_;
    std::vector<std::vector<int64_t>> dims_, strides_;  // the inputs', then the output's, collapsed
    uint64_t schMode_ = 0;
    BroadcastOneDimTilingData *oneDim_ = nullptr;
    Data *base_ = nullptr;
    char scalarData_[BROADCAST_MAX_SCALAR_BYTES] = {};
    size_t offset_ = 0;
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_ATVOSS_BROADCAST_TILING_H_
