/* opsnn host twin: opdev/format_utils.h -- formats: names, the private (device-internal, tiled)
 * ones, and the packed value's parts (primary format, sub-format, C0), with ge's packing
 * (graph/types.h). */
#ifndef OPSNN_HOST_OPDEV_FORMAT_UTILS_H_
#define OPSNN_HOST_OPDEV_FORMAT_UTILS_H_

#include <algorithm>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "opdev/common_types.h"

namespace op {
constexpr uint32_t BIT_NUM_OF_ONE_BYTE = 8U;
constexpr uint32_t BIT_THREE_BYTES = 24U;

/* NC1HWC0, FRACTAL_Z, FRACTAL_NZ (and its C0 variants), NDC1HWC0, FRACTAL_Z_3D, ... */
bool IsPrivateFormat(Format format);
Format ToFormat(const std::string &formatStr);
ge::AscendString ToString(Format format);

inline int32_t GetPrimaryFormat(int32_t format) { return ge::GetPrimaryFormat(format); }
inline Format GetPrimaryFormat(Format format) {
    return static_cast<Format>(ge::GetPrimaryFormat(static_cast<int32_t>(format)));
}
inline int32_t GetSubFormat(int32_t format) { return ge::GetSubFormat(format); }
inline int32_t GetSubFormat(Format format) { return ge::GetSubFormat(static_cast<int32_t>(format)); }
inline bool HasSubFormat(int32_t format) { return ge::HasSubFormat(format); }
inline int64_t GetC0Format(int32_t format) { return ge::GetC0Value(format); }
inline bool HasC0Format(int32_t format) { return ge::HasC0Format(format); }
inline Format GetFormatFromSub(int32_t primaryFormat, int32_t subFormat) {
    return static_cast<Format>(ge::GetFormatFromSub(primaryFormat, subFormat));
}

/* FORMAT_MAX for ACL_FORMAT_UNDEFINED; the aclFormat values are ge's numbers. */
inline Format ToOpFormat(aclFormat format) {
    return format == ACL_FORMAT_UNDEFINED ? Format::FORMAT_MAX : static_cast<Format>(format);
}

/* ACL_FORMAT_UNDEFINED for a format with no aclFormat. */
inline aclFormat ToAclFormat(Format format) {
    static const std::vector<int32_t> kAclFormats = {
        ACL_FORMAT_NCHW,   ACL_FORMAT_NHWC,  ACL_FORMAT_ND,       ACL_FORMAT_NC1HWC0,   ACL_FORMAT_FRACTAL_Z,
        ACL_FORMAT_NC1HWC0_C04, ACL_FORMAT_HWCN, ACL_FORMAT_NDHWC, ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_NCDHW,
        ACL_FORMAT_NDC1HWC0, ACL_FRACTAL_Z_3D, ACL_FORMAT_NC,      ACL_FORMAT_NCL,       ACL_FORMAT_FRACTAL_NZ_C0_16,
        ACL_FORMAT_FRACTAL_NZ_C0_32, ACL_FORMAT_FRACTAL_NZ_C0_2, ACL_FORMAT_FRACTAL_NZ_C0_4,
        ACL_FORMAT_FRACTAL_NZ_C0_8};
    const int32_t value = static_cast<int32_t>(format);
    return std::find(kAclFormats.begin(), kAclFormats.end(), value) != kAclFormats.end()
               ? static_cast<aclFormat>(value)
               : ACL_FORMAT_UNDEFINED;
}
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_FORMAT_UTILS_H_
