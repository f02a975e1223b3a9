/* ThresholdGradV2D's definition in C++ (docs/threshold-grad-v2d.md §2): the same inputs, output,
 * attribute and dtypes as op_host/threshold_grad_v2_d_def.py, for the C++ chain that
 * `opsnn run` builds (docs/cpp-operators.md). tests/host/test_threshold_cpp_chain.py checks the
 * two definitions agree. */
#include "register/op_def_registry.h"

namespace ops {

class ThresholdGradV2D : public OpDef {
public:
    explicit ThresholdGradV2D(const char *name) : OpDef(name) {
        // one column per supported combination: the three tensors always share a dtype
        const std::vector<ge::DataType> dtypes = {ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16,
                                                  ge::DT_INT32,   ge::DT_INT8,  ge::DT_UINT8};
        const std::vector<ge::Format> nd(dtypes.size(), ge::FORMAT_ND);
        for (const char *input : {"input_gradient", "input_feature"}) {
            Input(input).ParamType(REQUIRED).DataType(dtypes).Format(nd).UnknownShapeFormat(nd);
        }
        Output("output_backprops").ParamType(REQUIRED).DataType(dtypes).Format(nd).UnknownShapeFormat(nd);
        Attr("threshold").AttrType(REQUIRED).Float(1.0);

        OpAICoreConfig aicore;
        aicore.DynamicCompileStaticFlag(true)
            .DynamicFormatFlag(false)
            .DynamicRankSupportFlag(true)
            .DynamicShapeSupportFlag(true)
            .NeedCheckSupportFlag(false)
            .PrecisionReduceFlag(true)
            .ExtendCfgInfo("opFile.value", "threshold_grad_v2_d");  // op_kernel/threshold_grad_v2_d.cpp
        // Atlas A2 only: opsnn's Ascend950 kernel is a Python one (op_kernel/arch35), not C++
        AICore().AddConfig("ascend910b", aicore);
    }
};

OP_ADD(ThresholdGradV2D);

}  // namespace ops
