"""An in-process loopback model server for the unit tests.

It plays back scripted replies per model, records every request it gets, and can play each
kind of server receipt-pair tells apart, answering the detection GETs of that kind:

- "openai": a plain OpenAI-compatible server that manages nothing (the default);
- "lemonade": `/api/v1/health` with `max_models`, `/api/v1/models/{id}` with a recipe,
  `/api/v1/load`, `/api/v1/unload`;
- "llama-router": llama-server in router mode (`/v1/models` with a status per model,
  `/models/load`, `/models/unload`, `/props` with `max_instances`);
- "llama-server": llama-server with one model (`/health`, `/props` with `total_slots`,
  `/v1/models` owned by "llamacpp");
- "ollama": `/api/version`, `/api/tags`, the native `/api/chat`, and `/api/generate` for
  load and unload (`keep_alive: 0`);
- "lmstudio": `/api/v1/models` with `key` and `loaded_instances`, `/api/v1/models/unload`;
- "vllm": `/version`, `/v1/models` owned by "vllm".

A scripted reply is a str (the model's text, wrapped in the kind's chat answer), a `Reply`
(status, body, a delay, or a body trickled one byte at a time), or a callable(body) giving
either. `manage_reply` replaces the answer to load and unload requests (to play failures).
"""

import json
import os
import selectors
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KINDS = ("openai", "lemonade", "llama-router", "llama-server", "ollama", "lmstudio", "vllm")
CHAT_PATHS = ("/chat/completions", "/api/chat")


def chat_response(content, prompt_tokens=120, completion_tokens=30, finish_reason="stop",
                  message=None, logprobs=None):
    """An OpenAI-shaped chat answer; `message` adds fields to choices[0].message."""
    choice = {"index": 0, "message": {"role": "assistant", "content": content, **(message or {})},
              "finish_reason": finish_reason}
    if logprobs is not None:
        choice["logprobs"] = logprobs
    return {
        "choices": [choice],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
        "timings": {"prompt_n": prompt_tokens, "prompt_ms": 800.0,
                    "predicted_n": completion_tokens, "predicted_ms": 900.0, "cache_n": 0},
    }


def raw_numbers(body, **tokens):
    """`body` as JSON bytes in which every field named in `tokens` holds that raw token
    ("NaN", "-Infinity", "1e999"), which json.dumps would not write."""
    def mark(value):
        if isinstance(value, dict):
            return {k: f"@{k}@" if k in tokens else mark(v) for k, v in value.items()}
        return [mark(v) for v in value] if isinstance(value, list) else value

    raw = json.dumps(mark(body))
    for key, token in tokens.items():
        raw = raw.replace(f'"@{key}@"', token)
    return raw.encode()


def ollama_response(content, done_reason="stop", thinking=None, model="m"):
    """An answer of Ollama's native /api/chat with `stream: false`."""
    message = {"role": "assistant", "content": content}
    if thinking is not None:
        message["thinking"] = thinking
    return {"model": model, "created_at": "2025-01-01T00:00:00Z", "message": message,
            "done": True, "done_reason": done_reason, "total_duration": 1900000000,
            "load_duration": 1000000, "prompt_eval_count": 120,
            "prompt_eval_duration": 800000000, "eval_count": 30, "eval_duration": 900000000}


class Reply:
    """A scripted server answer: HTTP status and a body (dict as JSON, or raw bytes).

    `trickle` sends the body one byte every `trickle` seconds; `length` overrides the
    Content-Length header (None with `close=True`: no header, the body ends at close).
    """

    def __init__(self, status=200, body=None, delay=0.0, trickle=0.0, length=-1, close=False):
        self.status = status
        self.body = body
        self.delay = delay
        self.trickle = trickle
        self.length = length
        self.close = close


def answer(verdict, turn=None, quote="", reason="scripted"):
    return json.dumps({"verdict": verdict, "turn": turn, "quote": quote, "reason": reason})


class _QuickServer(ThreadingHTTPServer):
    """A ThreadingHTTPServer that sleeps until a request comes or shutdown() wakes it.

    serve_forever polls for its stop: a short poll wakes the thread hundreds of times a
    second in every test that holds a server, a long one makes each stop wait for it. Here a
    pipe wakes the loop the moment shutdown() asks, and nothing runs in between."""

    daemon_threads = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._wake_read, self._wake_write = self._wake_pipe = os.pipe()
        self._stopping = False
        self._stopped = threading.Event()

    def serve_forever(self, poll_interval=None):
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(self, selectors.EVENT_READ)
                selector.register(self._wake_read, selectors.EVENT_READ)
                while not self._stopping:
                    for key, _ in selector.select():
                        if key.fileobj is self and not self._stopping:
                            self._handle_request_noblock()
        finally:
            self._stopped.set()

    def shutdown(self):
        if not self._stopping:
            self._stopping = True
            os.write(self._wake_write, b"x")
        self._stopped.wait()

    def server_close(self):
        super().server_close()
        pipe, self._wake_pipe = self._wake_pipe, ()  # closed once: a number may be reused
        for fd in pipe:
            os.close(fd)


class FakeServer:
    def __init__(self, kind="llama-server", max_models=1, slots=1):
        if kind not in KINDS:
            raise ValueError(kind)
        self.kind = kind
        self.max_models = max_models
        self.slots = slots
        self.requests = []  # (method, path, decoded JSON body or None)
        self.scripts = {}  # model -> list of str | Reply | callable(body) -> str | Reply
        self.default = answer("not_shown")
        self.lock = threading.Lock()
        self.loaded = []
        self.manage_reply = None  # a Reply for load/unload instead of success
        self.recipes = {}  # lemonade: model -> recipe (default "llamacpp")
        self.components = {}  # lemonade: collection model -> its component names
        self.ollama_models = None  # ollama: the /api/tags entries (default: one per model)
        self.trickled = 0  # bytes sent by trickled replies
        self.in_flight = 0  # chat requests being answered right now
        self.most_in_flight = 0
        handler = self._handler()
        self.httpd = _QuickServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self):
        prefix = "/api/v1" if self.kind == "lemonade" else "/v1"
        return f"http://127.0.0.1:{self.port}{prefix}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def script(self, model, *replies):
        self.scripts.setdefault(model, []).extend(replies)

    def chats(self, model=None):
        """The chat request bodies received, optionally only those for `model`."""
        return [body for method, path, body in self.requests
                if path.endswith(CHAT_PATHS) and (model is None or body["model"] == model)]

    def paths(self, method=None):
        return [path for m, path, _ in self.requests if method is None or m == method]

    def _next(self, body, native=False):
        with self.lock:
            queue = self.scripts.get(body.get("model"), [])
            item = queue.pop(0) if queue else self.default
        if callable(item):
            item = item(body)
        if isinstance(item, str):
            if native:
                item = Reply(200, ollama_response(item, model=body.get("model", "m")))
            else:
                item = Reply(200, chat_response(item))
        return item

    def _models(self):
        return self.loaded or ["m"]

    def _route(self, method, path, body):
        body = body if isinstance(body, dict) else {}
        if method == "POST" and path.endswith("/chat/completions"):
            return self._next(body)
        if method == "POST" and path == "/api/chat" and self.kind == "ollama":
            return self._next(body, native=True)
        route = getattr(self, "_route_" + self.kind.replace("-", "_"))
        return route(method, path, body) or \
            Reply(404, {"error": {"message": "File Not Found", "type": "not_found_error"}})

    def _route_openai(self, method, path, body):
        return None

    def _route_lemonade(self, method, path, body):
        if path == "/api/v1/health":
            return Reply(200, {"status": "ok", "model_loaded": None,
                               "all_models_loaded": [{"model_name": m, "type": "llm"}
                                                     for m in self.loaded],
                               "max_models": {"llm": self.max_models}})
        if path == "/api/v1/models" and method == "GET":
            return Reply(200, {"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "lemonade", "recipe": recipe}
                for m, recipe in self.recipes.items()]})
        if path.startswith("/api/v1/models/") and method == "GET":
            model = urllib.parse.unquote(path[len("/api/v1/models/"):])
            if "/" in model:  # as a server that does not decode %2F would answer
                return Reply(404, {"error": {"message": "not found", "type": "not_found"}})
            info = {"id": model, "object": "model", "owned_by": "lemonade",
                    "recipe": self.recipes.get(model, "llamacpp")}
            if model in self.components:
                info["components"] = self.components[model]
            return Reply(200, info)
        if path in ("/api/v1/load", "/api/v1/unload"):
            return self._manage(path.rsplit("/", 1)[1], body.get("model_name"),
                                {"status": "success", "message": "done"})
        return None

    def _route_llama_router(self, method, path, body):
        if path == "/v1/health" or path == "/health":
            return Reply(200, {"status": "ok"})
        if path == "/v1/models":
            return Reply(200, {"data": [{"id": m, "status": {"value": "loaded"}}
                                        for m in self._models()]})
        if path in ("/models/load", "/models/unload"):
            return self._manage(path.rsplit("/", 1)[1], body.get("model"), {"success": True})
        if path == "/props":
            return Reply(200, {"role": "router", "max_instances": self.max_models})
        return None

    def _route_llama_server(self, method, path, body):
        if path in ("/health", "/v1/health"):
            return Reply(200, {"status": "ok"})
        if path == "/v1/models":
            return Reply(200, {"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "llamacpp", "meta": {}}
                for m in self._models()]})
        if path == "/props":
            return Reply(200, {"total_slots": self.slots, "model_path": "m.gguf"})
        return None

    def _route_ollama(self, method, path, body):
        if path == "/api/version":
            return Reply(200, {"version": "0.12.3"})
        if path == "/api/tags":
            models = self.ollama_models if self.ollama_models is not None else [
                {"name": m, "model": m, "digest": "0" * 64, "size": 1} for m in self._models()]
            return Reply(200, {"models": models})
        if path == "/v1/models":
            return Reply(200, {"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "library"} for m in self._models()]})
        if path == "/api/generate" and method == "POST":
            action = "unload" if body.get("keep_alive") == 0 else "load"
            return self._manage(action, body.get("model"),
                                {"model": body.get("model"), "response": "", "done": True,
                                 "done_reason": action})
        return None

    def _route_lmstudio(self, method, path, body):
        if path == "/api/v1/models" and method == "GET":
            return Reply(200, {"models": [
                {"type": "llm", "publisher": "p", "key": m, "display_name": m,
                 "loaded_instances": [{"id": m, "config": {"context_length": 4096}}]}
                for m in self._models()]})
        if path == "/v1/models":
            return Reply(200, {"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "organization_owner"}
                for m in self._models()]})
        if path == "/api/v1/models/unload":
            return self._manage("unload", body.get("instance_id"),
                                {"instance_id": body.get("instance_id")})
        return None

    def _route_vllm(self, method, path, body):
        if path == "/version":
            return Reply(200, {"version": "0.10.1"})
        if path == "/v1/models":
            return Reply(200, {"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "vllm", "root": m}
                for m in self._models()]})
        if path == "/health":
            return Reply(200, b"")
        return None

    def _manage(self, action, model, success):
        if self.manage_reply is not None:
            return self.manage_reply
        with self.lock:
            if action == "load" and model not in self.loaded:
                self.loaded.append(model)
            if action == "unload" and model in self.loaded:
                self.loaded.remove(model)
        return Reply(200, success)

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _serve(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                is_chat = self.path.endswith(CHAT_PATHS)
                with fake.lock:
                    fake.requests.append((method, self.path, body))
                    if is_chat:
                        fake.in_flight += 1
                        fake.most_in_flight = max(fake.most_in_flight, fake.in_flight)
                try:
                    reply = fake._route(method, self.path, body)
                    if reply.delay:
                        time.sleep(reply.delay)
                    self._send(reply)
                finally:
                    if is_chat:
                        with fake.lock:
                            fake.in_flight -= 1

            def _send(self, reply):
                data = reply.body if isinstance(reply.body, bytes) else \
                    json.dumps(reply.body).encode("utf-8")
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    if reply.length is None:
                        pass
                    else:
                        length = len(data) if reply.length == -1 else reply.length
                        self.send_header("Content-Length", str(length))
                    self.end_headers()
                    if reply.trickle:
                        for index in range(len(data)):
                            self.wfile.write(data[index:index + 1])
                            self.wfile.flush()
                            with fake.lock:
                                fake.trickled += 1
                            time.sleep(reply.trickle)
                    else:
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (the timeout tests do that on purpose)
                if reply.close or reply.length is None:
                    self.close_connection = True

            def do_GET(self):
                self._serve("GET")

            def do_POST(self):
                self._serve("POST")

        return Handler
