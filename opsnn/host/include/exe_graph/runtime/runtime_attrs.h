/* opsnn host twin: gert::RuntimeAttrs -- an operator's attribute values by index (the OpDef's
 * attribute order), each in the type it was declared with: int64_t, float, bool, a C string, a
 * TypedContinuousVector for a list, a ContinuousVectorVector for a list of lists. An index past the
 * last attribute reads as nullptr, which operator code checks.
 *
 * Layout (one buffer, built by the context builders): the count, a table of byte offsets from the
 * object's start, then the values. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/runtime_tensor.h"

namespace gert {
class RuntimeAttrs {
public:
    template <typename T>
    const T *GetAttrPointer(size_t index) const { return reinterpret_cast<const T *>(GetPointerByIndex(index)); }
    const int64_t *GetInt(const size_t index) const { return GetAttrPointer<int64_t>(index); }
    const TypedContinuousVector<int64_t> *GetListInt(const size_t index) const {
        return GetAttrPointer<TypedContinuousVector<int64_t>>(index);
    }
    const ContinuousVectorVector *GetListListInt(const size_t index) const {
        return GetAttrPointer<ContinuousVectorVector>(index);
    }
    const char *GetStr(const size_t index) const { return GetAttrPointer<char>(index); }
    const Tensor *GetTensor(const size_t index) const { return GetAttrPointer<Tensor>(index); }
    const float *GetFloat(const size_t index) const { return GetAttrPointer<float>(index); }
    const bool *GetBool(const size_t index) const { return GetAttrPointer<bool>(index); }
    const TypedContinuousVector<float> *GetListFloat(const size_t index) const {
        return GetAttrPointer<TypedContinuousVector<float>>(index);
    }
    const ContinuousVectorVector *GetListListFloat(const size_t index) const {
        return GetAttrPointer<ContinuousVectorVector>(index);
    }
    size_t GetAttrNum() const { return attr_num_; }

    RuntimeAttrs() = delete;
    RuntimeAttrs(const RuntimeAttrs &) = delete;
    RuntimeAttrs(RuntimeAttrs &&) = delete;
    RuntimeAttrs &operator=(const RuntimeAttrs &) = delete;
    RuntimeAttrs &operator=(RuntimeAttrs &&) = delete;

private:
    const void *GetPointerByIndex(size_t index) const {
        if (index >= attr_num_) {
            return nullptr;
        }
        return reinterpret_cast<const uint8_t *>(this) + offsets_[index];
    }
    size_t attr_num_;
    size_t offsets_[1];  // attr_num_ entries in the buffer
};
static_assert(std::is_standard_layout<RuntimeAttrs>::value, "RuntimeAttrs are built in raw buffers");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
