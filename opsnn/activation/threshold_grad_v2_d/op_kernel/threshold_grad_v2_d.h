/* The Atlas A2 (910B) ThresholdGradV2D kernel in AscendC C++, as docs/threshold-grad-v2d.md §6
 * describes it: out = grad where feature > threshold, else 0.
 *
 * Each core takes its share of the flat tensors (the first tailBlockNum cores one 256-byte block
 * more), walks it in tiles of tileDataNum elements (the last one tailDataNum) through
 * double-buffered queues: CopyIn (grad, feature) -> Compute -> CopyOut. Compute compares the
 * feature with the threshold into a bit mask and selects grad or 0 by it, in the type the vector
 * unit compares in: float and half directly, bfloat16 and int32 through one float temporary,
 * int8 and uint8 through half, then float. Results go back with CAST_RINT (bfloat16) or
 * CAST_TRUNC (the integers). opsnn runs it on its emulator: `opsnn ut` (docs/cpp-kernels.md). */
#ifndef OPSNN_THRESHOLD_GRAD_V2_D_H_
#define OPSNN_THRESHOLD_GRAD_V2_D_H_

#include <type_traits>

#include "kernel_operator.h"
#include "threshold_grad_v2_d_tiling_data.h"

namespace opsnn_threshold_grad_v2_d {

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;  // CopyIn of tile t+1 overlaps Compute of tile t on device

template <typename T>
class KernelThresholdGradV2D {
    static constexpr bool kDirect = std::is_same_v<T, float> || std::is_same_v<T, half>;
    static constexpr bool kViaFloat = std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int32_t>;
    static constexpr bool kViaHalf = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>;
    static_assert(kDirect || kViaFloat || kViaHalf, "ThresholdGradV2D takes float, half, bfloat16, int32, int8, uint8");

public:
    __aicore__ inline KernelThresholdGradV2D() {}

    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR feature, GM_ADDR out, const ThresholdGradV2DTilingData &t,
                                TPipe *pipe) {
        ASSERT(GetBlockNum() != 0);
        const uint64_t core = GetBlockIdx();
        const bool big = core < t.tailBlockNum;
        // Big cores come first; each small core starts where the one before it ended.
        uint64_t start = t.bigCoreDataNum * core;
        if (!big) start -= (t.bigCoreDataNum - t.smallCoreDataNum) * (core - t.tailBlockNum);
        coreDataNum_ = big ? t.bigCoreDataNum : t.smallCoreDataNum;
        tileNum_ = big ? t.finalBigTileNum : t.finalSmallTileNum;
        tailDataNum_ = big ? t.bigTailDataNum : t.smallTailDataNum;
        tileDataNum_ = t.tileDataNum;
        threshold_ = t.threshold;

        gradGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(grad) + start, coreDataNum_);
        featureGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(feature) + start, coreDataNum_);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(out) + start, coreDataNum_);

        const uint32_t tileBytes = static_cast<uint32_t>(tileDataNum_ * sizeof(T));
        pipe->InitBuffer(gradQueue_, BUFFER_NUM, tileBytes);
        pipe->InitBuffer(featureQueue_, BUFFER_NUM, tileBytes);
        pipe->InitBuffer(outQueue_, BUFFER_NUM, tileBytes);
        pipe->InitBuffer(maskBuf_, static_cast<uint32_t>(tileDataNum_));  // 1 byte an element: ample for bits
        if constexpr (kViaFloat) {
            pipe->InitBuffer(floatBuf_, static_cast<uint32_t>(tileDataNum_ * sizeof(float)));
        } else if constexpr (kViaHalf) {
            pipe->InitBuffer(halfBuf_, static_cast<uint32_t>(tileDataNum_ * sizeof(half)));
            pipe->InitBuffer(floatBuf_, static_cast<uint32_t>(tileDataNum_ * sizeof(float)));
        }
    }

    __aicore__ inline void Process() {
        processDataNum_ = tileDataNum_;
        for (uint64_t i = 0; i + 1 < tileNum_; ++i) Step(i);
        processDataNum_ = tailDataNum_;  // the last tile: what is left of this core's share
        if (tileNum_ > 0) Step(tileNum_ - 1);
    }

private:
    __aicore__ inline void Step(uint64_t progress) {
        CopyIn(progress);
        Compute();
        CopyOut(progress);
    }

    __aicore__ inline void CopyIn(uint64_t progress) {
        LocalTensor<T> g = gradQueue_.template AllocTensor<T>();
        LocalTensor<T> f = featureQueue_.template AllocTensor<T>();
        DataCopy(g, gradGm_[progress * tileDataNum_], static_cast<uint32_t>(processDataNum_));
        DataCopy(f, featureGm_[progress * tileDataNum_], static_cast<uint32_t>(processDataNum_));
        gradQueue_.EnQue(g);
        featureQueue_.EnQue(f);
    }

    __aicore__ inline void Compute() {
        LocalTensor<T> g = gradQueue_.template DeQue<T>();
        LocalTensor<T> f = featureQueue_.template DeQue<T>();
        LocalTensor<T> out = outQueue_.template AllocTensor<T>();
        LocalTensor<uint8_t> mask = maskBuf_.template Get<uint8_t>();
        const uint32_t n = static_cast<uint32_t>(processDataNum_);
        if constexpr (kDirect) {
            // half compares in half: the threshold rounds to half first (nearest-even)
            CompareScalar(mask, f, static_cast<T>(threshold_), CMPMODE::GT, n);
            Select(out, mask, g, static_cast<T>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        } else if constexpr (kViaFloat) {
            LocalTensor<float> tmp = floatBuf_.template Get<float>();
            Cast(tmp, f, RoundMode::CAST_NONE, n);
            CompareScalar(mask, tmp, threshold_, CMPMODE::GT, n);
            Cast(tmp, g, RoundMode::CAST_NONE, n);
            Select(tmp, mask, tmp, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
            // bfloat16: back to nearest-even (exact: a selected value came from bfloat16);
            // int32: toward zero (exact too: a selected value was an integer)
            Cast(out, tmp, std::is_same_v<T, bfloat16_t> ? RoundMode::CAST_RINT : RoundMode::CAST_TRUNC, n);
        } else {
            LocalTensor<half> tmpHalf = halfBuf_.template Get<half>();
            LocalTensor<float> tmp = floatBuf_.template Get<float>();
            Cast(tmpHalf, f, RoundMode::CAST_NONE, n);
            Cast(tmp, tmpHalf, RoundMode::CAST_NONE, n);
            CompareScalar(mask, tmp, threshold_, CMPMODE::GT, n);
            Cast(tmpHalf, g, RoundMode::CAST_NONE, n);
            Cast(tmp, tmpHalf, RoundMode::CAST_NONE, n);
            Select(tmp, mask, tmp, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
            Cast(tmpHalf, tmp, RoundMode::CAST_NONE, n);
            Cast(out, tmpHalf, RoundMode::CAST_TRUNC, n);
        }
        outQueue_.EnQue(out);
        gradQueue_.FreeTensor(g);
        featureQueue_.FreeTensor(f);
    }

    __aicore__ inline void CopyOut(uint64_t progress) {
        LocalTensor<T> out = outQueue_.template DeQue<T>();
        DataCopy(outGm_[progress * tileDataNum_], out, static_cast<uint32_t>(processDataNum_));
        outQueue_.FreeTensor(out);
    }

    TQue<TPosition::VECIN, BUFFER_NUM> gradQueue_, featureQueue_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> maskBuf_, halfBuf_, floatBuf_;
    GlobalTensor<T> gradGm_, featureGm_, outGm_;
    uint64_t coreDataNum_ = 0, tileNum_ = 0, tileDataNum_ = 0, tailDataNum_ = 0, processDataNum_ = 0;
    float threshold_ = 0.0f;
};

}  // namespace opsnn_threshold_grad_v2_d

#endif  // OPSNN_THRESHOLD_GRAD_V2_D_H_
