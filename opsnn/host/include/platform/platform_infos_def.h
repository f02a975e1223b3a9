/* opsnn host twin: fe::PlatFormInfos -- a SoC's description as labelled key/value tables
 * ("SoCInfo": ai_core_cnt, vector_core_cnt, cube_core_cnt, core_type_list, l2_size; "AICoreSpec":
 * ub_size, l1_size, l0_a_size, ...; "version": Short_SoC_version, NpuArch; ...), plus the core
 * count SetCoreNumByCoreType selects. Copies share their tables, as CANN's do. A UT fills it with
 * SetPlatformRes from its compile-info JSON; opsnn's launches fill it from opsnn/platform.py's SoC
 * table (RunTiling). */
#ifndef OPSNN_HOST_PLATFORM_PLATFORM_INFOS_DEF_H_
#define OPSNN_HOST_PLATFORM_PLATFORM_INFOS_DEF_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform/platform_info_def.h"

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfosImpl;
using PlatFormInfosImplPtr = std::shared_ptr<PlatFormInfosImpl>;

class PlatFormInfos {
public:
    bool Init();
    std::map<std::string, std::vector<std::string>> GetAICoreIntrinsicDtype();
    std::map<std::string, std::vector<std::string>> GetVectorCoreIntrinsicDtype();
    /* false (val untouched) where the label or key is missing. */
    bool GetPlatformRes(const std::string &label, const std::string &key, std::string &val);
    bool GetPlatformResWithLock(const std::string &label, const std::string &key, std::string &val);
    bool GetPlatformRes(const std::string &label, std::map<std::string, std::string> &res);
    bool GetPlatformResWithLock(const std::string &label, std::map<std::string, std::string> &res);
    bool GetPlatformResWithLock(std::map<std::string, std::map<std::string, std::string>> &res);
    uint32_t GetCoreNum() const;
    uint32_t GetCoreNumWithLock() const;
    /* From AICoreSpec (UB, L1, L0A/B/C) or SoCInfo (L2); 0 where the table lacks it. */
    void GetLocalMemSize(const LocalMemType &mem_type, uint64_t &size);
    void GetLocalMemBw(const LocalMemType &mem_type, uint64_t &bw_size);
    std::map<std::string, std::vector<std::string>> GetAICoreIntrinsicDtype() const;
    std::map<std::string, std::vector<std::string>> GetVectorCoreIntrinsicDtype() const;
    bool GetPlatformRes(const std::string &label, const std::string &key, std::string &val) const;
    void SetAICoreIntrinsicDtype(std::map<std::string, std::vector<std::string>> &intrinsic_dtypes);
    void SetVectorCoreIntrinsicDtype(std::map<std::string, std::vector<std::string>> &intrinsic_dtypes);
    /* Replaces the label's table. */
    void SetPlatformRes(const std::string &label, std::map<std::string, std::string> &res);
    void SetPlatformResWithLock(const std::string &label, std::map<std::string, std::string> &res);
    std::map<std::string, std::vector<std::string>> GetFixPipeDtypeMap();
    void SetFixPipeDtypeMap(const std::map<std::string, std::vector<std::string>> &fixpipe_dtype_map);
    /* The core count becomes SoCInfo's vector_core_cnt for "VectorCore", cube_core_cnt for
     * "CubeCore", ai_core_cnt otherwise (0 where missing). */
    void SetCoreNumByCoreType(const std::string &core_type);
    void SetCoreNum(const uint32_t &core_num);
    uint32_t GetCoreNumByType(const std::string &core_type);

private:
    PlatFormInfosImpl &Impl();
    uint32_t core_num_{0};
    PlatFormInfosImplPtr platform_infos_impl_{nullptr};
};

class OptionalInfosImpl;
using OptionalInfosImplPtr = std::shared_ptr<OptionalInfosImpl>;
class OptionalInfos {
public:
    bool Init();
    std::string GetSocVersion() const;
    std::string GetCoreType() const;
    uint32_t GetAICoreNum() const;
    std::string GetL1FusionFlag() const;
    std::map<std::string, std::vector<std::string>> GetFixPipeDtypeMap() const;
    void SetFixPipeDtypeMap(const std::map<std::string, std::vector<std::string>> &fixpipe_dtype_map);
    void SetSocVersion(std::string soc_version);
    void SetSocVersionWithLock(std::string soc_version);
    void SetCoreType(std::string core_type);
    void SetAICoreNum(uint32_t ai_core_num);
    void SetL1FusionFlag(std::string l1_fusion_flag);

private:
    OptionalInfosImpl &Impl() const;
    mutable OptionalInfosImplPtr optional_infos_impl_{nullptr};
};
}  // namespace fe

#endif  // OPSNN_HOST_PLATFORM_PLATFORM_INFOS_DEF_H_
