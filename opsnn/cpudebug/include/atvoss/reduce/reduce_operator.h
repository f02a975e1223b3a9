/* opsnn's atvoss reduce framework: the reduction nodes of a reduce DAG (Vec::ReduceSumOp<T>,
 * ReduceMaxOp, ReduceMinOp, ReduceProdOp, ReduceAnyOp, ReduceAllOp). A node says what it
 * reduces with and what fills a tile's padding; ReduceSch (reduce_sch.h) runs it:
 *
 *   SUM   AscendC's ReduceSum<T, AR | RA, true> per tile, Add across tiles    padding 0
 *   MAX   ReduceMax, Max                                                      padding: T's lowest (-inf)
 *   MIN   ReduceMin, Min                                                      padding: T's highest (+inf)
 *   ANY / ALL: MAX / MIN over 0/1 values                                      padding 0 / 1
 *   PROD  declared; no schedule runs it (AscendC's ReduceProd is not modelled): a launch that
 *         would fails naming it.
 * A node that brings its own Init / Process / CopyIn / CopyOut (upstream lets a custom reduction
 * override them) is not modelled: ReduceSch runs the standard steps. */
#ifndef OPSNN_ATVOSS_REDUCE_REDUCE_OPERATOR_H_
#define OPSNN_ATVOSS_REDUCE_REDUCE_OPERATOR_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "atvoss/reduce/reduce_util.h"
#include "atvoss/util/vec.h"

namespace Ops {
namespace Base {
namespace Vec {

enum class ReduceKind : int32_t { SUM, MAX, MIN, PROD };

namespace reduce_detail {
template <class T>
constexpr bool kFloatLike = std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

/* the lowest / highest value of T: -inf / +inf for the float types */
template <class T>
__aicore__ inline T Extreme(bool lowest) {
    if constexpr (kFloatLike<T>) {
        return static_cast<T>(lowest ? -INFINITY : INFINITY);
    } else {
        return lowest ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
}
}  // namespace reduce_detail

/* The common base: the kind, and the padding value (a tile's cells that hold no element). */
template <class PromteT, ReduceKind kind, int padding>
class ReduceNode : public ReduceOp<PromteT> {
public:
    constexpr static ReduceKind Kind = kind;
    __aicore__ inline ReduceNode() {}
    template <typename U = PromteT>
    __aicore__ inline U GetPaddingValue() {
        if constexpr (padding >= 0) {
            return static_cast<U>(padding);  // SUM 0, ANY 0, ALL 1, PROD 1
        } else {
            return reduce_detail::Extreme<U>(kind == ReduceKind::MAX);
        }
    }
};

template <typename PromteT>
class ReduceSumOp : public ReduceNode<PromteT, ReduceKind::SUM, 0> {};
template <typename PromteT>
class ReduceMaxOp : public ReduceNode<PromteT, ReduceKind::MAX, -1> {};
template <typename PromteT>
class ReduceMinOp : public ReduceNode<PromteT, ReduceKind::MIN, -1> {};
template <typename PromteT>
class ReduceProdOp : public ReduceNode<PromteT, ReduceKind::PROD, 1> {};
template <typename PromteT>
class ReduceAnyOp : public ReduceNode<PromteT, ReduceKind::MAX, 0> {};
template <typename PromteT>
class ReduceAllOp : public ReduceNode<PromteT, ReduceKind::MIN, 1> {};

}  // namespace Vec
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_REDUCE_REDUCE_OPERATOR_H_
