"""opsnn.host: the host twin -- CANN's host-side C++ interfaces (metadef's graph/exe_graph/register,
opbase's op_common and opdev, the acl runtime) implemented by opsnn, so an operator's op_host,
op_api and aclnn example compile unchanged and run on the emulator (docs/cpp-operators.md).

build.py builds the C++ side, libopsnn_host.so; ut_layers.py plans `opsnn ut` builds of op_host
and op_api unit tests."""
