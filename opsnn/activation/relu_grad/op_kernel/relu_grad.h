/* The Atlas A2 ReluGrad kernel in AscendC C++, the twin of op_kernel/relu_grad.py:
 * backprops = gradients * (features > 0 ? 1 : 0), a real multiply, so an inf or NaN gradient
 * where the feature is not positive gives NaN and a negative one -0.0 (TensorFlow's rule).
 *
 * Block split, tiles and queues as ThresholdGradV2D's kernel. Per tile: the feature goes to the
 * compute type (float for bfloat16/int32, half for int8/uint8; exact for its sign), is compared
 * with 0 into a bit mask, the mask selects 1 or 0 into a factor, and the gradient (in the
 * compute type; int32 stays int32 against an int32 factor) is multiplied by it and converted back
 * (exact: the product is 0 or the gradient). */
#ifndef OPSNN_RELU_GRAD_H_
#define OPSNN_RELU_GRAD_H_

#include <type_traits>

#include "kernel_operator.h"
#include "relu_grad_tiling_data.h"

namespace opsnn_relu_grad {

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;  // CopyIn of tile t+1 overlaps Compute of tile t on device

template <typename T> struct ComputeType { using type = T; };  // float, half: computed as they are
template <> struct ComputeType<bfloat16_t> { using type = float; };
template <> struct ComputeType<int32_t> { using type = float; };
template <> struct ComputeType<int8_t> { using type = half; };
template <> struct ComputeType<uint8_t> { using type = half; };

template <typename T>
class KernelReluGrad {
    using C = typename ComputeType<T>::type;
    static constexpr bool kDirect = std::is_same_v<T, C>;
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half> || !kDirect,
                  "ReluGrad takes float, half, bfloat16, int32, int8, uint8");

public:
    __aicore__ inline KernelReluGrad() {}

    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR feature, GM_ADDR out, const ReluGradTilingData &t,
                                TPipe *pipe) {
        ASSERT(GetBlockNum() != 0);
        const uint64_t core = GetBlockIdx();
        const bool big = core < t.tailBlockNum;
        uint64_t start = t.bigCoreDataNum * core;  // big cores first, small ones after them
        if (!big) start -= (t.bigCoreDataNum - t.smallCoreDataNum) * (core - t.tailBlockNum);
        coreDataNum_ = big ? t.bigCoreDataNum : t.smallCoreDataNum;
        tileNum_ = big ? t.finalBigTileNum : t.finalSmallTileNum;
        tailDataNum_ = big ? t.bigTailDataNum : t.smallTailDataNum;
        tileDataNum_ = t.tileDataNum;

        gradGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(grad) + start, coreDataNum_);
        featureGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(feature) + start, coreDataNum_);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(out) + start, coreDataNum_);

        const uint32_t n = static_cast<uint32_t>(tileDataNum_);
        pipe->InitBuffer(gradQueue_, BUFFER_NUM, n * sizeof(T));
        pipe->InitBuffer(featureQueue_, BUFFER_NUM, n * sizeof(T));
        pipe->InitBuffer(outQueue_, BUFFER_NUM, n * sizeof(T));
        pipe->InitBuffer(maskBuf_, n);
        pipe->InitBuffer(onesBuf_, n * sizeof(C));
        pipe->InitBuffer(factorBuf_, n * sizeof(C));
        if constexpr (!kDirect) {
            pipe->InitBuffer(featureBuf_, n * sizeof(C));
            pipe->InitBuffer(gradBuf_, n * (std::is_same_v<T, int32_t> ? sizeof(int32_t) : sizeof(C)));
        }
        Duplicate(onesBuf_.template Get<C>(), static_cast<C>(1.0f), n);  // the "1" of feature > 0, once a core
    }

    __aicore__ inline void Process() {
        processDataNum_ = tileDataNum_;
        for (uint64_t i = 0; i + 1 < tileNum_; ++i) Step(i);
        processDataNum_ = tailDataNum_;
        if (tileNum_ > 0) Step(tileNum_ - 1);
    }

private:
    __aicore__ inline void Step(uint64_t progress) {
        LocalTensor<T> g = gradQueue_.template AllocTensor<T>();
        LocalTensor<T> f = featureQueue_.template AllocTensor<T>();
        DataCopy(g, gradGm_[progress * tileDataNum_], static_cast<uint32_t>(processDataNum_));
        DataCopy(f, featureGm_[progress * tileDataNum_], static_cast<uint32_t>(processDataNum_));
        gradQueue_.EnQue(g);
        featureQueue_.EnQue(f);
        Compute();
        LocalTensor<T> out = outQueue_.template DeQue<T>();
        DataCopy(outGm_[progress * tileDataNum_], out, static_cast<uint32_t>(processDataNum_));
        outQueue_.FreeTensor(out);
    }

    __aicore__ inline void Compute() {
        LocalTensor<T> g = gradQueue_.template DeQue<T>();
        LocalTensor<T> f = featureQueue_.template DeQue<T>();
        LocalTensor<T> out = outQueue_.template AllocTensor<T>();
        LocalTensor<uint8_t> mask = maskBuf_.template Get<uint8_t>();
        LocalTensor<C> ones = onesBuf_.template Get<C>();
        LocalTensor<C> factor = factorBuf_.template Get<C>();
        const uint32_t n = static_cast<uint32_t>(processDataNum_);
        if constexpr (kDirect) {
            CompareScalar(mask, f, static_cast<C>(0.0f), CMPMODE::GT, n);  // NaN > 0 is false
            Select(factor, mask, ones, static_cast<C>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
            Mul(out, g, factor, n);
        } else {
            LocalTensor<C> feature = featureBuf_.template Get<C>();
            Cast(feature, f, RoundMode::CAST_NONE, n);  // exact, or int32 rounding that keeps the sign
            CompareScalar(mask, feature, static_cast<C>(0.0f), CMPMODE::GT, n);
            Select(factor, mask, ones, static_cast<C>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
            if constexpr (std::is_same_v<T, int32_t>) {
                LocalTensor<int32_t> factorInt = gradBuf_.template Get<int32_t>();
                Cast(factorInt, factor, RoundMode::CAST_TRUNC, n);
                Mul(out, g, factorInt, n);
            } else {
                LocalTensor<C> grad = gradBuf_.template Get<C>();
                Cast(grad, g, RoundMode::CAST_NONE, n);
                Mul(grad, grad, factor, n);
                Cast(out, grad, std::is_same_v<T, bfloat16_t> ? RoundMode::CAST_RINT : RoundMode::CAST_TRUNC, n);
            }
        }
        outQueue_.EnQue(out);
        gradQueue_.FreeTensor(g);
        featureQueue_.FreeTensor(f);
    }

    TQue<TPosition::VECIN, BUFFER_NUM> gradQueue_, featureQueue_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue_;
    TBuf<TPosition::VECCALC> maskBuf_, onesBuf_, factorBuf_, featureBuf_, gradBuf_;
    GlobalTensor<T> gradGm_, featureGm_, outGm_;
    uint64_t coreDataNum_ = 0, tileNum_ = 0, tileDataNum_ = 0, tailDataNum_ = 0, processDataNum_ = 0;
};

}  // namespace opsnn_relu_grad

#endif  // OPSNN_RELU_GRAD_H_
