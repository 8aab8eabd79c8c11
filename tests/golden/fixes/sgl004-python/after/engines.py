import sglang as sgl

prefill = sgl.Engine(model_path="m", disaggregation_mode="prefill", kv_cache_dtype="fp8_e5m2")
decode = sgl.Engine(
    model_path="m",
    disaggregation_mode="decode",
    kv_cache_dtype="fp8_e5m2",  # the decode's own choice
    port=30001,
)
