/* op::PlatformInfo and the current SoC (soc.h). The SoCs and their core counts are the SoC
 * table's (metadef/soc_table.h, generated from opsnn/platform.py); this file only maps them to
 * op_api's SocVersion / NpuArch and picks the current one. */
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>

#include "opdev/platform.h"
#include "soc.h"

namespace opsnn_host {
namespace {

std::string Lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/* A SocVersion a UT may choose that opsnn does not emulate: its architecture, no cores. */
SocInfo Unmodelled(op::SocVersion version) {
    NpuArch arch = NpuArch::DAV_RESV;
    switch (version) {
        case op::SocVersion::ASCEND910:
            arch = NpuArch::DAV_1001;
            break;
        case op::SocVersion::ASCEND910B:
        case op::SocVersion::ASCEND910_93:
            arch = NpuArch::DAV_2201;
            break;
        case op::SocVersion::ASCEND950:
            arch = NpuArch::DAV_3510;
            break;
        case op::SocVersion::ASCEND310P:
            arch = NpuArch::DAV_2002;
            break;
        case op::SocVersion::ASCEND310B:
            arch = NpuArch::DAV_3002;
            break;
        case op::SocVersion::ASCEND610LITE:
            arch = NpuArch::DAV_3102;
            break;
        default:
            break;
    }
    return {op::ToString(version).GetString(), version, arch, 0, 0, false};
}

struct Override {
    bool active = false;
    op::SocVersion version = op::SocVersion::ASCEND910B;
    NpuArch arch = NpuArch::DAV_2201;
};
thread_local Override t_override;

/* The SoC the environment names: the device's, else $OPSNN_UT_SOC, else $OPSNN_SOC, else the
 * default (an unknown name here falls back to the default: aclInit is where an unknown $OPSNN_SOC
 * is refused). */
SocInfo EnvironmentSoc() {
    std::string name = AclDeviceSoc();
    for (const char *var : {"OPSNN_UT_SOC", "OPSNN_SOC"}) {
        const char *v = std::getenv(var);
        if (name.empty() && v != nullptr && *v != '\0') {
            name = v;
        }
    }
    const SocSpec *soc = name.empty() ? nullptr : FindSpelledSoc(name);
    return soc != nullptr ? InfoOf(*soc) : DefaultSoc();
}

}  // namespace

const SocSpec *FindSpelledSoc(const std::string &name) {
    const std::string key = Lower(name);
    for (size_t i = 0; i < kSocTableSize; ++i) {
        if (Lower(kSocTable[i].name) == key) {
            return &kSocTable[i];
        }
    }
    if (key == "ascend910b") {
        return FindSoc(kDefaultSoc);
    }
    for (size_t i = 0; key.rfind("ascend950", 0) == 0 && i < kSocTableSize; ++i) {
        if (std::strcmp(kSocTable[i].family, "ascend950") == 0) {
            return &kSocTable[i];
        }
    }
    return nullptr;
}

SocInfo InfoOf(const SocSpec &soc) {
    const bool a5 = std::strcmp(soc.arch, "DAV_3510") == 0;
    return {soc.name, a5 ? op::SocVersion::ASCEND950 : op::SocVersion::ASCEND910B,
            a5 ? NpuArch::DAV_3510 : NpuArch::DAV_2201, soc.aiv_cores, soc.aic_cores, true};
}

SocInfo DefaultSoc() { return InfoOf(*FindSoc(kDefaultSoc)); }

SocInfo CurrentSoc() {
    const SocInfo env = EnvironmentSoc();
    if (!t_override.active || env.version == t_override.version) {
        return env;  // no choice made, or the environment names a part of the chosen family: keep it
    }
    for (size_t i = 0; i < kSocTableSize; ++i) {  // the chosen family's first modelled part
        const SocInfo info = InfoOf(kSocTable[i]);
        if (info.version == t_override.version && info.arch == t_override.arch) {
            return info;
        }
    }
    SocInfo other = Unmodelled(t_override.version);
    other.arch = t_override.arch;
    return other;
}

}  // namespace opsnn_host

namespace op {

SocVersion PlatformInfo::GetSocVersion() const { return opsnn_host::CurrentSoc().version; }

NpuArch PlatformInfo::GetCurNpuArch() const { return opsnn_host::CurrentSoc().arch; }

const std::string &PlatformInfo::GetSocLongVersion() const {
    thread_local std::string name;
    name = opsnn_host::CurrentSoc().name;
    return name;
}

int32_t PlatformInfo::GetDeviceId() const { return 0; }

bool PlatformInfo::CheckSupport(SocSpec, SocSpecAbility) const { return false; }

int64_t PlatformInfo::GetBlockSize() const { return 32; }

uint32_t PlatformInfo::GetCubeCoreNum() const { return opsnn_host::CurrentSoc().cubeCores; }

uint32_t PlatformInfo::GetVectorCoreNum() const { return opsnn_host::CurrentSoc().vectorCores; }

bool PlatformInfo::Valid() const { return true; }

bool PlatformInfo::GetFftsPlusMode() const { return false; }

fe::PlatFormInfos *PlatformInfo::GetPlatformInfos() const { return nullptr; }

const PlatformInfo &GetCurrentPlatformInfo() {
    static const PlatformInfo info;
    return info;
}

ge::AscendString ToString(SocVersion socVersion) {
    switch (socVersion) {
        case SocVersion::ASCEND910:
            return "Ascend910";
        case SocVersion::ASCEND910B:
            return "Ascend910B";
        case SocVersion::ASCEND910_93:
            return "Ascend910_93";
        case SocVersion::ASCEND950:
            return "Ascend950";
        case SocVersion::ASCEND910E:
            return "Ascend910E";
        case SocVersion::ASCEND310:
            return "Ascend310";
        case SocVersion::ASCEND310P:
            return "Ascend310P";
        case SocVersion::ASCEND310B:
            return "Ascend310B";
        case SocVersion::ASCEND310C:
            return "Ascend310C";
        case SocVersion::ASCEND610LITE:
            return "Ascend610Lite";
        case SocVersion::KIRINX90:
            return "KirinX90";
        case SocVersion::KIRIN9030:
            return "Kirin9030";
        case SocVersion::ASCEND350:
            return "Ascend350";
        default:
            return "UnknownSocVersion";
    }
}

namespace {
SocVersion VersionOfArch(NpuArch arch, SocVersion fallback) {
    switch (arch) {
        case NpuArch::DAV_1001:
            return SocVersion::ASCEND910;
        case NpuArch::DAV_2201:
            return SocVersion::ASCEND910B;
        case NpuArch::DAV_3510:
            return SocVersion::ASCEND950;
        case NpuArch::DAV_2002:
            return SocVersion::ASCEND310P;
        case NpuArch::DAV_3002:
            return SocVersion::ASCEND310B;
        case NpuArch::DAV_3102:
            return SocVersion::ASCEND610LITE;
        default:
            return fallback;
    }
}
}  // namespace

SocVersionManager::SocVersionManager(SocVersion newVersion)
    : hadOverride_(opsnn_host::t_override.active),
      originalVersion_(opsnn_host::t_override.version),
      originalArch_(opsnn_host::t_override.arch) {
    opsnn_host::t_override = {true, newVersion, opsnn_host::Unmodelled(newVersion).arch};
}

SocVersionManager::~SocVersionManager() { opsnn_host::t_override = {hadOverride_, originalVersion_, originalArch_}; }

NpuArchManager::NpuArchManager(NpuArch newArch)
    : hadOverride_(opsnn_host::t_override.active),
      originalVersion_(opsnn_host::t_override.version),
      originalArch_(opsnn_host::t_override.arch) {
    opsnn_host::t_override = {true, VersionOfArch(newArch, opsnn_host::CurrentSoc().version), newArch};
}

NpuArchManager::~NpuArchManager() { opsnn_host::t_override = {hadOverride_, originalVersion_, originalArch_}; }

}  // namespace op
