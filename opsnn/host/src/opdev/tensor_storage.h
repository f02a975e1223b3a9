/* The storage behind aclTensor views, and the one way src/ makes and frees tensors (aclTensor's
 * constructors are private; this struct is its friend). */
#ifndef OPSNN_HOST_SRC_OPDEV_TENSOR_STORAGE_H_
#define OPSNN_HOST_SRC_OPDEV_TENSOR_STORAGE_H_

#include <cstdint>
#include <memory>

#include "opdev/common_types.h"

namespace opsnn_host {

struct TensorStorage {
    void *addr = nullptr;           // device address (or the host data below); intermediates: set at phase 2
    bool fromWorkspace = false;     // an executor's intermediate, placed in the workspace
    uint64_t workspaceOffset = 0;   // its slot's offset, once planned
    std::unique_ptr<uint8_t[]> hostData;  // a host tensor's own bytes
    uint64_t hostBytes = 0;

    /* A device tensor over `storage` with a contiguous view of storageShape. */
    static aclTensor *NewTensor(const op::Shape &storageShape, const op::Shape &originShape, op::DataType dtype,
                                op::Format storageFormat, op::Format originFormat,
                                std::shared_ptr<TensorStorage> storage);
    /* A view of `base`'s storage. */
    static aclTensor *NewView(const aclTensor &base, const op::Shape &viewShape, const op::Strides &strides,
                              int64_t offset);
    /* A host tensor of `shape`, zero-filled, its bytes owned by its storage. */
    static aclTensor *NewHostTensor(const op::Shape &shape, op::DataType dtype, op::Format format);
    static void Delete(const aclTensor *tensor);
    static void SetPlacement(aclTensor *tensor, op::TensorPlacement placement);
};

/* Element (not byte) extent of a view: 1 + the largest offset it reads, 0 when empty. */
int64_t ViewExtent(const op::Shape &shape, const op::Strides &strides, int64_t offset);
/* Bytes `count` elements of dtype take (sub-byte types rounded up). */
uint64_t ElementBytes(op::DataType dtype, int64_t count);
/* Whether the dtype has a whole-byte element size this twin can move. */
bool HasByteSize(op::DataType dtype);

}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_OPDEV_TENSOR_STORAGE_H_
