/* opsnn host twin: the graph-mode tensor types -- ge::Shape (dims), ge::TensorDesc (shape,
 * origin shape, formats, data type, name, shape range) and ge::Tensor (a description and its
 * bytes, owned). Graph-mode infershape UTs describe operator inputs with them. */
#ifndef OPSNN_HOST_GRAPH_TENSOR_H_
#define OPSNN_HOST_GRAPH_TENSOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/types.h"

namespace ge {
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t> &dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    /* 0 past the last dim. */
    int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
    graphStatus SetDim(size_t idx, int64_t value) {
        if (idx >= dims_.size()) {
            return GRAPH_FAILED;
        }
        dims_[idx] = value;
        return GRAPH_SUCCESS;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    /* The element count; 0 for no dims (CANN's unset shape), -1 where a dim is unknown. */
    int64_t GetShapeSize() const {
        if (dims_.empty()) {
            return 0;
        }
        int64_t size = 1;
        for (int64_t d : dims_) {
            if (d < 0) {
                return -1;
            }
            size *= d;
        }
        return size;
    }
    bool IsUnknownShape() const {
        for (int64_t d : dims_) {
            if (d < 0) {
                return true;
            }
        }
        return false;
    }
    bool IsScalar() const { return dims_.empty(); }

private:
    std::vector<int64_t> dims_;
};

class TensorDesc {
public:
    TensorDesc() = default;
    explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT)
        : shape_(std::move(shape)), origin_shape_(shape_), format_(format), origin_format_(format), dtype_(dt) {}
    Shape GetShape() const { return shape_; }
    void SetShape(const Shape &shape) { shape_ = shape; }
    Shape GetOriginShape() const { return origin_shape_; }
    void SetOriginShape(const Shape &shape) { origin_shape_ = shape; }
    Format GetFormat() const { return format_; }
    void SetFormat(Format format) { format_ = format; }
    Format GetOriginFormat() const { return origin_format_; }
    void SetOriginFormat(Format format) { origin_format_ = format; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType dt) { dtype_ = dt; }
    std::string GetName() const { return name_; }
    graphStatus GetName(AscendString &name) const {
        name = AscendString(name_.c_str());
        return GRAPH_SUCCESS;
    }
    void SetName(const std::string &name) { name_ = name; }
    void SetName(const char *name) { name_ = name == nullptr ? "" : name; }
    graphStatus SetShapeRange(const std::vector<std::pair<int64_t, int64_t>> &range) {
        shape_range_ = range;
        return GRAPH_SUCCESS;
    }
    graphStatus GetShapeRange(std::vector<std::pair<int64_t, int64_t>> &range) const {
        range = shape_range_;
        return GRAPH_SUCCESS;
    }
    graphStatus SetOriginShapeRange(const std::vector<std::pair<int64_t, int64_t>> &range) {
        origin_shape_range_ = range;
        return GRAPH_SUCCESS;
    }
    graphStatus GetOriginShapeRange(std::vector<std::pair<int64_t, int64_t>> &range) const {
        range = origin_shape_range_;
        return GRAPH_SUCCESS;
    }
    int64_t GetSize() const { return size_; }
    void SetSize(int64_t size) { size_ = size; }
    int64_t GetRealDimCnt() const { return static_cast<int64_t>(shape_.GetDimNum()); }
    void SetRealDimCnt(int64_t) {}

private:
    Shape shape_;
    Shape origin_shape_;
    Format format_ = FORMAT_ND;
    Format origin_format_ = FORMAT_ND;
    DataType dtype_ = DT_FLOAT;
    std::string name_;
    std::vector<std::pair<int64_t, int64_t>> shape_range_;
    std::vector<std::pair<int64_t, int64_t>> origin_shape_range_;
    int64_t size_ = 0;
};

class Tensor {
public:
    Tensor() = default;
    explicit Tensor(const TensorDesc &desc) : desc_(desc) {}
    Tensor(const TensorDesc &desc, const std::vector<uint8_t> &data) : desc_(desc), data_(data) {}
    Tensor(const TensorDesc &desc, const uint8_t *data, size_t size) : desc_(desc), data_(data, data + size) {}
    TensorDesc GetTensorDesc() const { return desc_; }
    graphStatus SetTensorDesc(const TensorDesc &desc) {
        desc_ = desc;
        return GRAPH_SUCCESS;
    }
    /* The bytes; nullptr when empty. */
    const uint8_t *GetData() const { return data_.empty() ? nullptr : data_.data(); }
    uint8_t *GetData() { return data_.empty() ? nullptr : data_.data(); }
    size_t GetSize() const { return data_.size(); }
    graphStatus SetData(const std::vector<uint8_t> &data) {
        data_ = data;
        return GRAPH_SUCCESS;
    }
    graphStatus SetData(const uint8_t *data, size_t size) {
        data_.assign(data, data + size);
        return GRAPH_SUCCESS;
    }
    DataType GetDataType() const { return desc_.GetDataType(); }
    graphStatus SetDataType(DataType dt) {
        desc_.SetDataType(dt);
        return GRAPH_SUCCESS;
    }
    Format GetFormat() const { return desc_.GetFormat(); }
    Format GetOriginFormat() const { return desc_.GetOriginFormat(); }
    size_t GetShapeDimNum() const { return desc_.GetShape().GetDimNum(); }
    int64_t GetShapeDim(size_t idx) const { return desc_.GetShape().GetDim(idx); }
    size_t GetOriginShapeDimNum() const { return desc_.GetOriginShape().GetDimNum(); }
    int64_t GetOriginShapeDim(size_t idx) const { return desc_.GetOriginShape().GetDim(idx); }
    Tensor Clone() const { return *this; }

private:
    TensorDesc desc_;
    std::vector<uint8_t> data_;
};
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_TENSOR_H_
