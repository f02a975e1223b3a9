/* opsnn host twin: gert::OpImplSpaceRegistryV2 / DefaultOpImplSpaceRegistryV2 -- how registered
 * op implementations are looked up. Every space registry sees every registration of this process
 * (opsnn links op_host code in; there are no packages to load); the default holds one from the
 * start, and SetSpaceRegistry(nullptr) leaves it without (GetSpaceRegistry() is then nullptr). */
#ifndef OPSNN_HOST_BASE_REGISTRY_OP_IMPL_SPACE_REGISTRY_V2_H_
#define OPSNN_HOST_BASE_REGISTRY_OP_IMPL_SPACE_REGISTRY_V2_H_

#include <array>
#include <memory>

#include "base/registry/opp_package_utils.h"
#include "register/op_impl_kernel_registry.h"
#include "register/op_impl_registry.h"

namespace gert {
using char_t = char;

class OpImplSpaceRegistryV2 {
public:
    OpImplSpaceRegistryV2() = default;
    ~OpImplSpaceRegistryV2() = default;
    ge::graphStatus AddSoToRegistry(const OppSoDesc &so_desc);
    /* nullptr where nothing is registered for op_type. */
    const OpImplKernelRegistry::OpImplFunctionsV2 *GetOpImpl(const char_t *op_type) const;
};
using OpImplSpaceRegistryV2Ptr = std::shared_ptr<OpImplSpaceRegistryV2>;
using OpImplSpaceRegistryV2Array =
    std::array<OpImplSpaceRegistryV2Ptr, static_cast<size_t>(OppImplVersionTag::kVersionEnd)>;

class DefaultOpImplSpaceRegistryV2 {
public:
    DefaultOpImplSpaceRegistryV2(const DefaultOpImplSpaceRegistryV2 &) = delete;
    DefaultOpImplSpaceRegistryV2 &operator=(const DefaultOpImplSpaceRegistryV2 &) = delete;
    static DefaultOpImplSpaceRegistryV2 &GetInstance();
    const std::shared_ptr<OpImplSpaceRegistryV2> GetSpaceRegistry(
        gert::OppImplVersionTag opp_impl_version = gert::OppImplVersionTag::kOpp) const;
    ge::graphStatus SetSpaceRegistry(const std::shared_ptr<OpImplSpaceRegistryV2> &space_registry_v2,
                                     gert::OppImplVersionTag version_tag = gert::OppImplVersionTag::kOpp);
    void ClearSpaceRegistry();

private:
    DefaultOpImplSpaceRegistryV2();
    ~DefaultOpImplSpaceRegistryV2() = default;
    OpImplSpaceRegistryV2Array registries_;
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_REGISTRY_OP_IMPL_SPACE_REGISTRY_V2_H_
