/* fe::PlatFormInfos, fe::OptionalInfos, fe::PlatformInfoManager (platform/*.h) and the SoC
 * table's platform form (soc_platform.h). */
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "metadef/soc_platform.h"
#include "platform/platform_info.h"

namespace fe {
class PlatFormInfosImpl {
public:
    std::mutex mutex;
    std::map<std::string, std::map<std::string, std::string>> tables;
    std::map<std::string, std::vector<std::string>> ai_core_intrinsic_dtypes;
    std::map<std::string, std::vector<std::string>> vector_core_intrinsic_dtypes;
    std::map<std::string, std::vector<std::string>> fixpipe_dtypes;
};

namespace {
uint32_t ToU32(const std::string &text) { return text.empty() ? 0U : static_cast<uint32_t>(std::strtoul(text.c_str(), nullptr, 10)); }
uint64_t ToU64(const std::string &text) { return text.empty() ? 0U : std::strtoull(text.c_str(), nullptr, 10); }

/* Where GetLocalMemSize reads each memory's size. */
bool MemKey(LocalMemType type, std::string &label, std::string &key) {
    label = "AICoreSpec";
    switch (type) {
        case LocalMemType::L0_A: key = "l0_a_size"; return true;
        case LocalMemType::L0_B: key = "l0_b_size"; return true;
        case LocalMemType::L0_C: key = "l0_c_size"; return true;
        case LocalMemType::L1: key = "l1_size"; return true;
        case LocalMemType::UB: key = "ub_size"; return true;
        case LocalMemType::L2: label = "SoCInfo"; key = "l2_size"; return true;
        case LocalMemType::HBM: label = "SoCInfo"; key = "memory_size"; return true;
        default: return false;
    }
}

const char *CoreCountKey(const std::string &core_type) {
    if (core_type == "VectorCore") {
        return "vector_core_cnt";
    }
    if (core_type == "CubeCore") {
        return "cube_core_cnt";
    }
    return "ai_core_cnt";
}
}  // namespace

PlatFormInfosImpl &PlatFormInfos::Impl() {
    if (platform_infos_impl_ == nullptr) {
        platform_infos_impl_ = std::make_shared<PlatFormInfosImpl>();
    }
    return *platform_infos_impl_;
}
bool PlatFormInfos::Init() {
    platform_infos_impl_ = std::make_shared<PlatFormInfosImpl>();
    core_num_ = 0;
    return true;
}
std::map<std::string, std::vector<std::string>> PlatFormInfos::GetAICoreIntrinsicDtype() {
    return Impl().ai_core_intrinsic_dtypes;
}
std::map<std::string, std::vector<std::string>> PlatFormInfos::GetVectorCoreIntrinsicDtype() {
    return Impl().vector_core_intrinsic_dtypes;
}
std::map<std::string, std::vector<std::string>> PlatFormInfos::GetAICoreIntrinsicDtype() const {
    return platform_infos_impl_ == nullptr ? decltype(GetAICoreIntrinsicDtype()){}
                                           : platform_infos_impl_->ai_core_intrinsic_dtypes;
}
std::map<std::string, std::vector<std::string>> PlatFormInfos::GetVectorCoreIntrinsicDtype() const {
    return platform_infos_impl_ == nullptr ? decltype(GetVectorCoreIntrinsicDtype()){}
                                           : platform_infos_impl_->vector_core_intrinsic_dtypes;
}
bool PlatFormInfos::GetPlatformRes(const std::string &label, const std::string &key, std::string &val) const {
    if (platform_infos_impl_ == nullptr) {
        return false;
    }
    std::lock_guard<std::mutex> lock(platform_infos_impl_->mutex);
    auto table = platform_infos_impl_->tables.find(label);
    if (table == platform_infos_impl_->tables.end()) {
        return false;
    }
    auto it = table->second.find(key);
    if (it == table->second.end()) {
        return false;
    }
    val = it->second;
    return true;
}
bool PlatFormInfos::GetPlatformRes(const std::string &label, const std::string &key, std::string &val) {
    return static_cast<const PlatFormInfos *>(this)->GetPlatformRes(label, key, val);
}
bool PlatFormInfos::GetPlatformResWithLock(const std::string &label, const std::string &key, std::string &val) {
    return GetPlatformRes(label, key, val);
}
bool PlatFormInfos::GetPlatformRes(const std::string &label, std::map<std::string, std::string> &res) {
    PlatFormInfosImpl &impl = Impl();
    std::lock_guard<std::mutex> lock(impl.mutex);
    auto table = impl.tables.find(label);
    if (table == impl.tables.end()) {
        return false;
    }
    res = table->second;
    return true;
}
bool PlatFormInfos::GetPlatformResWithLock(const std::string &label, std::map<std::string, std::string> &res) {
    return GetPlatformRes(label, res);
}
bool PlatFormInfos::GetPlatformResWithLock(std::map<std::string, std::map<std::string, std::string>> &res) {
    PlatFormInfosImpl &impl = Impl();
    std::lock_guard<std::mutex> lock(impl.mutex);
    res = impl.tables;
    return true;
}
uint32_t PlatFormInfos::GetCoreNum() const { return core_num_; }
uint32_t PlatFormInfos::GetCoreNumWithLock() const { return core_num_; }
void PlatFormInfos::GetLocalMemSize(const LocalMemType &mem_type, uint64_t &size) {
    std::string label, key, val;
    size = (MemKey(mem_type, label, key) && GetPlatformRes(label, key, val)) ? ToU64(val) : 0U;
}
void PlatFormInfos::GetLocalMemBw(const LocalMemType &mem_type, uint64_t &bw_size) {
    /* Bandwidths are not modelled: no table carries them. */
    (void)mem_type;
    bw_size = 0U;
}
void PlatFormInfos::SetAICoreIntrinsicDtype(std::map<std::string, std::vector<std::string>> &dtypes) {
    Impl().ai_core_intrinsic_dtypes = dtypes;
}
void PlatFormInfos::SetVectorCoreIntrinsicDtype(std::map<std::string, std::vector<std::string>> &dtypes) {
    Impl().vector_core_intrinsic_dtypes = dtypes;
}
void PlatFormInfos::SetPlatformRes(const std::string &label, std::map<std::string, std::string> &res) {
    PlatFormInfosImpl &impl = Impl();
    std::lock_guard<std::mutex> lock(impl.mutex);
    impl.tables[label] = res;
}
void PlatFormInfos::SetPlatformResWithLock(const std::string &label, std::map<std::string, std::string> &res) {
    SetPlatformRes(label, res);
}
std::map<std::string, std::vector<std::string>> PlatFormInfos::GetFixPipeDtypeMap() { return Impl().fixpipe_dtypes; }
void PlatFormInfos::SetFixPipeDtypeMap(const std::map<std::string, std::vector<std::string>> &map) {
    Impl().fixpipe_dtypes = map;
}
void PlatFormInfos::SetCoreNumByCoreType(const std::string &core_type) { core_num_ = GetCoreNumByType(core_type); }
void PlatFormInfos::SetCoreNum(const uint32_t &core_num) { core_num_ = core_num; }
uint32_t PlatFormInfos::GetCoreNumByType(const std::string &core_type) {
    std::string val;
    return GetPlatformRes("SoCInfo", CoreCountKey(core_type), val) ? ToU32(val) : 0U;
}

class OptionalInfosImpl {
public:
    std::string soc_version;
    std::string core_type;
    uint32_t ai_core_num = 0;
    std::string l1_fusion_flag;
    std::map<std::string, std::vector<std::string>> fixpipe_dtypes;
};
OptionalInfosImpl &OptionalInfos::Impl() const {
    if (optional_infos_impl_ == nullptr) {
        optional_infos_impl_ = std::make_shared<OptionalInfosImpl>();
    }
    return *optional_infos_impl_;
}
bool OptionalInfos::Init() {
    optional_infos_impl_ = std::make_shared<OptionalInfosImpl>();
    return true;
}
std::string OptionalInfos::GetSocVersion() const { return Impl().soc_version; }
std::string OptionalInfos::GetCoreType() const { return Impl().core_type; }
uint32_t OptionalInfos::GetAICoreNum() const { return Impl().ai_core_num; }
std::string OptionalInfos::GetL1FusionFlag() const { return Impl().l1_fusion_flag; }
std::map<std::string, std::vector<std::string>> OptionalInfos::GetFixPipeDtypeMap() const {
    return Impl().fixpipe_dtypes;
}
void OptionalInfos::SetFixPipeDtypeMap(const std::map<std::string, std::vector<std::string>> &map) {
    Impl().fixpipe_dtypes = map;
}
void OptionalInfos::SetSocVersion(std::string soc_version) { Impl().soc_version = std::move(soc_version); }
void OptionalInfos::SetSocVersionWithLock(std::string soc_version) { SetSocVersion(std::move(soc_version)); }
void OptionalInfos::SetCoreType(std::string core_type) { Impl().core_type = std::move(core_type); }
void OptionalInfos::SetAICoreNum(uint32_t ai_core_num) { Impl().ai_core_num = ai_core_num; }
void OptionalInfos::SetL1FusionFlag(std::string flag) { Impl().l1_fusion_flag = std::move(flag); }

PlatformInfoManager &PlatformInfoManager::Instance() {
    static PlatformInfoManager manager;
    return manager;
}
PlatformInfoManager &PlatformInfoManager::GeInstance() {
    static PlatformInfoManager manager;
    return manager;
}
uint32_t PlatformInfoManager::InitializePlatformInfo() {
    for (size_t i = 0; i < opsnn_host::kSocTableSize; ++i) {
        PlatFormInfos infos;
        opsnn_host::FillPlatformInfos(opsnn_host::kSocTable[i], infos);
        platform_infos_map_[opsnn_host::kSocTable[i].name] = infos;
    }
    return 0U;
}
uint32_t PlatformInfoManager::Finalize() { return 0U; }
uint32_t PlatformInfoManager::GetPlatformInfo(const std::string SoCVersion, PlatformInfo &platform_info,
                                              OptionalInfo &opti_compilation_info) {
    auto it = platform_info_map_.find(SoCVersion);
    if (it == platform_info_map_.end()) {
        return 1U;
    }
    platform_info = it->second;
    opti_compilation_info = opti_compilation_info_;
    return 0U;
}
uint32_t PlatformInfoManager::GetPlatformInfoWithOutSocVersion(PlatformInfo &platform_info,
                                                               OptionalInfo &opti_compilation_info) {
    return GetPlatformInfo(opti_compilation_info_.soc_version, platform_info, opti_compilation_info);
}
void PlatformInfoManager::SetOptionalCompilationInfo(OptionalInfo &info) { opti_compilation_info_ = info; }
uint32_t PlatformInfoManager::GetPlatformInfos(const std::string SoCVersion, PlatFormInfos &platform_info,
                                               OptionalInfos &opti_compilation_info) {
    auto it = platform_infos_map_.find(SoCVersion);
    if (it == platform_infos_map_.end()) {
        const opsnn_host::SocSpec *soc = opsnn_host::FindSocByAnyName(SoCVersion);
        if (soc == nullptr) {
            return 1U;
        }
        PlatFormInfos infos;
        opsnn_host::FillPlatformInfos(*soc, infos);
        it = platform_infos_map_.emplace(SoCVersion, infos).first;
    }
    platform_info = it->second;
    opti_compilation_info = opti_compilation_infos_;
    return 0U;
}
uint32_t PlatformInfoManager::GetPlatformInfoWithOutSocVersion(PlatFormInfos &platform_info,
                                                               OptionalInfos &opti_compilation_info) {
    return GetPlatformInfos(opti_compilation_infos_.GetSocVersion(), platform_info, opti_compilation_info);
}
void PlatformInfoManager::SetOptionalCompilationInfo(OptionalInfos &info) { opti_compilation_infos_ = info; }
uint32_t PlatformInfoManager::GetPlatformInstanceByDevice(const uint32_t &device_id, PlatFormInfos &platform_infos) {
    (void)device_id;
    OptionalInfos ignored;
    return GetPlatformInfoWithOutSocVersion(platform_infos, ignored);
}
}  // namespace fe

namespace opsnn_host {
std::string ShortSocVersion(const SocSpec &soc) {
    const std::string family = soc.family;
    if (family == "ascend910b") {
        return "Ascend910B";
    }
    if (family == "ascend950") {
        return "Ascend950";
    }
    return family;
}

void FillPlatformInfos(const SocSpec &soc, fe::PlatFormInfos &infos) {
    infos.Init();
    const bool reserves = std::string(soc.family) == "ascend910b";
    std::map<std::string, std::string> soc_info = {
        {"ai_core_cnt", std::to_string(soc.aic_cores)},
        {"cube_core_cnt", std::to_string(soc.aic_cores)},
        {"vector_core_cnt", std::to_string(soc.aiv_cores)},
        {"core_type_list", "CubeCore,VectorCore"},
    };
    std::map<std::string, std::string> core_spec = {
        {"ub_size", std::to_string(soc.ub_size + (reserves ? kAscend910bLocalReserve : 0U))},
    };
    const std::string arch = soc.arch;
    std::map<std::string, std::string> version = {
        {"Short_SoC_version", ShortSocVersion(soc)},
        {"SoC_version", soc.name},
        {"NpuArch", arch.rfind("DAV_", 0) == 0 ? arch.substr(4) : arch},
    };
    infos.SetPlatformRes("SoCInfo", soc_info);
    infos.SetPlatformRes("AICoreSpec", core_spec);
    infos.SetPlatformRes("version", version);
    infos.SetCoreNumByCoreType("AICore");
}

const SocSpec *FindSocByAnyName(const std::string &name) {
    if (const SocSpec *exact = FindSoc(name)) {
        return exact;
    }
    std::string lowered;
    for (char c : name) {
        lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    for (size_t i = 0; i < kSocTableSize; ++i) {
        if (lowered == kSocTable[i].family) {
            return &kSocTable[i];
        }
    }
    return nullptr;
}
}  // namespace opsnn_host
