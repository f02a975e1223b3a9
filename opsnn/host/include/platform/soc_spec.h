/* opsnn host twin: platform/soc_spec.h -- NpuArch, the NPU architecture codes (DAV_xxxx) host code
 * gates features on: op::PlatformInfo::GetCurNpuArch() in op_api, PlatformAscendC in op_host.
 * The numbers are CANN's public ones (the architecture's four digits); a global enum class, as
 * operator code writes NpuArch::DAV_2201 outside any namespace. */
#ifndef OPSNN_HOST_PLATFORM_SOC_SPEC_H_
#define OPSNN_HOST_PLATFORM_SOC_SPEC_H_

#include <cstdint>

enum class NpuArch : uint32_t {
    DAV_1001 = 1001,  // Ascend910
    DAV_1002 = 1002,
    DAV_1003 = 1003,
    DAV_1004 = 1004,
    DAV_1999 = 1999,
    DAV_2002 = 2002,  // Ascend310P
    DAV_2003 = 2003,
    DAV_2004 = 2004,
    DAV_2006 = 2006,
    DAV_2102 = 2102,
    DAV_2103 = 2103,
    DAV_2104 = 2104,
    DAV_2201 = 2201,  // Ascend910B / Ascend910_93 (Atlas A2/A3): opsnn's Ascend910B1..B4
    DAV_3002 = 3002,  // Ascend310B
    DAV_3003 = 3003,
    DAV_3004 = 3004,
    DAV_3102 = 3102,
    DAV_3103 = 3103,
    DAV_3113 = 3113,
    DAV_3502 = 3502,
    DAV_3505 = 3505,
    DAV_3510 = 3510,  // Ascend950 (arch35, "regbase"): opsnn's Ascend950
    DAV_3801 = 3801,
    DAV_5101 = 5101,
    DAV_5102 = 5102,
    DAV_5161 = 5161,
    DAV_9201 = 9201,
    DAV_9202 = 9202,
    DAV_9301 = 9301,
    DAV_RESV = 0xFFFF
};

#endif  // OPSNN_HOST_PLATFORM_SOC_SPEC_H_
