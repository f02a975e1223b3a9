/* opsnn CPU-debug runtime: AscendC's reductions -- WholeReduceSum/Max/Min, RepeatReduceSum,
 * BlockReduceSum/Max/Min, PairReduceSum, Brcb, ReduceSum/Max/Min with their sharedTmpBuffer, and
 * the special registers they leave results in (GetAccVal, GetReduceRepeatSumSpr,
 * GetReduceRepeatMaxMinSpr, GetReduceMaxMinCount). Each call is one opsnn_kt::Call into the emulator
 * (opsnn/ascendc/reduce.py, reduce_full.py, spr.py), which computes, checks and counts it. */
#ifndef OPSNN_KT_REDUCE_API_H_
#define OPSNN_KT_REDUCE_API_H_

#include <cstdint>

#include "opsnn_kt/instructions.h"

namespace opsnn_kt {
/* A mask/repeat form's mask with isSetMask = false: the one SetVectorMask left in the register. */
struct RegisterMask {};
inline void Pack(Slot &s, RegisterMask) { s.arg = {OPSNN_KT_NONE, nullptr, 0, 0, "registerMask"}; }

template <bool isSetMask> inline auto MaskOrRegister(int64_t mask) {
    if constexpr (isSetMask) {
        return mask;
    } else {
        (void)mask;
        return RegisterMask{};
    }
}
template <bool isSetMask> inline auto MaskOrRegister(const uint64_t mask[]) {
    if constexpr (isSetMask) {
        return MaskPair{mask[0], mask[1]};
    } else {
        (void)mask;
        return RegisterMask{};
    }
}
}  // namespace opsnn_kt

namespace AscendC {

/* ---- one result a repeat ---- */
#define OPSNN_KT_WHOLE_REDUCE(Name, MaskType)                                                                     \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, MaskType mask,              \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, OPSNN_KT_WHERE) {                                     \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime,       \
                       dstRepStride, srcBlkStride, srcRepStride);                                                \
    }
OPSNN_KT_WHOLE_REDUCE(WholeReduceSum, const int32_t)
OPSNN_KT_WHOLE_REDUCE(WholeReduceSum, const uint64_t *)
#undef OPSNN_KT_WHOLE_REDUCE

#define OPSNN_KT_WHOLE_EXTREME(Name, MaskType)                                                                    \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, MaskType mask,              \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,   \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime,       \
                       dstRepStride, srcBlkStride, srcRepStride, order);                                          \
    }
OPSNN_KT_WHOLE_EXTREME(WholeReduceMax, const int32_t)
OPSNN_KT_WHOLE_EXTREME(WholeReduceMax, const uint64_t *)
OPSNN_KT_WHOLE_EXTREME(WholeReduceMin, const int32_t)
OPSNN_KT_WHOLE_EXTREME(WholeReduceMin, const uint64_t *)
#undef OPSNN_KT_WHOLE_EXTREME

/* RepeatReduceSum: WholeReduceSum in another argument order (dstBlkStride is not used on A2) */
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("RepeatReduceSum", OPSNN_KT_AT, dst, src, repeatTime, opsnn_kt::MaskOrRegister<isSetMask>(mask),
                   dstBlkStride, srcBlkStride, dstRepStride, srcRepStride);
}

/* ---- one result a 32-byte block, or a pair of elements ---- */
#define OPSNN_KT_BLOCK_REDUCE(Name, MaskType)                                                                     \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,   \
                                MaskType mask, const int32_t dstRepStride, const int32_t srcBlkStride,            \
                                const int32_t srcRepStride, OPSNN_KT_WHERE) {                                     \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, repeatTime, opsnn_kt::MaskOrRegister<isSetMask>(mask),       \
                       dstRepStride, srcBlkStride, srcRepStride);                                                \
    }
OPSNN_KT_BLOCK_REDUCE(BlockReduceSum, const int32_t)
OPSNN_KT_BLOCK_REDUCE(BlockReduceSum, const uint64_t *)
OPSNN_KT_BLOCK_REDUCE(BlockReduceMax, const int32_t)
OPSNN_KT_BLOCK_REDUCE(BlockReduceMax, const uint64_t *)
OPSNN_KT_BLOCK_REDUCE(BlockReduceMin, const int32_t)
OPSNN_KT_BLOCK_REDUCE(BlockReduceMin, const uint64_t *)
OPSNN_KT_BLOCK_REDUCE(PairReduceSum, const int32_t)
OPSNN_KT_BLOCK_REDUCE(PairReduceSum, const uint64_t *)
#undef OPSNN_KT_BLOCK_REDUCE

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTime,
                            const BrcbRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Brcb", OPSNN_KT_AT, dst, src, repeatTime, p);
}

/* ---- every element to one: the count form and the mask/repeat forms ---- */
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 const LocalTensor<T> &sharedTmpBuffer, const int32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("ReduceSum", OPSNN_KT_AT, dst, src, sharedTmpBuffer, count, isSetMask);
}
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 const LocalTensor<T> &sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("ReduceSum", OPSNN_KT_AT, dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride);
}
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 const LocalTensor<T> &sharedTmpBuffer, const uint64_t mask[],
                                 const int32_t repeatTime, const int32_t srcRepStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("ReduceSum", OPSNN_KT_AT, dst, src, sharedTmpBuffer, opsnn_kt::MaskPair{mask[0], mask[1]},
                   repeatTime, srcRepStride);
}

#define OPSNN_KT_REDUCE_EXTREME(Name)                                                                             \
    template <typename T>                                                                                         \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                             \
                                const LocalTensor<T> &sharedTmpBuffer, const int32_t count, bool calIndex = 0,    \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, sharedTmpBuffer, count, calIndex);                           \
    }                                                                                                             \
    template <typename T>                                                                                         \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                             \
                                const LocalTensor<T> &sharedTmpBuffer, const int32_t mask, const int32_t repeatTime, \
                                const int32_t srcRepStride, bool calIndex = 0, OPSNN_KT_WHERE) {                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex);  \
    }                                                                                                             \
    template <typename T>                                                                                         \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,                             \
                                const LocalTensor<T> &sharedTmpBuffer, const uint64_t mask[],                     \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,          \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, sharedTmpBuffer, opsnn_kt::MaskPair{mask[0], mask[1]},       \
                       repeatTime, srcRepStride, calIndex);                                                       \
    }
OPSNN_KT_REDUCE_EXTREME(ReduceMax)
OPSNN_KT_REDUCE_EXTREME(ReduceMin)
#undef OPSNN_KT_REDUCE_EXTREME

/* ---- the special registers: ACC_VAL (the count-form ReduceSum), MAX_MIN_CNT (max/min reductions) ---- */
__aicore__ inline int64_t GetReduceRepeatSumSpr(OPSNN_KT_WHERE) {
    return opsnn_kt::Call("GetReduceRepeatSumSpr", OPSNN_KT_AT);
}
template <typename T> __aicore__ inline T GetReduceRepeatSumSpr(OPSNN_KT_WHERE) {
    return opsnn_kt::FromBits<T>(opsnn_kt::Call("GetReduceRepeatSumSpr", OPSNN_KT_AT));
}
__aicore__ inline int64_t GetAccVal(OPSNN_KT_WHERE) { return opsnn_kt::Call("GetAccVal", OPSNN_KT_AT); }
template <typename T> __aicore__ inline T GetAccVal(OPSNN_KT_WHERE) {
    return opsnn_kt::FromBits<T>(opsnn_kt::Call("GetAccVal", OPSNN_KT_AT));
}
/* value in the low 32 bits (its type's bits), index in the high 32: as T, or raw */
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T &maxMinValue, T &maxMinIndex, OPSNN_KT_WHERE) {
    uint64_t both = static_cast<uint64_t>(opsnn_kt::Call("GetReduceRepeatMaxMinSpr", OPSNN_KT_AT));
    maxMinValue = opsnn_kt::FromBits<T>(static_cast<int64_t>(both & 0xFFFFFFFFu));
    maxMinIndex = opsnn_kt::FromBits<T>(static_cast<int64_t>(both >> 32));
}
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(uint32_t &maxMinValue, uint32_t &maxMinIndex, OPSNN_KT_WHERE) {
    uint64_t both = static_cast<uint64_t>(opsnn_kt::Call("GetReduceRepeatMaxMinSpr", OPSNN_KT_AT));
    maxMinValue = static_cast<uint32_t>(both & (sizeof(T) == 2 ? 0xFFFFu : 0xFFFFFFFFu));
    maxMinIndex = static_cast<uint32_t>(both >> 32);
}
template <typename T> __aicore__ inline void GetReduceMaxMinCount(T &maxMinValue, T &maxMinIndex, OPSNN_KT_WHERE) {
    GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex, OPSNN_KT_AT);
}
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(uint32_t &maxMinValue, uint32_t &maxMinIndex, OPSNN_KT_WHERE) {
    GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex, OPSNN_KT_AT);
}

}  // namespace AscendC

#endif  // OPSNN_KT_REDUCE_API_H_
