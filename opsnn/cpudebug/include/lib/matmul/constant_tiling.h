/* opsnn's lib/matmul/constant_tiling.h: cube (AIC) work -- Matmul, Mmad, Fixpipe, TCubeTiling -- is not modelled by the
 * CPU-debug runtime, which emulates vector (AIV) cores; a kernel that includes this fails to compile
 * here, by this name (docs/cpp-kernels.md, "How it differs"). */
#error "opsnn: lib/matmul/constant_tiling.h is cube (AIC) work (Matmul/Mmad), which opsnn's CPU-debug runtime does not model: it emulates vector cores only"
