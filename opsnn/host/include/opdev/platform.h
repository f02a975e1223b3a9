/* opsnn host twin: opdev/platform.h -- the SoC op_api code runs for.
 *
 * In a program the current SoC is the acl runtime's (aclInit reads $OPSNN_SOC; opsnn's names:
 * Ascend910B1..B4, Ascend950). Without a device set (an op_api UT) it is $OPSNN_UT_SOC (what
 * `opsnn ut --soc` runs), else $OPSNN_SOC, else Ascend910B2. A UT may set it for a scope with
 * SocVersionManager / NpuArchManager (this thread, restored at the scope's end), as upstream's op_api
 * UT platform does; a SocVersion opsnn does not model (Ascend910, Ascend310P, ...) may be set for
 * op_api checks, and its kernels cannot run (the launch says so).
 *
 * SocVersion keeps the toolkit's numbering (ASCEND910_95 == ASCEND950 == 3, ASCEND910E 4), so
 * range checks such as `>= ASCEND910B && <= ASCEND910E` read as on the toolkit. */
#ifndef OPSNN_HOST_OPDEV_PLATFORM_H_
#define OPSNN_HOST_OPDEV_PLATFORM_H_

#include <cstdint>
#include <string>

#include "aclnn/aclnn_base.h"
#include "graph/ascend_string.h"
#include "platform/soc_spec.h"

namespace fe {
class PlatFormInfos;
}

namespace op {
enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND910_95,
    ASCEND950 = ASCEND910_95,
    ASCEND910E,
    ASCEND310,
    ASCEND310P,
    ASCEND310B,
    ASCEND310C,
    ASCEND610LITE,
    KIRINX90,
    KIRIN9030,
    ASCEND350,
    RESERVED_VERSION = 99999
};

enum class SocSpec { INST_MMAD = 0, RESERVED_SPEC = 99999 };

enum class SocSpecAbility {
    INST_MMAD_F162F16 = 0,
    INST_MMAD_F162F32,
    INST_MMAD_H322F32,
    INST_MMAD_F322F32,
    INST_MMAD_U32U8U8,
    INST_MMAD_S32S8S8,
    INST_MMAD_S32U8S8,
    INST_MMAD_F16F16F16,
    INST_MMAD_F32F16F16,
    INST_MMAD_F16F16U2,
    INST_MMAD_U8,
    INST_MMAD_S8,
    INST_MMAD_U8S8,
    INST_MMAD_F16U2,
};

/* One object; each call reads the current SoC (above), so it is always up to date. */
class PlatformInfo {
public:
    SocVersion GetSocVersion() const;
    NpuArch GetCurNpuArch() const;
    /* opsnn's SoC name ("Ascend910B2"); the SocVersion's family name for an unmodelled one. */
    const std::string &GetSocLongVersion() const;
    int32_t GetDeviceId() const;
    /* Cube (MMAD) abilities: not modelled (opsnn emulates vector cores): false. */
    bool CheckSupport(SocSpec socSpec, SocSpecAbility ability) const;
    int64_t GetBlockSize() const;       // 32 bytes
    uint32_t GetCubeCoreNum() const;    // AI Cube cores
    uint32_t GetVectorCoreNum() const;  // AI Vector cores
    bool Valid() const;
    bool GetFftsPlusMode() const;
    /* Not modelled in op_api (the tiling's platform infos are op_host's): nullptr. */
    fe::PlatFormInfos *GetPlatformInfos() const;
};

const PlatformInfo &GetCurrentPlatformInfo();

ge::AscendString ToString(SocVersion socVersion);

/* Sets this thread's SoC for the object's life (an op_api UT's choice). */
class SocVersionManager {
public:
    explicit SocVersionManager(SocVersion newVersion);
    ~SocVersionManager();
    SocVersionManager(const SocVersionManager &) = delete;
    SocVersionManager &operator=(const SocVersionManager &) = delete;

private:
    bool hadOverride_;
    SocVersion originalVersion_;
    NpuArch originalArch_;
};

/* Sets this thread's SoC to the architecture's (DAV_2201: Ascend910B, DAV_3510: Ascend950, ...). */
class NpuArchManager {
public:
    explicit NpuArchManager(NpuArch newArch);
    ~NpuArchManager();
    NpuArchManager(const NpuArchManager &) = delete;
    NpuArchManager &operator=(const NpuArchManager &) = delete;

private:
    bool hadOverride_;
    SocVersion originalVersion_;
    NpuArch originalArch_;
};
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_PLATFORM_H_
