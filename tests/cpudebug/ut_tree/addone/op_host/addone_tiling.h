// The tiling data as op_host declares it; the UT build generates the kernel's struct from it.
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(AddoneTilingData)
TILING_DATA_FIELD_DEF(uint8_t, flag);       // a byte, then padding up to the next field's size
TILING_DATA_FIELD_DEF(uint32_t, perCore);   // elements each core adds one to
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, pad3);
TILING_DATA_FIELD_DEF(uint64_t, total);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Addone, AddoneTilingData)
}  // namespace optiling
