/* platform_ascendc::PlatformAscendC (tiling/platform/platform_ascendc.h): reads the platform
 * tables; CANN's rules for which table entry answers which question. */
#include "tiling/platform/platform_ascendc.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "metadef/soc_platform.h"
#include "platform/platform_infos_def.h"

namespace platform_ascendc {
namespace {
constexpr uint32_t kLibApiWorkspace910b = 16U * 1024U * 1024U;
constexpr uint32_t kLibApiWorkspace950 = 16U * 1024U * 1024U;
constexpr uint32_t kLibApiWorkspaceOther = 2U * 1024U * 1024U;
constexpr uint32_t kGroupWorkspace910b = 1U * 1024U * 1024U;
constexpr uint32_t kMixRatio910b1 = 2U;

void Complain(const std::string &what) { std::fprintf(stderr, "[opsnn host] PlatformAscendC: %s\n", what.c_str()); }

uint32_t ToU32(const std::string &text) {
    return text.empty() ? 0U : static_cast<uint32_t>(std::strtoul(text.c_str(), nullptr, 10));
}

/* Separate vector/cube counts where the SoC lists its cores as "CubeCore,VectorCore";
 * the AI-core count otherwise. */
uint32_t CoreNumByType(fe::PlatFormInfos *infos, bool vector) {
    std::string kind;
    if (!infos->GetPlatformResWithLock("SoCInfo", "core_type_list", kind)) {
        Complain("the platform infos have no SoCInfo.core_type_list");
    }
    const char *key = kind != "CubeCore,VectorCore" ? "ai_core_cnt" : (vector ? "vector_core_cnt" : "cube_core_cnt");
    std::string count;
    if (!infos->GetPlatformResWithLock("SoCInfo", key, count)) {
        Complain(std::string("the platform infos have no SoCInfo.") + key);
    }
    return ToU32(count);
}

SocVersion SocVersionOf(const std::string &short_version) {
    static const std::map<std::string, SocVersion> versions = {
        {"Ascend310P", SocVersion::ASCEND310P}, {"Ascend910", SocVersion::ASCEND910},
        {"Ascend910B", SocVersion::ASCEND910B}, {"Ascend910_93", SocVersion::ASCEND910B},
        {"Ascend310B", SocVersion::ASCEND310B}, {"Ascend950", SocVersion::ASCEND950},
        {"AS31XM1", SocVersion::AS31XM1},       {"Ascend031", SocVersion::ASCEND031},
        {"Ascend035", SocVersion::ASCEND035},   {"Ascend310", SocVersion::ASCEND310},
        {"Ascend610", SocVersion::ASCEND610},   {"Ascend610Lite", SocVersion::ASCEND610Lite},
        {"BS9SX1A", SocVersion::BS9SX1A},       {"BS9SX2A", SocVersion::BS9SX2A},
        {"Hi3796CV300CS", SocVersion::HI3796CV300CS}, {"Hi3796CV300ES", SocVersion::HI3796CV300ES},
        {"MC61AM21A", SocVersion::MC61AM21A},   {"MC62CM12A", SocVersion::MC62CM12A},
        {"SD3403", SocVersion::SD3403},         {"KirinX90", SocVersion::KIRINX90},
        {"Kirin9030", SocVersion::KIRIN9030}};
    auto it = versions.find(short_version);
    if (it == versions.end()) {
        Complain("unknown SoC version '" + short_version + "'");
        return SocVersion::RESERVED_VERSION;
    }
    return it->second;
}
}  // namespace

fe::PlatFormInfos *PlatformAscendC::GetPlatFormInfo(void) const {
    if (platformInfo_ == nullptr) {
        /* CANN raises SIGABRT here; a null platform is a tiling's own mistake, so stop the same way. */
        Complain("constructed with a null fe::PlatFormInfos (the context has no platform info)");
        std::abort();
    }
    return platformInfo_;
}

uint32_t PlatformAscendC::GetCoreNum(void) const { return GetPlatFormInfo()->GetCoreNum(); }
uint32_t PlatformAscendC::GetCoreNumAic(void) const { return CoreNumByType(GetPlatFormInfo(), false); }
uint32_t PlatformAscendC::GetCoreNumAiv(void) const { return CoreNumByType(GetPlatFormInfo(), true); }
uint32_t PlatformAscendC::GetCoreNumVector(void) const {
    if (GetSocVersion() != SocVersion::ASCEND310P) {
        return 0U;
    }
    std::string count;
    (void)GetPlatFormInfo()->GetPlatformResWithLock("SoCInfo", "vector_core_cnt", count);
    return ToU32(count);
}

uint32_t PlatformAscendC::CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0U || aivCoreNum == 0U || aicCoreNum > aivCoreNum) {
        return sliceNum;
    }
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    const uint32_t blocks = (sliceNum + ratio - 1U) / ratio;
    if (ratio == kMixRatio910b1 && blocks > aicCoreNum) {
        Complain("CalcTschNumBlocks: " + std::to_string(blocks) + " blocks exceed the " + std::to_string(aicCoreNum) +
                 " cube cores");
        return 0U;
    }
    return blocks;
}
uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize(void) const {
    switch (GetCurNpuArch()) {
        case NpuArch::DAV_RESV:
            Complain("GetLibApiWorkSpaceSize: the platform infos name no NPU architecture (version.NpuArch)");
            return static_cast<uint32_t>(-1);
        case NpuArch::DAV_2201:
            return kLibApiWorkspace910b;
        case NpuArch::DAV_3510:
            return kLibApiWorkspace950;
        default:
            return kLibApiWorkspaceOther;
    }
}
uint32_t PlatformAscendC::GetResCubeGroupWorkSpaceSize(void) const {
    if (GetSocVersion() == SocVersion::ASCEND910B) {
        return kGroupWorkspace910b;
    }
    Complain("GetResCubeGroupWorkSpaceSize: only Ascend910B has one");
    return static_cast<uint32_t>(-1);
}
uint32_t PlatformAscendC::GetResGroupBarrierWorkSpaceSize(void) const {
    if (GetSocVersion() == SocVersion::ASCEND910B) {
        return kGroupWorkspace910b;
    }
    Complain("GetResGroupBarrierWorkSpaceSize: only Ascend910B has one");
    return static_cast<uint32_t>(-1);
}

void PlatformAscendC::GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const {
    fe::PlatFormInfos *infos = GetPlatFormInfo();
    if (memType == CoreMemType::FB || memType == CoreMemType::BT) {
        std::string text;
        const char *key = memType == CoreMemType::FB ? "fb0_size" : "bt_size";
        if (!infos->GetPlatformResWithLock("AICoreSpec", key, text)) {
            Complain(std::string("GetCoreMemSize: the platform infos have no AICoreSpec.") + key);
            return;
        }
        size = text.empty() ? 0U : std::strtoull(text.c_str(), nullptr, 10);
        return;
    }
    infos->GetLocalMemSize(static_cast<fe::LocalMemType>(memType), size);
    if ((memType == CoreMemType::UB || memType == CoreMemType::L1) && GetSocVersion() == SocVersion::ASCEND910B) {
        size -= opsnn_host::kAscend910bLocalReserve;
    }
    if (memType == CoreMemType::UB) {
        size -= reservedMemSize_;
    }
}
void PlatformAscendC::GetCoreMemBw(const CoreMemType &memType, uint64_t &bwSize) const {
    GetPlatFormInfo()->GetLocalMemBw(static_cast<fe::LocalMemType>(memType), bwSize);
}
void PlatformAscendC::ReserveLocalMemory(ReservedSize size) {
    switch (size) {
        case ReservedSize::RESERVED_SIZE_8K: reservedMemSize_ = 8U * 1024U; break;
        case ReservedSize::RESERVED_SIZE_16K: reservedMemSize_ = 16U * 1024U; break;
        case ReservedSize::RESERVED_SIZE_32K: reservedMemSize_ = 32U * 1024U; break;
        default: Complain("ReserveLocalMemory: unknown size " + std::to_string(static_cast<int>(size)));
    }
}

SocVersion PlatformAscendC::GetSocVersion(void) const {
    std::string short_version;
    if (!GetPlatFormInfo()->GetPlatformResWithLock("version", "Short_SoC_version", short_version)) {
        Complain("GetSocVersion: the platform infos name no SoC version (version.Short_SoC_version)");
        return SocVersion::RESERVED_VERSION;
    }
    return SocVersionOf(short_version);
}
NpuArch PlatformAscendC::GetCurNpuArch(void) const {
    std::string arch;
    if (!GetPlatFormInfo()->GetPlatformResWithLock("version", "NpuArch", arch)) {
        Complain("GetCurNpuArch: the platform infos name no NPU architecture (version.NpuArch)");
        return NpuArch::DAV_RESV;
    }
    const long code = std::strtol(arch.c_str(), nullptr, 10);
    if (code <= 0) {
        Complain("GetCurNpuArch: version.NpuArch '" + arch + "' is not a number");
        return NpuArch::DAV_RESV;
    }
    return static_cast<NpuArch>(code);
}
uint32_t PlatformAscendC::GetVecRegLen(void) const {
    std::string width;
    if (!GetPlatFormInfo()->GetPlatformResWithLock("AICoreSpec", "vector_reg_width", width)) {
        Complain("GetVecRegLen: the platform infos have no AICoreSpec.vector_reg_width");
        return 0U;
    }
    return ToU32(width);
}

PlatformAscendC *PlatformAscendCManager::GetInstance() { return GetInstance(nullptr); }
PlatformAscendC *PlatformAscendCManager::GetInstance(const char *customSocVersion) {
    static std::mutex mutex;
    static fe::PlatFormInfos infos;
    static PlatformAscendC *instance = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (instance == nullptr) {
        const std::string wanted = customSocVersion == nullptr ? opsnn_host::kDefaultSoc : customSocVersion;
        const opsnn_host::SocSpec *soc = opsnn_host::FindSocByAnyName(wanted);
        if (soc == nullptr) {
            Complain("PlatformAscendCManager: unknown SoC '" + wanted + "'; known: " + opsnn_host::KnownSocNames());
            return nullptr;
        }
        opsnn_host::FillPlatformInfos(*soc, infos);
        instance = new PlatformAscendC(&infos);
    }
    return instance;
}
}  // namespace platform_ascendc
