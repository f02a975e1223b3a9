/* opsnn CPU-debug runtime: AscendC::MicroAPI's reductions inside one register -- Reduce<ReduceType>
 * (ReduceSum / ReduceMax / ReduceMin: the active lanes to lane 0, MAX / MIN's index to lane 1) and
 * ReduceDataBlock<ReduceType> (ReduceSum/Max/MinWithDataBlock: each 32-byte block to one lane),
 * with AscendC's template parameters. Each is one emulator call (opsnn/ascendc/micro_reduce.py:
 * the pairwise tree, the NaN / empty-mask / +-0 rules). Included by opsnn_kt/micro_api.h. */
#ifndef OPSNN_KT_MICRO_REDUCE_H_
#define OPSNN_KT_MICRO_REDUCE_H_

#include <cstdint>

namespace AscendC {

enum class ReduceType : int32_t { SUM = 0, MAX, MIN };

namespace MicroAPI {

using AscendC::ReduceType;

namespace detail {
template <ReduceType type, bool perBlock> constexpr const char *ReduceCallName() {
    if constexpr (perBlock) {
        return type == ReduceType::SUM   ? "MicroAPI.ReduceSumWithDataBlock"
               : type == ReduceType::MAX ? "MicroAPI.ReduceMaxWithDataBlock"
                                         : "MicroAPI.ReduceMinWithDataBlock";
    } else {
        return type == ReduceType::SUM ? "MicroAPI.ReduceSum" : type == ReduceType::MAX ? "MicroAPI.ReduceMax"
                                                                                         : "MicroAPI.ReduceMin";
    }
}
template <ReduceType type, bool perBlock, MaskMergeMode mode, typename S, typename V>
inline void ReduceCall(S &dstReg, const V &srcReg, const MaskReg &mask, const char *file, int line) {
    static_assert(mode == MaskMergeMode::ZEROING, "opsnn: MicroAPI reductions take MaskMergeMode::ZEROING only "
                                                  "(as AscendC's Ascend950 ones)");
    dstReg.handle_ = opsnn_kt::Call(ReduceCallName<type, perBlock>(), file, line, Out(dstReg), In(srcReg), In(mask),
                                    mode);
}
}  // namespace detail

/* SUM: (dst, src) one type, or (int32, int16) / (uint32, uint16); MAX / MIN: one type */
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void Reduce(S &dstReg, const V &srcReg, const MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    detail::CheckType<U, V>();
    detail::ReduceCall<type, false, mode>(dstReg, srcReg, mask, OPSNN_KT_AT);
}

template <ReduceType type = ReduceType::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U>
__aicore__ inline void ReduceDataBlock(U &dstReg, const U &srcReg, const MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, U>();
    detail::ReduceCall<type, true, mode>(dstReg, srcReg, mask, OPSNN_KT_AT);
}
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void ReduceDataBlock(S &dstReg, const V &srcReg, const MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    detail::CheckType<U, V>();
    detail::ReduceCall<type, true, mode>(dstReg, srcReg, mask, OPSNN_KT_AT);
}

/* the older names of the same instructions */
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, typename V>
__aicore__ inline void ReduceSum(S &dstReg, const V &srcReg, const MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    detail::CheckType<U, V>();
    detail::ReduceCall<ReduceType::SUM, false, mode>(dstReg, srcReg, mask, OPSNN_KT_AT);
}
#define OPSNN_KT_MICRO_NAMED_REDUCE(Name, type, perBlock)                                                     \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>               \
    __aicore__ inline void Name(U &dstReg, const U &srcReg, const MaskReg &mask, OPSNN_KT_WHERE) {            \
        detail::CheckType<T, U>();                                                                             \
        detail::ReduceCall<type, perBlock, mode>(dstReg, srcReg, mask, OPSNN_KT_AT);                          \
    }
OPSNN_KT_MICRO_NAMED_REDUCE(ReduceMax, ReduceType::MAX, false)
OPSNN_KT_MICRO_NAMED_REDUCE(ReduceMin, ReduceType::MIN, false)
OPSNN_KT_MICRO_NAMED_REDUCE(ReduceSumWithDataBlock, ReduceType::SUM, true)
OPSNN_KT_MICRO_NAMED_REDUCE(ReduceMaxWithDataBlock, ReduceType::MAX, true)
OPSNN_KT_MICRO_NAMED_REDUCE(ReduceMinWithDataBlock, ReduceType::MIN, true)
#undef OPSNN_KT_MICRO_NAMED_REDUCE

}  // namespace MicroAPI
}  // namespace AscendC

#endif  // OPSNN_KT_MICRO_REDUCE_H_
