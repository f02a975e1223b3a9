/* opbase's host helpers (op_common/op_host/util/*.h, infershape_*_util.h). */
#include <algorithm>
#include <cstring>

#include "log/log.h"
#include "op_common/op_host/infershape_broadcast_util.h"
#include "op_common/op_host/infershape_elewise_util.h"
#include "op_common/op_host/util/math_util.h"
#include "op_common/op_host/util/shape_util.h"

namespace Ops {
namespace Base {
namespace {
constexpr int64_t kUnknownRankDim = -2;
constexpr int64_t kUnknownDim = -1;

uint32_t RotateLeft(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
uint32_t MixKey(uint32_t k) { return RotateLeft(k * 0xcc9e2d51U, 15) * 0x1b873593U; }

/* One dim of a broadcast: equal dims stay, a 1 takes the other, an unknown (-1) takes the
 * other's known value; anything else does not broadcast. */
bool BroadcastDim(int64_t &into, int64_t other) {
    if (into == other) {
        return true;
    }
    if (into != 1 && other != 1) {
        if (into == kUnknownDim || other == kUnknownDim) {
            into = into == kUnknownDim ? other : into;
            return true;
        }
        return false;
    }
    into = into == 1 ? other : into;
    return true;
}

/* Broadcasts `shape` into `out` (right-aligned); false where a dim pair does not broadcast. */
bool BroadcastInto(const gert::Shape &shape, gert::Shape &out) {
    if (IsUnknownRank(shape) || IsUnknownRank(out)) {
        SetUnknownRank(out);
        return true;
    }
    const size_t n = shape.GetDimNum();
    const size_t m = out.GetDimNum();
    gert::Shape result;
    const size_t rank = std::max(n, m);
    for (size_t i = 0; i < rank; ++i) {  // i-th dim from the left of the result
        const bool in_shape = i + n >= rank;
        const bool in_out = i + m >= rank;
        int64_t dim = in_out ? out.GetDim(i + m - rank) : shape.GetDim(i + n - rank);
        if (in_shape && in_out && !BroadcastDim(dim, shape.GetDim(i + n - rank))) {
            OP_LOGE("BroadcastShape", "dims %ld and %ld do not broadcast", static_cast<long>(dim),
                    static_cast<long>(shape.GetDim(i + n - rank)));
            return false;
        }
        result.AppendDim(dim);
    }
    out = result;
    return true;
}
}  // namespace

uint64_t LastPow2(uint64_t n) {
    if (n == 0) {
        return 1;
    }
    uint64_t p = 1;
    while (p <= n / 2) {
        p <<= 1;
    }
    return p;
}

uint32_t MurmurHash(const void *src, uint32_t srcLen, uint32_t seed) {
    const auto *bytes = static_cast<const uint8_t *>(src);
    uint32_t h = seed;
    const uint32_t blocks = srcLen / 4;
    for (uint32_t i = 0; i < blocks; ++i) {
        uint32_t k;
        std::memcpy(&k, bytes + 4 * i, sizeof(k));
        h = RotateLeft(h ^ MixKey(k), 13) * 5U + 0xe6546b64U;
    }
    uint32_t tail = 0;
    for (uint32_t i = srcLen & 3U; i != 0; --i) {
        tail = (tail << 8) | bytes[4 * blocks + i - 1];
    }
    h ^= MixKey(tail);
    h ^= srcLen;
    h ^= h >> 16;
    h *= 0x85ebca6bU;
    h ^= h >> 13;
    h *= 0xc2b2ae35U;
    h ^= h >> 16;
    return h;
}

bool SplitIntoEqualByParts(int64_t splitLen, int32_t parts, SplitResult &result) {
    if (splitLen <= 0 || parts <= 0) {
        return false;
    }
    const int64_t count = std::min<int64_t>(splitLen, parts);
    result.splitFactor = CeilDiv(splitLen, count);
    result.splitCount = static_cast<int32_t>(CeilDiv(splitLen, result.splitFactor));
    result.splitTailFactor = splitLen % result.splitFactor == 0 ? result.splitFactor : splitLen % result.splitFactor;
    return true;
}

bool SplitIntoEqualByFactor(int64_t splitLen, int32_t factor, SplitResult &result) {
    if (splitLen <= 0 || factor <= 0) {
        return false;
    }
    const int64_t block = std::min<int64_t>(splitLen, factor);
    result.splitCount = static_cast<int32_t>(CeilDiv(splitLen, block));
    result.splitTailFactor = splitLen % block == 0 ? block : splitLen % block;
    result.splitFactor = result.splitCount == 1 ? 0 : block;
    return true;
}

void SetUnknownRank(gert::Shape &shape) {
    shape.SetDimNum(0);
    shape.AppendDim(kUnknownRankDim);
}
bool IsUnknownRank(const gert::Shape &shape) { return shape.GetDimNum() == 1 && shape.GetDim(0) == kUnknownRankDim; }
void SetUnknownShape(int64_t rank, gert::Shape &shape) {
    if (rank < 0) {
        OP_LOGE("SetUnknownShape", "rank %ld is negative", static_cast<long>(rank));
        return;
    }
    shape.SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        shape.AppendDim(kUnknownDim);
    }
}
bool IsUnknownShape(const gert::Shape &shape) {
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        if (shape.GetDim(i) == kUnknownDim) {
            return true;
        }
    }
    return false;
}

ge::graphStatus InferShape4Elewise(gert::InferShapeContext *context) {
    const gert::Shape *in = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, in);
    gert::Shape *out = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, out);
    if (IsUnknownRank(*in)) {
        SetUnknownRank(*out);
        return ge::GRAPH_SUCCESS;
    }
    *out = *in;
    return ge::GRAPH_SUCCESS;
}

bool BroadcastShape(const gert::Shape *in1Shape, const gert::Shape *in2Shape, gert::Shape *outShape) {
    *outShape = *in1Shape;
    return BroadcastInto(*in2Shape, *outShape);
}
bool BroadcastShape(const std::vector<const gert::Shape *> &inShapes, gert::Shape *outShape) {
    if (inShapes.empty()) {
        OP_LOGE("BroadcastShape", "no input shapes");
        return false;
    }
    *outShape = *inShapes[0];
    for (size_t i = 1; i < inShapes.size(); ++i) {
        if (!BroadcastInto(*inShapes[i], *outShape)) {
            OP_LOGE("BroadcastShape", "input shapes %s do not broadcast", ToString(inShapes).c_str());
            return false;
        }
    }
    return true;
}
ge::graphStatus InferShape4Broadcast(gert::InferShapeContext *context) { return InferShape4Broadcast(context, 2); }
ge::graphStatus InferShape4Broadcast(gert::InferShapeContext *context, size_t inputNum) {
    if (inputNum == 0) {
        OP_LOGE(context, "InferShape4Broadcast needs at least one input");
        return ge::GRAPH_FAILED;
    }
    std::vector<const gert::Shape *> shapes;
    for (size_t i = 0; i < inputNum; ++i) {
        const gert::Shape *shape = context->GetInputShape(i);
        OP_CHECK_NULL_WITH_CONTEXT(context, shape);
        shapes.push_back(shape);
    }
    gert::Shape *out = context->GetOutputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, out);
    if (!BroadcastShape(shapes, out)) {
        OP_LOGE(context, "the input shapes %s do not broadcast", ToString(shapes).c_str());
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
}
}  // namespace Base
}  // namespace Ops
