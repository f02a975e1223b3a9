"""What the host-twin tests share: libopsnn_host built once (a module that needs it asks for
`host_twin`), or the module skipped where it cannot be built here."""
import pytest

from opsnn.capi.build import BuildUnavailable
from opsnn.host import build as host_build


@pytest.fixture(scope="module")
def host_twin():
    try:
        host_build.build()
    except BuildUnavailable as e:
        pytest.skip(f"the host twin cannot be built: {e}")
