"""`doctor`'s checks of a model server and its two models, done as the user's set-up will
use them: the server found by the client's own detection, each model listed and loaded
where the server can say and load one, then asked one question of a single token
(max_tokens 1), bounded to PING_SECONDS. A server that answers 404 to everything, or
serves one model of the two, fails here as it would fail a check. Each server and model is
asked once, however many hook commands name it (`Servers` keeps what it learnt). Nothing
here prints.
"""

import json
import time

from ..errors import ReceiptPairError
from ..server.client import CutOff, ServerUnreachable
from ..server.request import build_body
from ..server.servers import LLAMA_SERVER, OPENAI
from ..server.transport import not_an_answer
from .doctor_check import Check

PING_SECONDS = 10.0  # the most one model's single-token question may take
PING_MESSAGES = ({"role": "user", "content": "Reply with the one word: OK"},)
_START = ("start one (Lemonade, or scripts/local-models start on Linux) or name yours with "
          "--base-url or $RECEIPT_PAIR_BASE_URL")


class Servers:
    """What doctor learnt of each model server and model, asked once each."""

    def __init__(self):
        self._servers = {}  # (base URL, allow remote) -> (problem or None, client, row)
        self._models = {}  # (base URL, model, extra) -> (ok, said, fix)
        self._listings = {}  # base URL -> (what is wrong with its model list, its ids)

    def server(self, settings):
        """(problem or None, client, the server's row of servers.KINDS) for the server
        `settings` name; client and row are None when nothing answers."""
        key = (settings.base_url, settings.allow_remote)
        if key not in self._servers:
            self._servers[key] = _find_server(settings)
        return self._servers[key]

    def listing(self, settings):
        """(what is wrong with the model list of the server `settings` name, the model ids
        it lists): an OpenAI-compatible server gives one at GET /models, an object with a
        "data" list; the problem is None when it does."""
        if settings.base_url not in self._listings:
            _, client, _ = self.server(settings)
            self._listings[settings.base_url] = (None, ()) if client is None else \
                _listing(client)
        return self._listings[settings.base_url]

    def model(self, settings, arm):
        """(ok, said, fix) of model `arm` ("A" or "B") of `settings`: ok None when it
        could not be asked because no server answers."""
        model, extra = settings.model(arm)
        key = (settings.base_url, model, repr(sorted(extra.items())))
        if key not in self._models:
            problem, client, server = self.server(settings)
            if client is None:
                self._models[key] = (None, f"{model}: not asked, no server answers", None)
            else:
                option = f"--model-{arm.lower()} or $RECEIPT_PAIR_MODEL_{arm}"
                self._models[key] = _check_model(model, extra, client, server, option)
        return self._models[key]


def check_server(settings, servers):
    """The Check of the server `settings` name. A server of a kind its own answers showed
    (Lemonade, llama-server, Ollama ...) is one. One of no known kind is a model server
    only if a model answers a chat question, or it gives an OpenAI model list and the
    models asked are not on it (then the models are at fault, not the server): a file
    server, a web page, anything that answers 404, or a list whose models never answer is
    not one."""
    problem, client, server = servers.server(settings)
    if problem:
        return Check("server", False, problem[0], problem[1])
    found = f"{server.title} answers at {settings.base_url}"
    if server is not OPENAI:
        return Check("server", True, found)
    listing, ids = servers.listing(settings)
    answered = any(servers.model(settings, arm)[0] for arm in ("A", "B"))
    listed = [model for model in (settings.model_a, settings.model_b) if model in ids]
    if answered or (listing is None and not listed):
        return Check("server", True, found if listing is None else
                     f"{found}; it lists no models ({listing}), but a model answers a chat "
                     "question")
    why = listing or (f"it lists {', '.join(dict.fromkeys(listed))}, but no model answered a "
                      "chat question")
    return Check("server", False, f"something answers at {settings.base_url}, but not as a "
                                  f"model server: {why}" + (", and no model answered a chat "
                                                             "question" if listing else ""),
                 "point --base-url or $RECEIPT_PAIR_BASE_URL at your model server's API (its "
                 "base URL usually ends in /v1 or /api/v1), or start one (Lemonade, or "
                 "scripts/local-models start on Linux)")


def check_models(settings, servers):
    """A Check for each of models A and B, each asked one single-token question."""
    return [Check(f"model {arm}", *servers.model(settings, arm)) for arm in ("A", "B")]


def _find_server(settings):
    try:
        client = settings.client()
        server = client.server()
    except ServerUnreachable as exc:  # its message says how to start one
        return (str(exc), exc.cli_hint or _START), None, None
    except ReceiptPairError as exc:
        return ((f"the model server at {settings.base_url}: {exc}", exc.cli_hint or _START),
                None, None)
    return None, client, server


def _listing(client):
    """(why GET /models at the client's server is not an OpenAI model list, or None; the
    ids it lists)."""
    where = f"its model list (GET {client.base_url}/models)"
    try:
        status, data = client.with_timeout(PING_SECONDS).request("GET", "/models")
    except ReceiptPairError as exc:
        return f"{where} could not be read: {exc}", ()
    problem = not_an_answer(status, data)
    if problem:
        return f"{where} answered {problem}", ()
    try:
        listing = json.loads(data.decode("utf-8"))
    except ValueError:
        text = " ".join(data[:120].decode("utf-8", "replace").split())
        return f"{where} is not JSON: {text!r}", ()
    if not isinstance(listing, dict) or not isinstance(listing.get("data"), list):
        return f"{where} is not an OpenAI model list (an object with a \"data\" list)", ()
    return None, tuple(m["id"] for m in listing["data"]
                       if isinstance(m, dict) and isinstance(m.get("id"), str))


def _check_model(model, extra, client, server, option):
    """(ok, said, fix): listed where the server lists, loaded where it loads without
    generating, then one single-token question."""
    listed, said = _listed(client)
    if server is LLAMA_SERVER:  # one model, whatever a request names
        said = (f"llama-server serves the one model it was started with "
                f"({', '.join(listed) or 'unnamed'}); the name is not checked")
    elif listed and model not in listed:
        names = ", ".join(sorted(listed)[:8]) + (" ..." if len(listed) > 8 else "")
        return (False, f"{model} is not among the models the server lists ({names})",
                f"name one of them with {option}, or download {model} to the server")
    elif server.manages_models and server.load_path and listed.get(model) != "loaded":
        try:
            client.load(model)
        except ReceiptPairError as exc:
            return (False, f"{model}: {said}, but it does not load: {exc}",
                    f"download it to the server, or name another with {option}")
        said += "; it loads"
    elif listed.get(model) == "loaded":
        said += " and loaded"
    answered, seconds, error = ping(client, server, model, extra)
    if not answered:
        return (False, f"{model}: {said}, but a one-token question got no answer: {error}",
                f"check that the server at {client.base_url} serves {model} (its base URL "
                f"usually ends in /v1 or /api/v1), or name another model with {option}")
    return True, f"{model}: {said}; answered a one-token question in {seconds:.1f} s", None


def _listed(client):
    """({model: its status}, what the listing said) of the server's model list."""
    try:
        listed = client.model_statuses()
    except ReceiptPairError as exc:
        return {}, f"the server lists no models ({exc})"
    return listed, ("listed" if listed else "the server lists no models")


def ping(client, server, model, extra=None, seconds=None):
    """(answered, seconds taken, why not) of one chat request of a single token to `model`
    (max_tokens 1), as the set-up's own requests are sent, within `seconds`. A reply cut
    off at its one token is an answer: the model was there and spoke. `seconds`: the
    bound (None: PING_SECONDS)."""
    body = build_body(list(PING_MESSAGES), None, model, {**(extra or {}), "max_tokens": 1},
                      server)
    started = time.monotonic()
    try:
        client.with_timeout(seconds or PING_SECONDS).chat(body)
    except CutOff:
        pass
    except ReceiptPairError as exc:
        return False, time.monotonic() - started, str(exc)
    return True, time.monotonic() - started, None
