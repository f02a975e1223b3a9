/* opsnn host twin: ge::graphStatus and its codes (CANN's values: developer code compares against
 * them, and UTs print them). */
#ifndef OPSNN_HOST_GRAPH_ERROR_CODES_H_
#define OPSNN_HOST_GRAPH_ERROR_CODES_H_

#include <cstddef>
#include <cstdint>

/* Visibility/deprecation markers CANN headers put on declarations; nothing here needs them. */
#ifndef GE_FUNC_VISIBILITY
#define GE_FUNC_VISIBILITY
#endif
#ifndef GE_FUNC_HOST_VISIBILITY
#define GE_FUNC_HOST_VISIBILITY
#endif
#ifndef GE_FUNC_DEV_VISIBILITY
#define GE_FUNC_DEV_VISIBILITY
#endif
#ifndef ATTRIBUTED_DEPRECATED
#define ATTRIBUTED_DEPRECATED(replacement)
#endif
#ifndef ATTRIBUTED_NOT_SUPPORT
#define ATTRIBUTED_NOT_SUPPORT()
#endif

namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0U;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFFU;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304U;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649U;
constexpr graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648U;
constexpr graphStatus GRAPH_NODE_NEED_REPASS = 50331647U;
constexpr graphStatus GRAPH_INVALID_IR_DEF = 50331646U;
constexpr graphStatus OP_WITHOUT_IR_DATATYPE_INFER_RULE = 50331645U;
constexpr graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331644U;
constexpr graphStatus GRAPH_MEM_OPERATE_FAILED = 50331539U;
constexpr graphStatus GRAPH_NULL_PTR = 50331538U;
constexpr graphStatus GRAPH_MEMCPY_FAILED = 50331537U;
constexpr graphStatus GRAPH_MEMSET_FAILED = 50331536U;
constexpr graphStatus GRAPH_MATH_CAL_FAILED = 50331429U;
constexpr graphStatus GRAPH_ADD_OVERFLOW = 50331428U;
constexpr graphStatus GRAPH_MUL_OVERFLOW = 50331427U;
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_ERROR_CODES_H_
