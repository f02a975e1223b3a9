// The facts opsnn's C++ atvoss derives from DAGs (host side: no kernel, no runtime), printed as
// JSON for test_atvoss.py to compare with opsnn's Python atvoss on the same DAGs
// (tests/atvoss/dags.py, ThresholdGradV2D's arch35 DAGs), whose counts reproduce upstream's.
#include <cstdio>
#include <type_traits>

#include "atvoss/util/dag.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/util/vec.h"

using namespace Ops::Base;

constexpr int NONE = 0, RINT = 1, LE = 3, TENSORS = 2;

// hardtanh_grad_like: two inputs widened, compare with a Var, select against a zero tile
template <class T>
struct HardtanhLike {
    using X = Bind<Vec::Cast<float, T, NONE>, Bind<Vec::CopyIn<T>, Placeholder::In0<T>>>;
    using G = Bind<Vec::Cast<float, T, NONE>, Bind<Vec::CopyIn<T>, Placeholder::In1<T>>>;
    using Mask = Bind<Vec::Compare<uint8_t, float, LE>, X, Bind<Vec::Duplicate<float>, Placeholder::Var<float, 0>>>;
    using ZeroValue = MAKE_CONST(float, 0.0);
    using R = Bind<Vec::Select<uint8_t, float, TENSORS>, Mask, Bind<Vec::Duplicate<float>, ZeroValue>, G>;
    using Dag = DAGSch<Elems<Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Bind<Vec::Cast<T, float, RINT>, R>>>>;
};

template <class T>
struct ErfinvLike {
    using X = Bind<Vec::Cast<float, T, NONE>, Bind<Vec::CopyIn<T>, Placeholder::In0<T>>>;
    using Dag = DAGSch<Elems<Bind<Vec::CopyOut<T>, Placeholder::Out0<T>,
                                  Bind<Vec::Cast<T, float, RINT>, Bind<Vec::Mul<float>, X, X>>>>>;
};

// threshold_v2_like: x <= threshold ? value : x, threshold and value tensor scalars
template <class T>
struct ThresholdLike {
    using X = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using Thr = Placeholder::In1<T, Placeholder::ScalarAttr<1>>;
    using Val = Placeholder::In2<T, Placeholder::ScalarAttr<1>>;
    using Dag = DAGSch<Elems<Bind<Vec::CopyOut<T>, Placeholder::Out0<T>,
                                  Bind<Vec::Select<uint8_t, T, 1>, Bind<Vec::Compare<uint8_t, T, LE>, X, Thr>, Val, X>>>>;
};
struct ThresholdLikeBf16 {  // through float, the scalars widened by scalar ops
    using T = bfloat16_t;
    using X = Bind<Vec::Cast<float, T, NONE>, Bind<Vec::CopyIn<T>, Placeholder::In0<T>>>;
    using Thr = Bind<Vec::Cast<float, T, NONE>, Placeholder::In1<T, Placeholder::ScalarAttr<1>>>;
    using Val = Bind<Vec::Cast<float, T, NONE>, Placeholder::In2<T, Placeholder::ScalarAttr<1>>>;
    using R = Bind<Vec::Select<uint8_t, float, 1>, Bind<Vec::Compare<uint8_t, float, LE>, X, Thr>, Val, X>;
    using Dag = DAGSch<Elems<Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Bind<Vec::Cast<T, float, RINT>, R>>>>;
};

// ThresholdGradV2D's arch35 DAGs (int8/uint8 through half)
template <class T>
struct Tgv2d {
    constexpr static bool viaHalf = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>;
    template <class N>
    using Widen = std::conditional_t<viaHalf, Bind<Vec::Cast<float, half, NONE>, Bind<Vec::Cast<half, T, NONE>, N>>,
                                     Bind<Vec::Cast<float, T, std::is_same_v<T, int32_t> ? RINT : NONE>, N>>;
    using Grad = Widen<Bind<Vec::CopyInBrc<T>, Placeholder::In0<T>>>;
    using Self = Widen<Bind<Vec::CopyInBrc<T>, Placeholder::In1<T>>>;
    using Mask = Bind<Vec::Compare<uint8_t, float, LE>, Self, Bind<Vec::Duplicate<float>, Placeholder::Var<float, 0>>>;
    using ZeroValue = MAKE_CONST(float, 0.0);
    using R = Bind<Vec::Select<uint8_t, float, TENSORS>, Mask, Bind<Vec::Duplicate<float>, ZeroValue>, Grad>;
    using Narrow = std::conditional_t<viaHalf, Bind<Vec::Cast<T, half, RINT>, Bind<Vec::Cast<half, float, RINT>, R>>,
                                      Bind<Vec::Cast<T, float, RINT>, R>>;
    using Dag = DAGSch<Elems<Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Narrow>>>;
};

static bool first = true;
template <class D>
void Show(const char *name) {
    std::printf("%s\"%s\": {\"funs\": %zu, \"buffers\": %u, \"cached\": %u, \"max\": %u, \"min\": %u, \"inputs\": %u, "
                "\"scalar_inputs\": %u, \"copy_brc\": %u, \"vars\": %u}",
                first ? "{" : ", ", name, D::FunList::Size, D::BufferNum, D::template GetBufferNum<true, true>(),
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
