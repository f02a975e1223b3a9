/* opsnn CPU-debug runtime: AscendC's high-level ReduceSum / ReduceMax / ReduceMin<T, pattern,
 * isReuseSource> over a 2-D tile (Pattern::Reduce::AR: each row's last axis; RA: each column),
 * as Ascend950 kernels call them (adv_api/reduce/reduce.h). Each call is one emulator call
 * (opsnn/ascendc/reduce_pattern.py: AscendC's Ascend950 folding order, what it leaves in src and
 * sharedTmpBuffer). Without a sharedTmpBuffer AscendC takes a stack buffer of its own, which the
 * emulator does not place in UB. */
#ifndef OPSNN_KT_REDUCE_PATTERN_API_H_
#define OPSNN_KT_REDUCE_PATTERN_API_H_

#include <cstdint>
#include <type_traits>

#include "opsnn_kt/instructions.h"

namespace AscendC {
namespace Pattern {
namespace Reduce {
struct AR {};  // the last axis reduced: srcShape = {rows, cols}, one result per row
struct RA {};  // the first axis reduced: one result per column
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace opsnn_kt {
enum class ReducePatternId : int32_t { AR, RA };
inline const char *EnumName(ReducePatternId p) {
    return p == ReducePatternId::AR ? "ReducePattern.AR" : "ReducePattern.RA";
}
template <class pattern> constexpr ReducePatternId PatternIdOf() {
    static_assert(std::is_same_v<pattern, AscendC::Pattern::Reduce::AR> ||
                      std::is_same_v<pattern, AscendC::Pattern::Reduce::RA>,
                  "opsnn: the high-level Reduce takes Pattern::Reduce::AR or Pattern::Reduce::RA (as AscendC's "
                  "Ascend950 implementation)");
    return std::is_same_v<pattern, AscendC::Pattern::Reduce::AR> ? ReducePatternId::AR : ReducePatternId::RA;
}
inline Fields ReduceShape(const uint32_t srcShape[]) { return Fields{"Shape", 2, {srcShape[0], srcShape[1]}}; }
}  // namespace opsnn_kt

namespace AscendC {

#define OPSNN_KT_PATTERN_REDUCE(Name)                                                                         \
    template <class T, class pattern, bool isReuseSource = false>                                             \
    __aicore__ inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,             \
                                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t srcShape[],       \
                                bool srcInnerPad, OPSNN_KT_WHERE) {                                           \
        opsnn_kt::Call("Pattern" #Name, OPSNN_KT_AT, dstTensor, srcTensor, opsnn_kt::ReduceShape(srcShape),   \
                       srcInnerPad, opsnn_kt::PatternIdOf<pattern>(), isReuseSource, sharedTmpBuffer);       \
    }                                                                                                         \
    template <class T, class pattern, bool isReuseSource = false>                                             \
    __aicore__ inline void Name(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,             \
                                const uint32_t srcShape[], bool srcInnerPad, OPSNN_KT_WHERE) {                \
        opsnn_kt::Call("Pattern" #Name, OPSNN_KT_AT, dstTensor, srcTensor, opsnn_kt::ReduceShape(srcShape),   \
                       srcInnerPad, opsnn_kt::PatternIdOf<pattern>(), isReuseSource);                         \
    }
OPSNN_KT_PATTERN_REDUCE(ReduceSum)
OPSNN_KT_PATTERN_REDUCE(ReduceMax)
OPSNN_KT_PATTERN_REDUCE(ReduceMin)
#undef OPSNN_KT_PATTERN_REDUCE

}  // namespace AscendC

#endif  // OPSNN_KT_REDUCE_PATTERN_API_H_
