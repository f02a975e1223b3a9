/* opsnn host twin: the op-package version tags space registries are kept per (one here). */
#ifndef OPSNN_HOST_BASE_REGISTRY_OPP_PACKAGE_UTILS_H_
#define OPSNN_HOST_BASE_REGISTRY_OPP_PACKAGE_UTILS_H_

#include <cstdint>
#include <string>

namespace gert {
enum class OppImplVersionTag : uint32_t { kOpp = 0, kOppKernel = 1, kVersionEnd };

/* A shared object of op implementations; opsnn links them in, so AddSoToRegistry accepts and ignores these. */
struct OppSoDesc {
    OppSoDesc() = default;
    std::string so_path;
    std::string package_name;
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_REGISTRY_OPP_PACKAGE_UTILS_H_
