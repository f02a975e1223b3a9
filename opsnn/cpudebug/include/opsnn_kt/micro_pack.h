/* opsnn CPU-debug runtime: AscendC::MicroAPI's Pack / UnPack (a register's integer lanes narrowed
 * into one half of another, one half widened into a whole register; and the MaskReg forms), with
 * AscendC's template parameters; each one emulator call (opsnn/ascendc/micro_pack.py). HighLowPart
 * travels as its value. Included by opsnn_kt/micro_api.h. */
#ifndef OPSNN_KT_MICRO_PACK_H_
#define OPSNN_KT_MICRO_PACK_H_

#include <cstdint>

namespace AscendC {
namespace MicroAPI {

template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V>
__aicore__ inline void Pack(S &dstReg, V &srcReg, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    detail::CheckType<U, V>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Pack", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg),
                                    static_cast<int32_t>(part));
}
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void Pack(MaskReg &dst, MaskReg &src, OPSNN_KT_WHERE) {
    dst.handle_ = opsnn_kt::Call("MicroAPI.Pack", OPSNN_KT_AT, detail::Out(dst), detail::In(src),
                                 static_cast<int32_t>(part));
}

template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V>
__aicore__ inline void UnPack(S &dstReg, V &srcReg, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    detail::CheckType<U, V>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.UnPack", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg),
                                    static_cast<int32_t>(part));
}
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void UnPack(MaskReg &dst, MaskReg &src, OPSNN_KT_WHERE) {
    dst.handle_ = opsnn_kt::Call("MicroAPI.UnPack", OPSNN_KT_AT, detail::Out(dst), detail::In(src),
                                 static_cast<int32_t>(part));
}

/* Interleave / DeInterleave of two registers into two: two emulator calls, the first computing
 * both results (micro_pack.py), so a destination may be a source. */
#define OPSNN_KT_TWO_OF_TWO(Name)                                                                                 \
    template <typename T = DefaultType, typename U>                                                               \
    __aicore__ inline void Name(U &dstReg0, U &dstReg1, U &srcReg0, U &srcReg1, OPSNN_KT_WHERE) {                 \
        detail::CheckType<T, U>();                                                                                \
        dstReg1.handle_ = opsnn_kt::Call("MicroAPI." #Name "Second", OPSNN_KT_AT, detail::Out(dstReg1),           \
                                         detail::In(srcReg0), detail::In(srcReg1));                               \
        dstReg0.handle_ = opsnn_kt::Call("MicroAPI." #Name "First", OPSNN_KT_AT, detail::Out(dstReg0));           \
    }
OPSNN_KT_TWO_OF_TWO(DeInterleave)
OPSNN_KT_TWO_OF_TWO(Interleave)
#undef OPSNN_KT_TWO_OF_TWO

}  // namespace MicroAPI
}  // namespace AscendC

#endif  // OPSNN_KT_MICRO_PACK_H_
