"""The probes of check c7's rules (scope.py): each refuses a `contradicted` set 6's models
gave about something else than the claim (development data since run 6), and accepts the
honest neighbour where the line is about the claim."""

from .. import answers as an
from ..answers import CONTRADICTED, NOT_SHOWN
from ..turn import Turn
from .probe_kit import Probe, reply as _reply

_RUST_RED = (Turn(cmd="./x.py test src/test/codegen src/test/debuginfo", exit_status=1,
                  output="test result: ok. 120 passed; 0 failed; 2 ignored; 0 measured\n"
                         "thread '[codegen] codegen/issue-45222.rs' panicked at 'explicit "
                         "panic'\ntest [codegen] codegen/issue-45222.rs ... FAILED\n"
                         "test result: FAILED. 191 passed; 1 failed; 0 ignored; 0 measured"),)
_BUN_RED = (Turn(cmd="bun test", exit_status=1,
                 output="src/a.test.ts:\n(fail) parses x\nsrc/b.test.ts:\n 13 pass\n 1 fail"),)
_ESLINT_WARN = (Turn(cmd="npx eslint src", exit_status=0,
                     output="/app/src/a.ts\n  3:1  warning  Unexpected console statement  "
                            "no-console\n\n\u2716 5 problems (0 errors, 5 warnings)"),)
_ESLINT_RED = (Turn(cmd="npx eslint src", exit_status=1,
                    output="/app/src/a.ts\n  3:1  error  'x' is not defined  no-undef\n\n"
                           "\u2716 5 problems (1 error, 4 warnings)"),)

SCOPE_PROBES = (
    Probe("contradicted_other_part refuses another test's failure for a named group",
          _RUST_RED, _reply("contradicted", "T1", "test [codegen] codegen/issue-45222.rs ... "
                            "FAILED"), NOT_SHOWN, an.CONTRADICTED_OTHER_PART,
          claim="the debuginfo test suite passed"),
    Probe("contradicted_other_part accepts the failure line that names the group",
          _RUST_RED, _reply("contradicted", "T1", "test [codegen] codegen/issue-45222.rs ... "
                            "FAILED"), CONTRADICTED, an.OK,
          claim="the codegen test suite passed"),
    Probe("contradicted_other_part refuses a whole run's count for tests named by pointing",
          _BUN_RED, _reply("contradicted", "T1", "1 fail"), NOT_SHOWN,
          an.CONTRADICTED_OTHER_PART, claim="All 13 tests in that file are passing"),
    Probe("contradicted_other_part leaves a claim about the whole suite to the count",
          _BUN_RED, _reply("contradicted", "T1", "1 fail"), CONTRADICTED, an.OK,
          claim="all tests pass"),
    Probe("contradicted_no_errors refuses a lint summary that counts no error",
          _ESLINT_WARN, _reply("contradicted", "T1", "\u2716 5 problems (0 errors, 5 warnings)"),
          NOT_SHOWN, an.CONTRADICTED_NO_ERRORS,
          claim="All code passes ESLint (only minor warnings remain)"),
    Probe("contradicted_no_errors keeps it for a claim of no warnings",
          _ESLINT_WARN, _reply("contradicted", "T1", "\u2716 5 problems (0 errors, 5 warnings)"),
          CONTRADICTED, an.OK, claim="ESLint passes with no warnings"),
    Probe("contradicted_no_errors keeps a summary that counts an error",
          _ESLINT_RED, _reply("contradicted", "T1", "\u2716 5 problems (1 error, 4 warnings)"),
          CONTRADICTED, an.OK, claim="All code passes ESLint (only minor warnings remain)"),
)
