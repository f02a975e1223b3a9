"""The tiling-data header `opsnn ut` generates where upstream's build generates one (no
<op>_tiling_def.h in the UT folder): op_host's BEGIN_TILING_DATA_DEF structs laid out as the host's
TilingDef lays them out, GET_TILING_DATA on the struct registered for the op type; none of the
host's structs for a kernel that registers its own, whose GET_TILING_DATA then reads
TestUtDefaultTilingStruct where the UT's options name it."""
from __future__ import annotations

from opsnn.cpudebug.tiling_header import header_text, read_structs

HOST = """
constexpr int64_t DIMS = 2;  // an array's length by name
BEGIN_TILING_DATA_DEF(InnerParams)   // nested: comes first
TILING_DATA_FIELD_DEF(uint16_t, a);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(OpxTilingData)
TILING_DATA_FIELD_DEF(int8_t, flag);
TILING_DATA_FIELD_DEF_STRUCT(InnerParams, inner);
TILING_DATA_FIELD_DEF_ARR(float, 3, scale);
TILING_DATA_FIELD_DEF(int64_t, n);
TILING_DATA_FIELD_DEF_ARR(int64_t, DIMS, dims);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Opx, OpxTilingData)
"""


def _op(tmp_path, kernel: str):
    (tmp_path / "opx" / "op_host").mkdir(parents=True)
    (tmp_path / "opx" / "op_kernel").mkdir()
    (tmp_path / "opx" / "op_host" / "opx_tiling.h").write_text(HOST)
    (tmp_path / "opx" / "op_host" / "opx_def.cpp").write_text("OP_ADD(Opx);\n")
    (tmp_path / "opx" / "op_kernel" / "opx.cpp").write_text(kernel)
    return tmp_path / "opx"


def test_structs_padded_as_tilingdef_pads_them(tmp_path):
    text = header_text(_op(tmp_path, "GET_TILING_DATA(t, tiling);"), "opx")
    body = text[text.index("#pragma pack(push, 1)"):text.index("#pragma pack(pop)")]
    assert body.splitlines()[1:] == [
        "struct InnerParams {", "    uint16_t a;", "    uint8_t InnerParamsPH[6];", "};",
        "struct OpxTilingData {", "    int8_t flag;", "    uint8_t innerPH[7];", "    InnerParams inner;",
        "    float scale[3];", "    uint8_t nPH[4];", "    int64_t n;", "    int64_t dims[2];", "};"]
    assert "#define GET_TILING_DATA(var, tiling) GET_TILING_DATA_WITH_STRUCT(OpxTilingData, var, tiling)" in text
    assert [s.name for s in read_structs(HOST)] == ["InnerParams", "OpxTilingData"]


def test_a_kernel_registering_its_own_struct_gets_none(tmp_path):
    text = header_text(_op(tmp_path, "REGISTER_TILING_DEFAULT(OpxTilingData);"), "opx")
    assert "struct" not in text
    assert ("#ifdef TestUtDefaultTilingStruct\n#undef GET_TILING_DATA\n#define GET_TILING_DATA(var, tiling) "
            "GET_TILING_DATA_WITH_STRUCT(TestUtDefaultTilingStruct, var, tiling)\n#endif") in text
