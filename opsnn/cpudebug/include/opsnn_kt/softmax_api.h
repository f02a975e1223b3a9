/* opsnn CPU-debug runtime: AscendC's SoftMax family (ND): SoftMax, SimpleSoftMax, SoftmaxGrad,
 * SoftmaxGradFront, with SoftMaxShapeInfo and SoftmaxConfig; one emulator call each
 * (opsnn/ascendc/softmax.py). NZ layouts (isDataFormatNZ) are refused at compile time. */
#ifndef OPSNN_KT_SOFTMAX_API_H_
#define OPSNN_KT_SOFTMAX_API_H_

#include <cstdint>

#include "opsnn_kt/reduce_api.h"
#include "opsnn_kt/softmax_tiling.h"

namespace AscendC {

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                                       const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};

}  // namespace AscendC

namespace opsnn_kt {
/* the fields the values depend on; the split fields only say how the device passes through UB */
inline void Pack(Slot &s, const SoftMaxTiling &t) { Pack(s, Fields{"SoftMaxTiling", 3, {t.srcM, t.srcK, t.srcSize}}); }
inline void Pack(Slot &s, const AscendC::SoftMaxShapeInfo &i) {
    Pack(s, Fields{"SoftMaxShapeInfo", 4, {i.srcM, i.srcK, i.oriSrcM, i.oriSrcK}});
}
template <bool isDataFormatNZ> constexpr void CheckNd() {
    static_assert(!isDataFormatNZ, "opsnn: the SoftMax APIs' NZ layout (isDataFormatNZ) is not modelled");
}
}  // namespace opsnn_kt

namespace AscendC {

#define OPSNN_KT_SOFTMAX_TEMPLATE                                                                                 \
    template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,     \
              const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
OPSNN_KT_SOFTMAX_TEMPLATE
__aicore__ inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                               const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                               const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                               OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftMax", OPSNN_KT_AT, dstTensor, sumTensor, maxTensor, srcTensor, tiling, softmaxShapeInfo);
}
OPSNN_KT_SOFTMAX_TEMPLATE
__aicore__ inline void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                               const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                               const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                               OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftMax", OPSNN_KT_AT, dstTensor, sumTensor, maxTensor, srcTensor, tiling, softmaxShapeInfo);
}
OPSNN_KT_SOFTMAX_TEMPLATE
__aicore__ inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                               const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                               const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                               const SoftMaxShapeInfo &softmaxShapeInfo = {}, OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftMax", OPSNN_KT_AT, dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer, tiling,
                   softmaxShapeInfo);
}
OPSNN_KT_SOFTMAX_TEMPLATE
__aicore__ inline void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                               const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                               const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                               const SoftMaxShapeInfo &softmaxShapeInfo = {}, OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftMax", OPSNN_KT_AT, dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer, tiling,
                   softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                               OPSNN_KT_WHERE) {
    opsnn_kt::Call("SoftMax", OPSNN_KT_AT, dstTensor, srcTensor, tiling, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                               const SoftMaxShapeInfo &softmaxShapeInfo = {}, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SoftMax", OPSNN_KT_AT, dstTensor, srcTensor, sharedTmpBuffer, tiling, softmaxShapeInfo);
}

template <typename T1, typename T2, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T1> &dstTensor, const LocalTensor<T2> &sumTensor,
                                     const LocalTensor<T2> &maxTensor, const LocalTensor<T1> &srcTensor,
                                     const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                                     OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SimpleSoftMax", OPSNN_KT_AT, dstTensor, sumTensor, maxTensor, srcTensor, tiling,
                   softmaxShapeInfo);
}
template <typename T1, typename T2, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T1> &dstTensor, const LocalTensor<T2> &sumTensor,
                                     const LocalTensor<T2> &maxTensor, const LocalTensor<T1> &srcTensor,
                                     const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                                     const SoftMaxShapeInfo &softmaxShapeInfo = {}, OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SimpleSoftMax", OPSNN_KT_AT, dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer,
                   tiling, softmaxShapeInfo);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                                   const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling, bool isFront = false,
                                   const SoftMaxShapeInfo &softmaxShapeInfo = {}, OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftmaxGrad", OPSNN_KT_AT, dstTensor, gradTensor, srcTensor, tiling, isFront, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                                   const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                   const SoftMaxTiling &tiling, bool isFront = false,
                                   const SoftMaxShapeInfo &softmaxShapeInfo = {}, OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftmaxGrad", OPSNN_KT_AT, dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, isFront,
                   softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                                        const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                                        const SoftMaxShapeInfo &softmaxShapeInfo = {}, OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftmaxGradFront", OPSNN_KT_AT, dstTensor, gradTensor, srcTensor, tiling, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                                        const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                        const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                                        OPSNN_KT_WHERE) {
    opsnn_kt::CheckNd<isDataFormatNZ>();
    opsnn_kt::Call("SoftmaxGradFront", OPSNN_KT_AT, dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling,
                   softmaxShapeInfo);
}
#undef OPSNN_KT_SOFTMAX_TEMPLATE

}  // namespace AscendC

#endif  // OPSNN_KT_SOFTMAX_API_H_
