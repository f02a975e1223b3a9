/* The SoCs opsnn models, as opsnn/platform.py lists them (the build generates the table's
 * definition from opsnn.platform.SOCS: the numbers are written once, in Python). */
#ifndef OPSNN_HOST_SRC_METADEF_SOC_TABLE_H_
#define OPSNN_HOST_SRC_METADEF_SOC_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace opsnn_host {
struct SocSpec {
    const char *name;        /* opsnn's SoC name: Ascend910B2, Ascend950, ... */
    const char *family;      /* ascend910b | ascend950 */
    const char *arch;        /* DAV_2201 | DAV_3510 */
    uint32_t aiv_cores;
    uint32_t aic_cores;
    uint64_t ub_size;        /* UB as the platform API reports it to a tiling */
    uint64_t kernel_ub;      /* bytes a kernel's own buffers may occupy */
    uint64_t lib_api_workspace; /* GetLibApiWorkSpaceSize: the system workspace */
};

extern const SocSpec kSocTable[];
extern const size_t kSocTableSize;
extern const char *const kDefaultSoc; /* opsnn.platform.DEFAULT_SOC */

/* The named SoC, or nullptr. */
const SocSpec *FindSoc(const std::string &name);
/* "Ascend910B1, Ascend910B2, ..." for error messages. */
std::string KnownSocNames();
}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_METADEF_SOC_TABLE_H_
