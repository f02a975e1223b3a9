// opsnn's own op_host test operator: z = alpha * x + y, written the way an ops-nn *_def.cpp is.
#include "register/op_def_registry.h"

namespace ops {
class OpsnnScaleAdd : public OpDef {
public:
    explicit OpsnnScaleAdd(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(REQUIRED).Float();
        this->Attr("mode").AttrType(OPTIONAL).Int(3);
        this->Attr("tag").AttrType(OPTIONAL).String("t");
        OpAICoreConfig config;
        config.DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value", "opsnn_scale_add");
        this->AICore().AddConfig("ascend910b", config);
        OpAICoreConfig config950;
        config950.Input("x").ParamType(REQUIRED).DataType({ge::DT_BF16}).Format({ge::FORMAT_ND});
        config950.Input("y").ParamType(REQUIRED).DataType({ge::DT_BF16}).Format({ge::FORMAT_ND});
        config950.Output("z").ParamType(REQUIRED).DataType({ge::DT_BF16}).Format({ge::FORMAT_ND});
        config950.ExtendCfgInfo("opFile.value", "opsnn_scale_add_950");
        this->AICore().AddConfig("ascend950", config950);
    }
};
OP_ADD(OpsnnScaleAdd);

// A list parameter: every x dtype pairs with every y dtype.
class OpsnnListed : public OpDef {
public:
    explicit OpsnnListed(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32});
        this->Input("y").ParamType(REQUIRED).DataTypeList({ge::DT_INT8, ge::DT_UINT8});
        this->Output("z").ParamType(REQUIRED).Follow("x");
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(OpsnnListed);

// A definition whose DataType columns disagree (2 against 1): a launch names the parameters.
class OpsnnBadColumns : public OpDef {
public:
    explicit OpsnnBadColumns(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(OpsnnBadColumns);
}  // namespace ops
