/* opsnn CPU-debug runtime: AscendC's high-level SelectWithBytesMask (a choice per element by a
 * mask tensor of whole elements), one emulator call (opsnn/ascendc/select_bytes_mask.py). */
#ifndef OPSNN_KT_SELECT_BYTES_MASK_H_
#define OPSNN_KT_SELECT_BYTES_MASK_H_

#include <cstdint>

#include "opsnn_kt/reduce_api.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
    __aicore__ SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace opsnn_kt {
inline void Pack(Slot &s, const AscendC::SelectWithBytesMaskShapeInfo &i) {
    Pack(s, Fields{"SelectWithBytesMaskShapeInfo", 3, {i.firstAxis, i.srcLastAxis, i.maskLastAxis}});
}
}  // namespace opsnn_kt

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1,
                                           const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo &info, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SelectWithBytesMask", OPSNN_KT_AT, dst, src0, src1, mask, sharedTmpBuffer, info, isReuseMask);
}
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1,
                                           const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo &info, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SelectWithBytesMask", OPSNN_KT_AT, dst, src0, src1, mask, sharedTmpBuffer, info, isReuseMask);
}

}  // namespace AscendC

#endif  // OPSNN_KT_SELECT_BYTES_MASK_H_
