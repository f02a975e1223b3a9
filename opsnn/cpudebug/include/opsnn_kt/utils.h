/* opsnn CPU-debug runtime: AscendC's scalar helpers and constants (AscendC::Std min/max,
 * AlignUp, DivCeil, the block/repeat sizes, MASK_PLACEHOLDER) as kernel code uses them.
 * They are plain host arithmetic: nothing here reaches the emulator. */
#ifndef OPSNN_KT_UTILS_H_
#define OPSNN_KT_UTILS_H_

#include <cstdint>
#include <type_traits>

namespace AscendC {

/* sizes of the Atlas A2 vector unit (bytes): one data block, one repeat */
constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr uint16_t DEFAULT_DATA_COPY_STRIDE = 0;
constexpr int32_t ONE_BLOCK_SIZE = ONE_BLK_SIZE;
/* the element counts AscendC derives from them, under its names (uint32_t, as AscendC declares them) */
constexpr uint32_t B8_BYTE_SIZE = 1;
constexpr uint32_t B16_BYTE_SIZE = 2;
constexpr uint32_t B32_BYTE_SIZE = 4;
constexpr uint32_t B64_BYTE_SIZE = 8;
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;
/* The mask argument of a repeat form called with isSetMask = false: the instruction uses the mask
 * SetVectorMask set, so the value passed is a placeholder. */
constexpr int32_t MASK_PLACEHOLDER = 0;
/* both words of a normal-mode mask, all lanes on */
constexpr uint64_t FULL_MASK = 0xffffffffffffffffULL;
/* elements of 32- and 16-bit types in one data block and one repeat (AscendC's names) */
constexpr uint8_t B32_DATA_NUM_PER_BLOCK = ONE_BLK_SIZE / 4;
constexpr uint8_t B16_DATA_NUM_PER_BLOCK = ONE_BLK_SIZE / 2;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = ONE_REPEAT_BYTE_SIZE / 4;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = ONE_REPEAT_BYTE_SIZE / 2;
constexpr int32_t DEFAULT_C0_SIZE = 32;
/* the Unified Buffer of the SoC compiled for (kernels size their own buffers from these):
 * Atlas A2 (__NPU_ARCH__ 2201) 192 KiB, of which the vector side's local data may use 184 KiB;
 * Ascend950 (3510) 248 KiB, all of it. */
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
constexpr uint32_t TOTAL_UB_SIZE = 248 * 1024;
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 248 * 1024;
#else
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
#endif

/* Integer helpers. Two template parameters, so mixed widths (uint32_t count, uint64_t block) call
 * them as kernels do; a kernel's own same-named (T, T) template is more specialised and wins. */
template <typename T, typename U>
__aicore__ constexpr inline std::common_type_t<T, U> DivCeil(T a, U b) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(b) == 0 ? static_cast<C>(0) : (static_cast<C>(a) + static_cast<C>(b) - 1) / static_cast<C>(b);
}
template <typename T, typename U>
__aicore__ constexpr inline std::common_type_t<T, U> AlignUp(T a, U b) {
    using C = std::common_type_t<T, U>;
    return DivCeil(a, b) * static_cast<C>(b);
}
template <typename T, typename U>
__aicore__ constexpr inline std::common_type_t<T, U> min(T a, U b) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(a) : static_cast<C>(b);
}
template <typename T, typename U>
__aicore__ constexpr inline std::common_type_t<T, U> max(T a, U b) {
    using C = std::common_type_t<T, U>;
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}

/* AscendC::Std: the scalar subset of the standard library kernels call on device. */
namespace Std {
template <typename T, typename U>
__aicore__ constexpr inline std::common_type_t<T, U> min(T a, U b) { return AscendC::min(a, b); }
template <typename T, typename U>
__aicore__ constexpr inline std::common_type_t<T, U> max(T a, U b) { return AscendC::max(a, b); }
template <typename T> __aicore__ constexpr inline T abs(T a) { return a < T(0) ? -a : a; }
using std::integral_constant;
using std::is_same;
using std::is_same_v;
using std::enable_if;
using std::enable_if_t;
using std::conditional;
using std::conditional_t;
}  // namespace Std

}  // namespace AscendC

#endif  // OPSNN_KT_UTILS_H_
