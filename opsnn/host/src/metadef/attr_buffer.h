/* The byte layout of gert::RuntimeAttrs (runtime_attrs.h), built from typed values: the context
 * builders' AppendAttr calls and RunTiling's OpDef-typed attributes both end here. */
#ifndef OPSNN_HOST_SRC_METADEF_ATTR_BUFFER_H_
#define OPSNN_HOST_SRC_METADEF_ATTR_BUFFER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace opsnn_host {
/* One attribute value as RuntimeAttrs stores it: int64 for every integer, float for every real,
 * a C string, a list (TypedContinuousVector), a list of int lists (ContinuousVectorVector). */
using RuntimeAttrValue = std::variant<bool, int64_t, float, std::string, std::vector<bool>, std::vector<int64_t>,
                                      std::vector<float>, std::vector<std::string>, std::vector<std::vector<int64_t>>>;

/* A buffer holding a gert::RuntimeAttrs with these values at indices 0, 1, ... */
std::unique_ptr<uint8_t[]> BuildRuntimeAttrs(const std::vector<RuntimeAttrValue> &values);
}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_METADEF_ATTR_BUFFER_H_
