// DAGs of opsnn's tests written on the C++ atvoss (host side: types only), the same as the Python
// atvoss's tests/atvoss/dags.py and ThresholdGradV2D's arch35 DAGs.
#ifndef OPSNN_TESTS_ATVOSS_TEST_DAGS_H_
#define OPSNN_TESTS_ATVOSS_TEST_DAGS_H_

#include <type_traits>

#include "atvoss/util/dag.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/util/vec.h"

namespace test_dags {
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

// out = a * b, both inputs broadcast by the kernel (no Var, three GM tensors: schedule 202 in one dim)
template <class T>
struct MulBrc {
    using Dag = DAGSch<Elems<Bind<Vec::CopyOut<T>, Placeholder::Out0<T>,
                                  Bind<Vec::Mul<T>, Bind<Vec::CopyInBrc<T>, Placeholder::In0<T>>,
                                       Bind<Vec::CopyInBrc<T>, Placeholder::In1<T>>>>>>;
};

}  // namespace test_dags

#endif  // OPSNN_TESTS_ATVOSS_TEST_DAGS_H_
