/* opsnn's atvoss: the vector ops a DAG node runs (Ops::Base::Vec), with the names and template
 * parameters upstream's DAGs write them with.
 *
 * An op is a struct whose base says its types (FunBase: outputs, inputs, their element types, the
 * scratch it needs) and whose constructor runs it on one tile: the schedule constructs
 * `Op(dst, src..., count)` with the tile's LocalTensors and scalars. A DAG's own op (a struct
 * deriving from ElemwiseUnaryOP<...> and so on, often written with MicroAPI registers) is run the
 * same way.
 *
 * Kernel side (a CPU-debug build: __CCE_KT_TEST__): each op is one count-form instruction on the
 * emulator ("Atvoss.<name>", opsnn/cpudebug/atvoss_vec.py), the functions opsnn's Python atvoss
 * runs for the same op, so a DAG computes the same bits in C++ and in Python. Host side (tiling
 * code that includes a DAG to size its buffers): the types only.
 *
 * Ops upstream has that the emulator does not compute (AtanPolyApprox, Fmod, DivHighPrecision,
 * Truncate, FusedMulAdd, Ands, Ors, Brc) are declared, so a kernel naming them in a branch its test
 * does not take still builds; running one fails the launch naming it. */
#ifndef OPSNN_ATVOSS_UTIL_VEC_H_
#define OPSNN_ATVOSS_UTIL_VEC_H_

#include <cstdint>
#include <type_traits>

#include "atvoss/util/elems.h"

#ifdef __CCE_KT_TEST__
#include "kernel_operator.h"
#define OPSNN_ATVOSS_KERNEL 1
namespace Ops {
namespace Base {
using namespace AscendC;  // DAG and kernel code reaches AscendC's names through Ops::Base, as upstream's does
}  // namespace Base
}  // namespace Ops
#else
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
namespace Ops {
namespace Base {
/* what host code needs of the kernel types: their names and sizes */
struct half {
    uint16_t value;
};
struct bfloat16_t {
    uint16_t value;
};
template <class T>
struct LocalTensor {};
template <class T>
struct GlobalTensor {
    void SetGlobalBuffer(T *) {}
};
}  // namespace Base
}  // namespace Ops
#endif

namespace Ops {
namespace Base {

/* A 1-bit element: a mask input or output whose bytes hold 8 elements each. */
struct uint1_t {};

namespace Vec {

template <int outSize, int inSize, int tempSize = 0, int fixedBuf = 0, bool isAdvanced = false, class... DataType_>
struct FunBase {
    constexpr static int OutputSize = outSize;
    constexpr static int InputSize = inSize;
    constexpr static int TempSize = tempSize;  // scratch tiles the op needs while it runs
    constexpr static int FixedSize = fixedBuf;
    constexpr static bool IsAdvanced = isAdvanced;
    constexpr static int FuncType = 0;  // 1: a reduction

    using DataTypes = Elems<DataType_...>;
    template <int offset>
    using FunRetArgType = typename DataTypes::template At<offset>;
    template <int offset>
    using FunInArgType = typename DataTypes::template At<outSize + offset>;
};

template <class R, class In1, int tempBufSize = 0, int fixedBuf = 0, bool isAdvanced = false>
struct ElemwiseUnaryOP : FunBase<1, 1, tempBufSize, fixedBuf, isAdvanced, R, In1> {};
template <class R, class In1, class In2, int tempBufSize = 0, int fixedBuf = 0, bool isAdvanced = false>
struct ElemwiseBinaryOP : FunBase<1, 2, tempBufSize, fixedBuf, isAdvanced, R, In1, In2> {};
template <class R, class In1, class In2, class In3, int tempBufSize = 0, int fixedBuf = 0, bool isAdvanced = false>
struct ElemwiseTernaryOP : FunBase<1, 3, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3> {};
template <class R, class In1, class In2, class In3, class In4, int tempBufSize = 0, int fixedBuf = 0,
          bool isAdvanced = false>
struct ElemwiseQuaternaryOP : FunBase<1, 4, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4> {};
template <class R, class In1, class In2, class In3, class In4, class In5, int tempBufSize = 0, int fixedBuf = 0,
          bool isAdvanced = false>
struct ElemwiseQuinaryOP : FunBase<1, 5, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4, In5> {};
template <class R, class In1, class In2, class In3, class In4, class In5, class In6, int tempBufSize = 0,
          int fixedBuf = 0, bool isAdvanced = false>
struct Elemwise6OP : FunBase<1, 6, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4, In5, In6> {};
template <class R, class In1, class In2, class In3, class In4, class In5, class In6, class In7,
          int32_t tempBufSize = 0, int32_t fixedBuf = 0, bool isAdvanced = false>
struct Elemwise7OP : FunBase<1, 7, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4, In5, In6, In7> {};
template <class R, class In1, class In2, class In3, class In4, class In5, class In6, class In7, class In8,
          int32_t tempBufSize = 0, int32_t fixedBuf = 0, bool isAdvanced = false>
struct Elemwise8OP : FunBase<1, 8, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4, In5, In6, In7, In8> {};
template <class R, class In1, class In2, class In3, class In4, class In5, class In6, class In7, class In8, class In9,
          int32_t tempBufSize = 0, int32_t fixedBuf = 0, bool isAdvanced = false>
struct Elemwise9OP
    : FunBase<1, 9, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4, In5, In6, In7, In8, In9> {};
template <class R, class In1, class In2, class In3, class In4, class In5, class In6, class In7, class In8, class In9,
          class In10, int32_t tempBufSize = 0, int32_t fixedBuf = 0, bool isAdvanced = false>
struct Elemwise10OP
    : FunBase<1, 10, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4, In5, In6, In7, In8, In9, In10> {};
template <class R, class In1, class In2, class In3, class In4, class In5, class In6, class In7, class In8, class In9,
          class In10, class In11, int32_t tempBufSize = 0, int32_t fixedBuf = 0, bool isAdvanced = false>
struct Elemwise11OP : FunBase<1, 11, tempBufSize, fixedBuf, isAdvanced, R, In1, In2, In3, In4, In5, In6, In7, In8,
                              In9, In10, In11> {};

#ifdef OPSNN_ATVOSS_KERNEL
/* one count-form instruction on the emulator (opsnn/cpudebug/atvoss_vec.py) */
#define OPSNN_ATVOSS_RUN(name, ...) ::opsnn_kt::Call("Atvoss." name, __FILE__, __LINE__, __VA_ARGS__)
#define OPSNN_ATVOSS_BODY(...) { OPSNN_ATVOSS_RUN(__VA_ARGS__); }
#else
#define OPSNN_ATVOSS_BODY(...) {}
#endif

/* ---- ops of one tensor ---- */
#define OPSNN_ATVOSS_UNARY(Op, name, ...)                                                                      \
    template <class T>                                                                                         \
    struct Op : ElemwiseUnaryOP<T, T, ##__VA_ARGS__> {                                                         \
        __aicore__ inline Op(const LocalTensor<T> &dst, const LocalTensor<T> &src, int count)                \
            OPSNN_ATVOSS_BODY(name, dst, src, count)                                                           \
    };
OPSNN_ATVOSS_UNARY(Reciprocal, "Reciprocal")
OPSNN_ATVOSS_UNARY(Log, "Log")
OPSNN_ATVOSS_UNARY(Abs, "Abs")
OPSNN_ATVOSS_UNARY(Exp, "Exp")
OPSNN_ATVOSS_UNARY(Sqrt, "Sqrt")
OPSNN_ATVOSS_UNARY(Not, "Not")
OPSNN_ATVOSS_UNARY(Erfc, "Erfc", 0, 0, true)
OPSNN_ATVOSS_UNARY(Sin, "Sin", 0, 0, true)
OPSNN_ATVOSS_UNARY(Cos, "Cos", 0, 0, true)
OPSNN_ATVOSS_UNARY(AtanPolyApprox, "AtanPolyApprox", 0, 0, true)
OPSNN_ATVOSS_UNARY(Erf, "Erf", 0, 0, true)
#undef OPSNN_ATVOSS_UNARY

template <class T>
struct Copy : ElemwiseUnaryOP<T, T> {
    __aicore__ inline Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, int count)
        OPSNN_ATVOSS_BODY("Copy", dst, src, count)  // UB -> UB, the bits unchanged
};

/* Relu's base names two inputs, as upstream's does (it changes no buffer count: an op's input
 * count is its Bind's arguments) */
template <class T>
struct Relu : ElemwiseBinaryOP<T, T, T> {
    __aicore__ inline Relu(const LocalTensor<T> &dst, const LocalTensor<T> &src, int32_t count)
        OPSNN_ATVOSS_BODY("Relu", dst, src, count)
};

/* sqrt correctly rounded (0 ulp, subnormals kept): the emulator's Sqrt is exactly that */
template <class U, class T>
struct Sqrt0ULP : ElemwiseUnaryOP<T, T> {
    __aicore__ inline Sqrt0ULP(const LocalTensor<T> &dst, const LocalTensor<T> &src, int count)
        OPSNN_ATVOSS_BODY("Sqrt", dst, src, count)
};

template <class T>
struct Duplicate : ElemwiseUnaryOP<T, T> {
    __aicore__ inline Duplicate(const LocalTensor<T> &dst, const T &scalar, const int32_t &count)
        OPSNN_ATVOSS_BODY("Duplicate", dst, scalar, count)
};

template <class R, class T, int roundMode>
struct Cast : ElemwiseUnaryOP<R, T> {
    __aicore__ inline Cast(const LocalTensor<R> &dst, const LocalTensor<T> &src, const uint32_t &count)
#ifdef OPSNN_ATVOSS_KERNEL
    {
        OPSNN_ATVOSS_RUN("Cast", dst, src, static_cast<AscendC::RoundMode>(roundMode), count);
    }
#else
    {}
#endif
    /* a scalar op (its source a scalar): C++'s conversion, as the scalar unit converts */
    __aicore__ inline Cast(R &dst, T &scalar, int count) {
        (void)count;
        dst = static_cast<R>(scalar);
    }
};

template <class T, int roundMode>
struct Truncate : ElemwiseUnaryOP<T, T> {
    __aicore__ inline Truncate(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t &count)
        OPSNN_ATVOSS_BODY("Truncate", dst, src, count)
};

/* ---- ops of two operands (a tensor and a tensor or a scalar) ---- */
#define OPSNN_ATVOSS_BINARY(Op, name, ...)                                                                     \
    template <class T>                                                                                         \
    struct Op : ElemwiseBinaryOP<T, T, T, ##__VA_ARGS__> {                                                     \
        __aicore__ inline Op(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, \
                             int count) OPSNN_ATVOSS_BODY(name, dst, src0, src1, count)                         \
    };
OPSNN_ATVOSS_BINARY(Add, "Add")
OPSNN_ATVOSS_BINARY(Sub, "Sub")
OPSNN_ATVOSS_BINARY(Mul, "Mul")
OPSNN_ATVOSS_BINARY(Div, "Div")
OPSNN_ATVOSS_BINARY(Max, "Max")
OPSNN_ATVOSS_BINARY(Min, "Min")
OPSNN_ATVOSS_BINARY(And, "And")
OPSNN_ATVOSS_BINARY(Or, "Or")
OPSNN_ATVOSS_BINARY(DivHighPrecision, "DivHighPrecision")
OPSNN_ATVOSS_BINARY(Fmod, "Fmod", 0, 0, true)
OPSNN_ATVOSS_BINARY(FmodHighPrecision, "FmodHighPrecision", 0, 0, true)
#undef OPSNN_ATVOSS_BINARY

/* Tensor and scalar in either order; a scalar op when both are scalars (the scalar unit's C++
 * arithmetic). `tensorFirst` / `scalarFirst` name the instruction each order runs. */
#define OPSNN_ATVOSS_SCALAR(Op, tensorFirst, scalarFirst, expr)                                                \
    template <class T>                                                                                         \
    struct Op : ElemwiseBinaryOP<T, T, T> {                                                                    \
        __aicore__ inline Op(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalar, int count) \
            OPSNN_ATVOSS_BODY(tensorFirst, dst, src, scalar, count)                                            \
        __aicore__ inline Op(const LocalTensor<T> &dst, const T &scalar, const LocalTensor<T> &src, int count) \
            OPSNN_ATVOSS_BODY(scalarFirst, dst, scalar, src, count)                                            \
        __aicore__ inline Op(T &dst, const T &a, const T &b, int count) {                                      \
            (void)count;                                                                                       \
            dst = static_cast<T>(expr);                                                                        \
        }                                                                                                      \
    };
OPSNN_ATVOSS_SCALAR(Adds, "Adds", "AddsScalarFirst", a + b)
OPSNN_ATVOSS_SCALAR(Muls, "Muls", "MulsScalarFirst", a * b)
OPSNN_ATVOSS_SCALAR(Subs, "Subs", "SubsScalarFirst", a - b)
OPSNN_ATVOSS_SCALAR(Divs, "Divs", "DivsScalarFirst", a / b)
OPSNN_ATVOSS_SCALAR(Maxs, "Maxs", "MaxsScalarFirst", a < b ? b : a)
OPSNN_ATVOSS_SCALAR(Mins, "Mins", "MinsScalarFirst", b < a ? b : a)
OPSNN_ATVOSS_SCALAR(Ands, "Ands", "AndsScalarFirst", a & b)
OPSNN_ATVOSS_SCALAR(Ors, "Ors", "OrsScalarFirst", a | b)
#undef OPSNN_ATVOSS_SCALAR

template <class T>
struct LeakyRelu : ElemwiseBinaryOP<T, T, T> {
    __aicore__ inline LeakyRelu(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,
                                int count) OPSNN_ATVOSS_BODY("LeakyRelu", dst, src, scalarValue, count)
};

template <class T>
struct Power : ElemwiseBinaryOP<T, T, T> {
    __aicore__ inline Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                            uint32_t count) OPSNN_ATVOSS_BODY("Power", dst, src0, src1, count)
    __aicore__ inline Power(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const T &src1, uint32_t count)
        OPSNN_ATVOSS_BODY("Power", dst, src0, src1, count)
    __aicore__ inline Power(const LocalTensor<T> &dst, const T &src0, const LocalTensor<T> &src1, uint32_t count)
        OPSNN_ATVOSS_BODY("PowerScalarFirst", dst, src0, src1, count)
};

/* uint8 mask: bit i = src0[i] <cmpMode> src1[i] (CMPMODE: LT GT EQ LE GE NE) */
template <class R, class T, int cmpMode>
struct Compare : ElemwiseBinaryOP<R, T, T> {
    __aicore__ inline Compare(const LocalTensor<R> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
                              uint32_t count) OPSNN_ATVOSS_BODY("Compare", dst, src0, src1, Mode(), count)
    __aicore__ inline Compare(const LocalTensor<R> &dst, const LocalTensor<T> &src0, T src1, uint32_t count)
        OPSNN_ATVOSS_BODY("Compare", dst, src0, src1, Mode(), count)
#ifdef OPSNN_ATVOSS_KERNEL
    static AscendC::CMPMODE Mode() { return static_cast<AscendC::CMPMODE>(cmpMode); }
#endif
};

/* src0 where the mask bit is set, src1 elsewhere; either source may be a scalar */
template <class U, class T, int selMode>
struct Select : ElemwiseTernaryOP<T, U, T, T> {
    __aicore__ inline Select(const LocalTensor<T> &dst, const LocalTensor<U> &mask, const LocalTensor<T> &src0,
                             const LocalTensor<T> &src1, uint32_t count)
        OPSNN_ATVOSS_BODY("Select", dst, mask, src0, src1, static_cast<AscendC::SELMODE>(selMode), count)
    __aicore__ inline Select(const LocalTensor<T> &dst, const LocalTensor<U> &mask, const LocalTensor<T> &src0,
                             T src1, uint32_t count)
        OPSNN_ATVOSS_BODY("Select", dst, mask, src0, src1, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count)
    __aicore__ inline Select(const LocalTensor<T> &dst, const LocalTensor<U> &mask, T src0,
                             const LocalTensor<T> &src1, uint32_t count)
        OPSNN_ATVOSS_BODY("Select", dst, mask, src0, src1, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count)
};

/* dst = src1 + src2 * alpha */
template <class T>
struct FusedMulAdd : ElemwiseTernaryOP<T, T, T, T> {
    __aicore__ inline FusedMulAdd(const LocalTensor<T> &dst, const LocalTensor<T> &src1, const LocalTensor<T> &src2,
                                  const LocalTensor<T> &alpha, int count)
        OPSNN_ATVOSS_BODY("FusedMulAdd", dst, src1, src2, alpha, count)
};

/* dst = src1 + src2 * scalar */
template <class T>
struct Axpy : ElemwiseTernaryOP<T, T, T, T> {
    __aicore__ inline Axpy(const LocalTensor<T> &dst, const T &scalar, const LocalTensor<T> &src1,
                           const LocalTensor<T> &src2, int count)
        OPSNN_ATVOSS_BODY("Axpy", dst, src1, src2, scalar, count)
    __aicore__ inline Axpy(const LocalTensor<T> &dst, const LocalTensor<T> &src1, const LocalTensor<T> &src2,
                           const T &scalar, int count) OPSNN_ATVOSS_BODY("Axpy", dst, src1, src2, scalar, count)
};

/* ---- data movement: the schedules run these with the tile's GM window ---- */
#ifdef OPSNN_ATVOSS_KERNEL
namespace copy_detail {
template <class T>
inline AscendC::DataCopyExtParams Whole(uint32_t count) {
    return AscendC::DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
}
}  // namespace copy_detail
#define OPSNN_ATVOSS_COPY_IN(dst, src, count) \
    AscendC::DataCopyPad(dst, src, copy_detail::Whole<T>(count), AscendC::DataCopyPadExtParams<T>{false, 0, 0, T{}})
#else
#define OPSNN_ATVOSS_COPY_IN(dst, src, count)
#endif

template <class T>
struct CopyIn : ElemwiseUnaryOP<T, T> {
    __aicore__ inline CopyIn(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
        OPSNN_ATVOSS_COPY_IN(dst, src, count);
    }
};

/* A GM input the broadcast schedules may broadcast to the output tile. */
constexpr static uint8_t NDDMA_DIM = 5;
template <class T, int group = 0>
struct CopyInBrc : ElemwiseUnaryOP<T, T, 1> {
    __aicore__ inline CopyInBrc(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
        OPSNN_ATVOSS_COPY_IN(dst, src, count);
    }
};
#undef OPSNN_ATVOSS_COPY_IN

template <class T>
struct CopyOut : ElemwiseUnaryOP<T, T> {
    __aicore__ inline CopyOut(const GlobalTensor<T> &dst, const LocalTensor<T> &src, int count) {
#ifdef OPSNN_ATVOSS_KERNEL
        AscendC::DataCopyPad(dst, src, copy_detail::Whole<T>(count));
#endif
    }
};

/* A broadcast in UB (VecBrc): declared so DAGs naming it build; no opsnn schedule runs one. */
template <class T, int group = 0, int constRank = -1>
struct Brc : ElemwiseUnaryOP<T, T> {
    __aicore__ inline Brc(const LocalTensor<T> &dst, const LocalTensor<T> &src, int count)
        OPSNN_ATVOSS_BODY("Brc", dst, src, count)
};

/* the marker of a reduction node (FuncType 1); the reduce schedules run it */
template <class T>
struct ReduceOp : ElemwiseUnaryOP<T, T> {
    constexpr static int FuncType = 1;
    __aicore__ inline ReduceOp() {}
    __aicore__ inline ReduceOp(const LocalTensor<T> &, const LocalTensor<T> &, int) {}
};

#undef OPSNN_ATVOSS_BODY

/* ---- what the framework asks of an op ---- */
template <class F>
struct IsCastOp {
    constexpr static bool Value = false;
};
template <class R, class T, int mode>
struct IsCastOp<Cast<R, T, mode>> {
    constexpr static bool Value = true;
};

/* a Cast to the type it reads: no op (the DAG drops it) */
template <class F>
struct IsCastNoOp {
    constexpr static bool Value = false;
};
template <class R, class T, int mode>
struct IsCastNoOp<Cast<R, T, mode>> {
    constexpr static bool Value = std::is_same_v<R, T>;
};

template <class F>
struct IsCopyInBrcOp {
    constexpr static bool Value = false;
};
template <class T, int group>
struct IsCopyInBrcOp<CopyInBrc<T, group>> {
    constexpr static bool Value = true;
};

template <class F>
struct IsCopyInOp {
    constexpr static bool Value = IsCopyInBrcOp<F>::Value;
};
template <class T>
struct IsCopyInOp<CopyIn<T>> {
    constexpr static bool Value = true;
};

template <class F>
struct IsVecBrcOp {
    constexpr static bool Value = false;
};
template <class T, int group, int constRank>
struct IsVecBrcOp<Brc<T, group, constRank>> {
    constexpr static bool Value = true;
};

template <class F>
struct IsCopyOutOp {
    constexpr static bool Value = false;
};
template <class T>
struct IsCopyOutOp<CopyOut<T>> {
    constexpr static bool Value = true;
};

template <class F>
struct IsReduceOp {
    constexpr static bool Value = F::FuncType == 1;
};

template <class F>
struct IsDuplicateOp {
    constexpr static bool Value = false;
};
template <class T>
struct IsDuplicateOp<Duplicate<T>> {
    constexpr static bool Value = true;
};

}  // namespace Vec
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_UTIL_VEC_H_
