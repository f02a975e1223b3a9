/* opsnn CPU-debug runtime: AscendC::MicroAPI's moves at UB addresses that are not 32-byte aligned
 * -- UnalignReg (UnalignRegForLoad / UnalignRegForStore), LoadUnAlignPre / LoadUnAlign,
 * StoreUnAlign / StoreUnAlignPost and their older names DataCopyUnAlignPre / DataCopyUnAlign /
 * DataCopyUnAlignPost -- with AscendC's template parameters and argument orders. Each is one
 * emulator call (opsnn/ascendc/micro_unaligned.py: a store's last partial block waits in the
 * UnalignReg until the next store or the Post). The post-update forms move the address here, in
 * C++, as the device's do: a store by its count, a load and a Post by their stride.
 *
 * Not modelled, refused at compile time by name: the forms whose count comes from the AR special
 * register a squeeze sets (StoreUnAlign(dst, src, ureg) / StoreUnAlignPost(dst, ureg) with a
 * by-value address) and the AddrReg forms. Included by opsnn_kt/micro_api.h. */
#ifndef OPSNN_KT_MICRO_UNALIGNED_H_
#define OPSNN_KT_MICRO_UNALIGNED_H_

#include <cstdint>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace MicroAPI {

/* The unaligned register: to the emulator a vector register of bytes (it holds a store's waiting
 * bytes); copies copy it, as RegTensor's do. */
class UnalignReg {
public:
    __aicore__ inline UnalignReg() = default;
    UnalignReg(const UnalignReg &o) { Assign(o); }
    UnalignReg(UnalignReg &&o) noexcept : handle_(o.handle_) { o.handle_ = -1; }
    UnalignReg &operator=(const UnalignReg &o) {
        if (this != &o) Assign(o);
        return *this;
    }
    UnalignReg &operator=(UnalignReg &&o) noexcept {
        std::swap(handle_, o.handle_);
        return *this;
    }
    ~UnalignReg() { opsnn_kt::micro::Release(opsnn_kt::micro::FreeRegs(), handle_); }

    int64_t handle_ = -1;

private:
    void Assign(const UnalignReg &o) {
        handle_ = opsnn_kt::Call("MicroAPI.Copy", __FILE__, __LINE__, opsnn_kt::micro::RegOut{handle_, "uint8"},
                                 opsnn_kt::micro::RegIn{o.handle_, "uint8"});
    }
};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

namespace detail {
inline opsnn_kt::micro::RegIn In(const UnalignReg &u) { return {u.handle_, "uint8"}; }
inline opsnn_kt::micro::RegOut Out(const UnalignReg &u) { return {u.handle_, "uint8"}; }
template <typename T> inline opsnn_kt::micro::UbPtr Ub(const T *address) {
    return {address, opsnn_kt::DTypeOf<T>()};
}
template <typename T> constexpr bool kNotModelled = false;
}  // namespace detail

/* ---- loads ---- */
template <typename T>
__aicore__ inline void LoadUnAlignPre(UnalignReg &ureg, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    ureg.handle_ = opsnn_kt::Call("MicroAPI.LoadUnAlignPre", OPSNN_KT_AT, detail::Out(ureg), detail::Ub(srcAddr));
}
template <typename T = DefaultType, typename U>
__aicore__ inline void LoadUnAlign(U &dstReg, UnalignReg &ureg, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.LoadUnAlign", OPSNN_KT_AT, detail::Out(dstReg), detail::In(ureg),
                                    detail::Ub(srcAddr));
}
/* the load at srcAddr, then srcAddr += stride elements (POST_MODE_UPDATE) */
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void LoadUnAlign(U &dstReg, UnalignReg &ureg, __local_mem__ T *&srcAddr, uint32_t stride,
                                   OPSNN_KT_WHERE) {
    LoadUnAlign<T, U>(dstReg, ureg, static_cast<__local_mem__ T *>(srcAddr), OPSNN_KT_AT);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += stride;
}

/* ---- stores: the first `count` elements of srcReg at dstAddr, then dstAddr += count ---- */
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void StoreUnAlign(__local_mem__ T *&dstAddr, U &srcReg, UnalignReg &ureg, uint32_t count,
                                    OPSNN_KT_WHERE) {
    ureg.handle_ = opsnn_kt::Call("MicroAPI.StoreUnAlign", OPSNN_KT_AT, detail::Ub(dstAddr), detail::In(srcReg),
                                  detail::Out(ureg), count);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += count;
}
/* the bytes waiting in ureg to the block dstAddr (where the stores got to) ends, then
 * dstAddr += stride */
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
__aicore__ inline void StoreUnAlignPost(__local_mem__ T *&dstAddr, UnalignReg &ureg, int32_t stride,
                                        OPSNN_KT_WHERE) {
    ureg.handle_ = opsnn_kt::Call("MicroAPI.StoreUnAlignPost", OPSNN_KT_AT, detail::Ub(dstAddr), detail::Out(ureg));
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += stride;
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void StoreUnAlign(__local_mem__ T *, U &, UnalignReg &) {
    static_assert(detail::kNotModelled<U>, "opsnn: MicroAPI::StoreUnAlign(dst, src, ureg), whose count comes from "
                                           "the AR register a squeeze sets, is not modelled");
}
template <typename T>
__aicore__ inline void StoreUnAlignPost(__local_mem__ T *, UnalignReg &) {
    static_assert(detail::kNotModelled<T>, "opsnn: MicroAPI::StoreUnAlignPost(dst, ureg) (the squeeze-count "
                                           "form's) is not modelled");
}

/* ---- the older names ---- */
template <typename T>
__aicore__ inline void DataCopyUnAlignPre(UnalignReg &ureg, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    LoadUnAlignPre<T>(ureg, srcAddr, OPSNN_KT_AT);
}
template <typename T = DefaultType, typename U>
__aicore__ inline void DataCopyUnAlign(U &dstReg, UnalignReg &ureg, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    LoadUnAlign<T, U>(dstReg, ureg, srcAddr, OPSNN_KT_AT);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void DataCopyUnAlign(U &dstReg, UnalignReg &ureg, __local_mem__ T *&srcAddr, uint32_t stride,
                                       OPSNN_KT_WHERE) {
    LoadUnAlign<T, postMode, U>(dstReg, ureg, srcAddr, stride, OPSNN_KT_AT);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void DataCopyUnAlign(__local_mem__ T *&dstAddr, U &srcReg, UnalignReg &ureg, uint32_t count,
                                       OPSNN_KT_WHERE) {
    StoreUnAlign<T, postMode, U>(dstAddr, srcReg, ureg, count, OPSNN_KT_AT);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
__aicore__ inline void DataCopyUnAlignPost(__local_mem__ T *&dstAddr, UnalignReg &ureg, int32_t stride,
                                           OPSNN_KT_WHERE) {
    StoreUnAlignPost<T, postMode>(dstAddr, ureg, stride, OPSNN_KT_AT);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
__aicore__ inline void DataCopyUnAlign(__local_mem__ T *, U &, UnalignReg &) {
    static_assert(detail::kNotModelled<U>, "opsnn: MicroAPI::DataCopyUnAlign(dst, src, ureg), whose count comes "
                                           "from the AR register a squeeze sets, is not modelled");
}
template <typename T>
__aicore__ inline void DataCopyUnAlignPost(__local_mem__ T *, UnalignReg &) {
    static_assert(detail::kNotModelled<T>, "opsnn: MicroAPI::DataCopyUnAlignPost(dst, ureg) (the squeeze-count "
                                           "form's) is not modelled");
}

}  // namespace MicroAPI
}  // namespace AscendC

#endif  // OPSNN_KT_MICRO_UNALIGNED_H_
