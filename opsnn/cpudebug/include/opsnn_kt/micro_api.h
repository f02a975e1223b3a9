/* opsnn CPU-debug runtime: AscendC::MicroAPI, Ascend950's register-level vector code
 * (__VEC_SCOPE__, RegTensor, MaskReg), with AscendC's names, template parameters and argument
 * orders. As everywhere in these headers nothing is computed here: a RegTensor / MaskReg is a
 * handle of a register of the emulator's core (opsnn/ascendc/micro.py), and each MicroAPI call is
 * one opsnn_kt::Call. Registers are values: copying one copies the register (a bridge call),
 * moving one moves the handle, and a destroyed register's handle is reused by the next fresh one
 * (no bridge call in a destructor: it may run while a failed core unwinds).
 *
 * A `__local_mem__ T*` is what LocalTensor::GetPhyAddr returns: an opaque, never-null value that
 * names the core, the UB buffer and the byte offset, so pointer arithmetic on it works and the
 * emulator judges every access against the buffer it came from. Never dereference it on the host.
 *
 * Modelled: the calls below. A MicroAPI function not declared here fails to compile by name; a
 * distribution, pattern or cast pair the emulator lacks fails the launch naming it. */
#ifndef OPSNN_KT_MICRO_API_H_
#define OPSNN_KT_MICRO_API_H_

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "opsnn_kt/instructions.h"

/* A vector-function scope on device (the compiler outlines it); here an ordinary block. */
#define __VEC_SCOPE__
#define __local_mem__
/* A vector function (`__simd_vf__`, launched with asc_vf_call / VF_CALL) and the functions it
 * calls (`__simd_callee__`): on device the compiler outlines them onto the vector unit; here they
 * are ordinary functions, their register instructions the emulator's MicroAPI. */
#define __simd_vf__
#define __simd_callee__

/* asc_vf_call<F>(args...) / AscendC::VF_CALL<F>(args...): run vector function F on this core.
 * (The SIMT form, asc_vf_call<F>(dim3 threads, ...), is simt_api's and is not modelled.) */
template <auto funcPtr, typename... Args>
__aicore__ inline void asc_vf_call(Args &&...args) {
    funcPtr(args...);
}

namespace AscendC {

constexpr uint32_t VECTOR_REG_WIDTH = 256;  // bytes of one vector register

template <auto funcPtr, typename... Args>
__aicore__ inline void VF_CALL(Args &&...args) {
    funcPtr(args...);
}

/* ceil(num1 / num2), 0 for num2 == 0: the loop count of a register loop over `num1` elements of
 * `num2` lanes (a template, so a same-named non-template of the kernel's wins overload resolution) */
template <typename T, typename U>
__aicore__ constexpr inline std::common_type_t<T, U> CeilDivision(T num1, U num2) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(num2) == 0 ? C(0) : (static_cast<C>(num1) + static_cast<C>(num2) - 1) / static_cast<C>(num2);
}

namespace MicroAPI {

enum class RegLayout : int32_t { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode : int32_t { UNKNOWN = -1, NO_SAT, SAT };
enum class MaskMergeMode : int32_t { UNKNOWN, MERGING, ZEROING };
enum class MaskPattern : int32_t { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class LoadDist : int32_t {
    DIST_NORM, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32, DIST_US_B8 = 6, DIST_US_B16, DIST_DS_B8, DIST_DS_B16,
    DIST_BDINTLV, DIST_DINTLV_B8, DIST_DINTLV_B16, DIST_UNPACK_B8, DIST_UNPACK_B16, DIST_BLK, DIST_E2B_B16,
    DIST_E2B_B32, DIST_UNPACK_B32, DIST_DINTLV_B32, DIST_UNPACK4_B8, DIST_SPLT4CHN_B8, DIST_SPLT2CHN_B8,
    DIST_SPLT2CHN_B16
};
enum class StoreDist : int32_t {
    DIST_NORM_B8, DIST_NORM_B16, DIST_NORM_B32, DIST_FIRST_ELEMENT_B8, DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32, DIST_PACK_B16, DIST_PACK_B32, DIST_INTLV_B8, DIST_INTLV_B16, DIST_PACK_B64,
    DIST_INTLV_B32, DIST_PACK4_B32, DIST_MRG4CHN_B8, DIST_MRG2CHN_B8, DIST_MRG2CHN_B16, DIST_NORM
};

inline const char *EnumName(MaskMergeMode m) {
    static const char *const names[] = {"MaskMergeMode.UNKNOWN", "MaskMergeMode.MERGING", "MaskMergeMode.ZEROING"};
    return names[static_cast<int>(m)];
}
inline const char *EnumName(MaskPattern p) {
    static const char *const names[] = {"MaskPattern.ALL", "MaskPattern.VL1", "MaskPattern.VL2", "MaskPattern.VL3",
                                        "MaskPattern.VL4", "MaskPattern.VL8", "MaskPattern.VL16", "MaskPattern.VL32",
                                        "MaskPattern.VL64", "MaskPattern.VL128", "MaskPattern.M3", "MaskPattern.M4",
                                        "MaskPattern.H", "MaskPattern.Q", "MaskPattern.other", "MaskPattern.ALLF"};
    return names[static_cast<int>(p)];
}
inline const char *EnumName(LoadDist d) {
    static const char *const names[] = {
        "LoadDist.DIST_NORM", "LoadDist.DIST_BRC_B8", "LoadDist.DIST_BRC_B16", "LoadDist.DIST_BRC_B32",
        "LoadDist.other", "LoadDist.other", "LoadDist.DIST_US_B8", "LoadDist.DIST_US_B16", "LoadDist.DIST_DS_B8",
        "LoadDist.DIST_DS_B16", "LoadDist.DIST_BDINTLV", "LoadDist.DIST_DINTLV_B8", "LoadDist.DIST_DINTLV_B16",
        "LoadDist.DIST_UNPACK_B8", "LoadDist.DIST_UNPACK_B16", "LoadDist.DIST_BLK", "LoadDist.DIST_E2B_B16",
        "LoadDist.DIST_E2B_B32", "LoadDist.DIST_UNPACK_B32", "LoadDist.DIST_DINTLV_B32", "LoadDist.DIST_UNPACK4_B8",
        "LoadDist.DIST_SPLT4CHN_B8", "LoadDist.DIST_SPLT2CHN_B8", "LoadDist.DIST_SPLT2CHN_B16"};
    return names[static_cast<int>(d)];
}
inline const char *EnumName(StoreDist d) {
    static const char *const names[] = {
        "StoreDist.DIST_NORM_B8", "StoreDist.DIST_NORM_B16", "StoreDist.DIST_NORM_B32",
        "StoreDist.DIST_FIRST_ELEMENT_B8", "StoreDist.DIST_FIRST_ELEMENT_B16", "StoreDist.DIST_FIRST_ELEMENT_B32",
        "StoreDist.DIST_PACK_B16", "StoreDist.DIST_PACK_B32", "StoreDist.DIST_INTLV_B8", "StoreDist.DIST_INTLV_B16",
        "StoreDist.DIST_PACK_B64", "StoreDist.DIST_INTLV_B32", "StoreDist.DIST_PACK4_B32",
        "StoreDist.DIST_MRG4CHN_B8", "StoreDist.DIST_MRG2CHN_B8", "StoreDist.DIST_MRG2CHN_B16", "StoreDist.DIST_NORM"};
    return names[static_cast<int>(d)];
}

/* which half of a register (Pack / UnPack), which end lane (Duplicate from a register) */
enum class HighLowPart : int32_t { LOWEST = 0, HIGHEST = 1 };

/* a load / store that moves its address on by `stride` elements after the access */
enum class PostLiteral : int32_t { POST_MODE_NORMAL, POST_MODE_UPDATE };
/* the memories a LocalMemBar orders (the emulator runs every access in order: no barrier needed) */
enum class MemType : int32_t { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };

struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
};

struct RegTrait {
    int REG_NUM = 1;
};
inline constexpr RegTrait RegTraitNumOne = {1};
inline constexpr RegTrait RegTraitNumTwo = {2};

struct DefaultType {};

struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
inline constexpr CastTrait castTrait = {RegLayout::UNKNOWN, SatMode::UNKNOWN, MaskMergeMode::UNKNOWN,
                                        RoundMode::UNKNOWN};

}  // namespace MicroAPI
}  // namespace AscendC

namespace opsnn_kt {
namespace micro {

/* Handles of registers C++ destroyed, for the next fresh register of the same kind: the bridge
 * takes one back only if it belongs to the running core (a handle names its core). */
inline std::vector<int64_t> &FreeRegs() {
    static thread_local std::vector<int64_t> handles;
    return handles;
}
inline std::vector<int64_t> &FreeMasks() {
    static thread_local std::vector<int64_t> handles;
    return handles;
}
inline void Release(std::vector<int64_t> &list, int64_t handle) noexcept {
    if (handle < 0) return;
    try {
        list.push_back(handle);
    } catch (...) {  // out of memory: the handle is simply not reused
    }
}

/* operand kinds beyond abi.h's (bridge.py decodes them) */
constexpr int32_t KIND_REG = 9;    /* a = handle (-1: none), b = flags: 1 written, 2 a reused handle */
constexpr int32_t KIND_MASK = 10;  /* the same for a MaskReg */
constexpr int32_t KIND_UBPTR = 11; /* a = a __local_mem__ pointer (GetPhyAddr's value) */

struct RegIn {
    int64_t handle;
    const char *dtype;
};
struct RegOut {
    int64_t handle;
    const char *dtype;
};
struct MaskIn {
    int64_t handle;
};
struct MaskOut {
    int64_t handle;
};
struct UbPtr {
    const void *address;
    const char *dtype;
};

inline void PackOut(Slot &s, int32_t kind, int64_t handle, const char *dtype, std::vector<int64_t> &free) {
    int64_t flags = 1;
    if (handle < 0 && !free.empty()) {
        handle = free.back();
        free.pop_back();
        flags = 3;
    }
    s.arg = {kind, dtype, handle, flags, nullptr};
}
inline void Pack(Slot &s, const RegIn &r) { s.arg = {KIND_REG, r.dtype, r.handle, 0, nullptr}; }
inline void Pack(Slot &s, const RegOut &r) { PackOut(s, KIND_REG, r.handle, r.dtype, FreeRegs()); }
inline void Pack(Slot &s, const MaskIn &m) { s.arg = {KIND_MASK, nullptr, m.handle, 0, nullptr}; }
inline void Pack(Slot &s, const MaskOut &m) { PackOut(s, KIND_MASK, m.handle, nullptr, FreeMasks()); }
inline void Pack(Slot &s, const UbPtr &p) {
    s.arg = {KIND_UBPTR, p.dtype, reinterpret_cast<int64_t>(p.address), 0, nullptr};
}

}  // namespace micro
}  // namespace opsnn_kt

namespace AscendC {
/* The implementation-level DataCopyPad kernels also call directly, on a raw UB address (a
 * GetPhyAddr value) and a raw GM pointer: the same copy as DataCopyPad. */
template <typename T, typename P, typename Q>
__aicore__ inline void DataCopyPadGm2UBImpl(__ubuf__ T *dst, __gm__ T *src, const P &params, const Q &padParams,
                                            OPSNN_KT_WHERE) {
    GlobalTensor<T> gm;
    gm.SetGlobalBuffer(src);
    opsnn_kt::Call("DataCopyPad", OPSNN_KT_AT, opsnn_kt::micro::UbPtr{dst, opsnn_kt::DTypeOf<T>()}, gm, params,
                   padParams);
}
template <typename T, typename P>
__aicore__ inline void DataCopyPadUB2GMImpl(__gm__ T *dst, __ubuf__ T *src, const P &params, OPSNN_KT_WHERE) {
    GlobalTensor<T> gm;
    gm.SetGlobalBuffer(dst);
    opsnn_kt::Call("DataCopyPad", OPSNN_KT_AT, gm, opsnn_kt::micro::UbPtr{src, opsnn_kt::DTypeOf<T>()}, params);
}
}  // namespace AscendC

namespace AscendC {
namespace MicroAPI {

template <typename T, const RegTrait &regTrait = RegTraitNumOne>
class RegTensor {
public:
    static_assert(regTrait.REG_NUM == 1, "opsnn: a RegTensor over two registers (RegTraitNumTwo) is not modelled");
    using ActualT = T;
    static constexpr int REG_NUM = 1;
    __aicore__ inline RegTensor() = default;
    RegTensor(const RegTensor &o) { Assign(o); }
    RegTensor(RegTensor &&o) noexcept : handle_(o.handle_) { o.handle_ = -1; }
    RegTensor &operator=(const RegTensor &o) {
        if (this != &o) Assign(o);
        return *this;
    }
    RegTensor &operator=(RegTensor &&o) noexcept {
        std::swap(handle_, o.handle_);  // o's destructor gives our old register back
        return *this;
    }
    ~RegTensor() { opsnn_kt::micro::Release(opsnn_kt::micro::FreeRegs(), handle_); }

    int64_t handle_ = -1;  // the emulator's register; -1: none yet (its lanes are undefined)

private:
    void Assign(const RegTensor &o) {
        const char *t = opsnn_kt::DTypeOf<T>();
        handle_ = opsnn_kt::Call("MicroAPI.Copy", __FILE__, __LINE__, opsnn_kt::micro::RegOut{handle_, t},
                                 opsnn_kt::micro::RegIn{o.handle_, t});
    }
};

class MaskReg {
public:
    __aicore__ inline MaskReg() = default;
    MaskReg(const MaskReg &o) { Assign(o); }
    MaskReg(MaskReg &&o) noexcept : handle_(o.handle_) { o.handle_ = -1; }
    MaskReg &operator=(const MaskReg &o) {
        if (this != &o) Assign(o);
        return *this;
    }
    MaskReg &operator=(MaskReg &&o) noexcept {
        std::swap(handle_, o.handle_);
        return *this;
    }
    ~MaskReg() { opsnn_kt::micro::Release(opsnn_kt::micro::FreeMasks(), handle_); }

    int64_t handle_ = -1;

private:
    void Assign(const MaskReg &o) {
        handle_ = opsnn_kt::Call("MicroAPI.Copy", __FILE__, __LINE__, opsnn_kt::micro::MaskOut{handle_},
                                 opsnn_kt::micro::MaskIn{o.handle_});
    }
};

namespace detail {
template <typename T, typename R> constexpr void CheckType() {
    static_assert(std::is_same_v<T, DefaultType> || std::is_same_v<T, typename R::ActualT>,
                  "opsnn: MicroAPI: the template type T is not the register's element type");
}
template <typename R> inline opsnn_kt::micro::RegIn In(const R &r) {
    return {r.handle_, opsnn_kt::DTypeOf<typename R::ActualT>()};
}
inline opsnn_kt::micro::MaskIn In(const MaskReg &m) { return {m.handle_}; }
template <typename R> inline opsnn_kt::micro::RegOut Out(const R &r) {
    return {r.handle_, opsnn_kt::DTypeOf<typename R::ActualT>()};
}
inline opsnn_kt::micro::MaskOut Out(const MaskReg &m) { return {m.handle_}; }
/* An op's mode: a MaskMergeMode, or a pointer to a *SpecificMode (DivSpecificMode) whose merge
 * mode is what the emulator applies (its precision choice is not modelled: the arithmetic is the
 * one correctly rounded result either way). */
template <auto mode> constexpr MaskMergeMode MergeModeOf() {
    if constexpr (std::is_same_v<decltype(mode), MaskMergeMode>) {
        return mode;
    } else {
        static_assert(std::is_pointer_v<decltype(mode)>,
                      "opsnn: MicroAPI: the mode is a MaskMergeMode or a pointer to a *SpecificMode");
        return mode->mrgMode;
    }
}
}  // namespace detail

/* ---- masks ---- */
template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait &regTrait = RegTraitNumOne>
__aicore__ inline MaskReg CreateMask(OPSNN_KT_WHERE) {
    static_assert(regTrait.REG_NUM == 1, "opsnn: RegTraitNumTwo masks are not modelled");
    MaskReg m;
    m.handle_ = opsnn_kt::Call("MicroAPI.CreateMask", OPSNN_KT_AT, detail::Out(m), opsnn_kt::TypeTag<T>{}, mode);
    return m;
}
/* The first min(size, lanes of T) lanes; size goes down by the lanes (to 0 at least). */
template <typename T, const RegTrait &regTrait = RegTraitNumOne>
__aicore__ inline MaskReg UpdateMask(uint32_t &size, OPSNN_KT_WHERE) {
    static_assert(regTrait.REG_NUM == 1, "opsnn: RegTraitNumTwo masks are not modelled");
    MaskReg m;
    m.handle_ = opsnn_kt::Call("MicroAPI.UpdateMask", OPSNN_KT_AT, detail::Out(m), opsnn_kt::TypeTag<T>{}, size);
    constexpr uint32_t lanes = VECTOR_REG_WIDTH / sizeof(T);
    size = size > lanes ? size - lanes : 0;
    return m;
}

/* ---- UB <-> register ---- */
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void DataCopy(U &dstReg, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.DataCopy", OPSNN_KT_AT, detail::Out(dstReg),
                                    opsnn_kt::micro::UbPtr{srcAddr, opsnn_kt::DTypeOf<T>()}, dist);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void DataCopy(__local_mem__ T *dstAddr, U &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    opsnn_kt::Call("MicroAPI.DataCopy", OPSNN_KT_AT, opsnn_kt::micro::UbPtr{dstAddr, opsnn_kt::DTypeOf<T>()},
                   detail::In(srcReg), detail::In(mask), dist);
}
/* the post-update forms: the access at addr, then addr += stride elements */
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void DataCopy(U &dstReg, __local_mem__ T *&srcAddr, int32_t stride, OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(dstReg, srcAddr, OPSNN_KT_AT);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += stride;
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void DataCopy(__local_mem__ T *&dstAddr, U &srcReg, int32_t stride, MaskReg &mask, OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(dstAddr, srcReg, mask, OPSNN_KT_AT);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += stride;
}

template <MemType src, MemType dst>
__aicore__ inline void LocalMemBar() {}

/* the newer names of the same moves */
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void LoadAlign(U &dstReg, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(dstReg, srcAddr, OPSNN_KT_AT);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void StoreAlign(__local_mem__ T *dstAddr, U &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    DataCopy<T, dist, U>(dstAddr, srcReg, mask, OPSNN_KT_AT);
}
/* the dual forms: a de-interleaving load of 2 x VL bytes into two registers (the even elements
 * into dstReg0), an interleaving store of two registers (2 x VL bytes); two emulator calls for the
 * load, one result register each (micro_core.LoadDualSecond / LoadDualFirst) */
template <typename T = DefaultType, LoadDist dist, typename U>
__aicore__ inline void LoadAlign(U &dstReg0, U &dstReg1, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    dstReg1.handle_ = opsnn_kt::Call("MicroAPI.LoadDualSecond", OPSNN_KT_AT, detail::Out(dstReg1),
                                     opsnn_kt::micro::UbPtr{srcAddr, opsnn_kt::DTypeOf<T>()}, dist);
    dstReg0.handle_ = opsnn_kt::Call("MicroAPI.LoadDualFirst", OPSNN_KT_AT, detail::Out(dstReg0));
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist, typename U>
__aicore__ inline void LoadAlign(U &dstReg0, U &dstReg1, __local_mem__ T *&srcAddr, int32_t postUpdateStride,
                                 OPSNN_KT_WHERE) {
    LoadAlign<T, dist, U>(dstReg0, dstReg1, srcAddr, OPSNN_KT_AT);
    if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += postUpdateStride;
}
template <typename T = DefaultType, StoreDist dist, typename U>
__aicore__ inline void StoreAlign(__local_mem__ T *dstAddr, U &srcReg0, U &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {
    opsnn_kt::Call("MicroAPI.DataCopy", OPSNN_KT_AT, opsnn_kt::micro::UbPtr{dstAddr, opsnn_kt::DTypeOf<T>()},
                   detail::In(srcReg0), detail::In(srcReg1), detail::In(mask), dist);
}
template <typename T = DefaultType, LoadDist dist, typename U>
__aicore__ inline void DataCopy(U &dstReg0, U &dstReg1, __local_mem__ T *srcAddr, OPSNN_KT_WHERE) {
    LoadAlign<T, dist, U>(dstReg0, dstReg1, srcAddr, OPSNN_KT_AT);
}
template <typename T = DefaultType, StoreDist dist, typename U>
__aicore__ inline void DataCopy(__local_mem__ T *dstAddr, U &srcReg0, U &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {
    StoreAlign<T, dist, U>(dstAddr, srcReg0, srcReg1, mask, OPSNN_KT_AT);
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U>
__aicore__ inline void LoadAlign(U &dstReg, __local_mem__ T *&srcAddr, int32_t postUpdateStride, OPSNN_KT_WHERE) {
    DataCopy<T, postMode, dist, U>(dstReg, srcAddr, postUpdateStride, OPSNN_KT_AT);
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U>
__aicore__ inline void StoreAlign(__local_mem__ T *&dstAddr, U &srcReg, int32_t postUpdateStride, MaskReg &mask,
                                  OPSNN_KT_WHERE) {
    DataCopy<T, postMode, dist, U>(dstAddr, srcReg, postUpdateStride, mask, OPSNN_KT_AT);
}

/* ---- arithmetic ---- */
#define OPSNN_KT_MICRO_BINARY(Name, ModeKind)                                                                  \
    template <typename T = DefaultType, ModeKind mode = MaskMergeMode::ZEROING, typename U>                    \
    __aicore__ inline void Name(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {           \
        detail::CheckType<T, U>();                                                                             \
        dstReg.handle_ = opsnn_kt::Call("MicroAPI." #Name, OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg0), \
                                        detail::In(srcReg1), detail::In(mask), detail::MergeModeOf<mode>());   \
    }
OPSNN_KT_MICRO_BINARY(Add, MaskMergeMode)
OPSNN_KT_MICRO_BINARY(Sub, MaskMergeMode)
OPSNN_KT_MICRO_BINARY(Mul, MaskMergeMode)
OPSNN_KT_MICRO_BINARY(Div, auto)
OPSNN_KT_MICRO_BINARY(Max, MaskMergeMode)
OPSNN_KT_MICRO_BINARY(Min, MaskMergeMode)
OPSNN_KT_MICRO_BINARY(MulDstAdd, MaskMergeMode)  // dst = dst * src0 + src1, one rounding
OPSNN_KT_MICRO_BINARY(MulAddDst, MaskMergeMode)  // dst = src0 * src1 + dst
OPSNN_KT_MICRO_BINARY(Mula, MaskMergeMode)       // MulAddDst's other name
#undef OPSNN_KT_MICRO_BINARY
/* MulDstAdd's other name */
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void FusedMulDstAdd(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {
    MulDstAdd<T, mode, U>(dstReg, srcReg0, srcReg1, mask, OPSNN_KT_AT);
}

#define OPSNN_KT_MICRO_SCALAR(Name)                                                                            \
    template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>   \
    __aicore__ inline void Name(S &dstReg, S &srcReg, U scalar, MaskReg &mask, OPSNN_KT_WHERE) {              \
        detail::CheckType<T, S>();                                                                             \
        dstReg.handle_ = opsnn_kt::Call("MicroAPI." #Name, OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg), \
                                        static_cast<typename S::ActualT>(scalar), detail::In(mask), mode);     \
    }
OPSNN_KT_MICRO_SCALAR(Adds)
OPSNN_KT_MICRO_SCALAR(Muls)
OPSNN_KT_MICRO_SCALAR(Maxs)
OPSNN_KT_MICRO_SCALAR(Mins)
OPSNN_KT_MICRO_SCALAR(Axpy)  // dst = src * scalar + dst
#undef OPSNN_KT_MICRO_SCALAR

#define OPSNN_KT_MICRO_UNARY(Name, ModeKind)                                                                   \
    template <typename T = DefaultType, ModeKind mode = MaskMergeMode::ZEROING, typename U>                    \
    __aicore__ inline void Name(U &dstReg, U &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {                         \
        detail::CheckType<T, U>();                                                                             \
        dstReg.handle_ = opsnn_kt::Call("MicroAPI." #Name, OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg), \
                                        detail::In(mask), detail::MergeModeOf<mode>());                        \
    }
OPSNN_KT_MICRO_UNARY(Exp, auto)
OPSNN_KT_MICRO_UNARY(Ln, auto)
OPSNN_KT_MICRO_UNARY(Sqrt, auto)
OPSNN_KT_MICRO_UNARY(Abs, MaskMergeMode)
OPSNN_KT_MICRO_UNARY(Relu, MaskMergeMode)
OPSNN_KT_MICRO_UNARY(Log, auto)
OPSNN_KT_MICRO_UNARY(Neg, MaskMergeMode)
#undef OPSNN_KT_MICRO_UNARY
/* dstReg[i] = srcReg[indexReg[i] % lanes] */
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void Gather(S &dstReg, S &srcReg, V &indexReg, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Gather", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg),
                                    detail::In(indexReg));
}
/* dstReg[i] = baseAddr[index[i]] on the active lanes (UB, in elements; a b8 source widened to b16
 * with zeros above) */
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename S, typename V>
__aicore__ inline void Gather(S &dstReg, __local_mem__ T1 *baseAddr, V &index, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T0, S>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Gather", OPSNN_KT_AT, detail::Out(dstReg),
                                    opsnn_kt::micro::UbPtr{baseAddr, opsnn_kt::DTypeOf<T1>()}, detail::In(index),
                                    detail::In(mask));
}
/* baseAddr[index[i]] = srcReg[i] on the active lanes (UB, in elements; b8 elements take the even
 * bytes of the register, b16 indices) */
template <typename T = DefaultType, typename U = DefaultType, typename P, typename S, typename V>
__aicore__ inline void Scatter(__local_mem__ P *baseAddr, S &srcReg, V &index, MaskReg &mask, OPSNN_KT_WHERE) {
    opsnn_kt::Call("MicroAPI.Scatter", OPSNN_KT_AT, opsnn_kt::micro::UbPtr{baseAddr, opsnn_kt::DTypeOf<P>()},
                   detail::In(srcReg), detail::In(index), detail::In(mask));
}
/* each lane rounded to an integral value of its own type (half, bfloat16, float) */
template <typename T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S>
__aicore__ inline void Truncate(S &dstReg, S &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Truncate", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg),
                                    detail::In(mask), roundMode, detail::MergeModeOf<mode>());
}

template <typename T = DefaultType, typename U, typename S>
__aicore__ inline void Duplicate(S &dstReg, U scalarValue, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Duplicate", OPSNN_KT_AT, detail::Out(dstReg),
                                    static_cast<typename S::ActualT>(scalarValue));
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S>
__aicore__ inline void Duplicate(S &dstReg, U scalarValue, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Duplicate", OPSNN_KT_AT, detail::Out(dstReg),
                                    static_cast<typename S::ActualT>(scalarValue), detail::In(mask), mode);
}

/* lane i = scalarValue + i (INCREASE_ORDER), or ending at scalarValue (DECREASE_ORDER) */
enum class IndexOrder : int32_t { INCREASE_ORDER, DECREASE_ORDER };
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename U, typename S>
__aicore__ inline void Arange(S &dstReg, U scalarValue, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Arange", OPSNN_KT_AT, detail::Out(dstReg),
                                    static_cast<typename S::ActualT>(scalarValue), static_cast<int32_t>(order));
}

/* srcReg's lowest lane (pos LOWEST: where a Reduce leaves its result) or highest one in every
 * active lane of dstReg */
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S>
__aicore__ inline void Duplicate(S &dstReg, S &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Duplicate", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg),
                                    detail::In(mask), mode, static_cast<int32_t>(pos));
}

/* src's active lanes into dst (MERGING: the others kept); AscendC also names it Copy */
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void Move(U &dstReg, U &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, U>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Move", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg),
                                    detail::In(mask), mode);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
__aicore__ inline void Copy(U &dstReg, U &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    Move<T, mode, U>(dstReg, srcReg, mask, OPSNN_KT_AT);
}

/* ---- compare and select ---- */
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
__aicore__ inline void Compare(MaskReg &dst, U &srcReg0, U &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, U>();
    dst.handle_ = opsnn_kt::Call("MicroAPI.Compare", OPSNN_KT_AT, detail::Out(dst), detail::In(srcReg0),
                                 detail::In(srcReg1), detail::In(mask), mode);
}
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
__aicore__ inline void CompareScalar(MaskReg &dst, U &srcReg, S scalarValue, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, U>();
    dst.handle_ = opsnn_kt::Call("MicroAPI.CompareScalar", OPSNN_KT_AT, detail::Out(dst), detail::In(srcReg),
                                 static_cast<typename U::ActualT>(scalarValue), detail::In(mask), mode);
}
/* AscendC's other name of CompareScalar */
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
__aicore__ inline void Compares(MaskReg &dst, U &srcReg, S scalarValue, MaskReg &mask, OPSNN_KT_WHERE) {
    CompareScalar<T, mode, U, S>(dst, srcReg, scalarValue, mask, OPSNN_KT_AT);
}
template <typename T = DefaultType, typename U>
__aicore__ inline void Select(U &dstReg, U &srcReg0, U &srcReg1, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, U>();
    dstReg.handle_ = opsnn_kt::Call("MicroAPI.Select", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg0),
                                    detail::In(srcReg1), detail::In(mask));
}

/* ---- Cast: the trait's four fields travel as their enums' values ---- */
template <typename T = DefaultType, typename U = DefaultType, const CastTrait &trait = castTrait, typename S,
          typename V>
__aicore__ inline void Cast(S &dstReg, V &srcReg, MaskReg &mask, OPSNN_KT_WHERE) {
    detail::CheckType<T, S>();
    detail::CheckType<U, V>();
    dstReg.handle_ = opsnn_kt::Call(
        "MicroAPI.Cast", OPSNN_KT_AT, detail::Out(dstReg), detail::In(srcReg), detail::In(mask),
        opsnn_kt::Fields{"CastTrait", 4,
                         {static_cast<int64_t>(trait.layoutMode), static_cast<int64_t>(trait.satMode),
                          static_cast<int64_t>(trait.mrgMode), static_cast<int64_t>(trait.roundMode)}});
}

}  // namespace MicroAPI

/* the newer name of the same namespace (AscendC::Reg::RegTensor ...) */
namespace Reg = MicroAPI;
}  // namespace AscendC

#include "opsnn_kt/micro_reduce.h"  // Reduce, ReduceDataBlock (in-register reductions)
#include "opsnn_kt/micro_bitwise.h"  // And, Or, Xor, Not, ShiftLefts, ShiftRights
#include "opsnn_kt/micro_pack.h"  // Pack, UnPack
#include "opsnn_kt/micro_mask.h"  // Not, And, Or, Xor, Select on MaskRegs
#include "opsnn_kt/micro_addrreg.h"  // AddrReg, CreateAddrReg, the loads / stores taking one
#include "opsnn_kt/cce_predicates.h"  // plt_b8/16/32(count, POST_UPDATE)
#include "opsnn_kt/micro_unaligned.h"  // UnalignReg, LoadUnAlign(Pre), StoreUnAlign(Post)

#endif  // OPSNN_KT_MICRO_API_H_
