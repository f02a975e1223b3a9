/* opsnn CPU-debug runtime: AscendC's gathers and index sequences -- Gather, Gatherb, GatherMask
 * (GetGatherMaskRemainCount), CreateVecIndex and the high-level ArithProgression, each one call
 * into the emulator (opsnn/ascendc/gather.py, gather_mask.py, vec_index.py). */
#ifndef OPSNN_KT_GATHER_API_H_
#define OPSNN_KT_GATHER_API_H_

#include <cstdint>

#include "opsnn_kt/reduce_api.h"

namespace AscendC {

struct GatherRepeatParams {
    __aicore__ GatherRepeatParams() {}
    __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1, src1BlkStride = 1, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
/* Atlas A2's default (both spellings AscendC has) */
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;
constexpr GatherMaskMode defaultGahterMaskMode = GatherMaskMode::VERSION_V2;

struct GatherMaskParams {
    __aicore__ GatherMaskParams() {}
    __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                                const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};

}  // namespace AscendC

namespace opsnn_kt {
inline void Pack(Slot &s, const AscendC::GatherRepeatParams &p) {
    Pack(s, Fields{"GatherRepeatParams", 2, {p.dstBlkStride, p.dstRepStride}});
}
inline void Pack(Slot &s, const AscendC::GatherMaskParams &p) {
    Pack(s, Fields{"GatherMaskParams", 4, {p.src0BlockStride, p.repeatTimes, p.src0RepeatStride, p.src1RepeatStride}});
}
}  // namespace opsnn_kt

namespace AscendC {

/* ---- Scatter (Ascend950, the count form): src[i] to the byte dstBaseAddr + dstOffset[i] of dst ---- */
template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                               const LocalTensor<uint32_t> &dstOffset, const uint32_t dstBaseAddr, const uint32_t count,
                               OPSNN_KT_WHERE) {
    opsnn_kt::Call("Scatter", OPSNN_KT_AT, dst, src, dstOffset, dstBaseAddr, count);
}

/* ---- Gather: elements at byte offsets (a uint32 tensor) from src + srcBaseAddr ---- */
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                              const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr, const uint32_t count,
                              OPSNN_KT_WHERE) {
    opsnn_kt::Call("Gather", OPSNN_KT_AT, dst, src, srcOffset, srcBaseAddr, count);
}
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                              const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr, const uint64_t mask,
                              const uint8_t repeatTime, const uint16_t dstRepStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Gather", OPSNN_KT_AT, dst, src, srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride);
}
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                              const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
                              const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride,
                              OPSNN_KT_WHERE) {
    opsnn_kt::Call("Gather", OPSNN_KT_AT, dst, src, srcOffset, srcBaseAddr, opsnn_kt::MaskPair{mask[0], mask[1]},
                   repeatTime, dstRepStride);
}
/* Gatherb: 32-byte blocks at byte offsets from src0 */
template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                               const LocalTensor<uint32_t> &offset, const uint8_t repeatTime,
                               const GatherRepeatParams &repeatParams, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Gatherb", OPSNN_KT_AT, dst, src0, offset, repeatTime, repeatParams);
}

/* ---- GatherMask: the elements a pattern selects, packed; rsvdCnt = how many ---- */
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                                  const LocalTensor<U> &src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams &gatherMaskParams, uint64_t &rsvdCnt, OPSNN_KT_WHERE) {
    static_assert(mode == GatherMaskMode::VERSION_V2, "opsnn: GatherMaskMode::VERSION_V1 is not Atlas A2's");
    rsvdCnt = static_cast<uint64_t>(
        opsnn_kt::Call("GatherMask", OPSNN_KT_AT, dst, src0, src1Pattern, reduceMode, mask, gatherMaskParams));
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                                  uint64_t &rsvdCnt, OPSNN_KT_WHERE) {
    static_assert(mode == GatherMaskMode::VERSION_V2, "opsnn: GatherMaskMode::VERSION_V1 is not Atlas A2's");
    rsvdCnt = static_cast<uint64_t>(opsnn_kt::Call("GatherMask", OPSNN_KT_AT, dst, src0, src1Pattern, reduceMode,
                                                   mask, gatherMaskParams));
}
__aicore__ inline int64_t GetGatherMaskRemainCount(OPSNN_KT_WHERE) {
    return opsnn_kt::Call("GetGatherMaskRemainCount", OPSNN_KT_AT);
}

/* ---- index sequences ---- */
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dst, const T &firstValue, uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("CreateVecIndex", OPSNN_KT_AT, dst, firstValue, count);
}
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> &dst, const T &firstValue, uint64_t mask, uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("CreateVecIndex", OPSNN_KT_AT, dst, firstValue, mask, repeatTime, dstBlkStride, dstRepStride);
}
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> &dst, const T &firstValue, uint64_t mask[], uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("CreateVecIndex", OPSNN_KT_AT, dst, firstValue, opsnn_kt::MaskPair{mask[0], mask[1]}, repeatTime,
                   dstBlkStride, dstRepStride);
}
template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T> &dstLocal, const T firstValue, const T diffValue,
                                        const int32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("ArithProgression", OPSNN_KT_AT, dstLocal, firstValue, diffValue, count);
}

}  // namespace AscendC

#endif  // OPSNN_KT_GATHER_API_H_
