"""How a kernel template's parameters take the tiling-key header's declared arguments: by name
where the names are the declared ones, else by position (CANN's generated instantiations pass the
values in declaration order; upstream's swish kernel names its second argument otherwise)."""
from opsnn.cpudebug.tpl_entry import tiling_key_entry

HEADER = """#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(Toy, ASCENDC_TPL_UINT_DECL(schMode, 1, ASCENDC_TPL_UI_LIST, 0, 1),
                      ASCENDC_TPL_BOOL_DECL(flag, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 1),
                                     ASCENDC_TPL_BOOL_SEL(flag, 0)));
"""
DECLARATION = 'extern "C" void toy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);'


def _entry(tmp_path, template):
    (tmp_path / "toy_tiling_key.h").write_text(HEADER)
    kernel = f"{template}\n__global__ __aicore__ void toy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)" \
             " {}\n"
    return tiling_key_entry(DECLARATION, kernel, tmp_path)


def _call(entry):
    return next(line for line in entry.splitlines() if "toy<" in line)


def test_declared_names_bind_by_name_in_any_order(tmp_path):
    entry = _entry(tmp_path, "template <bool flag, uint64_t schMode>")
    assert "toy<static_cast<bool>(0), (1)>" in _call(entry)


def test_other_names_bind_by_position(tmp_path):
    entry = _entry(tmp_path, "template <uint64_t schMode, uint64_t attrWork>")
    assert entry is not None
    assert "toy<(1), static_cast<bool>(0)>" in _call(entry)  # attrWork takes flag's value


def test_another_count_of_parameters_is_not_bound(tmp_path):
    assert _entry(tmp_path, "template <uint64_t schMode>") is None
