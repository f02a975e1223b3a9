/* opsnn host twin: gert::StorageFormat -- a tensor's origin format, its storage format and the
 * rule that expands its shape between them. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_STORAGE_FORMAT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_STORAGE_FORMAT_H_

#include "exe_graph/runtime/expand_dims_type.h"
#include "graph/types.h"

namespace gert {
struct StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(const ge::Format origin_format, const ge::Format storage_format, const ExpandDimsType &expand_dims_type)
        : origin_format_(origin_format), storage_format_(storage_format), expand_dims_type_(expand_dims_type) {}
    ge::Format GetOriginFormat() const { return origin_format_; }
    void SetOriginFormat(const ge::Format format) { origin_format_ = format; }
    ge::Format GetStorageFormat() const { return storage_format_; }
    void SetStorageFormat(const ge::Format format) { storage_format_ = format; }
    ExpandDimsType GetExpandDimsType() const { return expand_dims_type_; }
    void SetExpandDimsType(const ExpandDimsType &expand_dims_type) { expand_dims_type_ = expand_dims_type; }
    ExpandDimsType &MutableExpandDimsType() { return expand_dims_type_; }
    bool operator==(const StorageFormat &other) const {
        return origin_format_ == other.origin_format_ && storage_format_ == other.storage_format_ &&
               expand_dims_type_ == other.expand_dims_type_;
    }
    bool operator!=(const StorageFormat &other) const { return !(*this == other); }

private:
    /* Zero (FORMAT_NCHW) until set; CANN's leaves them unset. */
    ge::Format origin_format_ = ge::FORMAT_NCHW;
    ge::Format storage_format_ = ge::FORMAT_NCHW;
    ExpandDimsType expand_dims_type_;
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_STORAGE_FORMAT_H_
