/* opsnn's atvoss: the placeholders a DAG's nodes read from and write to.
 *
 * In<k><T, Attr>  GM input k of element type T; Attr ScalarAttr<1> (or <true>) marks an input of
 *                 which only element 0 is read (a "tensor scalar", re-read from GM every tile).
 * Out<k><T>       GM output k.
 * Var<T, k>       scalar k the kernel sets (SetVar) or the tiling carries (scalarData).
 * MAKE_CONST(T,v) a constant known when the DAG is written.
 * None of them takes UB: only the nodes (Bind) do. */
#ifndef OPSNN_ATVOSS_UTIL_PLACEHOLDER_H_
#define OPSNN_ATVOSS_UTIL_PLACEHOLDER_H_

#include <cstdint>
#include <type_traits>

#ifndef __aicore__
#define __aicore__
#endif

namespace Ops {
namespace Base {
namespace Placeholder {

enum HolderScope { GM, VECTOR };

template <class T, class Attr_ = void, int pos = 0>
struct Holder {
    constexpr static int Pos = pos;
    constexpr static bool IsHolder = true;
    using DType = T;
    using Attr = Attr_;
};

template <HolderScope scope = HolderScope::GM, int isScalar = 0>
struct InAttr {
    constexpr static int IsScalar = isScalar;
    constexpr static HolderScope Scope = scope;
};
template <int isScalar = 0>
struct ScalarAttr : InAttr<HolderScope::GM, isScalar> {};
template <HolderScope scope = HolderScope::GM>
struct ScopeAttr : InAttr<scope, 0> {};

/* a GM input: what makes a type one is the InputTag base */
struct InputTag {};
struct OutputTag {};

#define OPSNN_ATVOSS_IN(k)                                                         \
    constexpr static int INPUT_HOLDER##k = k;                                     \
    template <class T, class Attr = InAttr<>>                                      \
    struct In##k : Holder<T, Attr, k>, InputTag {};
OPSNN_ATVOSS_IN(0) OPSNN_ATVOSS_IN(1) OPSNN_ATVOSS_IN(2) OPSNN_ATVOSS_IN(3) OPSNN_ATVOSS_IN(4) OPSNN_ATVOSS_IN(5)
OPSNN_ATVOSS_IN(6) OPSNN_ATVOSS_IN(7) OPSNN_ATVOSS_IN(8) OPSNN_ATVOSS_IN(9) OPSNN_ATVOSS_IN(10) OPSNN_ATVOSS_IN(11)
#undef OPSNN_ATVOSS_IN

#define OPSNN_ATVOSS_OUT(k)                                                        \
    constexpr static int OUTPUT_HOLDER##k = k;                                    \
    template <typename T, class Attr = void, class Parent_ = void>                 \
    struct Out##k : Holder<T, Attr, k>, OutputTag {                                \
        using Parent = Parent_;                                                    \
    };
OPSNN_ATVOSS_OUT(0) OPSNN_ATVOSS_OUT(1) OPSNN_ATVOSS_OUT(2) OPSNN_ATVOSS_OUT(3) OPSNN_ATVOSS_OUT(4)
OPSNN_ATVOSS_OUT(5) OPSNN_ATVOSS_OUT(6) OPSNN_ATVOSS_OUT(7) OPSNN_ATVOSS_OUT(8) OPSNN_ATVOSS_OUT(9)
#undef OPSNN_ATVOSS_OUT

template <class T, int pos, class Attr = void>
struct Var : Holder<T, Attr, pos> {
    constexpr static bool IsVarValue = true;
};

template <class T>
struct IsInHolder {
    constexpr static bool Value = std::is_base_of_v<InputTag, T>;
};
template <class T>
struct IsOutHolder {
    constexpr static bool Value = std::is_base_of_v<OutputTag, T>;
};

/* an input read as one element (ScalarAttr<1>) */
template <class T, bool = IsInHolder<T>::Value>
struct IsInScalar {
    constexpr static bool Value = false;
};
template <class T>
struct IsInScalar<T, true> {
    constexpr static bool Value = !std::is_void_v<typename T::Attr> && T::Attr::IsScalar == 1;
};

template <class T, class = void>
struct IsVar {
    constexpr static bool Value = false;
};
template <class T>
struct IsVar<T, std::void_t<decltype(T::IsVarValue)>> {
    constexpr static bool Value = true;
};

template <class T, class = void>
struct IsConstValue {
    constexpr static bool Value = false;
};
template <class T>
struct IsConstValue<T, std::void_t<decltype(T::IsConstValue_)>> {
    constexpr static bool Value = true;
};

/* A constant of type t. Arithmetic types keep the value as t; the 16-bit float types (whose
 * conversions are not constexpr here) keep it as double and convert where it is read. */
template <class T>
using ConstStorage = std::conditional_t<std::is_arithmetic_v<T>, T, double>;

#define OPSNN_ATVOSS_CAT_(a, b) a##b
#define OPSNN_ATVOSS_CAT(a, b) OPSNN_ATVOSS_CAT_(a, b)
#define MAKE_CONST(t, v)                                                              \
    struct OPSNN_ATVOSS_CAT(OpsnnAtvossConst_, __COUNTER__) {                          \
        constexpr static bool IsConstValue_ = true;                                    \
        using DType = t;                                                               \
        static constexpr ::Ops::Base::Placeholder::ConstStorage<t> value = v;          \
    }

}  // namespace Placeholder
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_UTIL_PLACEHOLDER_H_
