"""capi.build.compiler() from many threads at once (the host twin and `opsnn ut` compile in thread
pools): sysconfig fills its variables on first use and a thread reading them meanwhile can find CXX
missing, which once compiled one object of a cached build with c++ instead of g++ (so the next
run recompiled it). compiler() reads the configuration one thread at a time."""
import sysconfig
import threading
import time

from opsnn.capi import build


def test_concurrent_calls_all_see_the_configured_compiler(monkeypatch):
    inside = []

    def racy_get_config_var(name):  # what sysconfig does while another thread is filling it in
        inside.append(1)
        time.sleep(0.01)
        seen_alone = len(inside) == 1
        inside.pop()
        return "g++" if seen_alone and name == "CXX" else None

    monkeypatch.setattr(sysconfig, "get_config_var", racy_get_config_var)
    monkeypatch.delenv("CXX", raising=False)
    out = []
    threads = [threading.Thread(target=lambda: out.append(build.compiler())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [["g++"]] * 8
