/* Lookups in the generated SoC table (soc_table.h). */
#include "metadef/soc_table.h"

namespace opsnn_host {
const SocSpec *FindSoc(const std::string &name) {
    for (size_t i = 0; i < kSocTableSize; ++i) {
        if (name == kSocTable[i].name) {
            return &kSocTable[i];
        }
    }
    return nullptr;
}

std::string KnownSocNames() {
    std::string names;
    for (size_t i = 0; i < kSocTableSize; ++i) {
        names += (i == 0 ? "" : ", ");
        names += kSocTable[i].name;
    }
    return names;
}
}  // namespace opsnn_host
