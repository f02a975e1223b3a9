/* opsnn host twin: opdev/shape_utils.h -- shape printing and conversion, and the broadcast rule
 * (numpy's: dims aligned from the right, each pair equal or one of them 1). */
#ifndef OPSNN_HOST_OPDEV_SHAPE_UTILS_H_
#define OPSNN_HOST_OPDEV_SHAPE_UTILS_H_

#include <cstdlib>
#include <string>

#include "exe_graph/runtime/shape.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"

namespace op {
ge::AscendString ToString(const op::Shape &shape);      // "[2,3]"
ge::AscendString ToString(const op::Strides &strides);  // "[3,1]"
void ToShape(const int64_t *dims, uint64_t dimNum, op::Shape &shape);
void ToShape(const op::ShapeVector &shapeVector, op::Shape &shape);
ShapeVector ToShapeVector(const op::Shape &shape);
/* Whether `self` and `other` broadcast together. */
bool CheckBroadcastShape(const op::Shape &self, const op::Shape &other);
/* Their broadcast shape, into broadcastShape; false (and broadcastShape untouched) when they do not broadcast. */
bool BroadcastInferShape(const op::Shape &self, const op::Shape &other, op::Shape &broadcastShape);
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_SHAPE_UTILS_H_
