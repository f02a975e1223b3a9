/* opsnn's template_argument.h: the ASCENDC_TPL_* declarations of a kernel's tiling-key template
 * arguments. They steer the NPU build's instantiations; on the host a UT instantiates the kernel
 * itself, so they are accepted and expand to nothing. */
#ifndef OPSNN_TEMPLATE_ARGUMENT_H_
#define OPSNN_TEMPLATE_ARGUMENT_H_
#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_SEL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

#include <cstdint>
#include <initializer_list>

/* GET_TPL_TILING_KEY(args...): the tiling key of one instantiation. CANN packs the arguments into
 * the bit widths ASCENDC_TPL_ARGS_DECL declares; those declarations expand to nothing here, so the
 * key is the arguments packed 8 bits apiece, the first in the lowest byte (one argument: its value).
 * A host UT instantiates the kernel's template itself, so the key only reaches TILING_KEY_IS. */
namespace opsnn_kt {
inline uint64_t TplTilingKey(std::initializer_list<uint64_t> args) {
    uint64_t key = 0;
    int shift = 0;
    for (uint64_t a : args) {
        key |= (a & 0xFFu) << shift;
        shift += 8;
    }
    return key;
}
}  // namespace opsnn_kt
#define GET_TPL_TILING_KEY(...) ::opsnn_kt::TplTilingKey({__VA_ARGS__})
#endif
