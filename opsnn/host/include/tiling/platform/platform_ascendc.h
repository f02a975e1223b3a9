/* opsnn host twin: platform_ascendc::PlatformAscendC -- the host tiling API's view of the SoC,
 * read from the fe::PlatFormInfos a tiling context carries: core counts (vector/cube cores where
 * the SoC lists them separately, AI cores otherwise), memory sizes (UB and L1 less the 256 bytes
 * Ascend910B keeps for the framework, and less what ReserveLocalMemory reserved), the SoC version
 * and NPU architecture, the lib-API workspace size. What CANN reports as an error here is
 * printed to stderr and gives CANN's value (0, RESERVED_VERSION, DAV_RESV, 0xFFFFFFFF). */
#ifndef OPSNN_HOST_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define OPSNN_HOST_TILING_PLATFORM_PLATFORM_ASCENDC_H_

#include <cstdint>
#include <mutex>

#include "platform/soc_spec.h"

namespace fe {
class PlatFormInfos;
}

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND950, ASCEND910_55, AS31XM1, ASCEND031, ASCEND035,
    ASCEND310, ASCEND610, ASCEND610Lite, ASCEND910_93, BS9SX1A, BS9SX2A, HI3796CV300CS, HI3796CV300ES,
    MC61AM21A, MC62CM12A, SD3403, KIRINX90, KIRIN9030, RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos *platformInfo) : platformInfo_(platformInfo) {}
    uint32_t GetCoreNum(void) const;
    uint32_t GetCoreNumAic(void) const;
    uint32_t GetCoreNumAiv(void) const;
    /* Ascend310P's vector cores; 0 elsewhere. */
    uint32_t GetCoreNumVector(void) const;
    /* Blocks for sliceNum slices on a mixed cube/vector launch. */
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
    uint32_t GetLibApiWorkSpaceSize(void) const;
    uint32_t GetResCubeGroupWorkSpaceSize(void) const;
    uint32_t GetResGroupBarrierWorkSpaceSize(void) const;
    void GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const;
    void GetCoreMemBw(const CoreMemType &memType, uint64_t &bwSize) const;
    void ReserveLocalMemory(ReservedSize size);
    SocVersion GetSocVersion(void) const;
    NpuArch GetCurNpuArch(void) const;
    uint32_t GetVecRegLen(void) const;

private:
    fe::PlatFormInfos *GetPlatFormInfo(void) const;
    fe::PlatFormInfos *platformInfo_;
    uint32_t reservedMemSize_ = 0;
};

/* The process's platform when no tiling context supplies one: the SoC named by
 * customSocVersion (opsnn's SoC names or CANN's short versions), else opsnn's default SoC. */
class PlatformAscendCManager {
public:
    static PlatformAscendC *GetInstance();
    static PlatformAscendC *GetInstance(const char *customSocVersion);

private:
    PlatformAscendCManager() = default;
};
}  // namespace platform_ascendc

/* The host side of AscendC (its tiling functions live in this namespace): op_host sources write
 * `using namespace AscendC;` having included only the platform header (upstream gelu_grad,
 * apply_adam_w_v2). */
namespace AscendC {}

#endif  // OPSNN_HOST_TILING_PLATFORM_PLATFORM_ASCENDC_H_
