/* opsnn host twin: fe::PlatformInfo / fe::OptionalInfo -- the older struct form of a SoC's
 * description, which graph-mode infershape code and its UTs read and fill (soc_info.ai_core_cnt,
 * str_info.short_soc_version, ...). Only fields operator code and UTs name are modelled. */
#ifndef OPSNN_HOST_PLATFORM_PLATFORM_INFO_DEF_H_
#define OPSNN_HOST_PLATFORM_PLATFORM_INFO_DEF_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fe {
struct StrInfo {
    std::string aic_version;
    std::string ccec_aic_version;
    std::string ccec_aiv_version;
    std::string is_support_ai_cpu_compiler;
    std::string short_soc_version;
};

struct SoCInfo {
    uint32_t ai_core_cnt = 0;
    uint32_t vector_core_cnt = 0;
    uint32_t ai_cpu_cnt = 0;
    uint64_t l2_size = 0;
    uint32_t l2_page_num = 0;
    uint32_t block_size = 0;
    uint64_t memory_size = 0;
};

struct AiCoreSpec {
    double cube_freq = 0;
    uint64_t cube_m_size = 0;
    uint64_t cube_n_size = 0;
    uint64_t cube_k_size = 0;
    uint64_t vec_calc_size = 0;
    uint64_t l0_a_size = 0;
    uint64_t l0_b_size = 0;
    uint64_t l0_c_size = 0;
    uint64_t l1_size = 0;
    uint64_t smask_buffer = 0;
    uint64_t bt_size = 0;
    uint64_t ub_size = 0;
    uint64_t ubblock_size = 0;
    uint64_t ubbank_size = 0;
    uint64_t ubbank_num = 0;
    uint64_t ubburst_in_one_block = 0;
    uint64_t ubbank_group_num = 0;
    uint32_t unzip_engines = 0;
    uint32_t unzip_max_ratios = 0;
    uint32_t unzip_channels = 0;
    uint8_t unzip_is_tight = 0;
    uint8_t cube_vector_split = 0;
    uint8_t sparsity = 0;
};

struct PlatformInfo {
    StrInfo str_info;
    SoCInfo soc_info;
    AiCoreSpec ai_core_spec;
    std::map<std::string, std::vector<std::string>> ai_core_intrinsic_dtype_map;
    std::map<std::string, std::vector<std::string>> vector_core_intrinsic_dtype_map;
};

struct OptionalInfo {
    std::string soc_version;
    std::string core_type;
    uint32_t ai_core_num = 0;
    std::string l1_fusion_flag;
};
}  // namespace fe

#endif  // OPSNN_HOST_PLATFORM_PLATFORM_INFO_DEF_H_
