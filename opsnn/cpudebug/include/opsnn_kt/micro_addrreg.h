/* opsnn CPU-debug runtime: AscendC::MicroAPI's address register -- AddrReg, CreateAddrReg<T> (offset =
 * index0 * stride0 + ... + index3 * stride3 elements of T) -- and the aligned loads and stores that
 * take one (DataCopy / LoadAlign / StoreAlign with an AddrReg): the access at the address plus the
 * offset, otherwise the plain form's (the same emulator call). The offset is computed here, in C++:
 * an AddrReg is a value, not an emulator register. Not modelled (not declared): the unaligned moves'
 * AddrReg forms and the MaskReg loads / stores with one. Included by opsnn_kt/micro_api.h. */
#ifndef OPSNN_KT_MICRO_ADDRREG_H_
#define OPSNN_KT_MICRO_ADDRREG_H_

#include <cstdint>

namespace AscendC {
namespace MicroAPI {

class AddrReg {
public:
    __aicore__ inline AddrReg() = default;
    explicit AddrReg(uint64_t bytes) : bytes_(bytes) {}
    uint64_t bytes_ = 0;  // the offset in bytes
};

template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0) {
    return AddrReg(static_cast<uint64_t>(index0) * stride0 * sizeof(T));
}
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1) {
    return AddrReg((static_cast<uint64_t>(index0) * stride0 + static_cast<uint64_t>(index1) * stride1) * sizeof(T));
}
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2) {
    return AddrReg((static_cast<uint64_t>(index0) * stride0 + static_cast<uint64_t>(index1) * stride1 +
                    static_cast<uint64_t>(index2) * stride2) * sizeof(T));
}
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2, uint16_t index3, uint32_t stride3) {
    return AddrReg((static_cast<uint64_t>(index0) * stride0 + static_cast<uint64_t>(index1) * stride1 +
                    static_cast<uint64_t>(index2) * stride2 + static_cast<uint64_t>(index3) * stride3) * sizeof(T));
}

namespace detail {
/* address + offset bytes: a __local_mem__ pointer's value is linear in its byte offset */
template <typename T> inline __local_mem__ T *At(__local_mem__ T *address, const AddrReg &offset) {
    return reinterpret_cast<__local_mem__ T *>(reinterpret_cast<uintptr_t>(address) + offset.bytes_);
}
}  // namespace detail

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void DataCopy(U &dstReg, __local_mem__ T *srcAddr, AddrReg offset, OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(dstReg, detail::At(srcAddr, offset), OPSNN_KT_AT);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void DataCopy(__local_mem__ T *dstAddr, U &srcReg, AddrReg offset, MaskReg &mask, OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(detail::At(dstAddr, offset), srcReg, mask, OPSNN_KT_AT);
}
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void LoadAlign(U &dstReg, __local_mem__ T *srcAddr, AddrReg offset, OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(dstReg, detail::At(srcAddr, offset), OPSNN_KT_AT);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void StoreAlign(__local_mem__ T *dstAddr, U &srcReg, AddrReg offset, MaskReg &mask,
                                  OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(detail::At(dstAddr, offset), srcReg, mask, OPSNN_KT_AT);
}

}  // namespace MicroAPI
}  // namespace AscendC

#endif  // OPSNN_KT_MICRO_ADDRREG_H_
