/* A modelled SoC as CANN's platform tables describe it (fe::PlatFormInfos), for opsnn's own
 * launches and PlatformInfoManager. */
#ifndef OPSNN_HOST_SRC_METADEF_SOC_PLATFORM_H_
#define OPSNN_HOST_SRC_METADEF_SOC_PLATFORM_H_

#include <string>

#include "metadef/soc_table.h"
#include "platform/platform_infos_def.h"

namespace opsnn_host {
/* Bytes of UB (and L1) an Ascend910B keeps for the framework: PlatformAscendC reports the
 * platform table's size less these. */
constexpr uint64_t kAscend910bLocalReserve = 256;

/* CANN's short SoC version of a family ("Ascend910B", "Ascend950"). */
std::string ShortSocVersion(const SocSpec &soc);
/* SoCInfo, AICoreSpec and version tables of `soc`, with the core count of "AICore" selected. */
void FillPlatformInfos(const SocSpec &soc, fe::PlatFormInfos &infos);
/* An opsnn SoC name, or a CANN short version (its family's first SoC); nullptr otherwise. */
const SocSpec *FindSocByAnyName(const std::string &name);
}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_METADEF_SOC_PLATFORM_H_
