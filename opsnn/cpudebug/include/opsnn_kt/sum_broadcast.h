/* opsnn CPU-debug runtime: AscendC's high-level Sum (each row's last axis, SumParams) and
 * BroadCast<T, dim, axis> (pad/broadcast), one emulator call each (opsnn/ascendc/reduce_full.py,
 * broadcast_adv.py). */
#ifndef OPSNN_KT_SUM_BROADCAST_H_
#define OPSNN_KT_SUM_BROADCAST_H_

#include <cstdint>

#include "opsnn_kt/reduce_api.h"

namespace AscendC {

struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;  // n rounded up to 32 bytes of T
    uint32_t n;      // the valid elements of a row
};

}  // namespace AscendC

namespace opsnn_kt {
inline void Pack(Slot &s, const AscendC::SumParams &p) { Pack(s, Fields{"SumParams", 3, {p.outter, p.inner, p.n}}); }
/* a BroadCast shape: dim (1 or 2) uint32 extents */
template <int32_t dim> struct Shape {
    const uint32_t *v;
};
template <int32_t dim> inline void Pack(Slot &s, const Shape<dim> &shape) {
    static_assert(dim == 1 || dim == 2, "opsnn: BroadCast takes dim 1 or 2");
    Fields f{"Shape", dim, {}};
    for (int32_t i = 0; i < dim; ++i) f.v[i] = shape.v[i];
    Pack(s, f);
}
}  // namespace opsnn_kt

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                           const LocalTensor<uint8_t> &sharedTmpBuffer, const SumParams &sumParams, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Sum", OPSNN_KT_AT, dstTensor, srcTensor, sharedTmpBuffer, sumParams);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                           const SumParams &sumParams, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Sum", OPSNN_KT_AT, dstTensor, srcTensor, sumParams);
}

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t> &sharedTmpBuffer, OPSNN_KT_WHERE) {
    opsnn_kt::Call("BroadCast", OPSNN_KT_AT, dstLocal, srcLocal, opsnn_kt::Shape<dim>{dstShape},
                   opsnn_kt::Shape<dim>{srcShape}, axis, sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim], OPSNN_KT_WHERE) {
    opsnn_kt::Call("BroadCast", OPSNN_KT_AT, dstLocal, srcLocal, opsnn_kt::Shape<dim>{dstShape},
                   opsnn_kt::Shape<dim>{srcShape}, axis);
}
/* Broadcast: the name AscendC's pad/broadcast.h gives BroadCast's two forms today (the same call). */
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t> &sharedTmpBuffer, OPSNN_KT_WHERE) {
    BroadCast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer, OPSNN_KT_AT);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim], OPSNN_KT_WHERE) {
    BroadCast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, OPSNN_KT_AT);
}

}  // namespace AscendC

#endif  // OPSNN_KT_SUM_BROADCAST_H_
