/* opsnn CPU-debug runtime: the AscendC instructions kernels call, each one opsnn_kt::Call into
 * opsnn's Python emulator (which computes, checks and counts it). The names, argument orders and
 * overloads are AscendC's; a call the emulator does not model fails by name when it runs, and a
 * function AscendC has but this header lacks fails to compile by name. */
#ifndef OPSNN_KT_INSTRUCTIONS_H_
#define OPSNN_KT_INSTRUCTIONS_H_

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "opsnn_kt/tensors.h"

/* pipes and event ids are global names on device (the compiler's), as kernels spell them */
enum pipe_t : int32_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5,
                        PIPE_V2, PIPE_FIX };

namespace AscendC {

/* ---- enums and parameter structs (AscendC's names and field orders) ---- */
enum class RoundMode : int32_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD,
                                 CAST_HYBRID, UNKNOWN };
inline const char *EnumName(RoundMode m) {
    static const char *const names[] = {"RoundMode.CAST_NONE", "RoundMode.CAST_RINT", "RoundMode.CAST_FLOOR",
                                        "RoundMode.CAST_CEIL", "RoundMode.CAST_ROUND", "RoundMode.CAST_TRUNC",
                                        "RoundMode.CAST_ODD", "RoundMode.CAST_HYBRID", "RoundMode.UNKNOWN"};
    return names[static_cast<int>(m)];
}
enum class CMPMODE : int32_t { LT = 0, GT, EQ, LE, GE, NE };
inline const char *EnumName(CMPMODE m) {
    static const char *const names[] = {"CMPMODE.LT", "CMPMODE.GT", "CMPMODE.EQ", "CMPMODE.LE", "CMPMODE.GE",
                                        "CMPMODE.NE"};
    return names[static_cast<int>(m)];
}
enum class SELMODE : int32_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
inline const char *EnumName(SELMODE m) {
    static const char *const names[] = {"SELMODE.VSEL_CMPMASK_SPR", "SELMODE.VSEL_TENSOR_SCALAR_MODE",
                                        "SELMODE.VSEL_TENSOR_TENSOR_MODE"};
    return names[static_cast<int>(m)];
}
enum class ReduceOrder : int32_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
inline const char *EnumName(ReduceOrder m) {
    static const char *const names[] = {"ReduceOrder.ORDER_VALUE_INDEX", "ReduceOrder.ORDER_INDEX_VALUE",
                                        "ReduceOrder.ORDER_ONLY_VALUE", "ReduceOrder.ORDER_ONLY_INDEX"};
    return names[static_cast<int>(m)];
}
enum class MaskMode : int32_t { NORMAL = 0, COUNTER };

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    __aicore__ BinaryRepeatParams() = default;
    __aicore__ BinaryRepeatParams(uint8_t d, uint8_t s0, uint8_t s1, uint8_t dr, uint8_t s0r, uint8_t s1r)
        : dstBlkStride(d), src0BlkStride(s0), src1BlkStride(s1), dstRepStride(dr), src0RepStride(s0r),
          src1RepStride(s1r) {}
};
struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    __aicore__ UnaryRepeatParams() = default;
    __aicore__ UnaryRepeatParams(uint16_t d, uint16_t s, uint8_t dr, uint8_t sr)
        : dstBlkStride(d), srcBlkStride(s), dstRepStride(dr), srcRepStride(sr) {}
};
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1, dstRepStride = 8;
    __aicore__ BrcbRepeatParams() = default;
    __aicore__ BrcbRepeatParams(uint16_t d, uint16_t r) : dstBlkStride(d), dstRepStride(r) {}
};
struct CopyRepeatParams {
    uint16_t dstStride = 1, srcStride = 1;
    uint16_t dstRepeatSize = 8, srcRepeatSize = 8;
    __aicore__ CopyRepeatParams() = default;
    __aicore__ CopyRepeatParams(uint16_t d, uint16_t s, uint16_t dr, uint16_t sr)
        : dstStride(d), srcStride(s), dstRepeatSize(dr), srcRepeatSize(sr) {}
};
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
struct TransDataTo5HDParams {
    bool dstHighHalf = false, srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0, srcRepStride = 0;
    __aicore__ TransDataTo5HDParams() = default;
    __aicore__ TransDataTo5HDParams(bool dh, bool sh, uint8_t r, uint16_t dr, uint16_t sr)
        : dstHighHalf(dh), srcHighHalf(sh), repeatTimes(r), dstRepStride(dr), srcRepStride(sr) {}
};
struct DataCopyParams {
    uint16_t blockCount = 1, blockLen = 0, srcStride = 0, dstStride = 0;
    __aicore__ DataCopyParams() = default;
    __aicore__ DataCopyParams(uint16_t c, uint16_t l, uint16_t s, uint16_t d)
        : blockCount(c), blockLen(l), srcStride(s), dstStride(d) {}
};
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0, srcStride = 0, dstStride = 0, rsv = 0;
    __aicore__ DataCopyExtParams() = default;
    __aicore__ DataCopyExtParams(uint16_t c, uint32_t l, uint32_t s, uint32_t d, uint32_t r)
        : blockCount(c), blockLen(l), srcStride(s), dstStride(d), rsv(r) {}
};
template <typename T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0, rightPadding = 0;
    T paddingValue = 0;
    __aicore__ DataCopyPadExtParams() = default;
    __aicore__ DataCopyPadExtParams(bool p, uint8_t l, uint8_t r, T v)
        : isPad(p), leftPadding(l), rightPadding(r), paddingValue(v) {}
};
struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0, rightPadding = 0;
    uint64_t paddingValue = 0;
    __aicore__ DataCopyPadParams() = default;
    __aicore__ DataCopyPadParams(bool p, uint8_t l, uint8_t r, uint64_t v)
        : isPad(p), leftPadding(l), rightPadding(r), paddingValue(v) {}
};

}  // namespace AscendC

namespace opsnn_kt {
inline void Pack(Slot &s, const AscendC::BinaryRepeatParams &p) {
    Pack(s, Fields{"BinaryRepeatParams", 6, {p.dstBlkStride, p.src0BlkStride, p.src1BlkStride, p.dstRepStride,
                                             p.src0RepStride, p.src1RepStride}});
}
inline void Pack(Slot &s, const AscendC::UnaryRepeatParams &p) {
    Pack(s, Fields{"UnaryRepeatParams", 4, {p.dstBlkStride, p.srcBlkStride, p.dstRepStride, p.srcRepStride}});
}
inline void Pack(Slot &s, const AscendC::BrcbRepeatParams &p) {
    Pack(s, Fields{"BrcbRepeatParams", 2, {p.dstBlkStride, p.dstRepStride}});
}
inline void Pack(Slot &s, const AscendC::CopyRepeatParams &p) {
    Pack(s, Fields{"CopyRepeatParams", 4, {p.dstStride, p.srcStride, p.dstRepeatSize, p.srcRepeatSize}});
}
inline void Pack(Slot &s, const AscendC::TransDataTo5HDParams &p) {
    Pack(s, Fields{"TransDataTo5HDParams", 5,
                   {p.dstHighHalf, p.srcHighHalf, p.repeatTimes, p.dstRepStride, p.srcRepStride}});
}
/* TransDataTo5HD's 16 UB addresses (GetPhyAddr values), read in place by the bridge */
struct UbAddrList {
    const uint64_t *addr;
};
inline void Pack(Slot &s, const UbAddrList &l) {
    s.arg = {OPSNN_KT_INTS, nullptr, reinterpret_cast<int64_t>(l.addr), AscendC::NCHW_CONV_ADDR_LIST_SIZE,
             "UbAddrList"};
}
/* an instruction's element type T where no operand carries it (the address-list forms) */
template <typename T> struct TypeTag {};
template <typename T> inline void Pack(Slot &s, TypeTag<T>) { s.arg = {OPSNN_KT_NONE, DTypeOf<T>(), 0, 0, "dtype"}; }
inline void Pack(Slot &s, const AscendC::DataCopyParams &p) {
    Pack(s, Fields{"DataCopyParams", 4, {p.blockCount, p.blockLen, p.srcStride, p.dstStride}});
}
inline void Pack(Slot &s, const AscendC::DataCopyExtParams &p) {
    Pack(s, Fields{"DataCopyExtParams", 5, {p.blockCount, p.blockLen, p.srcStride, p.dstStride, p.rsv}});
}
template <typename T> inline void Pack(Slot &s, const AscendC::DataCopyPadExtParams<T> &p) {
    Pack(s, Fields{"DataCopyPadExtParams", 4, {p.isPad, p.leftPadding, p.rightPadding, ToBits(p.paddingValue)}});
}
inline void Pack(Slot &s, const AscendC::DataCopyPadParams &p) {
    Pack(s, Fields{"DataCopyPadExtParams", 4,
                   {p.isPad, p.leftPadding, p.rightPadding, static_cast<int64_t>(p.paddingValue)}});
}
}  // namespace opsnn_kt

namespace AscendC {

/* ---- cores and pipes ---- */
/* A mixed launch (KernelMode::MIX_MODE) runs GetTaskRation() vector cores per block:
 * GetBlockIdx() = block * ration + GetSubBlockIdx(), GetBlockNum() = the blocks (CANN's numbering). */
__aicore__ inline int64_t GetBlockIdx() { return opsnn_kt_block_idx(); }
__aicore__ inline int64_t GetBlockNum() { return opsnn_kt_block_num(); }
__aicore__ inline int64_t GetTaskRation() { return opsnn_kt_task_ration(); }
__aicore__ inline int64_t GetTaskRatio() { return opsnn_kt_task_ration(); }
__aicore__ inline int64_t GetSubBlockIdx() { return opsnn_kt_block_idx() % opsnn_kt_task_ration(); }
__aicore__ inline int64_t GetSubBlockNum() { return opsnn_kt_task_ration(); }
/* the core type a mixed kernel tests (g_coreType == AscendC::AIC): the emulator's cores are vector cores */
enum CoreType : int32_t { AIC = 0, AIV = 1 };


/* The emulator runs one instruction after another on each core: every barrier already holds. */
template <pipe_t pipe> __aicore__ inline void PipeBarrier() {}
/* the memory a DataSyncBarrier waits on (GM and UB, GM, UB, SEQ): every access is already done */
enum class MemDsbT : uint8_t { ALL, DDR, UB, SEQ };
template <MemDsbT arg0> __aicore__ inline void DataSyncBarrier() {}

template <HardEvent evt> __aicore__ inline void SetFlag(int32_t id, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetFlag", OPSNN_KT_AT, evt, id);
}
template <HardEvent evt> __aicore__ inline void WaitFlag(int32_t id, OPSNN_KT_WHERE) {
    opsnn_kt::Call("WaitFlag", OPSNN_KT_AT, evt, id);
}

/* ---- vector masks ---- */
__aicore__ inline void SetMaskCount(OPSNN_KT_WHERE) { opsnn_kt::Call("SetMaskCount", OPSNN_KT_AT); }
/* The control register's bits [startBit, endBit] (opsnn/ascendc/spr.py: what the emulator models) */
template <int8_t startBit, int8_t endBit> __aicore__ static inline void SetCtrlSpr(int64_t value, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetCtrlSpr", OPSNN_KT_AT, static_cast<int64_t>(startBit), static_cast<int64_t>(endBit), value);
}
template <int8_t startBit, int8_t endBit> __aicore__ static inline int64_t GetCtrlSpr(OPSNN_KT_WHERE) {
    return opsnn_kt::Call("GetCtrlSpr", OPSNN_KT_AT, static_cast<int64_t>(startBit), static_cast<int64_t>(endBit));
}
template <int8_t startBit, int8_t endBit> __aicore__ static inline void ResetCtrlSpr(OPSNN_KT_WHERE) {
    opsnn_kt::Call("ResetCtrlSpr", OPSNN_KT_AT, static_cast<int64_t>(startBit), static_cast<int64_t>(endBit));
}
__aicore__ inline void SetMaskNorm(OPSNN_KT_WHERE) { opsnn_kt::Call("SetMaskNorm", OPSNN_KT_AT); }
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetVectorMask", OPSNN_KT_AT, maskHigh, maskLow);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetVectorMask", OPSNN_KT_AT, len);
}
__aicore__ inline void ResetMask(OPSNN_KT_WHERE) { opsnn_kt::Call("ResetMask", OPSNN_KT_AT); }

/* ---- data movement ---- */
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                                                      uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopy", OPSNN_KT_AT, dst, src, count);
}
template <typename T> __aicore__ inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                                                      uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopy", OPSNN_KT_AT, dst, src, count);
}
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                                      uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopy", OPSNN_KT_AT, dst, src, count);
}
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                                                      const DataCopyParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopy", OPSNN_KT_AT, dst, src, p);
}
template <typename T> __aicore__ inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                                                      const DataCopyParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopy", OPSNN_KT_AT, dst, src, p);
}
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                                      const DataCopyParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopy", OPSNN_KT_AT, dst, src, p);
}
/* Ascend950's DataCopyPad UB layouts: Normal (each burst 32-byte aligned in UB) or Compact (the
 * bursts back to back, the end alone rounded up); the emulator's datacopy_params.py. Every form
 * passes its mode on. */
enum class PaddingMode : uint8_t { Normal = 0, Compact };
inline const char *EnumName(PaddingMode m) {
    return m == PaddingMode::Compact ? "PaddingMode.Compact" : "PaddingMode.Normal";
}
template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                                   const DataCopyPadExtParams<T> &pad, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopyPad", OPSNN_KT_AT, dst, src, p, pad, mode);
}
template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
                                   const DataCopyPadParams &pad, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopyPad", OPSNN_KT_AT, dst, src, p, pad, mode);
}
template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p,
                                   OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopyPad", OPSNN_KT_AT, dst, src, p, mode);
}
template <typename T, PaddingMode mode = PaddingMode::Normal>
__aicore__ inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                                   OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCopyPad", OPSNN_KT_AT, dst, src, p, mode);
}

/* Ascend950's loop mode around the burst copies (the emulator's datacopy_params.SetLoopModePara) */
enum class DataCopyMVType : uint8_t { UB_TO_OUT = 0, OUT_TO_UB = 1 };
inline const char *EnumName(DataCopyMVType t) {
    return t == DataCopyMVType::UB_TO_OUT ? "DataCopyMVType.UB_TO_OUT" : "DataCopyMVType.OUT_TO_UB";
}
struct LoopModeParams {
    uint32_t loop1Size = 0, loop2Size = 0;
    uint64_t loop1SrcStride = 0, loop1DstStride = 0, loop2SrcStride = 0, loop2DstStride = 0;
    __aicore__ LoopModeParams() = default;
    __aicore__ LoopModeParams(uint32_t l1, uint32_t l2, uint64_t s1, uint64_t d1, uint64_t s2, uint64_t d2)
        : loop1Size(l1), loop2Size(l2), loop1SrcStride(s1), loop1DstStride(d1), loop2SrcStride(s2),
          loop2DstStride(d2) {}
};
}  // namespace AscendC
namespace opsnn_kt {
inline void Pack(Slot &s, const AscendC::LoopModeParams &p) {
    Pack(s, Fields{"LoopModeParams", 6,
                   {p.loop1Size, p.loop2Size, static_cast<int64_t>(p.loop1SrcStride),
                    static_cast<int64_t>(p.loop1DstStride), static_cast<int64_t>(p.loop2SrcStride),
                    static_cast<int64_t>(p.loop2DstStride)}});
}
}  // namespace opsnn_kt
namespace AscendC {
__aicore__ inline void SetLoopModePara(const LoopModeParams &loopParams, DataCopyMVType type, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetLoopModePara", OPSNN_KT_AT, loopParams, type);
}
__aicore__ inline void ResetLoopModePara(DataCopyMVType type, OPSNN_KT_WHERE) {
    opsnn_kt::Call("ResetLoopModePara", OPSNN_KT_AT, type);
}

/* Ascend950's multi-dimensional DMA (NDDMA): DataCopy<T, dim, config>(dst, src, NdDmaParams),
 * index 0 the lowest dimension (the emulator's datacopy_pad.DataCopyNdDma) */
struct NdDmaConfig {
    static constexpr uint16_t unsetPad = 0xffff;
    bool isNearestValueMode = false;
    uint16_t loopLpSize = unsetPad;  // when set: every dimension's left padding
    uint16_t loopRpSize = unsetPad;  // when set: every dimension's right padding
    bool ascOptimize = false;
};
using MultiCopyConfig = NdDmaConfig;
constexpr NdDmaConfig kDefaultNdDmaConfig = {false, NdDmaConfig::unsetPad, NdDmaConfig::unsetPad, false};
constexpr NdDmaConfig kDefaultMultiCopyConfig = kDefaultNdDmaConfig;
template <uint8_t dim> struct MultiCopyLoopInfo {
    static_assert(dim >= 1 && dim <= 5, "MultiCopy Dims must be between 1 and 5.");
    uint64_t loopSrcStride[dim] = {0};
    uint32_t loopDstStride[dim] = {0};
    uint32_t loopSize[dim] = {0};
    uint8_t loopLpSize[dim] = {0};
    uint8_t loopRpSize[dim] = {0};
};
template <uint8_t dim> using NdDmaLoopInfo = MultiCopyLoopInfo<dim>;
template <typename T, uint8_t dim> struct MultiCopyParams {
    MultiCopyLoopInfo<dim> loopInfo;
    T constantValue;
};
template <typename T, uint8_t dim> using NdDmaParams = MultiCopyParams<T, dim>;
/* The NDDMA cache refresh: the emulator's DMA has no cache. */
__aicore__ inline void NdDmaDci() {}
namespace detail {
template <uint8_t dim, typename V> inline opsnn_kt::Fields NdDmaShape(const V (&values)[dim], uint16_t all) {
    opsnn_kt::Fields f{"Shape", dim, {}};
    for (int i = 0; i < dim; ++i) f.v[i] = all == NdDmaConfig::unsetPad ? static_cast<int64_t>(values[i]) : all;
    return f;
}
}  // namespace detail
template <typename T, uint8_t dim, const NdDmaConfig &config = kDefaultNdDmaConfig>
__aicore__ inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                                const MultiCopyParams<T, dim> &params, OPSNN_KT_WHERE) {
    const MultiCopyLoopInfo<dim> &l = params.loopInfo;
    constexpr uint16_t unset = NdDmaConfig::unsetPad;
    opsnn_kt::Call("DataCopyNdDma", OPSNN_KT_AT, dst, src, detail::NdDmaShape<dim>(l.loopSize, unset),
                   detail::NdDmaShape<dim>(l.loopSrcStride, unset), detail::NdDmaShape<dim>(l.loopDstStride, unset),
                   detail::NdDmaShape<dim>(l.loopLpSize, config.loopLpSize),
                   detail::NdDmaShape<dim>(l.loopRpSize, config.loopRpSize), params.constantValue,
                   config.isNearestValueMode);
}

/* UB -> UB: the basic Transpose (one 16 x 16 block of 2-byte elements), Copy (mask/repeat forms;
 * Ascend950's count form) and TransDataTo5HD */
template <typename T> __aicore__ inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                                       OPSNN_KT_WHERE) {
    opsnn_kt::Call("Transpose", OPSNN_KT_AT, dst, src);
}
/* Ascend950's count-form (De)Interleave of LocalTensors (opsnn/ascendc/interleave.py) */
template <typename T>
__aicore__ inline void Interleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src0,
                                  const LocalTensor<T> &src1, const int32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Interleave", OPSNN_KT_AT, dst0, dst1, src0, src1, static_cast<int64_t>(count));
}
template <typename T>
__aicore__ inline void DeInterleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src0,
                                    const LocalTensor<T> &src1, const int32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DeInterleave", OPSNN_KT_AT, dst0, dst1, src0, src1, static_cast<int64_t>(count));
}
template <typename T>
__aicore__ inline void DeInterleave(const LocalTensor<T> &dst0, const LocalTensor<T> &dst1, const LocalTensor<T> &src,
                                    const int32_t srcCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DeInterleave", OPSNN_KT_AT, dst0, dst1, src, static_cast<int64_t>(srcCount));
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                            OPSNN_KT_WHERE) {
    opsnn_kt::Call("Copy", OPSNN_KT_AT, dst, src, count);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,
                            const uint8_t repeatTimes, const CopyRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Copy", OPSNN_KT_AT, dst, src, mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],
                            const uint8_t repeatTimes, const CopyRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Copy", OPSNN_KT_AT, dst, src, opsnn_kt::MaskPair{mask[0], mask[1]}, repeatTimes, p,
                   opsnn_kt::SetMaskFlag{isSetMask});
}
template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams &p,
                                      OPSNN_KT_WHERE) {
    opsnn_kt::Call("TransDataTo5HD", OPSNN_KT_AT, opsnn_kt::UbAddrList{dstList}, opsnn_kt::UbAddrList{srcList}, p,
                   opsnn_kt::TypeTag<T>{});
}
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams &p, OPSNN_KT_WHERE) {
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE], src[NCHW_CONV_ADDR_LIST_SIZE];
    for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dst[i] = dstList[i].GetPhyAddr(OPSNN_KT_AT);
        src[i] = srcList[i].GetPhyAddr(OPSNN_KT_AT);
    }
    TransDataTo5HD<T>(dst, src, p, OPSNN_KT_AT);
}
/* The implementation-level names kernels also call directly: the 16 UB addresses as typed
 * `__ubuf__ T*` (GetPhyAddr values moved by pointer arithmetic) or as uint64_t. */
template <typename T>
__aicore__ inline void TransDataTo5HDImpl(__ubuf__ T *dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                          __ubuf__ T *srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                          const TransDataTo5HDParams &p, OPSNN_KT_WHERE) {
    uint64_t dst[NCHW_CONV_ADDR_LIST_SIZE], src[NCHW_CONV_ADDR_LIST_SIZE];
    for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dst[i] = reinterpret_cast<uint64_t>(dstList[i]);
        src[i] = reinterpret_cast<uint64_t>(srcList[i]);
    }
    TransDataTo5HD<T>(dst, src, p, OPSNN_KT_AT);
}
template <typename T>
__aicore__ inline void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                          uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams &p,
                                          OPSNN_KT_WHERE) {
    TransDataTo5HD<T>(dstList, srcList, p, OPSNN_KT_AT);
}

/* ---- vector instructions: count forms and mask/repeat forms ---- */
#define OPSNN_KT_BINARY(Name)                                                                                     \
    template <typename T>                                                                                         \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,   \
                                const int32_t &count, OPSNN_KT_WHERE) {                                           \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src0, src1, count);                                               \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,   \
                                uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &p,           \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src0, src1, mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});                     \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,   \
                                const uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams &p,   \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src0, src1, opsnn_kt::MaskPair{mask[0], mask[1]}, repeatTimes, p, \
                       opsnn_kt::SetMaskFlag{isSetMask});                                                                                \
    }
/* Kernels also take these instructions' addresses with AscendC's exact types (upstream's foreach
 * operators pass `Mul` as a `void (*)(const LocalTensor<T>&, ..., const int32_t&)` template argument),
 * which the forms above, with their trailing source-location parameters, do not have. The
 * overloads below have exactly AscendC's parameters and a trailing empty pack: a call picks the
 * forms above (more specialised in g++'s partial ordering), a conversion to AscendC's function type
 * picks these. What runs through such a pointer is reported at the pointer's, not the caller's, line
 * (left out for clang, whose partial ordering may find a call ambiguous). */
#if !defined(__clang__)
#define OPSNN_KT_POINTER_FILE(Name) "(a call through a pointer to AscendC::" #Name ")"
#define OPSNN_KT_BINARY_POINTER(Name)                                                                             \
    template <typename T, typename... None, typename = std::enable_if_t<sizeof...(None) == 0>>                                                                       \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,   \
                                const int32_t &count, None...) {                                                  \
        Name<T>(dst, src0, src1, count, OPSNN_KT_POINTER_FILE(Name), 0);                                          \
    }                                                                                                             \
    template <typename T, bool isSetMask = true, typename... None, typename = std::enable_if_t<sizeof...(None) == 0>>                                                \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,   \
                                uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &p, None...) { \
        Name<T, isSetMask>(dst, src0, src1, mask, repeatTimes, p, OPSNN_KT_POINTER_FILE(Name), 0);               \
    }
#else
#define OPSNN_KT_BINARY_POINTER(Name)
#endif
#define OPSNN_KT_BINARY_ALL(Name) OPSNN_KT_BINARY(Name) OPSNN_KT_BINARY_POINTER(Name)
OPSNN_KT_BINARY_ALL(Add)
OPSNN_KT_BINARY_ALL(Sub)
OPSNN_KT_BINARY_ALL(Mul)
OPSNN_KT_BINARY_ALL(Div)
OPSNN_KT_BINARY_ALL(Max)
OPSNN_KT_BINARY_ALL(Min)
OPSNN_KT_BINARY_ALL(And)
OPSNN_KT_BINARY_ALL(Or)
#undef OPSNN_KT_BINARY_ALL
#undef OPSNN_KT_BINARY_POINTER
#undef OPSNN_KT_BINARY

#define OPSNN_KT_UNARY(Name)                                                                                      \
    template <typename T>                                                                                         \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count,       \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, count);                                                      \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,              \
                                const uint8_t repeatTimes, const UnaryRepeatParams &p, OPSNN_KT_WHERE) {          \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});                            \
    }                                                                                                             \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],      \
                                const uint8_t repeatTimes, const UnaryRepeatParams &p, OPSNN_KT_WHERE) {          \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, opsnn_kt::MaskPair{mask[0], mask[1]}, repeatTimes, p,        \
                       opsnn_kt::SetMaskFlag{isSetMask});                                                                                \
    }
#if !defined(__clang__)
#define OPSNN_KT_UNARY_POINTER(Name)                                                                              \
    template <typename T, typename... None, typename = std::enable_if_t<sizeof...(None) == 0>>                                                                       \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count,       \
                                None...) {                                                                        \
        Name<T>(dst, src, count, OPSNN_KT_POINTER_FILE(Name), 0);                                                 \
    }                                                                                                             \
    template <typename T, bool isSetMask = true, typename... None, typename = std::enable_if_t<sizeof...(None) == 0>>                                                \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,              \
                                const uint8_t repeatTimes, const UnaryRepeatParams &p, None...) {                 \
        Name<T, isSetMask>(dst, src, mask, repeatTimes, p, OPSNN_KT_POINTER_FILE(Name), 0);                       \
    }
#else
#define OPSNN_KT_UNARY_POINTER(Name)
#endif
#define OPSNN_KT_UNARY_ALL(Name) OPSNN_KT_UNARY(Name) OPSNN_KT_UNARY_POINTER(Name)
OPSNN_KT_UNARY_ALL(Abs)
OPSNN_KT_UNARY_ALL(Exp)
OPSNN_KT_UNARY_ALL(Ln)
OPSNN_KT_UNARY_ALL(Sqrt)
OPSNN_KT_UNARY_ALL(Rsqrt)
OPSNN_KT_UNARY_ALL(Reciprocal)
OPSNN_KT_UNARY_ALL(Relu)
OPSNN_KT_UNARY_ALL(Not)
#undef OPSNN_KT_UNARY_ALL
#undef OPSNN_KT_UNARY_POINTER
#undef OPSNN_KT_POINTER_FILE
#undef OPSNN_KT_UNARY

/* scalar forms: the scalar is converted to the tensor's type here, as the call would on device */
#define OPSNN_KT_SCALAR(Name)                                                                                     \
    template <typename T, typename U>                                                                             \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar,            \
                                const int32_t &count, OPSNN_KT_WHERE) {                                           \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, static_cast<T>(scalar), count);                              \
    }                                                                                                             \
    template <typename T, bool isSetMask = true, typename U>                                                      \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar,            \
                                uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams &p,             \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, static_cast<T>(scalar), mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});    \
    }                                                                                                             \
    template <typename T, bool isSetMask = true, typename U>                                                      \
    __aicore__ inline void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, const U &scalar,            \
                                const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams &p,     \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dst, src, static_cast<T>(scalar), opsnn_kt::MaskPair{mask[0], mask[1]}, \
                       repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});                                                                \
    }
OPSNN_KT_SCALAR(Adds)
OPSNN_KT_SCALAR(Muls)
OPSNN_KT_SCALAR(Maxs)
OPSNN_KT_SCALAR(Mins)
OPSNN_KT_SCALAR(LeakyRelu)
OPSNN_KT_SCALAR(ShiftLeft)
OPSNN_KT_SCALAR(ShiftRight)
OPSNN_KT_SCALAR(Divs)
#undef OPSNN_KT_SCALAR
/* Ascend950's Divs with the scalar first: dst = scalar / src */
template <typename T, typename U, typename = std::enable_if_t<!std::is_same_v<U, LocalTensor<T>>>>
__aicore__ inline void Divs(const LocalTensor<T> &dst, const U &scalar, const LocalTensor<T> &src,
                            const int32_t &count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Divs", OPSNN_KT_AT, dst, static_cast<T>(scalar), src, count);
}

template <typename T, typename U>
__aicore__ inline void Duplicate(const LocalTensor<T> &dst, const U &scalar, const int32_t &count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Duplicate", OPSNN_KT_AT, dst, static_cast<T>(scalar), count);
}
/* Duplicate's mask/repeat forms: opsnn_kt/math_api.h */

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &mode,
                            const uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Cast", OPSNN_KT_AT, dst, src, mode, count);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &mode, uint64_t mask,
                            const uint8_t repeatTimes, const UnaryRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Cast", OPSNN_KT_AT, dst, src, mode, mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});
}

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                               CMPMODE mode, uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Compare", OPSNN_KT_AT, dst, src0, src1, mode, count);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                               CMPMODE mode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams &p,
                               OPSNN_KT_WHERE) {
    opsnn_kt::Call("Compare", OPSNN_KT_AT, dst, src0, src1, mode, mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});
}
template <typename T, typename U, typename S>
__aicore__ inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar,
                                     CMPMODE mode, uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("CompareScalar", OPSNN_KT_AT, dst, src0, static_cast<T>(scalar), mode, count);
}
template <typename T, typename U, typename S>
__aicore__ inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar, CMPMODE mode,
                                uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Compares", OPSNN_KT_AT, dst, src0, static_cast<T>(scalar), mode, count);
}
template <typename T, typename U, typename S, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar, CMPMODE mode,
                                uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Compares", OPSNN_KT_AT, dst, src0, static_cast<T>(scalar), mode, mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});
}

template <typename T, typename U, typename S>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              const S &scalar, SELMODE mode, uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Select", OPSNN_KT_AT, dst, selMask, src0, static_cast<T>(scalar), mode, count);
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              const LocalTensor<T> &src1, SELMODE mode, uint32_t count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Select", OPSNN_KT_AT, dst, selMask, src0, src1, mode, count);
}
template <typename T, typename U, typename S, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              const S &scalar, SELMODE mode, uint64_t mask, uint8_t repeatTimes,
                              const BinaryRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Select", OPSNN_KT_AT, dst, selMask, src0, static_cast<T>(scalar), mode, mask, repeatTimes, p,
                   opsnn_kt::SetMaskFlag{isSetMask});
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                              const LocalTensor<T> &src1, SELMODE mode, uint64_t mask, uint8_t repeatTimes,
                              const BinaryRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Select", OPSNN_KT_AT, dst, selMask, src0, src1, mode, mask, repeatTimes, p, opsnn_kt::SetMaskFlag{isSetMask});
}

/* reductions, Brcb and their special registers: opsnn_kt/reduce_api.h */

/* ---- kernel-side checks ---- */
inline void KtAssert(bool ok, const char *text, const char *file, int line) {
    if (!ok) opsnn_kt_fail(text, file, line);
}

}  // namespace AscendC

/* g_coreType: the core a kernel runs on (a vector core: cube and mixed kernels are not modelled) */
constexpr AscendC::CoreType g_coreType = AscendC::AIV;

#ifndef ASSERT
#define ASSERT(cond) ::AscendC::KtAssert(static_cast<bool>(cond), "ASSERT(" #cond ") failed", __FILE__, __LINE__)
#endif
/* ASSERT with a printf-style message (printed when the assertion fails), and ascendc_assert, its
 * newer spelling */
#ifndef ASSERT_MSG
#define ASSERT_MSG(cond, ...)                                                                                      \
    do {                                                                                                           \
        if (!(cond)) {                                                                                             \
            std::fprintf(stderr, __VA_ARGS__);                                                                     \
            std::fprintf(stderr, "\n");                                                                            \
            ::AscendC::KtAssert(false, "ASSERT_MSG(" #cond ") failed", __FILE__, __LINE__);                       \
        }                                                                                                          \
    } while (0)
#endif
#ifndef ascendc_assert
#define ascendc_assert(cond, ...) ASSERT_MSG(cond, "" __VA_ARGS__)
#endif
/* an instruction-prefetch hint (the emulator has no instruction cache) */
#ifndef PRELOAD
#define PRELOAD(n) ((void)(n))
#endif

#endif  // OPSNN_KT_INSTRUCTIONS_H_
