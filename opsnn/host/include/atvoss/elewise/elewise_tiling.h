/* opsnn's atvoss, host side: ElewiseBaseTiling, the tiling of a DAG over same-shape tensors
 * (opsnn's own implementation; the rule is docs/arch35-atvoss.md §3, the Python twin
 * opsnn/atvoss/elewise_tiling.py).
 *
 * Platform: the tiling context's (AIV cores, UB bytes), else its ElewiseCompileInfo. Shape: the
 * output's storage shape (no output: the first input that is not one element); every input has
 * it, is 0-d or has one element. Then, for dim0 = the element count (an empty dim fails):
 *   usedCores   = min(ceil(dim0 * minBits / 32768), cores)   at least 4 KiB of the narrowest type a core
 *   blockFormer = ceil(dim0 / usedCores) rounded up to 512 elements; blockNum = ceil(dim0 / blockFormer)
 *   maxElem     = (ub - extraSize) * 8 / ((BufferNum + extraBufferNum) * maxBits)
 *   ubFormer    = maxElem down to a multiple of 2048 / minBits (0 fails)
 * and the loops and tails of a full and of the last block. The DAG gives BufferNum and the
 * widest / narrowest node types (opsnn/cpudebug/include/atvoss/util/dag.h). */
#ifndef OPSNN_HOST_ATVOSS_ELEWISE_TILING_H_
#define OPSNN_HOST_ATVOSS_ELEWISE_TILING_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "atvoss/elewise/elewise_base_struct.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/ge_error_codes.h"
#include "op_common/log/log.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {}

namespace Ops {
namespace Base {

using namespace optiling;

constexpr uint64_t OP_KEY_OFFSET = 100000000000000;
constexpr int64_t BITS_NUM = 8;
constexpr int64_t DEFAULT_SCHEMODE = 1;

enum class BITS_SIZE { BITS1_SIZE = 1, BITS8_SIZE = 8, BITS16_SIZE = 16, BITS32_SIZE = 32, BITS64_SIZE = 64 };

/* what a DAG asks of the UB: the widest and narrowest types in bits, bytes kept aside, and the
 * divisor of the UB bits per tile element ((BufferNum + extra buffers) * maxDtypeBits) */
struct ComputeParams {
    int64_t maxDtypeBits;
    int64_t minDtypeBits;
    std::vector<int64_t> extraSize;
    std::vector<int64_t> bufferDivisor;
};

struct ElewiseTilingParams {
    int64_t coreNum;
    gert::Shape shape;
    int64_t ubSize;
    std::map<uint64_t, ComputeParams> computeMap;  // the first entry is the one tiled
};

/* what TilingParse stores for the tiling to fall back on when the context has no platform */
struct ElewiseCompileInfo {
    uint64_t coreNum = 0;
    uint64_t ubSize = 0;
};

struct ElewiseTilingData {
    uint64_t innerKey;
    int64_t dim0;
    int64_t ubFormer;
    int64_t blockFormer;
    int64_t blockNum;
    int64_t coreNum;
    int64_t ubLoopOfFormerBlock;
    int64_t ubLoopOfTailBlock;
    int64_t ubTailOfFormerBlock;
    int64_t ubTailOfTailBlock;
    int64_t elemNum;
};

namespace elewise_detail {
constexpr int64_t kBlockAlignElems = 512;
constexpr int64_t kMinCoreBits = 32768;  // 4 KiB of the narrowest type
constexpr int64_t kTileAlignBits = 256 * 8;

inline int64_t CeilDiv(int64_t a, int64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
}  // namespace elewise_detail

/* same shape, or the input is 0-d or one element (read once) */
inline bool IsSameElewiseShape(const gert::Shape &shape, const gert::Shape &input) {
    return input == shape || input.IsScalar() || input.GetShapeSize() == 1;
}

/* the split of params.shape's elements over cores and tiles (the file comment) */
inline ge::graphStatus ElewiseTiling(const ElewiseTilingParams &params, ElewiseTilingData &out) {
    using elewise_detail::CeilDiv;
    if (params.computeMap.empty() || params.coreNum <= 0 || params.ubSize <= 0) return ge::GRAPH_FAILED;
    const ComputeParams &c = params.computeMap.begin()->second;
    if (c.minDtypeBits <= 0 || c.bufferDivisor.empty() || c.bufferDivisor[0] <= 0) return ge::GRAPH_FAILED;
    int64_t dim0 = 1;
    for (size_t i = 0; i < params.shape.GetDimNum(); ++i) {
        if (params.shape.GetDim(i) <= 0) return ge::GRAPH_FAILED;
        dim0 *= params.shape.GetDim(i);
    }
    const int64_t extra = c.extraSize.empty() ? 0 : c.extraSize[0];
    const int64_t usedCores = std::min(CeilDiv(dim0 * c.minDtypeBits, elewise_detail::kMinCoreBits), params.coreNum);
    const int64_t blockFormer =
        CeilDiv(CeilDiv(dim0, usedCores), elewise_detail::kBlockAlignElems) * elewise_detail::kBlockAlignElems;
    const int64_t blockNum = CeilDiv(dim0, blockFormer);
    const int64_t blockTail = dim0 - (blockNum - 1) * blockFormer;
    const int64_t maxElem = (params.ubSize - extra) * BITS_NUM / c.bufferDivisor[0];
    const int64_t align = elewise_detail::kTileAlignBits / c.minDtypeBits;
    const int64_t ubFormer = maxElem / align * align;
    if (ubFormer <= 0) return ge::GRAPH_FAILED;
    out.innerKey = params.computeMap.begin()->first;
    out.dim0 = dim0;
    out.ubFormer = ubFormer;
    out.blockFormer = blockFormer;
    out.blockNum = blockNum;
    out.coreNum = usedCores;
    out.ubLoopOfFormerBlock = CeilDiv(blockFormer, ubFormer);
    out.ubLoopOfTailBlock = CeilDiv(blockTail, ubFormer);
    out.ubTailOfFormerBlock = blockFormer - (out.ubLoopOfFormerBlock - 1) * ubFormer;
    out.ubTailOfTailBlock = blockTail - (out.ubLoopOfTailBlock - 1) * ubFormer;
    out.elemNum = ubFormer;
    return ge::GRAPH_SUCCESS;
}

/* the 80-byte struct ElementwiseSch reads, from a split */
inline void FillEleBaseTilingData(const ElewiseTilingData &t, EleBaseTilingData &d) {
    d.dim0 = t.dim0;
    d.coreNum = static_cast<int32_t>(t.coreNum);
    d.ubFormer = static_cast<int32_t>(t.ubFormer);
    d.blockFormer = t.blockFormer;
    d.blockNum = t.blockNum;
    d.ubLoopOfFormerBlock = t.ubLoopOfFormerBlock;
    d.ubLoopOfTailBlock = t.ubLoopOfTailBlock;
    d.ubTailOfFormerBlock = t.ubTailOfFormerBlock;
    d.ubTailOfTailBlock = t.ubTailOfTailBlock;
    d.elemNum = t.elemNum;
    d.scheMode = DEFAULT_SCHEMODE;
}

/* what a DAG asks of the UB (the file comment) */
template <typename OpDag>
ComputeParams DagComputeParams(int64_t extraSize, int64_t extraBufferNum) {
    ComputeParams c;
    c.maxDtypeBits = static_cast<int64_t>(OpDag::MaxDtypeBytes) * BITS_NUM;
    c.minDtypeBits = static_cast<int64_t>(OpDag::MinDtypeBytes) * BITS_NUM;
    c.extraSize = {extraSize};
    c.bufferDivisor = {(static_cast<int64_t>(OpDag::BufferNum) + extraBufferNum) * c.maxDtypeBits};
    return c;
}

class ElewiseBaseTiling {
public:
    explicit ElewiseBaseTiling(gert::TilingContext *context) : context_(context) {}

    /* the 80-byte struct of ElementwiseSch */
    template <typename OpDag, bool CheckShape = true>
    ge::graphStatus DoTiling(EleBaseTilingData &eleTilingData, int64_t extraSize = 0, int64_t extraBufferNum = 0) {
        ElewiseTilingData t{};
        if (DoTiling<OpDag, CheckShape>(t, extraSize, extraBufferNum) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
        FillEleBaseTilingData(t, eleTilingData);
        return ge::GRAPH_SUCCESS;
    }

    /* the split alone */
    template <typename OpDag, bool CheckShape>
    ge::graphStatus DoTiling(ElewiseTilingData &elewiseTilingData, int64_t extraSize = 0, int64_t extraBufferNum = 0) {
        if (GetPlatformInfo() != ge::GRAPH_SUCCESS) {
            OP_LOGE(context_, "Get platform info failed.");
            return ge::GRAPH_FAILED;
        }
        if (GetShapeInfo<CheckShape>() != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
        ElewiseTilingParams params{static_cast<int64_t>(coreNum_), shape_, static_cast<int64_t>(ubSize_),
                                   {{0, DagComputeParams<OpDag>(extraSize, extraBufferNum)}}};
        if (ElewiseTiling(params, elewiseTilingData) != ge::GRAPH_SUCCESS) {
            OP_LOGE(context_, "Do elewise tiling failed.");
            return ge::GRAPH_FAILED;
        }
        numBlocks_ = elewiseTilingData.blockNum;
        return ge::GRAPH_SUCCESS;
    }

    /* the 16-byte struct of ElementwiseSch16B (the kernel derives the split from it) */
    template <typename OpDag, bool CheckShape = true>
    ge::graphStatus DoTiling(EleBaseTilingData16B &eleTilingData16B, int64_t extraSize = 0,
                             int64_t extraBufferNum = 0) {
        ElewiseTilingData t{};
        if (DoTiling<OpDag, CheckShape>(t, extraSize, extraBufferNum) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
        FillShort(eleTilingData16B, t);
        return ge::GRAPH_SUCCESS;
    }

    /* the 24- / 32-byte structs of ElementwiseSchWithScalar, written into the context's tiling
     * data; the scalars SetScalar gives (before or after) go to their scalarData, packed in order */
    template <typename OpDag, bool CheckShape = true>
    ge::graphStatus DoTiling24B(int64_t extraSize = 0, int64_t extraBufferNum = 0) {
        return DoTilingWithScalars<OpDag, CheckShape>(ele24B_, extraSize, extraBufferNum);
    }
    template <typename OpDag, bool CheckShape = true>
    ge::graphStatus DoTiling32B(int64_t extraSize = 0, int64_t extraBufferNum = 0) {
        return DoTilingWithScalars<OpDag, CheckShape>(ele32B_, extraSize, extraBufferNum);
    }

    template <typename T>
    void SetScalar(T value) {
        char *data = ele24B_ != nullptr ? ele24B_->scalarData : ele32B_ != nullptr ? ele32B_->scalarData : scalarData_;
        const size_t room = ele24B_ != nullptr ? sizeof(ele24B_->scalarData) : ELEWISE_MAX_SCALAR_BYTES;
        if (offset_ + sizeof(T) > room) {
            OP_LOGE(context_, "SetScalar: the scalars need more than the tiling's %zu bytes", room);
            return;
        }
        std::memcpy(data + offset_, &value, sizeof(T));
        offset_ += sizeof(T);
    }

    int64_t GetBlockDim() const { return numBlocks_; }
    int64_t GetNumBlocks() { return numBlocks_; }

private:
    ge::graphStatus GetPlatformInfo() {
        if (context_ == nullptr) return ge::GRAPH_FAILED;
        if (fe::PlatFormInfos *info = context_->GetPlatformInfo()) {
            platform_ascendc::PlatformAscendC platform(info);
            coreNum_ = platform.GetCoreNumAiv();
            platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize_);
        } else if (const auto *compile = context_->GetCompileInfo<ElewiseCompileInfo>()) {
            coreNum_ = compile->coreNum;
            ubSize_ = compile->ubSize;
        }
        return coreNum_ > 0 && ubSize_ > 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
    }

    template <bool CheckShape>
    ge::graphStatus GetShapeInfo() {
        const size_t inputs = context_->GetComputeNodeInputNum();
        if (const gert::StorageShape *out = context_->GetOutputShape(0)) {
            shape_ = out->GetStorageShape();
        } else {
            for (size_t i = 0; i < inputs; ++i) {
                const gert::StorageShape *in = context_->GetInputShape(i);
                if (in == nullptr) continue;
                shape_ = in->GetStorageShape();
                if (!(shape_.IsScalar() || shape_.GetShapeSize() == 1)) break;
            }
        }
        if (!CheckShape) return ge::GRAPH_SUCCESS;
        for (size_t i = 0; i < inputs; ++i) {
            const gert::StorageShape *in = context_->GetInputShape(i);
            OP_CHECK_NULL_WITH_CONTEXT(context_, in);
            if (!IsSameElewiseShape(shape_, in->GetStorageShape())) {
                OP_LOGE(context_, "Input[%zu] shape is not equal with output shape", i);
                return ge::GRAPH_FAILED;
            }
        }
        return ge::GRAPH_SUCCESS;
    }

    template <typename Short>
    static void FillShort(Short &s, const ElewiseTilingData &t) {
        s.dim0 = t.dim0;
        s.coreNum = static_cast<int32_t>(t.coreNum);
        s.ubFormer = static_cast<int32_t>(t.ubFormer);
    }

    template <typename OpDag, bool CheckShape, typename Short>
    ge::graphStatus DoTilingWithScalars(Short *&slot, int64_t extraSize, int64_t extraBufferNum) {
        ElewiseTilingData t{};
        if (DoTiling<OpDag, CheckShape>(t, extraSize, extraBufferNum) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
        slot = context_->GetTilingData<Short>();
        OP_CHECK_NULL_WITH_CONTEXT(context_, slot);
        FillShort(*slot, t);
        std::memcpy(slot->scalarData, scalarData_, sizeof(slot->scalarData));  // what SetScalar gave before
        return ge::GRAPH_SUCCESS;
    }

    gert::TilingContext *context_ = nullptr;
    EleBaseTilingData24B *ele24B_ = nullptr;
    EleBaseTilingData32B *ele32B_ = nullptr;
    char scalarData_[ELEWISE_MAX_SCALAR_BYTES] = {};
    size_t offset_ = 0;
    int64_t numBlocks_ = 0;
    uint64_t coreNum_ = 0;
    uint64_t ubSize_ = 0;
    gert::Shape shape_;
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_ATVOSS_ELEWISE_TILING_H_
