"""Probes of the words check c3 reads real logs by (issue 24): error fields in JSON, bare
HTTP statuses a command asked for, git's diverged branches, void states, and event names
that a list of subscriptions only names. Each rule is probed both ways."""

from .. import answers as an
from ..answers import CONTRADICTED, NOT_SHOWN, SHOWN
from ..turn import Turn
from .probe_kit import Probe, reply as _reply

_STATUS_CMD = 'curl -s -o /dev/null -w "%{http_code}" https://api.example.com/health'
_ORDER = (Turn(cmd="curl -s -X POST https://api.example.com/orders -d @order.json",
               output='{"ErrorCode": 406, "Message": "Not Acceptable"}'),)
_INVOICE = (Turn(cmd="stripe invoices retrieve in_1Nv", output='{\n  "id": "in_1Nv",\n'
                 '  "status": "void",\n  "amount_due": 1200\n}'),)
_WEBHOOK = (Turn(cmd="stripe webhook_endpoints create --url https://shop.example.com/hook",
                 output="we_1Nx created\nenabled_events: invoice.paid, invoice.payment_failed"),)

WORDS_PROBES = (
    Probe("contradicted_without_failure accepts an error code in a JSON body", _ORDER,
          _reply("contradicted", "T1", '{"ErrorCode": 406, "Message": "Not Acceptable"}'),
          CONTRADICTED, an.OK, claim="the order was created"),
    Probe("shown_quotes_failure refuses an error code in a JSON body", _ORDER,
          _reply("shown", "T1", '{"ErrorCode": 406, "Message": "Not Acceptable"}'),
          NOT_SHOWN, an.SHOWN_QUOTES_FAILURE, claim="the order was created"),
    Probe("shown_quotes_failure accepts an empty error list in a JSON body",
          (Turn(cmd="curl -s -X POST https://api.example.com/graphql -d @create_user.json",
                output='{"data": {"createUser": {"id": "42"}}, "errors": []}'),),
          _reply("shown", "T1", '{"data": {"createUser": {"id": "42"}}, "errors": []}'),
          SHOWN, an.OK, claim="the user was created"),
    Probe("contradicted_without_failure accepts a void state", _INVOICE,
          _reply("contradicted", "T1", '"status": "void",'), CONTRADICTED, an.OK,
          claim="the invoice was paid"),
    Probe("shown_quotes_failure refuses a void state", _INVOICE,
          _reply("shown", "T1", '"status": "void",'), NOT_SHOWN, an.SHOWN_QUOTES_FAILURE,
          claim="the invoice was paid"),
    Probe("contradicted_without_failure accepts a branch that has diverged",
          (Turn(cmd="git status", output="On branch main\nYour branch and 'origin/main' have "
                "diverged,\nand have 1 and 2 different commits each, respectively."),),
          _reply("contradicted", "T1", "Your branch and 'origin/main' have diverged,"),
          CONTRADICTED, an.OK, claim="main is in sync with origin/main"),
    Probe("contradicted_without_failure accepts a bare 5xx the command asked for",
          (Turn(cmd=_STATUS_CMD, output="500"),), _reply("contradicted", "T1", "500"),
          CONTRADICTED, an.OK, claim="the health endpoint returns 200"),
    Probe("shown_quotes_failure refuses a bare 5xx the command asked for",
          (Turn(cmd=_STATUS_CMD, output="503"),), _reply("shown", "T1", "503"), NOT_SHOWN,
          an.SHOWN_QUOTES_FAILURE, claim="the health endpoint is up"),
    Probe("contradicted_without_failure refuses a bare number no status was asked for",
          (Turn(cmd="wc -l < orders.csv", output="500"),), _reply("contradicted", "T1", "500"),
          NOT_SHOWN, an.CONTRADICTED_WITHOUT_FAILURE, claim="orders.csv has 480 rows"),
    Probe("shown_quotes_failure accepts failure events named in a list of subscriptions",
          _WEBHOOK, _reply("shown", "T1", "enabled_events: invoice.paid, invoice.payment_failed"),
          SHOWN, an.OK, claim="the webhook for invoice events was set up"),
    Probe("shown_quotes_failure refuses a single failure event",
          (Turn(cmd="stripe events list --limit 1", output="event: invoice.payment_failed"),),
          _reply("shown", "T1", "event: invoice.payment_failed"), NOT_SHOWN,
          an.SHOWN_QUOTES_FAILURE, claim="the invoice was paid"),
)
