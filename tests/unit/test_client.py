"""The client against a loopback fake server: request bodies, server errors, the guard."""

import json
import os
import socket
import threading
import unittest
from unittest import mock

from receipt_pair.answers import CALL_FAILED
from receipt_pair.readers import READER_V1
from receipt_pair.check.render import render_turns
from receipt_pair.server.request import SETTINGS, request_sha256
from receipt_pair.server import servers
from receipt_pair.server.transport import MAX_BODY_BYTES
from receipt_pair.server.client import (Client, SchemaRefused, ServerUnreachable,
                                 check_base_url)
from receipt_pair.errors import ServerError, UsageError
from receipt_pair.logs import Turn
from receipt_pair.pair.ask import ask
from receipt_pair.pair.settings import Settings

from tests.fakeserver import FakeServer, Reply, answer, chat_response, raw_numbers
from tests.helpers import closed_port

TURNS = [Turn("git push origin main", "To origin\n   a1..b2  main -> main")]


def v1(**fields):
    """Checked settings that ask with reader v1 (retired: these tests pin its bodies)."""
    return Settings(reader=READER_V1, allow_retired=True, **fields).checked()


class RequestBodies(unittest.TestCase):
    def test_exact_body(self):
        with FakeServer() as fake:
            client = Client(fake.base_url)
            shown = render_turns(TURNS)
            fake.script("qwen", answer("shown", "T1", "a1..b2  main -> main"))
            ask(client, v1(model_a="qwen", extra_a={"top_k": 40, "x": 1}), "A", "pushed main", shown)
            body = fake.chats("qwen")[0]
        self.assertEqual(body["model"], "qwen")
        for key, value in SETTINGS.items():
            if key != "top_k":
                self.assertEqual(body[key], value, key)
        self.assertEqual(body["temperature"], 0)
        self.assertEqual(body["max_tokens"], 400)
        self.assertEqual(body["seed"], 42)
        self.assertIs(body["cache_prompt"], False)
        self.assertEqual((body["top_k"], body["x"]), (40, 1))  # --extra fields win
        self.assertNotIn("chat_template_kwargs", body)
        schema = body["response_format"]
        self.assertEqual(schema["type"], "json_schema")
        self.assertEqual(schema["json_schema"]["name"], "receipt_pair_answer")
        props = schema["json_schema"]["schema"]["properties"]
        self.assertEqual(props["verdict"]["enum"], ["shown", "contradicted", "not_shown"])
        self.assertEqual(props["turn"]["anyOf"][0]["enum"], ["T1"])
        self.assertEqual([m["role"] for m in body["messages"]], ["system", "user"])
        self.assertEqual(body["messages"][0]["content"], READER_V1.instructions)
        self.assertIn("Claim: pushed main", body["messages"][1]["content"])
        self.assertIn('<turn id="T1">', body["messages"][1]["content"])

    def test_thinking_off_only_for_gemma_4(self):
        with FakeServer() as fake:
            client = Client(fake.base_url)
            shown = render_turns(TURNS)
            for model in ("Gemma-4-E4B-it-GGUF", "gemma3-270m", "Qwen3-4B-Instruct-2507-GGUF"):
                ask(client, v1(model_b=model), "B", "c", shown)
            bodies = {b["model"]: b for b in fake.chats()}
        self.assertEqual(bodies["Gemma-4-E4B-it-GGUF"]["chat_template_kwargs"],
                         {"enable_thinking": False})
        self.assertNotIn("chat_template_kwargs", bodies["gemma3-270m"])
        self.assertNotIn("chat_template_kwargs", bodies["Qwen3-4B-Instruct-2507-GGUF"])

    def test_timings_and_usage_kept(self):
        with FakeServer() as fake:
            result = Client(fake.base_url).chat({"model": "m", "messages": []})
        self.assertEqual(result.usage["prompt_tokens"], 120)
        self.assertEqual(result.timings["predicted_n"], 30)
        self.assertGreater(result.wall_s, 0)


class SchemaFallback(unittest.TestCase):
    def test_refused_schema_is_asked_once_without_it_and_remembered(self):
        with FakeServer() as fake:
            refusal = Reply(400, {"error": {"message": "response_format type json_schema is "
                                                       "not supported", "type": "invalid"}})
            fake.script("m", refusal, answer("not_shown"), answer("not_shown"))
            client = Client(fake.base_url)
            shown = render_turns(TURNS)
            first = ask(client, v1(model_a="m"), "A", "c", shown)
            second = ask(client, v1(model_a="m"), "A", "c", shown)
            bodies = fake.chats("m")
        self.assertEqual(len(bodies), 3)
        self.assertIn("response_format", bodies[0])
        self.assertNotIn("response_format", bodies[1])
        self.assertNotIn("response_format", bodies[2])
        self.assertFalse(first.constrained or second.constrained)
        self.assertIsNone(first.error)
        self.assertEqual(first.request_sha256, request_sha256(bodies[1]))

    def test_other_400_is_not_taken_for_a_schema_refusal(self):
        with FakeServer() as fake:
            fake.script("m", Reply(400, {"error": "context length exceeded"}))
            answer_ = ask(Client(fake.base_url), v1(model_a="m"), "A", "c",
                          render_turns(TURNS))
            self.assertEqual(len(fake.chats("m")), 1)
        self.assertIn("context length exceeded", answer_.error)
        self.assertEqual(answer_.checked.code, CALL_FAILED)


class ServerErrors(unittest.TestCase):
    def chat_error(self, reply, timeout=5):
        with FakeServer() as fake:
            fake.script("m", reply)
            with self.assertRaises(ServerError) as caught:
                Client(fake.base_url, timeout=timeout).chat({"model": "m", "messages": []})
        self.caught = caught.exception
        message = str(caught.exception)
        self.assertNotIn("\n", message)
        return message

    def test_error_shapes(self):
        self.assertIn("HTTP 500: model exploded",
                      self.chat_error(Reply(500, {"error": "model exploded"})))
        self.assertIn("HTTP 404: model 'x' not found",
                      self.chat_error(Reply(404, {"error": {"message": "model 'x' not found",
                                                            "type": "not_found"}})))
        self.assertIn("HTTP 502: upstream gone", self.chat_error(Reply(502, b"upstream gone")))
        self.assertIn("not JSON", self.chat_error(Reply(200, b"<html>hello</html>")))
        self.assertIn("no choices", self.chat_error(Reply(200, {"id": "x"})))
        self.assertIn("answered an error",
                      self.chat_error(Reply(200, {"error": {"message": "busy"}})))

    def test_timeout(self):
        message = self.chat_error(Reply(200, chat_response("{}"), delay=0.5), timeout=0.2)
        self.assertIn("did not answer", message)
        self.assertIn("raise --timeout", self.caught.cli_hint)  # the flag is for the CLI
        self.assertNotIn("--", message)  # the message is for Python callers too

    def test_server_down(self):
        client = Client(f"http://127.0.0.1:{closed_port()}/v1")
        with self.assertRaises(ServerUnreachable) as caught:
            client.chat({"model": "m", "messages": []})
        self.assertIn("connection refused", str(caught.exception))
        with self.assertRaises(ServerUnreachable):
            ask(client, v1(model_a="m"), "A", "c", render_turns(TURNS))

    def test_loading_503_is_waited_out(self):
        with FakeServer() as fake:
            fake.script("m", Reply(503, {"error": {"message": "Loading model"}}), answer("not_shown"))
            with mock.patch("receipt_pair.server.client.LOADING_WAIT", 0.05):
                result = Client(fake.base_url, timeout=10).chat({"model": "m", "messages": []})
        self.assertIn("not_shown", result.content)

    def test_schema_refused_is_a_server_error(self):
        self.assertTrue(issubclass(SchemaRefused, ServerError))


class LoopbackGuard(unittest.TestCase):
    def test_loopback_hosts_are_accepted(self):
        for url in ("http://localhost:13305/api/v1", "http://127.0.0.1:8080/v1",
                    "http://127.9.8.7/v1", "http://[::1]:8080/v1"):
            with self.subTest(url=url):
                check_base_url(url)

    def test_other_hosts_are_refused(self):
        for url in ("http://10.0.0.5:8080/v1", "http://192.168.1.20/v1", "http://8.8.8.8/v1",
                    "http://localhost@10.0.0.5/v1", "http://no-such-host.invalid/v1",
                    "ftp://localhost/v1", "localhost:8080"):
            with self.subTest(url=url):
                with self.assertRaises(UsageError):
                    check_base_url(url)

    def test_allow_remote(self):
        Client("http://10.0.0.5:8080/v1", allow_remote=True)
        with self.assertRaisesRegex(UsageError, "--allow-remote"):
            Client("http://10.0.0.5:8080/v1")

    def test_resolved_at_connect_time(self):
        with FakeServer() as fake:
            client = Client(fake.base_url)
            fake_info = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", fake.port))]
            with mock.patch("socket.getaddrinfo", return_value=fake_info):
                with self.assertRaisesRegex(ServerError, "no longer resolves"):
                    client.chat({"model": "m", "messages": []})

    def test_proxies_are_never_used(self):
        env = {"http_proxy": f"http://127.0.0.1:{closed_port()}",
               "HTTP_PROXY": f"http://127.0.0.1:{closed_port()}", "no_proxy": ""}
        with FakeServer() as fake, mock.patch.dict(os.environ, env):
            result = Client(fake.base_url).chat({"model": "m", "messages": []})
        self.assertTrue(result.content)


class ModelManagement(unittest.TestCase):
    def test_lemonade(self):
        with FakeServer(kind="lemonade", max_models=2) as fake:
            client = Client(fake.base_url)
            self.assertEqual(client.kind(), "lemonade")
            self.assertEqual(client.capacity(), 2)
            client.load("a")
            client.unload("a")
            paths = [(m, p, b) for m, p, b in fake.requests if p.endswith("load")]
        self.assertEqual(paths, [("POST", "/api/v1/load", {"model_name": "a"}),
                                 ("POST", "/api/v1/unload", {"model_name": "a"})])

    def test_llama_router(self):
        with FakeServer(kind="llama-router", max_models=2) as fake:
            client = Client(fake.base_url)
            self.assertEqual(client.kind(), "llama-router")
            self.assertEqual(client.capacity(), 2)  # from /props max_instances
            client.unload("a")
            paths = [(m, p, b) for m, p, b in fake.requests if p.endswith("load")]
        self.assertEqual(paths, [("POST", "/models/unload", {"model": "a"})])

    def test_plain_openai_server_manages_nothing(self):
        with FakeServer(kind="openai") as fake:
            client = Client(fake.base_url)
            self.assertEqual(client.kind(), "openai")
            client.load("a")
            client.unload("a")
            self.assertFalse([p for _, p, _ in fake.requests if p.endswith("load")])


if __name__ == "__main__":
    unittest.main()


class Deadline(unittest.TestCase):
    """--timeout bounds the whole call, however the server sends its answer."""

    def test_a_trickling_server_cannot_keep_a_call_past_the_deadline(self):
        body = json.dumps(chat_response(answer("not_shown"))).encode()
        with FakeServer() as fake:
            fake.script("m", Reply(200, body, trickle=0.01))
            client = Client(fake.base_url, timeout=0.3, server_kind="openai")
            with self.assertRaisesRegex(ServerError, "did not answer") as caught:
                client.chat({"model": "m", "messages": []})
            sent = fake.trickled
        self.assertLess(sent, len(body))  # the client stopped reading; the server gave up
        self.assertIn("--timeout", caught.exception.cli_hint)

    def test_a_prompt_answer_within_the_deadline_is_read(self):
        with FakeServer() as fake:
            fake.script("m", Reply(200, chat_response("ok"), trickle=0.0))
            result = Client(fake.base_url, timeout=5).chat({"model": "m", "messages": []})
        self.assertEqual(result.content, "ok")


class Bodies(unittest.TestCase):
    """What a server sends back is bounded and must be clean JSON text."""

    def chat(self, reply, body=None):
        with FakeServer() as fake:
            fake.script("m", reply)
            return Client(fake.base_url, timeout=5).chat(body or {"model": "m", "messages": []})

    def refused(self, reply, pattern):
        with self.assertRaisesRegex(ServerError, pattern) as caught:
            self.chat(reply)
        self.assertNotIn("\n", str(caught.exception))
        return caught.exception

    def test_oversized_answers(self):
        self.refused(Reply(200, b"{}", length=MAX_BODY_BYTES + 1, close=True), "more than")
        self.refused(Reply(200, b" " * (MAX_BODY_BYTES + 1), length=None), "more than")

    def test_deep_nesting_is_an_error_not_a_traceback(self):
        deep = b"[" * 100000 + b"]" * 100000
        self.refused(Reply(200, deep), "nested too deeply")
        self.refused(Reply(500, deep), "HTTP 500")

    def test_invalid_utf8_is_refused(self):
        raw = b'{"choices": [{"message": {"content": "caf\xe9"}}]}'
        self.refused(Reply(200, raw), "not valid UTF-8")

    def test_lone_surrogate_is_refused(self):
        raw = b'{"choices": [{"message": {"content": "a\\ud800b"}}]}'
        self.refused(Reply(200, raw), "lone surrogate")

    def test_real_non_ascii_text_is_accepted(self):
        raw = b'{"choices": [{"message": {"content": "caf\xc3\xa9 \\ud83d\\ude00"}}]}'
        self.assertEqual(self.chat(Reply(200, raw)).content, "caf\u00e9 \U0001F600")

    def test_cut_off_reply_is_a_failed_call(self):
        self.refused(Reply(200, chat_response('{"verdict": "sho', finish_reason="length")),
                     "cut off at the token limit")
        result = self.chat(Reply(200, chat_response("{}", finish_reason="stop")))
        self.assertEqual(result.finish_reason, "stop")

    def test_reasoning_only_is_a_failed_call(self):
        for key in ("reasoning_content", "reasoning", "thinking"):
            with self.subTest(key=key):
                self.refused(Reply(200, chat_response("", message={key: "Let me think"})),
                             "only the model's reasoning")
                self.refused(Reply(200, chat_response(None, message={key: "hmm"})),
                             "only the model's reasoning")
        both = chat_response("{}", message={"reasoning_content": "I thought"})
        self.assertEqual(self.chat(Reply(200, both)).content, "{}")

    def test_logprobs_kept_only_when_asked(self):
        raw = {"content": [{"token": "{", "logprob": -0.01}]}
        reply = Reply(200, chat_response("{}", logprobs=raw))
        self.assertIsNone(self.chat(reply).logprobs)
        reply = Reply(200, chat_response("{}", logprobs=raw))
        asked = self.chat(reply, {"model": "m", "messages": [], "logprobs": True,
                                  "top_logprobs": 2})
        self.assertEqual(asked.logprobs, raw)


class UrlRules(unittest.TestCase):
    def test_unreadable_urls_are_usage_errors(self):
        for url in ("http://localhost:99999/v1", "http://localhost:abc/v1", "http://[::1/v1",
                    "http://[zz::1]/v1", "http://:80/v1", "", "http://\u00e9\u00e9.invalid/v1"):
            with self.subTest(url=url):
                with self.assertRaises(UsageError):
                    check_base_url(url)

    def test_readable_urls_pass(self):
        for url in ("http://localhost:65535/v1", "http://[::1]/v1", "https://127.0.0.1/v1"):
            with self.subTest(url=url):
                check_base_url(url)

    def test_https_is_resolved_again_at_connect_time(self):
        with FakeServer() as fake:
            client = Client(f"https://localhost:{fake.port}/v1", timeout=5, server_kind="openai")
            elsewhere = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", fake.port))]
            with mock.patch("socket.getaddrinfo", return_value=elsewhere):
                with self.assertRaisesRegex(ServerError, "no longer resolves") as caught:
                    client.chat({"model": "m", "messages": []})
            self.assertIn("--allow-remote", caught.exception.cli_hint)
            # Still loopback: the guard lets it through (and TLS then fails on a plain
            # HTTP server, which is a different error).
            with self.assertRaises(ServerError) as caught:
                client.chat({"model": "m", "messages": []})
            self.assertNotIn("no longer resolves", str(caught.exception))

    def test_messages_name_no_flags(self):
        with FakeServer() as fake:
            fake.script("m", Reply(200, chat_response("{}"), delay=0.5))
            errors = []
            for make in (lambda: Client(fake.base_url, timeout=0.1).chat({"model": "m"}),
                         lambda: Client(f"http://127.0.0.1:{closed_port()}/v1").server()):
                try:
                    make()
                except ServerError as exc:
                    errors.append(exc)
        self.assertEqual(len(errors), 2)
        for exc in errors:
            self.assertNotIn("--", str(exc))
            self.assertTrue(exc.cli_hint.startswith(("raise --", "give --")))


class Kinds(unittest.TestCase):
    def test_explicit_kind_asks_nothing(self):
        with FakeServer() as fake:
            client = Client(fake.base_url, server_kind="vllm")
            self.assertIs(client.server(), servers.VLLM)
            self.assertEqual(fake.requests, [])

    def test_unknown_explicit_kind(self):
        with self.assertRaisesRegex(UsageError, "unknown server kind"):
            Client("http://localhost:1/v1", server_kind="tgi")

    def test_detected_once(self):
        with FakeServer(kind="lemonade") as fake:
            client = Client(fake.base_url)
            for _ in range(3):
                client.server()
            self.assertEqual(fake.paths("GET").count("/api/v1/health"), 1)

    def test_copies_with_another_timeout_share_what_was_learnt(self):
        # A stop asks each claim through client.with_timeout(left): each copy detected the
        # server again (four GET requests per question) until the copies shared it.
        with FakeServer(kind="llama-server") as fake:
            client = Client(fake.base_url)
            for seconds in (5, 4, 3):
                client.with_timeout(seconds).server()
            gets = len(fake.paths("GET"))
            client.server()
            client.with_timeout(2).server()
            self.assertEqual(len(fake.paths("GET")), gets)
            self.assertLessEqual(gets, 4)


class Concurrency(unittest.TestCase):
    def test_chat_from_several_threads_at_once(self):
        # Each reply waits until all four requests are in flight together: a client that
        # serialised its calls would break the barrier instead.
        barrier = threading.Barrier(4, timeout=5)

        def together(body):
            barrier.wait()
            return answer("not_shown", reason=body["messages"][0]["content"])

        with FakeServer() as fake:
            fake.default = together
            client = Client(fake.base_url, timeout=10)
            results, failures = {}, []

            def ask_one(i):
                try:
                    results[i] = client.chat({"model": "m", "messages": [{"content": str(i)}]})
                except Exception as exc:  # noqa: BLE001 - reported below
                    failures.append(exc)

            threads = [threading.Thread(target=ask_one, args=(i,)) for i in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            self.assertEqual(fake.paths("GET").count("/v1/health"), 1)  # detected once
        self.assertEqual(failures, [])
        self.assertEqual({i: json.loads(r.content)["reason"] for i, r in results.items()},
                         {i: str(i) for i in range(4)})


class OnlyTwoHundredsAnswer(unittest.TestCase):
    """Issue 22, item 8: only a 2xx response is an answer; a redirect or an interim status
    carrying a chat body is a failed call, not the model's reply."""

    def test_non_2xx_with_a_chat_body_is_a_failed_call(self):
        body = chat_response(answer("shown", "T1", "main -> main"))
        for status in (101, 199, 300, 301, 302, 303, 304, 307, 308, 399):
            with self.subTest(status=status), FakeServer() as fake:
                fake.script("m", Reply(status, body))
                with self.assertRaisesRegex(ServerError, f"HTTP {status}") as caught:
                    Client(fake.base_url, timeout=5).chat({"model": "m", "messages": []})
                self.assertNotIn("\n", str(caught.exception))
        with FakeServer() as fake:
            fake.script("m", Reply(201, body))
            self.assertIn("shown", Client(fake.base_url).chat({"model": "m"}).content)

    def test_management_and_probes_too(self):
        with FakeServer("lemonade") as fake:
            fake.manage_reply = Reply(302, {"status": "success"})
            client = Client(fake.base_url)
            with self.assertRaisesRegex(ServerError, "HTTP 302"):
                client.load("m")


class StrictNumbers(unittest.TestCase):
    """Issue 22, item 7: NaN and Infinity are not JSON. In a server's token counts and
    timings they are dropped; anywhere else the answer is refused."""

    def chat(self, raw):
        with FakeServer() as fake:
            fake.script("m", Reply(200, raw))
            return Client(fake.base_url, timeout=5).chat({"model": "m", "messages": []})

    def test_non_finite_figures_are_dropped(self):
        result = self.chat(raw_numbers(chat_response("{}"), prompt_ms="NaN",
                                       predicted_ms="Infinity", prompt_tokens="-Infinity",
                                       cache_n="1e999"))
        self.assertEqual(result.content, "{}")
        self.assertEqual(result.timings, {"prompt_n": 120, "predicted_n": 30})
        self.assertEqual(result.usage, {"completion_tokens": 30, "total_tokens": 150})

    def test_ollama_figures_too(self):
        from tests.fakeserver import ollama_response

        body = raw_numbers(ollama_response("{}"), eval_duration="NaN")
        with FakeServer("ollama") as fake:
            fake.script("m", Reply(200, body))
            client = Client(fake.base_url, timeout=5)
            result = client.chat({"model": "m", "messages": [], "options": {}})
        self.assertNotIn("predicted_ms", result.timings)
        self.assertEqual(result.timings["predicted_n"], 30)

    def test_non_finite_anywhere_else_is_refused(self):
        for raw in (b'{"choices": [{"message": {"content": "{}"}, "index": NaN}]}',
                    b'{"choices": [{"message": {"content": "{}"}}], "x": [Infinity]}',
                    b'{"choices": [{"message": {"content": "{}"}}], "created": 1e400}'):
            with self.subTest(raw=raw):
                with self.assertRaisesRegex(ServerError, "not JSON") as caught:
                    self.chat(raw)
                self.assertNotIn("\n", str(caught.exception))
