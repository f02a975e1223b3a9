/* opsnn CPU-debug runtime: MicroAPI's logic on mask registers -- Not / And / Or / Xor under a
 * predicate, Select, Move -- by AscendC's names (overloads on MaskReg beside the RegTensor ones)
 * and their Mask* aliases; one emulator call each (opsnn/ascendc/micro_mask.py). */
#ifndef OPSNN_KT_MICRO_MASK_H_
#define OPSNN_KT_MICRO_MASK_H_

#include "opsnn_kt/micro_api.h"

namespace AscendC {
namespace MicroAPI {

__aicore__ inline void Not(MaskReg &dst, MaskReg &src, MaskReg &mask, OPSNN_KT_WHERE) {
    dst.handle_ = opsnn_kt::Call("MicroAPI.MaskNot", OPSNN_KT_AT, detail::Out(dst), detail::In(src), detail::In(mask));
}
#define OPSNN_KT_MASK_LOGIC(Name)                                                                                     \
    __aicore__ inline void Name(MaskReg &dst, MaskReg &src0, MaskReg &src1, MaskReg &mask, OPSNN_KT_WHERE) {          \
        dst.handle_ = opsnn_kt::Call("MicroAPI.Mask" #Name, OPSNN_KT_AT, detail::Out(dst), detail::In(src0),          \
                                     detail::In(src1), detail::In(mask));                                             \
    }                                                                                                                 \
    __aicore__ inline void Mask##Name(MaskReg &dst, MaskReg &src0, MaskReg &src1, MaskReg &mask, OPSNN_KT_WHERE) {    \
        Name(dst, src0, src1, mask, OPSNN_KT_AT);                                                                     \
    }
OPSNN_KT_MASK_LOGIC(And)
OPSNN_KT_MASK_LOGIC(Or)
OPSNN_KT_MASK_LOGIC(Xor)
#undef OPSNN_KT_MASK_LOGIC
__aicore__ inline void MaskNot(MaskReg &dst, MaskReg &src, MaskReg &mask, OPSNN_KT_WHERE) {
    Not(dst, src, mask, OPSNN_KT_AT);
}
/* dst's bit = src0's where sel's bit is set, else src1's */
__aicore__ inline void Select(MaskReg &dst, MaskReg &src0, MaskReg &src1, MaskReg &sel, OPSNN_KT_WHERE) {
    dst.handle_ = opsnn_kt::Call("MicroAPI.MaskSel", OPSNN_KT_AT, detail::Out(dst), detail::In(src0), detail::In(src1),
                                 detail::In(sel));
}
__aicore__ inline void MaskSel(MaskReg &dst, MaskReg &src0, MaskReg &src1, MaskReg &sel, OPSNN_KT_WHERE) {
    Select(dst, src0, src1, sel, OPSNN_KT_AT);
}

}  // namespace MicroAPI
}  // namespace AscendC

#endif  // OPSNN_KT_MICRO_MASK_H_
