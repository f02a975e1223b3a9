/* opsnn's atvoss does not model the reduce framework (ReduceSch, ReduceOpTilingData, the
 * Vec::Reduce*Op nodes): a kernel written on it fails to build here, saying so, rather than on a
 * missing file. docs/cpp-kernels.md, "atvoss". */
#error "opsnn's atvoss does not model the reduce schedules (atvoss/reduce/reduce_operator.h): ReduceSch and its DAG ops are not there"
