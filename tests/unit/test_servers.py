"""The table of server kinds: each row detected against a fake of that kind, the request body
in that kind's form, the settings it cannot apply, and its model management."""

import json
import unittest

from receipt_pair.server import servers
from receipt_pair.server.client import Client, RemoteModelRefused, SchemaRefused
from receipt_pair.readers.conform import conforms
from receipt_pair.errors import ServerError
from receipt_pair.readers import READERS, READER_V1, get_reader
from receipt_pair.check.render import render_turns
from receipt_pair.server.request import SETTINGS, build_request, request_sha256, unapplied_settings
from receipt_pair.logs import Turn

from tests.fakeserver import FakeServer, Reply, answer, ollama_response

TURNS = [Turn("git push origin main", "To origin\n   a1..b2  main -> main")]
GEMMA = "Gemma-4-E4B-it-GGUF"


def legacy_build_request(reader, claim, shown, model, extra=None, constrained=True):
    """build_request exactly as it was before server kinds were told apart (sealed runs)."""
    body = {"model": model, "messages": reader.messages(claim, shown)}
    body.update(SETTINGS)
    if constrained:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "receipt_pair_answer", "strict": True,
                            "schema": reader.schema(shown)},
        }
    if "gemma-4" in model.lower() or "gemma4" in model.lower():
        body["chat_template_kwargs"] = {"enable_thinking": False}
    body.update(extra or {})
    return body


class Table(unittest.TestCase):
    def test_every_kind_is_a_row(self):
        self.assertEqual(set(servers.KINDS),
                         {"lemonade", "llama-server", "llama-router", "ollama", "lmstudio",
                          "vllm", "openai"})
        for key, row in servers.KINDS.items():
            with self.subTest(kind=key):
                self.assertEqual(row.key, key)
                self.assertIs(servers.get_kind(key), row)
                self.assertEqual(set(row.fields), set(SETTINGS))
                if row.manages_models:
                    self.assertTrue(row.load_path or row.unload_path)
                self.assertTrue(row.detection and row.title)

    def test_unknown_kind(self):
        with self.assertRaisesRegex(ValueError, "known: lemonade"):
            servers.get_kind("tgi")

    def test_who_manages_and_who_reports_capacity(self):
        manages = {k for k, row in servers.KINDS.items() if row.manages_models}
        self.assertEqual(manages, {"lemonade", "llama-router", "ollama", "lmstudio"})
        capacity = {k for k, row in servers.KINDS.items() if row.reports_capacity}
        self.assertEqual(capacity, {"lemonade", "llama-router"})
        native = {k for k, row in servers.KINDS.items() if row.native}
        self.assertEqual(native, {"ollama"})


class LegacyBodies(unittest.TestCase):
    """Lemonade, llama-server and unknown servers get the body every sealed run hashed."""

    def test_same_body_as_before(self):
        shown = render_turns(TURNS)
        rows = (None, servers.LEMONADE, servers.LLAMA_SERVER, servers.LLAMA_ROUTER,
                servers.OPENAI)
        for version, reader in READERS.items():
            for model in (GEMMA, "gemma4:e4b", "qwen"):
                for constrained in (True, False):
                    for extra in (None, {"top_k": 40, "x": 1}):
                        old = legacy_build_request(reader, "c", shown, model, extra, constrained)
                        for row in rows:
                            with self.subTest(reader=version, model=model, row=row and row.key,
                                              constrained=constrained, extra=extra):
                                new = build_request(reader, "c", shown, model, extra,
                                                    constrained, server=row)
                                self.assertEqual(new, old)
                                self.assertEqual(request_sha256(new), request_sha256(old))

    def test_pinned_hashes(self):
        # Taken from the code before this change; a sealed run replays against these.
        shown = render_turns(TURNS)
        body = build_request(READERS["v1"], "pushed main", shown, GEMMA, None, True)
        self.assertEqual(request_sha256(body),
                         "d483f75ae45587cc19afd5315157d5af1cc78e964de0d10d020266217d3897d1")
        body = build_request(READERS["v2"], "pushed main", shown, "qwen", {"top_k": 40}, False,
                             server=servers.LEMONADE)
        self.assertEqual(request_sha256(body),
                         "e4c2d66a677202357897a92a16c552051b7c805c4b725fee477abd5fccdfdb9e")


class KindBodies(unittest.TestCase):
    def setUp(self):
        self.shown = render_turns(TURNS)

    def test_vllm_names_repetition_penalty_and_sends_no_cache_prompt(self):
        body = build_request(READER_V1, "c", self.shown, GEMMA, server=servers.VLLM)
        self.assertEqual(body["repetition_penalty"], 1)
        self.assertNotIn("repeat_penalty", body)
        self.assertNotIn("cache_prompt", body)
        self.assertEqual((body["top_k"], body["seed"], body["max_tokens"]), (1, 42, 400))
        self.assertEqual(body["chat_template_kwargs"], {"enable_thinking": False})
        self.assertEqual(body["response_format"]["json_schema"]["schema"],
                         READER_V1.schema(self.shown))
        self.assertEqual(unapplied_settings(servers.VLLM), ("cache_prompt",))

    def test_lmstudio_sends_only_its_payload_parameters(self):
        body = build_request(READER_V1, "c", self.shown, GEMMA, server=servers.LMSTUDIO)
        self.assertNotIn("cache_prompt", body)
        self.assertNotIn("chat_template_kwargs", body)
        self.assertEqual((body["top_k"], body["repeat_penalty"]), (1, 1))
        self.assertEqual(body["response_format"]["type"], "json_schema")
        self.assertEqual(unapplied_settings(servers.LMSTUDIO), ("cache_prompt",))
        self.assertEqual(unapplied_settings(servers.LMSTUDIO, GEMMA),
                         ("cache_prompt", "chat_template_kwargs"))
        self.assertEqual(unapplied_settings(servers.LMSTUDIO, "qwen"), ("cache_prompt",))

    def test_ollama_native_body(self):
        body = build_request(READER_V1, "c", self.shown, "gemma4:e4b", server=servers.OLLAMA)
        self.assertEqual(set(body), {"model", "messages", "stream", "options", "format",
                                     "think"})
        self.assertIs(body["stream"], False)
        self.assertIs(body["think"], False)
        self.assertEqual(body["options"], {
            "temperature": 0, "top_p": 1, "top_k": 1, "repeat_penalty": 1,
            "presence_penalty": 0, "frequency_penalty": 0, "num_predict": 400, "seed": 42})
        self.assertEqual(body["format"], READER_V1.schema(self.shown))  # the schema itself
        self.assertEqual(unapplied_settings(servers.OLLAMA), ("cache_prompt",))

    def test_ollama_thinking_switch_only_for_thinking_models(self):
        body = build_request(READER_V1, "c", self.shown, "qwen2.5-coder:1.5b",
                             server=servers.OLLAMA, constrained=False)
        self.assertNotIn("think", body)
        self.assertNotIn("format", body)

    def test_ollama_extra_fields_land_where_ollama_reads_them(self):
        extra = {"top_k": 40, "max_tokens": 100, "options": {"num_ctx": 8192},
                 "keep_alive": "10m"}
        body = build_request(READER_V1, "c", self.shown, "m", extra, server=servers.OLLAMA)
        self.assertEqual(body["options"]["top_k"], 40)
        self.assertEqual(body["options"]["num_predict"], 100)
        self.assertEqual(body["options"]["num_ctx"], 8192)
        self.assertEqual(body["keep_alive"], "10m")
        self.assertNotIn("top_k", body)

    def test_every_reader_schema_goes_where_the_kind_reads_it(self):
        for row in servers.KINDS.values():
            for version in ("v1", "v2"):
                reader = get_reader(version, replay=True)
                with self.subTest(kind=row.key, reader=version):
                    body = build_request(reader, "c", self.shown, "m", server=row)
                    json.dumps(body)  # plain JSON
                    schema = body["format"] if row.native else \
                        body["response_format"]["json_schema"]["schema"]
                    self.assertEqual(schema, reader.schema(self.shown))

    def test_legacy_rows_apply_everything(self):
        for row in (servers.LEMONADE, servers.LLAMA_SERVER, servers.LLAMA_ROUTER,
                    servers.OPENAI):
            self.assertEqual(unapplied_settings(row), ())
        self.assertEqual(unapplied_settings(None), ())


# fake kind -> the row it must be detected as
DETECTED = {
    "openai": servers.OPENAI,
    "lemonade": servers.LEMONADE,
    "llama-router": servers.LLAMA_ROUTER,
    "llama-server": servers.LLAMA_SERVER,
    "ollama": servers.OLLAMA,
    "lmstudio": servers.LMSTUDIO,
    "vllm": servers.VLLM,
}
GOOD = answer("shown", "T1", "a1..b2  main -> main", "pushed")


class EveryKindAgainstItsFake(unittest.TestCase):
    def test_every_row_has_a_fake(self):
        rows = {row.key for row in DETECTED.values()}
        self.assertEqual(rows, set(servers.KINDS))

    def test_detected_by_gets_alone(self):
        for kind, row in DETECTED.items():
            with self.subTest(kind=kind), FakeServer(kind=kind) as fake:
                client = Client(fake.base_url)
                self.assertIs(client.server(), row)
                self.assertEqual({m for m, _, _ in fake.requests}, {"GET"})  # no side effects

    def test_chat_round_trip_in_each_kinds_form(self):
        shown = render_turns(TURNS)
        for kind, row in DETECTED.items():
            with self.subTest(kind=kind), FakeServer(kind=kind) as fake:
                fake.script("gemma4:e4b", GOOD)
                client = Client(fake.base_url)
                body = build_request(READER_V1, "pushed main", shown, "gemma4:e4b",
                                     server=client.server())
                result = client.chat(body)
                sent = fake.chats("gemma4:e4b")
                self.assertEqual(sent, [body])  # what the server got is what is hashed
                self.assertEqual(result.content, GOOD)
                self.assertEqual(result.finish_reason, "stop")
                self.assertEqual(result.usage["prompt_tokens"], 120)
                self.assertEqual(result.timings["predicted_n"], 30)
                self.assertTrue(conforms(result.content, READER_V1.schema(shown)))
                path = [p for m, p, _ in fake.requests if m == "POST"][-1]
                self.assertEqual(path.endswith("/api/chat"), row.native)

    def test_capacity_and_slots_asked_of_the_row(self):
        expected = {"lemonade": (2, 1), "llama-router": (2, 1), "llama-server": (1, 4),
                    "ollama": (1, 1), "lmstudio": (1, 1), "vllm": (1, 1), "openai": (1, 1)}
        for kind, (capacity, slots) in expected.items():
            with self.subTest(kind=kind), FakeServer(kind=kind, max_models=2, slots=4) as fake:
                client = Client(fake.base_url)
                self.assertEqual((client.capacity(), client.slots()), (capacity, slots))

    def test_legacy_kind_names_still_answer(self):
        # batch.py and scripts/bench compare these until they ask the row instead.
        for kind, legacy in (("lemonade", "lemonade"), ("llama-router", "llama-router"),
                             ("openai", "openai"), ("llama-server", "llama-server")):
            with self.subTest(kind=kind), FakeServer(kind=kind) as fake:
                self.assertEqual(Client(fake.base_url).kind(), legacy)


class NativeOllama(unittest.TestCase):
    def test_round_trip(self):
        shown = render_turns(TURNS)
        with FakeServer(kind="ollama") as fake:
            fake.script("qwen2.5-coder:1.5b", Reply(200, ollama_response(GOOD)))
            client = Client(fake.base_url)
            body = build_request(READER_V1, "c", shown, "qwen2.5-coder:1.5b",
                                 server=client.server())
            result = client.chat(body)
            method, path, sent = fake.requests[-1]
        self.assertEqual((method, path), ("POST", "/api/chat"))
        self.assertIs(sent["stream"], False)
        self.assertEqual(sent["options"]["num_predict"], 400)
        self.assertEqual(result.content, GOOD)
        self.assertEqual(result.usage, {"prompt_tokens": 120, "completion_tokens": 30,
                                        "total_tokens": 150})
        self.assertEqual(result.timings, {"prompt_n": 120, "prompt_ms": 800.0,
                                          "predicted_n": 30, "predicted_ms": 900.0})
        self.assertEqual(result.finish_reason, "stop")

    def test_openai_shaped_body_goes_to_the_openai_endpoint(self):
        shown = render_turns(TURNS)
        with FakeServer(kind="ollama") as fake:
            fake.script("m", GOOD)
            client = Client(fake.base_url)
            result = client.chat(build_request(READER_V1, "c", shown, "m"))
            self.assertEqual(fake.requests[-1][1], "/v1/chat/completions")
        self.assertEqual(result.content, GOOD)

    def test_failed_native_replies(self):
        shown = render_turns(TURNS)
        cases = {
            "cut off": (Reply(200, ollama_response('{"verdict"', done_reason="length")),
                        "cut off"),
            "thinking only": (Reply(200, ollama_response("", thinking="Let me see")),
                              "only the model's reasoning"),
            "schema refused": (Reply(400, {"error": "invalid format: schema not supported"}),
                               "HTTP 400"),
            "no message": (Reply(200, {"done": True}), "no message"),
        }
        for name, (reply, pattern) in cases.items():
            with self.subTest(name), FakeServer(kind="ollama") as fake:
                fake.script("m", reply)
                client = Client(fake.base_url)
                body = build_request(READER_V1, "c", shown, "m", server=client.server())
                with self.assertRaisesRegex(ServerError, pattern) as caught:
                    client.chat(body)
                if name == "schema refused":
                    self.assertIsInstance(caught.exception, SchemaRefused)


class IgnoredSchema(unittest.TestCase):
    def test_a_200_that_ignored_the_schema_does_not_conform(self):
        shown = render_turns(TURNS)
        for kind in ("llama-server", "ollama", "vllm"):
            with self.subTest(kind=kind), FakeServer(kind=kind) as fake:
                fake.script("m", "Sure! The push went through: shown.")
                client = Client(fake.base_url)
                result = client.chat(build_request(READER_V1, "c", shown, "m",
                                                   server=client.server()))
                self.assertFalse(conforms(result.content, READER_V1.schema(shown)))


class CloudModels(unittest.TestCase):
    def chat(self, fake, model, allow_remote=False):
        client = Client(fake.base_url, allow_remote=allow_remote)
        body = build_request(READER_V1, "c", render_turns(TURNS), model,
                             server=client.server())
        return client.chat(body)

    def refused(self, fake, model, words):
        with self.assertRaises(RemoteModelRefused) as caught:
            self.chat(fake, model)
        message = str(caught.exception)
        self.assertIn(model, message)
        self.assertIn("leave", message)
        self.assertIn(words, message)
        self.assertNotIn("--", message)
        self.assertIn("--allow-remote", caught.exception.cli_hint)
        self.assertEqual(fake.chats(model), [])  # nothing was sent

    def test_ollama_cloud_names(self):
        for model in ("gpt-oss:120b-cloud", "gemma4:cloud", "kimi-k2-cloud",
                      "library/qwen3-coder:480b-cloud"):
            with self.subTest(model=model), FakeServer(kind="ollama") as fake:
                self.refused(fake, model, "ollama.com")
                fake.script(model, GOOD)
                self.assertEqual(self.chat(fake, model, allow_remote=True).content, GOOD)

    def test_ollama_remote_entry_in_tags(self):
        with FakeServer(kind="ollama") as fake:
            fake.ollama_models = [{"name": "big:latest", "model": "big:latest", "digest": "d",
                                   "remote_model": "big", "remote_host": "https://ollama.com"}]
            self.refused(fake, "big:latest", "https://ollama.com")

    def test_ollama_local_models_pass(self):
        for model in ("qwen2.5-coder:1.5b", "cloudy:latest", "my-cloud-notes:7b-q4"):
            with self.subTest(model=model), FakeServer(kind="ollama") as fake:
                fake.script(model, GOOD)
                self.assertEqual(self.chat(fake, model).content, GOOD)

    def test_lemonade_cloud_recipe(self):
        with FakeServer(kind="lemonade") as fake:
            fake.recipes["fireworks.kimi-k2p5"] = "cloud"
            self.refused(fake, "fireworks.kimi-k2p5", "cloud")
            fake.script("fireworks.kimi-k2p5", GOOD)
            self.assertEqual(self.chat(fake, "fireworks.kimi-k2p5", True).content, GOOD)

    def test_lemonade_cloud_name_with_a_slash(self):
        model = "fireworks.accounts/fireworks/models/kimi-k2p5"
        with FakeServer(kind="lemonade") as fake:
            fake.recipes[model] = "cloud"
            self.refused(fake, model, "cloud")

    def test_lemonade_collections(self):
        with FakeServer(kind="lemonade") as fake:
            fake.recipes.update({"router": "collection.router", "omni": "collection.omni",
                                 "mixed": "collection.omni", "fireworks.x": "cloud"})
            fake.components.update({"omni": ["Qwen3-4B-GGUF", "SD-Turbo"],
                                    "mixed": ["Qwen3-4B-GGUF", "fireworks.x"]})
            self.refused(fake, "router", "may route")  # its candidates are not listed
            self.refused(fake, "mixed", "fireworks.x")
            fake.script("omni", GOOD)
            self.assertEqual(self.chat(fake, "omni").content, GOOD)

    def test_lemonade_local_recipe_passes_and_is_asked_once(self):
        model = "Qwen3-4B-Instruct-2507-GGUF"
        with FakeServer(kind="lemonade") as fake:
            fake.script(model, GOOD, GOOD)
            client = Client(fake.base_url)
            body = build_request(READER_V1, "c", render_turns(TURNS), model,
                                 server=client.server())
            for _ in range(2):
                self.assertEqual(client.chat(body).content, GOOD)
            lookups = [p for p in fake.paths("GET") if p.startswith("/api/v1/models/")]
        self.assertEqual(lookups, ["/api/v1/models/" + model])

    def test_load_refuses_a_cloud_model_too(self):
        with FakeServer(kind="ollama") as fake:
            with self.assertRaises(RemoteModelRefused):
                Client(fake.base_url).load("gpt-oss:20b-cloud")
            self.assertEqual(fake.paths("POST"), [])


class ManagementBodies(unittest.TestCase):
    """HTTP 200 is not success when the body says the load or unload failed."""

    FAILURES = (
        ("lemonade", {"status": "error", "message": "Model not found: a"}, "Model not found"),
        ("llama-router", {"success": False, "message": "no such model"}, "no such model"),
        ("llama-router", {"error": {"message": "model is busy", "code": 400}}, "model is busy"),
        ("ollama", {"error": "model 'a' not found"}, "model 'a' not found"),
        ("lmstudio", {"error": "no instance a"}, "no instance a"),
    )

    def test_failures_read_from_the_body(self):
        for kind, body, message in self.FAILURES:
            with self.subTest(kind=kind, body=body), FakeServer(kind=kind) as fake:
                fake.manage_reply = Reply(200, body)
                with self.assertRaisesRegex(ServerError, message):
                    Client(fake.base_url).unload("a")

    def test_http_errors_too(self):
        with FakeServer(kind="llama-router") as fake:
            fake.manage_reply = Reply(404, {"error": {"message": "model not found"}})
            with self.assertRaisesRegex(ServerError, "HTTP 404"):
                Client(fake.base_url).unload("a")

    def test_each_kind_manages_where_its_docs_say(self):
        expected = {
            "lemonade": [("POST", "/api/v1/load", {"model_name": "a"}),
                         ("POST", "/api/v1/unload", {"model_name": "a"})],
            "llama-router": [("POST", "/models/load", {"model": "a"}),
                             ("POST", "/models/unload", {"model": "a"})],
            "ollama": [("POST", "/api/generate", {"model": "a"}),
                       ("POST", "/api/generate", {"model": "a", "keep_alive": 0})],
            "lmstudio": [("POST", "/api/v1/models/unload", {"instance_id": "a"})],
            "llama-server": [], "vllm": [], "openai": [],
        }
        for kind, calls in expected.items():
            with self.subTest(kind=kind), FakeServer(kind=kind) as fake:
                client = Client(fake.base_url)
                client.load("a")
                client.unload("a")
                self.assertEqual([r for r in fake.requests if r[0] == "POST"], calls)
                self.assertEqual(client.server().manages_models, bool(calls))


if __name__ == "__main__":
    unittest.main()
