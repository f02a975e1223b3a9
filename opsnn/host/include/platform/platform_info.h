/* opsnn host twin: fe::PlatformInfoManager -- the process's SoC descriptions by SoC version
 * (both forms: PlatformInfo structs, which UTs fill directly, and PlatFormInfos tables, filled
 * from opsnn's SoC table by InitializePlatformInfo), and the "current" compilation's SoC. */
#ifndef OPSNN_HOST_PLATFORM_PLATFORM_INFO_H_
#define OPSNN_HOST_PLATFORM_PLATFORM_INFO_H_

#include <cstdint>
#include <map>
#include <string>

#include "platform/platform_info_def.h"
#include "platform/platform_infos_def.h"

namespace fe {
class PlatformInfoManager {
public:
    PlatformInfoManager(const PlatformInfoManager &) = delete;
    PlatformInfoManager &operator=(const PlatformInfoManager &) = delete;

    static PlatformInfoManager &Instance();
    static PlatformInfoManager &GeInstance();
    /* Fills the PlatFormInfos tables for every SoC opsnn models; 0 on success. */
    uint32_t InitializePlatformInfo();
    uint32_t Finalize();
    /* 0 and the SoC's description, or nonzero where SoCVersion is unknown. */
    uint32_t GetPlatformInfo(const std::string SoCVersion, PlatformInfo &platform_info,
                             OptionalInfo &opti_compilation_info);
    /* The description of the SoC SetOptionalCompilationInfo named. */
    uint32_t GetPlatformInfoWithOutSocVersion(PlatformInfo &platform_info, OptionalInfo &opti_compilation_info);
    void SetOptionalCompilationInfo(OptionalInfo &opti_compilation_info);
    uint32_t GetPlatformInfos(const std::string SoCVersion, PlatFormInfos &platform_info,
                              OptionalInfos &opti_compilation_info);
    uint32_t GetPlatformInfoWithOutSocVersion(PlatFormInfos &platform_info, OptionalInfos &opti_compilation_info);
    void SetOptionalCompilationInfo(OptionalInfos &opti_compilation_info);
    /* opsnn has one device: every device id gets the current SoC's tables. */
    uint32_t GetPlatformInstanceByDevice(const uint32_t &device_id, PlatFormInfos &platform_infos);

private:
    PlatformInfoManager() = default;
    ~PlatformInfoManager() = default;

    std::map<std::string, PlatformInfo> platform_info_map_;
    OptionalInfo opti_compilation_info_;
    std::map<std::string, PlatFormInfos> platform_infos_map_;
    OptionalInfos opti_compilation_infos_;
};
}  // namespace fe

#endif  // OPSNN_HOST_PLATFORM_PLATFORM_INFO_H_
