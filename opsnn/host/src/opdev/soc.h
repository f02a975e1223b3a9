/* The SoCs the host twin knows, and which one is current (opdev/platform.h states the rule). */
#ifndef OPSNN_HOST_SRC_OPDEV_SOC_H_
#define OPSNN_HOST_SRC_OPDEV_SOC_H_

#include <cstdint>
#include <string>

#include "metadef/soc_table.h"
#include "opdev/platform.h"

namespace opsnn_host {

struct SocInfo {
    std::string name;  // opsnn's name (Ascend910B2), or the family's for an unmodelled SocVersion
    op::SocVersion version;
    NpuArch arch;
    uint32_t vectorCores;
    uint32_t cubeCores;
    bool modelled;  // opsnn emulates its kernels
};

/* The SoC table's entry (metadef/soc_table.h, generated from opsnn/platform.py) for opsnn's SoC
 * names and upstream's spellings of them (case-insensitive; "ascend910b" is the family's default
 * part, "ascend950*" any Ascend950), as opsnn/cpudebug/socs.py reads them; nullptr otherwise. */
const SocSpec *FindSpelledSoc(const std::string &name);
/* What op_api sees of a table entry. */
SocInfo InfoOf(const SocSpec &soc);
SocInfo DefaultSoc();
/* The current SoC of this thread. */
SocInfo CurrentSoc();
/* src/acl/runtime.cpp: the SoC of this thread's current device, "" when it has none. */
std::string AclDeviceSoc();

}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_OPDEV_SOC_H_
