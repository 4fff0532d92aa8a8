"""The table of server kinds: each row detected against a fake of that kind, the request body
in that kind's form, the settings it cannot apply, and its model management."""

import json
import unittest

from receipt_pair import servers
from receipt_pair.readers import READERS, READER_V1, get_reader
from receipt_pair.render import render_turns
from receipt_pair.request import SETTINGS, build_request, request_sha256, unapplied_settings
from receipt_pair.logs import Turn

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
                reader = get_reader(version)
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


if __name__ == "__main__":
    unittest.main()
