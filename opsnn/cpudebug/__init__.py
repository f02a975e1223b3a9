"""opsnn's CPU-debug runtime: AscendC kernels written in C++, and their op_kernel unit tests written
for CANN's CPU-debug library (tikicpulib.h, ICPU_RUN_KF, gtest), compiled for the host unchanged
and run on opsnn's emulator and sanitizer (docs/cpp-kernels.md).

    include/   kernel_operator.h, tikicpulib.h, kernel_tiling/, data_utils.h, template_argument.h
    src/       libopsnn_kt: starts Python inside the test program, forwards each call (build.py)
    bridge.py  the Python side: GM, the running core, each instruction on opsnn.ascendc
    ut.py      `opsnn ut TEST.cpp`: find, compile, run, report"""
