"""The server's defaults and the variables that change them: plain constants, so that what
only needs them (the settings, the command line's options) does not load HTTP."""

DEFAULT_BASE_URL = "http://localhost:13305/api/v1"
DEFAULT_MODEL_A = "Qwen3-4B-Instruct-2507-GGUF"
DEFAULT_MODEL_B = "Gemma-4-E4B-it-GGUF"
# Environment variables that set the defaults for every command.
ENV_BASE_URL = "RECEIPT_PAIR_BASE_URL"
ENV_MODEL_A = "RECEIPT_PAIR_MODEL_A"
ENV_MODEL_B = "RECEIPT_PAIR_MODEL_B"
DEFAULT_TIMEOUT = 300.0  # seconds for one model call, load included
MAX_TIMEOUT = 86400.0  # a day: more (or infinity) is no deadline a clock can hold
# Sent on every request. Lemonade applies per-family sampling defaults to any field a
# request leaves out, so all the sampling fields are set, not only temperature.
# cache_prompt is off: with it on, llama-server's replies drifted at temperature 0.
SETTINGS = {
    "temperature": 0,
    "top_p": 1,
    "top_k": 1,
    "repeat_penalty": 1,
    "presence_penalty": 0,
    "frequency_penalty": 0,
    "max_tokens": 400,
    "seed": 42,
    "cache_prompt": False,
}
