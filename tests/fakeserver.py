"""An in-process loopback model server for the unit tests.

It plays back scripted replies per model, records every request it gets, and can pretend
to be Lemonade (`/health` with `max_models`, `/load`, `/unload`), llama-server's router
(`/v1/models` with a status per model, `/models/load`, `/models/unload`) or a plain
OpenAI-compatible server that manages nothing.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def chat_response(content, prompt_tokens=120, completion_tokens=30):
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
        "timings": {"prompt_n": prompt_tokens, "prompt_ms": 800.0,
                    "predicted_n": completion_tokens, "predicted_ms": 900.0, "cache_n": 0},
    }


class Reply:
    """A scripted server answer: HTTP status and a body (dict as JSON, or raw bytes)."""

    def __init__(self, status=200, body=None, delay=0.0):
        self.status = status
        self.body = body
        self.delay = delay


def answer(verdict, turn=None, quote="", reason="scripted"):
    return json.dumps({"verdict": verdict, "turn": turn, "quote": quote, "reason": reason})


class FakeServer:
    def __init__(self, kind="openai", max_models=1):
        self.kind = kind
        self.max_models = max_models
        self.requests = []  # (method, path, decoded JSON body or None)
        self.scripts = {}  # model -> list of str | Reply | callable(body) -> str | Reply
        self.default = answer("not_shown")
        self.lock = threading.Lock()
        self.loaded = []
        handler = self._handler()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                       daemon=True)

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
                if path.endswith("/chat/completions") and (model is None or body["model"] == model)]

    def _next(self, body):
        with self.lock:
            queue = self.scripts.get(body.get("model"), [])
            item = queue.pop(0) if queue else self.default
        if callable(item):
            item = item(body)
        if isinstance(item, str):
            item = Reply(200, chat_response(item))
        return item

    def _route(self, method, path, body):
        if path.endswith("/chat/completions") and method == "POST":
            return self._next(body or {})
        if self.kind == "lemonade":
            if path == "/api/v1/health":
                return Reply(200, {"status": "ok", "model_loaded": None,
                                   "all_models_loaded": [{"model_name": m, "type": "llm"}
                                                         for m in self.loaded],
                                   "max_models": {"llm": self.max_models}})
            if path in ("/api/v1/load", "/api/v1/unload"):
                return self._manage(path.rsplit("/", 1)[1], body.get("model_name"))
        if self.kind == "llama-router":
            if path == "/v1/health" or path == "/health":
                return Reply(200, {"status": "ok"})
            if path == "/v1/models":
                return Reply(200, {"data": [{"id": m, "status": {"value": "loaded"}}
                                            for m in self.loaded or ["m"]]})
            if path in ("/models/load", "/models/unload"):
                return self._manage(path.rsplit("/", 1)[1], body.get("model"))
            if path == "/props":
                return Reply(200, {"role": "router", "max_instances": self.max_models})
        return Reply(404, {"error": {"message": "File Not Found", "type": "not_found_error"}})

    def _manage(self, action, model):
        with self.lock:
            if action == "load" and model not in self.loaded:
                self.loaded.append(model)
            if action == "unload" and model in self.loaded:
                self.loaded.remove(model)
        return Reply(200, {"success": True})

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _serve(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                with fake.lock:
                    fake.requests.append((method, self.path, body))
                reply = fake._route(method, self.path, body)
                if reply.delay:
                    import time

                    time.sleep(reply.delay)
                data = reply.body if isinstance(reply.body, bytes) else \
                    json.dumps(reply.body).encode("utf-8")
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (the timeout tests do that on purpose)

            def do_GET(self):
                self._serve("GET")

            def do_POST(self):
                self._serve("POST")

        return Handler
