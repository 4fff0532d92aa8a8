"""One table of the model servers receipt-pair knows, and what each one does with a request.

Every fact here comes from the server's own documentation or source; docs/servers.md gives
the source of each. Code elsewhere asks a row (`server.manages_models`,
`server.reports_capacity`, `server.fields[...]`) and never compares a kind's name.

A row says:
- how the kind is told apart by GET requests that change nothing on the server;
- where its chat endpoint is and which API shape it speaks ("openai", or Ollama's "ollama"
  native API, the only one of its APIs that applies all our sampling settings);
- for each of our fixed settings (request.SETTINGS), the field that carries it, or None when
  the kind cannot apply it;
- where the JSON schema goes and how the "thinking off" switch is said;
- whether the kind loads and unloads models on request, and how;
- whether it says how many models it holds at once;
- how a model that would run off this machine is recognised.
"""

from dataclasses import dataclass, field
from typing import Mapping, Optional, Tuple

# Fields written as "options.NAME" go inside the native request's "options" object.
OPTIONS_PREFIX = "options."

# Our settings under their OpenAI-style names, as llama-server (and so Lemonade's llamacpp
# backend) reads them.
_OPENAI_FIELDS = {
    "temperature": "temperature",
    "top_p": "top_p",
    "top_k": "top_k",
    "repeat_penalty": "repeat_penalty",
    "presence_penalty": "presence_penalty",
    "frequency_penalty": "frequency_penalty",
    "max_tokens": "max_tokens",
    "seed": "seed",
    "cache_prompt": "cache_prompt",
}


@dataclass(frozen=True)
class ServerKind:
    """One kind of model server. Paths are relative to the base URL unless `*_at_root`."""

    name: str  # "lemonade", "llama-server", "ollama", "lmstudio", "vllm", "openai"
    title: str  # for people: "llama.cpp llama-server (router mode)"
    detection: str  # how it is told apart, for people and docs
    api: str = "openai"  # "openai" or "ollama" (native /api/chat)
    chat_path: str = "/chat/completions"
    chat_at_root: bool = False
    # Our setting -> the body field that carries it (None: the kind cannot apply it).
    fields: Mapping[str, Optional[str]] = field(default_factory=lambda: dict(_OPENAI_FIELDS))
    schema_field: Optional[str] = "response_format"  # "response_format" (OpenAI) or "format"
    thinking_field: Optional[str] = "chat_template_kwargs"  # or "think", or None
    stream_false: bool = False  # the native API streams unless told not to
    logprobs: bool = False  # honours "logprobs" on its chat endpoint
    manages_models: bool = False
    load_path: Optional[str] = None
    unload_path: Optional[str] = None
    manage_at_root: bool = False
    model_field: str = "model"  # the body field that names the model to load or unload
    unload_extra: Mapping[str, object] = field(default_factory=dict)
    reports_capacity: bool = False  # says how many models it holds at once
    cloud_models: Optional[str] = None  # "lemonade-recipe", "ollama-cloud" or None
    variant: str = ""  # "router" for llama-server started without a model

    @property
    def native(self):
        """True when the chat request goes to the kind's own API, not the OpenAI one."""
        return self.api != "openai"

    @property
    def key(self):
        """The name to give `Client(server_kind=...)` to get exactly this row."""
        return "llama-router" if self.variant == "router" else self.name

    def unapplied(self):
        """Our settings this kind cannot apply, in SETTINGS order."""
        return tuple(name for name in _OPENAI_FIELDS if self.fields.get(name) is None)


LEMONADE = ServerKind(
    name="lemonade",
    title="Lemonade Server",
    detection="GET {base}/health answers an object with max_models or all_models_loaded",
    logprobs=False,  # its chat docs mark logprobs "not available"
    manages_models=True,
    load_path="/load",
    unload_path="/unload",
    model_field="model_name",
    reports_capacity=True,  # /health max_models.llm
    cloud_models="lemonade-recipe",
)

LLAMA_SERVER = ServerKind(
    name="llama-server",
    title="llama.cpp llama-server",
    detection="GET {base}/models lists entries with owned_by \"llamacpp\"",
    logprobs=True,
)

LLAMA_ROUTER = ServerKind(
    name="llama-server",
    title="llama.cpp llama-server (router mode)",
    detection="GET {base}/models lists entries that carry a status object",
    logprobs=True,
    manages_models=True,
    load_path="/models/load",
    unload_path="/models/unload",
    manage_at_root=True,  # beside /v1, not under it
    reports_capacity=True,  # GET /props max_instances
    variant="router",
)

OLLAMA = ServerKind(
    name="ollama",
    title="Ollama",
    detection="GET /api/tags answers {\"models\": [...]} whose entries have name and digest",
    api="ollama",
    chat_path="/api/chat",
    chat_at_root=True,
    # Its OpenAI endpoint ignores top_k, repeat_penalty and the thinking switch and sets
    # temperature and top_p to 1.0 when left out, so the native API is used instead.
    fields={
        "temperature": "options.temperature",
        "top_p": "options.top_p",
        "top_k": "options.top_k",
        "repeat_penalty": "options.repeat_penalty",
        "presence_penalty": "options.presence_penalty",
        "frequency_penalty": "options.frequency_penalty",
        "max_tokens": "options.num_predict",
        "seed": "options.seed",
        "cache_prompt": None,  # no per-request prompt-cache switch
    },
    schema_field="format",
    thinking_field="think",
    stream_false=True,
    manages_models=True,
    load_path="/api/generate",  # a request with no prompt loads the model
    unload_path="/api/generate",  # ... and with keep_alive 0 unloads it
    manage_at_root=True,
    unload_extra={"keep_alive": 0},
    cloud_models="ollama-cloud",
)

LMSTUDIO = ServerKind(
    name="lmstudio",
    title="LM Studio",
    detection="GET /api/v1/models answers {\"models\": [...]} whose entries have key and "
              "loaded_instances (or GET /api/v0/models lists entries with a state)",
    fields={**_OPENAI_FIELDS, "cache_prompt": None},  # not among its payload parameters
    thinking_field=None,  # chat_template_kwargs is not among its payload parameters
    manages_models=True,
    unload_path="/api/v1/models/unload",  # loading is just in time, on the first request
    manage_at_root=True,
    model_field="instance_id",
)

VLLM = ServerKind(
    name="vllm",
    title="vLLM",
    detection="GET {base}/models lists entries with owned_by \"vllm\"",
    fields={**_OPENAI_FIELDS, "repeat_penalty": "repetition_penalty", "cache_prompt": None},
    logprobs=True,
)

OPENAI = ServerKind(
    name="openai",
    title="an OpenAI-compatible server of unknown kind",
    detection="none of the above",
)

# The table. Keys are what `Client(server_kind=...)` accepts.
KINDS = {
    "lemonade": LEMONADE,
    "llama-server": LLAMA_SERVER,
    "llama-router": LLAMA_ROUTER,
    "ollama": OLLAMA,
    "lmstudio": LMSTUDIO,
    "vllm": VLLM,
    "openai": OPENAI,
}

# Rows whose request body must stay byte for byte what it was before kinds were told apart:
# sealed runs replay their request hashes against it.
LEGACY_BODY = (LEMONADE, LLAMA_SERVER, LLAMA_ROUTER, OPENAI)


def get_kind(name):
    """The row for a kind name (a KINDS key); ValueError names the known ones."""
    try:
        return KINDS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown server kind {name!r}; known: {', '.join(KINDS)}") from None


def kind_names() -> Tuple[str, ...]:
    return tuple(KINDS)
