// The facts opsnn's C++ atvoss derives from DAGs (host side: no kernel, no runtime), printed as
// JSON for test_atvoss.py to compare with opsnn's Python atvoss on the same DAGs
// (tests/atvoss/dags.py, ThresholdGradV2D's arch35 DAGs), whose counts reproduce upstream's.
#include <cstdio>

#include "atvoss_test_dags.h"

using namespace test_dags;

static bool first = true;
template <class D>
void Show(const char *name) {
    std::printf("%s\"%s\": {\"funs\": %zu, \"buffers\": %u, \"cached\": %u, \"ub_brc\": %u, \"max\": %u, \"min\": %u, \"inputs\": %u, "
                "\"scalar_inputs\": %u, \"copy_brc\": %u, \"vars\": %u}",
                first ? "{" : ", ", name, D::FunList::Size, D::BufferNum, D::template GetBufferNum<true, true>(),
                D::template GetBufferNum<false, true>(),
                D::MaxDtypeBytes, D::MinDtypeBytes, D::InputSize, D::TensorScalarSize, D::CopyBrcSize, D::VarSize);
    first = false;
}

int main() {
    Show<HardtanhLike<half>::Dag>("hardtanh_grad_like/float16");
    Show<ErfinvLike<float>::Dag>("erfinv_like/float32");
    Show<ErfinvLike<half>::Dag>("erfinv_like/float16");
    Show<ThresholdLike<half>::Dag>("threshold_v2_like/float16");
    Show<ThresholdLike<int16_t>::Dag>("threshold_v2_like/int16");
    Show<ThresholdLike<float>::Dag>("threshold_v2_like/float32");
    Show<ThresholdLike<int32_t>::Dag>("threshold_v2_like/int32");
    Show<ThresholdLike<int8_t>::Dag>("threshold_v2_like/int8");
    Show<ThresholdLike<uint8_t>::Dag>("threshold_v2_like/uint8");
    Show<ThresholdLike<int64_t>::Dag>("threshold_v2_like/int64");
    Show<ThresholdLikeBf16::Dag>("threshold_v2_like/bfloat16");
    Show<Tgv2d<half>::Dag>("threshold_grad_v2_d/float16");
    Show<Tgv2d<bfloat16_t>::Dag>("threshold_grad_v2_d/bfloat16");
    Show<Tgv2d<float>::Dag>("threshold_grad_v2_d/float32");
    Show<Tgv2d<int32_t>::Dag>("threshold_grad_v2_d/int32");
    Show<Tgv2d<int8_t>::Dag>("threshold_grad_v2_d/int8");
    Show<Tgv2d<uint8_t>::Dag>("threshold_grad_v2_d/uint8");
    std::printf("}\n");
    return 0;
}
