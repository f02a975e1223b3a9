/* ReluGrad's definition in C++ (op_host/relu_grad_def.py is the Python twin): backprops =
 * gradients * (features > 0), over the dtypes aclnnThresholdBackward hands it on Atlas A2. */
#include "register/op_def_registry.h"

namespace ops {

class ReluGrad : public OpDef {
public:
    explicit ReluGrad(const char *name) : OpDef(name) {
        const std::vector<ge::DataType> dtypes = {ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16,
                                                  ge::DT_INT32,   ge::DT_INT8,  ge::DT_UINT8};
        const std::vector<ge::Format> nd(dtypes.size(), ge::FORMAT_ND);
        for (const char *input : {"gradients", "features"}) {
            Input(input).ParamType(REQUIRED).DataType(dtypes).Format(nd).UnknownShapeFormat(nd);
        }
        Output("backprops").ParamType(REQUIRED).DataType(dtypes).Format(nd).UnknownShapeFormat(nd);

        OpAICoreConfig aicore;
        aicore.DynamicCompileStaticFlag(true)
            .DynamicRankSupportFlag(true)
            .DynamicShapeSupportFlag(true)
            .ExtendCfgInfo("opFile.value", "relu_grad");  // op_kernel/relu_grad.cpp
        AICore().AddConfig("ascend910b", aicore);
    }
};

OP_ADD(ReluGrad);

}  // namespace ops
