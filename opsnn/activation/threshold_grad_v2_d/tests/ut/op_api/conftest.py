from opsnn.aclnn.testing import device_fixtures

from .aclnn_harness import Device

dev, dev950, any_dev = device_fixtures(Device)  # Ascend910B2 (the default SoC), Ascend950, each in turn
