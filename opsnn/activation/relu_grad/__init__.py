"""ReluGrad: out = grad where feature > 0, else 0, as a multiply (the threshold ≈ 0 path of
aclnnThresholdBackward). Here a functional model, not an emulated kernel; see functional_models."""
