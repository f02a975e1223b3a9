/* opsnn CPU-debug runtime: AscendC's high-level CumSum (math/cumsum.h) with CumSumConfig and
 * CumSumInfo; one call into the emulator (opsnn/ascendc/cumsum.py says what is modelled). */
#ifndef OPSNN_KT_CUMSUM_API_H_
#define OPSNN_KT_CUMSUM_API_H_

#include <cstdint>

#include "opsnn_kt/call.h"
#include "opsnn_kt/tensors.h"

namespace AscendC {
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};  // 32-byte aligned
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};
}  // namespace AscendC

namespace opsnn_kt {
inline void Pack(Slot &s, const AscendC::CumSumInfo &i) { Pack(s, Fields{"CumSumInfo", 2, {i.outter, i.inner}}); }
template <const AscendC::CumSumConfig &config> constexpr void CheckCumSumConfig() {
    static_assert(config.algorithm == AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE,
                  "opsnn: CumSum's SKLANSKY algorithm (Ascend950) is not modelled");
}
}  // namespace opsnn_kt

namespace AscendC {
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                              LocalTensor<uint8_t> &sharedTmpBuffer, const CumSumInfo &cumSumInfo, OPSNN_KT_WHERE) {
    opsnn_kt::CheckCumSumConfig<config>();
    opsnn_kt::Call("CumSum", OPSNN_KT_AT, dstTensor, lastRowTensor, srcTensor, sharedTmpBuffer, cumSumInfo,
                   config.isLastAxis, config.outputLastRow);
}
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                              const CumSumInfo &cumSumInfo, OPSNN_KT_WHERE) {
    opsnn_kt::CheckCumSumConfig<config>();
    opsnn_kt::Call("CumSum", OPSNN_KT_AT, dstTensor, lastRowTensor, srcTensor, opsnn_kt::Absent{}, cumSumInfo,
                   config.isLastAxis, config.outputLastRow);
}
}  // namespace AscendC

#endif  // OPSNN_KT_CUMSUM_API_H_
