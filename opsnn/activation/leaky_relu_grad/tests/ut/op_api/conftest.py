from opsnn.aclnn.testing import device_fixtures

from .harness import Device

dev, dev950, any_dev = device_fixtures(Device)  # Ascend910B2, Ascend950, each in turn
