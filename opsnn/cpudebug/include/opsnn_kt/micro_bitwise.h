/* opsnn CPU-debug runtime: AscendC::MicroAPI's bit operations on integer lanes -- And, Or, Xor,
 * Not, ShiftLefts, ShiftRights (by a scalar), ShiftLeft, ShiftRight (by a register) -- with AscendC's template parameters; each one emulator call
 * (opsnn/ascendc/micro_bitwise.py: 8/16/32-bit lanes, the shift in 0 .. bits - 1). A kernel may see
 * a float register as integer lanes ((RegTensor<uint32_t>&)reg): the register is a handle, the
 * call names the type it sees. Included by opsnn_kt/micro_api.h. */
#ifndef OPSNN_KT_MICRO_BITWISE_H_
#define OPSNN_KT_MICRO_BITWISE_H_

#include <cstdint>

namespace AscendC {
namespace MicroAPI {

#define OPSNN_KT_MICRO_BITWISE(Name)                                                                           \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>               \
    __aicore__ inline void Name(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {           \
        detail::CheckType<T, U>();                                                                             \
        dstReg.handle_ = opsnn_kt::Call("MicroAPI." #Name, OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg0), \
                                        detail::In(srcReg1), detail::In(mask), mode);                          \
    }
OPSNN_KT_MICRO_BITWISE(And)
OPSNN_KT_MICRO_BITWISE(Or)
OPSNN_KT_MICRO_BITWISE(Xor)
#undef OPSNN_KT_MICRO_BITWISE

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void Not(U &dstReg, U &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, U>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Not", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg),
                                    detail::In(mask), mode);
}

/* the shift is an int16_t scalar (AscendC's only type for it), passed as such: a negative one is
 * refused by the emulator with its value */
#define OPSNN_KT_MICRO_SHIFT(Name)                                                                             \
    template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>   \
    __aicore__ inline void Name(S &dstReg, S &srcReg, U scalarValue, MaskReg &mask, OPSNN_KT_WHERE) {         \
        detail::CheckType<T, S>();                                                                             \
        static_assert(std::is_integral_v<U>, "opsnn: MicroAPI::" #Name ": the shift is an integer (int16_t)");  \
        dstReg.handle_ = opsnn_kt::Call("MicroAPI." #Name, OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg), \
                                        static_cast<int16_t>(scalarValue), detail::In(mask), mode);            \
    }
OPSNN_KT_MICRO_SHIFT(ShiftLefts)
OPSNN_KT_MICRO_SHIFT(ShiftRights)
#undef OPSNN_KT_MICRO_SHIFT

/* by a register: each lane by the same lane of srcReg1 (the signed type of the lanes' width) */
#define OPSNN_KT_MICRO_SHIFT_BY(Name)                                                                          \
    template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, \
              typename S, typename V>                                                                          \
    __aicore__ inline void Name(S &dstReg, S &srcReg0, V &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {           \
        detail::CheckType<T, S>();                                                                             \
        detail::CheckType<U, V>();                                                                             \
        dstReg.handle_ = opsnn_kt::Call("MicroAPI." #Name, OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg0), \
                                        detail::In(srcReg1), detail::In(mask), mode);                          \
    }
OPSNN_KT_MICRO_SHIFT_BY(ShiftLeft)
OPSNN_KT_MICRO_SHIFT_BY(ShiftRight)
#undef OPSNN_KT_MICRO_SHIFT_BY

}  // namespace MicroAPI
}  // namespace AscendC

#endif  // OPSNN_KT_MICRO_BITWISE_H_
