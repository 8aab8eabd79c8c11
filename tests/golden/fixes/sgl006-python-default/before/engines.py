import sglang as sgl

prefill = sgl.Engine(model_path="m", disaggregation_mode="prefill", disaggregation_transfer_backend="nixl")
decode = sgl.Engine(
    model_path="m",
    disaggregation_mode="decode",
    port=30001,  # the default backend (mooncake)
)
