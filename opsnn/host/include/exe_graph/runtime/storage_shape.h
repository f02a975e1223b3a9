/* opsnn host twin: gert::StorageShape -- a tensor's origin (logical) shape and its storage shape
 * (the layout in memory, e.g. after padding to a fractal format). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_

#include <initializer_list>
#include <type_traits>

#include "exe_graph/runtime/shape.h"

namespace gert {
struct StorageShape {
public:
    StorageShape() = default;
    StorageShape(const std::initializer_list<int64_t> &origin_shape, const std::initializer_list<int64_t> &storage_shape)
        : origin_shape_(origin_shape), storage_shape_(storage_shape) {}
    const Shape &GetOriginShape() const { return origin_shape_; }
    /* GetShape / MutableShape name the origin shape (the one infershape reasons about). */
    const Shape &GetShape() const { return origin_shape_; }
    const Shape &GetStorageShape() const { return storage_shape_; }
    Shape &MutableShape() { return origin_shape_; }
    Shape &MutableOriginShape() { return origin_shape_; }
    Shape &MutableStorageShape() { return storage_shape_; }
    bool operator==(const StorageShape &other) const {
        return origin_shape_ == other.origin_shape_ && storage_shape_ == other.storage_shape_;
    }
    bool operator!=(const StorageShape &other) const { return !(*this == other); }

private:
    Shape origin_shape_;
    Shape storage_shape_;
};
static_assert(std::is_standard_layout<StorageShape>::value, "a StorageShape heads a Tensor");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_
