/* opsnn host twin: what a context knows of the operator node it runs for -- type and name, how many
 * tensors each IR input/output was instantiated into (a dynamic input: several; an optional one
 * left out: none), each tensor's compile-time data type and formats, and the attributes.
 *
 * ComputeNodeInfo points at arrays its builder owns (the context holder keeps them alive). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/storage_format.h"
#include "graph/types.h"

namespace gert {
/* IR input/output i became tensors [instance_start, instance_start + instantiation_num). */
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(const uint32_t instance_start, const uint32_t instantiation_num)
        : instance_start_(instance_start), instantiation_num_(instantiation_num) {}
    size_t GetInstanceNum() const { return instantiation_num_; }
    size_t GetInstanceStart() const { return instance_start_; }
    void SetInstanceStart(const uint32_t start) { instance_start_ = start; }
    void SetInstantiationNum(const uint32_t num) { instantiation_num_ = num; }

private:
    uint32_t instance_start_ = 0;
    uint32_t instantiation_num_ = 0;
};

class CompileTimeTensorDesc {
public:
    CompileTimeTensorDesc() = default;
    ge::DataType GetDataType() const { return data_type_; }
    const StorageFormat &GetFormat() const { return storage_format_; }
    ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
    ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
    ExpandDimsType GetExpandDimsType() const { return storage_format_.GetExpandDimsType(); }
    void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }
    void SetStorageFormat(const ge::Format format) { storage_format_.SetStorageFormat(format); }
    void SetOriginFormat(const ge::Format format) { storage_format_.SetOriginFormat(format); }
    void SetExpandDimsType(const ExpandDimsType &expand_dims_type) { storage_format_.SetExpandDimsType(expand_dims_type); }
    void SetExist(bool is_exist) { not_exist_ = !is_exist; }
    bool IsExist() const { return !not_exist_; }

private:
    ge::DataType data_type_ = ge::DT_UNDEFINED;
    StorageFormat storage_format_;
    bool not_exist_ = false;
};

class ComputeNodeInfo {
public:
    const ge::char_t *GetNodeType() const { return node_type_; }
    const ge::char_t *GetNodeName() const { return node_name_; }
    size_t GetIrInputsNum() const { return ir_inputs_num_; }
    size_t GetIrOutputsNum() const { return ir_outputs_num_; }
    size_t GetInputsNum() const { return inputs_num_; }
    size_t GetOutputsNum() const { return outputs_num_; }
    const AnchorInstanceInfo *GetInputInstanceInfo(const size_t ir_index) const {
        return ir_index < ir_inputs_num_ ? &input_instances_[ir_index] : nullptr;
    }
    const AnchorInstanceInfo *GetOutputInstanceInfo(const size_t ir_index) const {
        return ir_index < ir_outputs_num_ ? &output_instances_[ir_index] : nullptr;
    }
    const CompileTimeTensorDesc *GetInputTdInfo(const size_t index) const {
        return index < inputs_num_ ? &input_descs_[index] : nullptr;
    }
    const CompileTimeTensorDesc *GetOutputTdInfo(const size_t index) const {
        return index < outputs_num_ ? &output_descs_[index] : nullptr;
    }
    const RuntimeAttrs *GetAttrs() const { return attrs_; }
    void SetNodeType(const ge::char_t *node_type) { node_type_ = node_type; }
    void SetNodeName(const ge::char_t *node_name) { node_name_ = node_name; }
    AnchorInstanceInfo *MutableInputInstanceInfo(const size_t ir_index) const {
        return ir_index < ir_inputs_num_ ? &input_instances_[ir_index] : nullptr;
    }
    AnchorInstanceInfo *MutableOutputInstanceInfo(const size_t ir_index) const {
        return ir_index < ir_outputs_num_ ? &output_instances_[ir_index] : nullptr;
    }
    CompileTimeTensorDesc *MutableInputTdInfo(const size_t index) const {
        return index < inputs_num_ ? &input_descs_[index] : nullptr;
    }
    CompileTimeTensorDesc *MutableOutputTdInfo(const size_t index) const {
        return index < outputs_num_ ? &output_descs_[index] : nullptr;
    }
    RuntimeAttrs *MutableAttrs() const { return attrs_; }

    /* The builders' way in: every array is owned elsewhere and outlives this object. */
    struct Parts {
        const ge::char_t *node_type;
        const ge::char_t *node_name;
        size_t ir_inputs_num, ir_outputs_num, inputs_num, outputs_num;
        AnchorInstanceInfo *input_instances, *output_instances;
        CompileTimeTensorDesc *input_descs, *output_descs;
        RuntimeAttrs *attrs;
    };
    explicit ComputeNodeInfo(const Parts &p)
        : node_type_(p.node_type), node_name_(p.node_name), ir_inputs_num_(p.ir_inputs_num),
          ir_outputs_num_(p.ir_outputs_num), inputs_num_(p.inputs_num), outputs_num_(p.outputs_num),
          input_instances_(p.input_instances), output_instances_(p.output_instances), input_descs_(p.input_descs),
          output_descs_(p.output_descs), attrs_(p.attrs) {}
    ComputeNodeInfo() = delete;
    ComputeNodeInfo(const ComputeNodeInfo &) = delete;
    ComputeNodeInfo &operator=(const ComputeNodeInfo &) = delete;

private:
    const ge::char_t *node_type_;
    const ge::char_t *node_name_;
    size_t ir_inputs_num_;
    size_t ir_outputs_num_;
    size_t inputs_num_;
    size_t outputs_num_;
    AnchorInstanceInfo *input_instances_;
    AnchorInstanceInfo *output_instances_;
    CompileTimeTensorDesc *input_descs_;
    CompileTimeTensorDesc *output_descs_;
    RuntimeAttrs *attrs_;
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_
