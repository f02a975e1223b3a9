/* opsnn host twin: gert::OpContextBuilderBase<T> -- what every context builder shares: the node's
 * type and name, its IR inputs/outputs and how many tensors each became, the attributes (in the
 * OpDef's order), and the tensor descriptions the derived builders fill. */
#ifndef OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_CONTEXT_BUILDER_BASE_H_
#define OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_CONTEXT_BUILDER_BASE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/context_builder/context_holder.h"
#include "exe_graph/runtime/expand_dims_type.h"
#include "graph/ascend_string.h"
#include "graph/types.h"

namespace gert {
class ContextBuilderImpl;

template <typename T>
class OpContextBuilderBase {
public:
    T &OpType(const ge::AscendString &op_type);
    T &OpName(const ge::AscendString &op_name);
    /* Each IR input/output one tensor; ignored once instance counts were given. */
    T &IONum(size_t input_ir_num, size_t output_ir_num);
    /* How many tensors each IR input/output became (0: an optional one left out). */
    T &IOInstanceNum(const std::vector<uint32_t> &input_instance_num, const std::vector<uint32_t> &output_instance_num);
    T &AppendAttr(bool attr);
    T &AppendAttr(int64_t attr);
    T &AppendAttr(float attr);
    T &AppendAttr(const ge::AscendString &attr);
    T &AppendAttr(const std::vector<bool> &attr);
    T &AppendAttr(const std::vector<int64_t> &attr);
    T &AppendAttr(const std::vector<float> &attr);
    T &AppendAttr(const std::vector<ge::AscendString> &attr);
    T &AppendAttr(const std::vector<std::vector<int64_t>> &attr);

    OpContextBuilderBase(const OpContextBuilderBase &) = delete;
    OpContextBuilderBase &operator=(const OpContextBuilderBase &) = delete;
    OpContextBuilderBase(OpContextBuilderBase &&) = delete;
    OpContextBuilderBase &operator=(OpContextBuilderBase &&) = delete;
    virtual ~OpContextBuilderBase();

protected:
    /* A description slot; past the declared count, a scratch slot (the write is dropped, with a message). */
    [[nodiscard]] ge::DataType &MutableInputDataType(size_t index);
    [[nodiscard]] ge::Format &MutableInputOriginalFormat(size_t index);
    [[nodiscard]] ge::Format &MutableInputStorageFormat(size_t index);
    [[nodiscard]] gert::ExpandDimsType &MutableInputExpandDimsType(size_t index);
    [[nodiscard]] ge::DataType &MutableOutputDataType(size_t index);
    [[nodiscard]] ge::Format &MutableOutputOriginalFormat(size_t index);
    [[nodiscard]] ge::Format &MutableOutputStorageFormat(size_t index);
    [[nodiscard]] gert::ExpandDimsType &MutableOutputExpandDimsType(size_t index);

    OpContextBuilderBase();
    explicit OpContextBuilderBase(std::unique_ptr<ContextBuilderImpl> impl);
    std::unique_ptr<ContextBuilderImpl> impl_;
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_CONTEXT_BUILDER_BASE_H_
