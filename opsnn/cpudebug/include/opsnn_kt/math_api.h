/* opsnn CPU-debug runtime: AscendC's high-level math APIs (Sign, Tanh, Log, Log2, Log10, Floor,
 * Ceil, Round, Trunc, Power, Erf, Erfc, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh,
 * Exp<T, taylorExpandLevel>), the accumulating
 * Axpy / MulAddDst, SetDeqScale, and the mask/repeat overloads instructions.h lacks (CompareScalar,
 * Duplicate and Cast with a uint64_t mask[2]). One call each into the emulator
 * (opsnn/ascendc/math_adv.py, ternary.py, deq.py ...). */
#ifndef OPSNN_KT_MATH_API_H_
#define OPSNN_KT_MATH_API_H_

#include <cstdint>

#include "opsnn_kt/reduce_api.h"

namespace AscendC {

/* the algorithm choices of the high-level APIs (the emulator's model is described per API) */
enum class ErfAlgo { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig {
    ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};
enum class TanhAlgo { INTRINSIC = 0, SUBSECTION_COMPENSATION };
struct TanhConfig {
    TanhAlgo algo = TanhAlgo::INTRINSIC;
};
constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
inline const char *EnumName(PowerAlgo a) {
    return a == PowerAlgo::INTRINSIC ? "PowerAlgo.INTRINSIC" : "PowerAlgo.DOUBLE_FLOAT_TECH";
}
struct PowerConfig {
    PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};

/* ---- unary high-level APIs: (dst, src[, sharedTmpBuffer][, calCount]); no calCount: src's size ---- */
/* A kernel may take a high-level API's address with AscendC's exact type (upstream's foreach
 * operators pass `Cos<half, false>` as a `void (*)(const LocalTensor<T>&, const LocalTensor<T>&,
 * const uint32_t)` template argument): as for the instructions (instructions.h), the last overload
 * of each, with exactly those parameters and a trailing empty pack, is what such a conversion picks
 * (for clang, whose partial ordering may find a call ambiguous, it is put aside in a namespace no
 * call looks in). */
#if !defined(__clang__)
#define OPSNN_KT_HIGH_LEVEL_POINTER_OPEN
#define OPSNN_KT_HIGH_LEVEL_POINTER_CLOSE
#else
#define OPSNN_KT_HIGH_LEVEL_POINTER_OPEN namespace opsnn_kt_clang_unused {
#define OPSNN_KT_HIGH_LEVEL_POINTER_CLOSE }
#endif
#define OPSNN_KT_HIGH_LEVEL_UNARY(Name, Extra, ExtraDefault)                                                      \
    template <typename T, bool isReuseSource = false Extra ExtraDefault>                                          \
    __aicore__ inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                 \
                                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,             \
                                OPSNN_KT_WHERE) {                                                                 \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dstTensor, srcTensor, sharedTmpBuffer, calCount);                      \
    }                                                                                                             \
    template <typename T, bool isReuseSource = false Extra ExtraDefault>                                          \
    __aicore__ inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                 \
                                const uint32_t calCount, OPSNN_KT_WHERE) {                                        \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dstTensor, srcTensor, calCount);                                       \
    }                                                                                                             \
    template <typename T, bool isReuseSource = false Extra ExtraDefault>                                          \
    __aicore__ inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                 \
                                const LocalTensor<uint8_t> &sharedTmpBuffer, OPSNN_KT_WHERE) {                    \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(OPSNN_KT_AT)); \
    }                                                                                                             \
    template <typename T, bool isReuseSource = false Extra ExtraDefault>                                          \
    __aicore__ inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, OPSNN_KT_WHERE) { \
        opsnn_kt::Call(#Name, OPSNN_KT_AT, dstTensor, srcTensor, srcTensor.GetSize(OPSNN_KT_AT));                 \
    }                                                                                                             \
    OPSNN_KT_HIGH_LEVEL_POINTER_OPEN                                                                              \
    template <typename T, bool isReuseSource = false Extra ExtraDefault, typename... None,                        \
              typename = std::enable_if_t<sizeof...(None) == 0>>                                                   \
    __aicore__ inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                 \
                                const uint32_t calCount, None...) {                                               \
        opsnn_kt::Call(#Name, "(a call through a pointer to AscendC::" #Name ")", 0, dstTensor, srcTensor,        \
                       calCount);                                                                                 \
    }                                                                                                             \
    OPSNN_KT_HIGH_LEVEL_POINTER_CLOSE
#define OPSNN_KT_NO_EXTRA
#define OPSNN_KT_COMMA ,
OPSNN_KT_HIGH_LEVEL_UNARY(Sign, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Log, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Log2, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Log10, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Floor, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Ceil, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Round, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Trunc, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Erfc, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
/* the configurable ones: every algorithm gets the emulator's one model (math_adv.py) */
OPSNN_KT_HIGH_LEVEL_UNARY(Tanh, OPSNN_KT_COMMA const TanhConfig &config, = DEFAULT_TANH_CONFIG)
OPSNN_KT_HIGH_LEVEL_UNARY(Erf, OPSNN_KT_COMMA const ErfConfig &config, = defaultErfConfig)
OPSNN_KT_HIGH_LEVEL_UNARY(Sin, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Cos, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Tan, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Asin, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Acos, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Atan, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Sinh, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
OPSNN_KT_HIGH_LEVEL_UNARY(Cosh, OPSNN_KT_NO_EXTRA, OPSNN_KT_NO_EXTRA)
#undef OPSNN_KT_HIGH_LEVEL_UNARY
#undef OPSNN_KT_HIGH_LEVEL_POINTER_OPEN
#undef OPSNN_KT_HIGH_LEVEL_POINTER_CLOSE
#undef OPSNN_KT_NO_EXTRA
#undef OPSNN_KT_COMMA

/* The integer Ceil of AscendC's kernel utilities (ceil(a / b) in uint32 arithmetic), an overload
 * beside the high-level Ceil: kernels split work with it. ConstCeil is its constexpr twin. */
__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* the high-level Exp: Taylor expansion of the given level on the device, Exp's model here */
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t calCount,
                           OPSNN_KT_WHERE) {
    opsnn_kt::Call("ExpHighLevel", OPSNN_KT_AT, dstLocal, srcLocal, calCount);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                           const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("ExpHighLevel", OPSNN_KT_AT, dstLocal, srcLocal, sharedTmpBuffer, calCount);
}

/* ---- Power: tensor ** tensor, tensor ** scalar, scalar ** tensor ---- */
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,
                             const LocalTensor<T> &src1Tensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                             uint32_t calCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, calCount, config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,
                             const LocalTensor<T> &src1Tensor, uint32_t calCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Tensor, src1Tensor, calCount, config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,
                             const LocalTensor<T> &src1Tensor, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(OPSNN_KT_AT),
                   config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const T &src1Scalar,
                             const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, calCount, config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const T &src1Scalar,
                             uint32_t calCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Tensor, src1Scalar, calCount, config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const T &src1Scalar,
                             OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize(OPSNN_KT_AT),
                   config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const T &src0Scalar, const LocalTensor<T> &src1Tensor,
                             const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, calCount, config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const T &src0Scalar, const LocalTensor<T> &src1Tensor,
                             uint32_t calCount, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Scalar, src1Tensor, calCount, config.algo);
}
template <typename T, bool isReuseSource = false, const PowerConfig &config = defaultPowerConfig>
__aicore__ inline void Power(const LocalTensor<T> &dstTensor, const T &src0Scalar, const LocalTensor<T> &src1Tensor,
                             OPSNN_KT_WHERE) {
    opsnn_kt::Call("Power", OPSNN_KT_AT, dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize(OPSNN_KT_AT),
                   config.algo);
}

/* ---- dst += ... : Axpy (dst = scalar * src + dst), MulAddDst (dst = src0 * src1 + dst) ---- */
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue,
                            const int32_t &count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Axpy", OPSNN_KT_AT, dst, src, scalarValue, count);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue, uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams &repeatParams, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Axpy", OPSNN_KT_AT, dst, src, scalarValue, opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime,
                   repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue,
                            uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                            OPSNN_KT_WHERE) {
    opsnn_kt::Call("Axpy", OPSNN_KT_AT, dst, src, scalarValue, opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime,
                   repeatParams);
}
template <typename T, typename U>
__aicore__ inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                                 const int32_t &count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("MulAddDst", OPSNN_KT_AT, dst, src0, src1, count);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                                 uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                                 OPSNN_KT_WHERE) {
    opsnn_kt::Call("MulAddDst", OPSNN_KT_AT, dst, src0, src1, opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime,
                   repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                                 const uint64_t mask[], const uint8_t repeatTime,
                                 const BinaryRepeatParams &repeatParams, OPSNN_KT_WHERE) {
    opsnn_kt::Call("MulAddDst", OPSNN_KT_AT, dst, src0, src1, opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime,
                   repeatParams);
}

/* dst = src0 * dst + src1 (count form; ternary.py) */
template <typename T>
__aicore__ inline void FusedMulAdd(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                                   const int32_t &count, OPSNN_KT_WHERE) {
    opsnn_kt::Call("FusedMulAdd", OPSNN_KT_AT, dst, src0, src1, count);
}

/* ---- DEQSCALE: the scale of the int32 -> half Cast ---- */
__aicore__ inline void SetDeqScale(half scale, OPSNN_KT_WHERE) { opsnn_kt::Call("SetDeqScale", OPSNN_KT_AT, scale); }
__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode, OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetDeqScale", OPSNN_KT_AT, scale, offset, signMode);
}

/* ---- the mask/repeat overloads instructions.h lacks ---- */
template <typename T, typename U, typename S, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar,
                                     CMPMODE mode, uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams &p,
                                     OPSNN_KT_WHERE) {
    opsnn_kt::Call("CompareScalar", OPSNN_KT_AT, dst, src0, static_cast<T>(scalar), mode,
                   opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime, p);
}
template <typename T, typename U, typename S, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar,
                                     CMPMODE mode, const uint64_t mask[], uint8_t repeatTime,
                                     const UnaryRepeatParams &p, OPSNN_KT_WHERE) {
    opsnn_kt::Call("CompareScalar", OPSNN_KT_AT, dst, src0, static_cast<T>(scalar), mode,
                   opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime, p);
}
template <typename T, typename U, typename S, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const S &scalar, CMPMODE mode,
                                const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams &p,
                                OPSNN_KT_WHERE) {
    opsnn_kt::Call("Compares", OPSNN_KT_AT, dst, src0, static_cast<T>(scalar), mode,
                   opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTime, p);
}
template <typename T, bool isSetMask = true, typename U>
__aicore__ inline void Duplicate(const LocalTensor<T> &dst, const U &scalar, uint64_t mask, const uint8_t repeatTime,
                                 const uint16_t dstBlockStride, const uint8_t dstRepeatStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Duplicate", OPSNN_KT_AT, dst, static_cast<T>(scalar), opsnn_kt::MaskOrRegister<isSetMask>(mask),
                   repeatTime, dstBlockStride, dstRepeatStride);
}
template <typename T, bool isSetMask = true, typename U>
__aicore__ inline void Duplicate(const LocalTensor<T> &dst, const U &scalar, uint64_t mask[], const uint8_t repeatTime,
                                 const uint16_t dstBlockStride, const uint8_t dstRepeatStride, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Duplicate", OPSNN_KT_AT, dst, static_cast<T>(scalar), opsnn_kt::MaskOrRegister<isSetMask>(mask),
                   repeatTime, dstBlockStride, dstRepeatStride);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &mode,
                            const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams &p,
                            OPSNN_KT_WHERE) {
    opsnn_kt::Call("Cast", OPSNN_KT_AT, dst, src, mode, opsnn_kt::MaskOrRegister<isSetMask>(mask), repeatTimes, p);
}

}  // namespace AscendC

#endif  // OPSNN_KT_MATH_API_H_
