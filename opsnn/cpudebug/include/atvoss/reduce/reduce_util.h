/* opsnn's atvoss reduce framework: the names reduce DAGs, kernels and tilings share -- the pattern
 * ids (a reduced tensor's dimensions collapsed to alternating kept (A) and reduced (R) axes: A, AR,
 * RA, ARA ... ARARARARA), the pattern tags, each input type's promoted compute type, and the
 * structures the schedule describes a tile with. Host code (tilings) sees the same names.
 *
 * Pattern ids as upstream's tiling encodes them: PatternID = 10 * pattern + inner pattern (the
 * 2-D reduction a tile runs: 0 RA, 1 AR), 100 for a pure A (no reduction). */
#ifndef OPSNN_ATVOSS_REDUCE_REDUCE_UTIL_H_
#define OPSNN_ATVOSS_REDUCE_REDUCE_UTIL_H_

#include <cstdint>

#include "atvoss/util/vec.h"

#ifndef INFINITY
#define INFINITY (__builtin_inff())
#endif

namespace Ops {
namespace Base {
namespace ReduceOpTmpl {

/* Kernels name the framework's types through `using namespace Ops::Base::ReduceOpTmpl` alone
 * (ReduceOpTilingData, Vec::...): the Base names are reachable through this namespace, as
 * upstream's are. */
using namespace Ops::Base;

constexpr int32_t DIM0 = 0, DIM1 = 1, DIM2 = 2, DIM3 = 3, DIM4 = 4, DIM5 = 5, DIM6 = 6, DIM7 = 7, DIM8 = 8,
                  DIM9 = 9;
constexpr int32_t CONST0 = 0, CONST1 = 1, CONST2 = 2, CONST3 = 3, CONST4 = 4, CONST5 = 5, CONST6 = 6, CONST7 = 7,
                  CONST8 = 8, CONST9 = 9, CONST10 = 10;

constexpr int32_t MAX_DIM = 9;                     // a pattern's axes at most
constexpr int32_t MAX_LOOP_DIM = (MAX_DIM + 1) / 2;  // its A axes at most
constexpr int32_t PATTERN_A = 10;
constexpr int32_t PATTERN_RA = 0;
constexpr int32_t PATTERN_AR = 1;
constexpr int32_t PATTERN_ARA = 2;
constexpr int32_t PATTERN_ARAR = 3;
constexpr int32_t PATTERN_ARARA = 4;
constexpr int32_t PATTERN_ARARAR = 5;
constexpr int32_t PATTERN_ARARARA = 6;
constexpr int32_t PATTERN_ARARARAR = 7;
constexpr int32_t PATTERN_ARARARARA = 8;

/* IsSameV<T, T>::Type exists, IsSameV<T, U> has none: an enable-if on two types */
template <class T, class U>
struct IsSameV {};
template <class T>
struct IsSameV<T, T> {
    using Type = T;
};

namespace __reducePattern {
/* ID, whether axis 0 is kept (FirstA), whether the last one is (TailA), the number of axes */
template <uint32_t id, bool firstA, bool tailA, int32_t dim>
struct PatternConstInfo {
    constexpr static uint32_t ID = id;
    constexpr static bool FirstA = firstA;
    constexpr static bool TailA = tailA;
    constexpr static int32_t Dim = dim;
};
struct A : PatternConstInfo<PATTERN_A, true, true, 1> {};
struct RA : PatternConstInfo<PATTERN_RA, false, true, 2> {};
struct AR : PatternConstInfo<PATTERN_AR, true, false, 2> {};
struct ARA : PatternConstInfo<PATTERN_ARA, true, true, 3> {};
struct ARAR : PatternConstInfo<PATTERN_ARAR, true, false, 4> {};
struct ARARA : PatternConstInfo<PATTERN_ARARA, true, true, 5> {};
struct ARARAR : PatternConstInfo<PATTERN_ARARAR, true, false, 6> {};
struct ARARARA : PatternConstInfo<PATTERN_ARARARA, true, true, 7> {};
struct ARARARAR : PatternConstInfo<PATTERN_ARARARAR, true, false, 8> {};
struct ARARARARA : PatternConstInfo<PATTERN_ARARARARA, true, true, 9> {};

template <int32_t id>
struct GetPattern {};
template <> struct GetPattern<PATTERN_A> { using T = A; };
template <> struct GetPattern<PATTERN_RA> { using T = RA; };
template <> struct GetPattern<PATTERN_AR> { using T = AR; };
template <> struct GetPattern<PATTERN_ARA> { using T = ARA; };
template <> struct GetPattern<PATTERN_ARAR> { using T = ARAR; };
template <> struct GetPattern<PATTERN_ARARA> { using T = ARARA; };
template <> struct GetPattern<PATTERN_ARARAR> { using T = ARARAR; };
template <> struct GetPattern<PATTERN_ARARARA> { using T = ARARARA; };
template <> struct GetPattern<PATTERN_ARARARAR> { using T = ARARARAR; };
template <> struct GetPattern<PATTERN_ARARARARA> { using T = ARARARARA; };
}  // namespace __reducePattern

namespace __reduceType {
/* the type a reduction of DType computes in: half and bfloat16 in float, 8-bit types and bool in
 * half, the others in themselves */
template <typename DType>
struct GetPromoteType {};
template <> struct GetPromoteType<half> { using T = float; };
template <> struct GetPromoteType<bfloat16_t> { using T = float; };
template <> struct GetPromoteType<float> { using T = float; };
template <> struct GetPromoteType<int32_t> { using T = int32_t; };
template <> struct GetPromoteType<int64_t> { using T = int64_t; };
template <> struct GetPromoteType<int8_t> { using T = half; };
template <> struct GetPromoteType<uint8_t> { using T = half; };
template <> struct GetPromoteType<bool> { using T = half; };
}  // namespace __reduceType

/* the loop structure a kernel's template arguments select (reduce_sch.h derives it) */
struct ReduceSchLoopInfo {
    int32_t patternID;
    int32_t reduceDichotomy;
    int32_t loopACount;              // A axes the cores split (the last one in ubFactorA pieces)
    int32_t loopAAxis[MAX_LOOP_DIM];
    int32_t loopRCount;              // > 0: R split over cores too ("group" reduce, through workspace)
    int32_t loopRAxis[MAX_DIM];
    int32_t loopInnerACount;         // A axes walked inside a core
    int32_t loopInnerAAxis[MAX_DIM];
    int32_t loopInnerRCount;         // R axes walked inside a core (the last in ubFactorR pieces)
    int32_t loopInnerRAxis[MAX_DIM];
    int32_t innerPatternID;          // the 2-D reduction of one tile: PATTERN_RA or PATTERN_AR
};

/* a tile's 2-D reduction shape, {rows, cols} as the inner pattern reads them */
template <int32_t dim>
struct Shape {
    int64_t value[dim];
    int64_t innerR;
    int64_t outerR;
};

template <typename T>
class ReduceTmpl {
public:
    using DataType = T;
    __aicore__ inline ReduceTmpl() {}
};

}  // namespace ReduceOpTmpl
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_REDUCE_REDUCE_UTIL_H_
