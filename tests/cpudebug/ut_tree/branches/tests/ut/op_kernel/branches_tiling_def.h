// The UT's own tiling header, force-included before the kernel's headers: its GET_TILING_DATA
// stands (as foreach's field-by-field copy does upstream).
#define GET_TILING_DATA(var, tiling) constexpr int var = 3
