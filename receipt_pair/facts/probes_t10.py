"""Table t10's probes: every reading and rule t10 adds (reading_t10.py, decide_t10.py), a
log where it must decide and a near one where it must decide otherwise or leave the claim
to the models."""

from .probe_kit import T, TableProbe

_NEXT_OK = "> web@0.1.0 build\n> next build\n\n \u2713 Compiled successfully\n" \
           " \u2713 Generating static pages (9/9)"
_PY_RED = "FAILED tests/test_api.py::test_login - assert 401 == 200\n" \
          "========================= 1 failed, 45 passed in 0.52s ========================="
_PY_OK = "collected 46 items\n\n============================== 46 passed in 0.31s " \
         "=============================="
_PY_COUNTED = "FAILED tests/test_api.py::test_a\nFAILED tests/test_api.py::test_b\n" \
              "FAILED tests/test_api.py::test_c\n" \
              "======================== 3 failed, 212 passed in 9.10s ========================"


def _patch(header):
    return 'apply_patch {"patchText":"*** Begin Patch\\n*** ' + header + \
        '\\n+# Notes\\n*** End Patch"}'


T10_PROBES = (
    TableProbe("t10: a Windows program's suffix is read away: `npm.cmd run build` is npm's "
               "build", "`npm.cmd run build` passes.",
               (T("npm.cmd run build", _NEXT_OK, 0),), "shown", "build.passed"),
    TableProbe("t10: and a failing `npm.cmd run build` contradicts it",
               "`npm.cmd run build` passes.",
               (T("npm.cmd run build", "> next build\n\nFailed to compile.\n\n./app/page.tsx\n"
                  "Type error: Cannot find name 'x'.", 1),), "contradicted", "build.failed"),
    TableProbe("t10: a script of the same name with its own suffix is not the program",
               "`build.bat` passes.",
               (T("build.bat", "done", 0),), None, None),
    TableProbe("t10: a suffix the program does not install with is a project's own script",
               "`go.bat test` passes.", (T("go.bat test", "Done.", 0),), None, None),
    TableProbe("t10: a patch that adds a document after the run leaves the run fresh",
               "all tests pass",
               (T("pytest", _PY_OK, 0), T(_patch("Add File: delivery_report.md"), "Success.", 0)),
               "shown", "tests.passed"),
    TableProbe("t10: a patch that updates code after the run makes it stale",
               "all tests pass",
               (T("pytest", _PY_OK, 0), T(_patch("Update File: src/app.py"), "Success.", 0)),
               "not shown", "tests.edited-after"),
    TableProbe("t10: a claim of how many passed of how many is shown by the run that printed "
               "both", "212 of the 215 tests passed",
               (T("pytest", _PY_COUNTED, 1),), "shown", "tests.of-total"),
    TableProbe("t10: a count from a run that stops at its first failures is not the suite's",
               "212 of the 215 tests passed", (T("pytest -x", _PY_COUNTED, 1),), None, None),
    TableProbe("t10: a code file hidden behind a bare carriage return still makes the run "
               "stale", "all tests pass",
               (T("pytest", _PY_OK, 0),
                T(_patch("Update File: server/app.py\r*** Update File: NOTES.md"), "Success.",
                  0)), "not shown", "tests.edited-after"),
    TableProbe("t10: another count of passed is the models' (never contradicted: it admits "
               "failures)", "210 of the 215 tests passed",
               (T("pytest", _PY_COUNTED, 1),), None, None),
    TableProbe("t10: a failure followed by a masked run that printed none failed is not shown "
               "(the mask hides how it ended)", "all tests pass",
               (T("pytest", _PY_RED, 1), T("pytest 2>&1 | tail -3", _PY_OK, 0)),
               "not shown", "tests.masked"),
    TableProbe("t10: a masked run that printed a failure still contradicts",
               "all tests pass",
               (T("pytest", _PY_RED, 1), T("pytest 2>&1 | tail -3", _PY_RED, 0)),
               "contradicted", "tests.failed"),
    TableProbe("t10: a claim of two things, one an outcome the facts do not read, is the "
               "models'", "Confirmed the app runs headless and the unit tests pass.",
               (T("pytest", _PY_OK, 0),), None, None),
    TableProbe("t10: a part that points back at the run is no other thing",
               "Ran the test suite and it completed successfully.",
               (T("pytest", _PY_OK, 0),), "shown", "tests.passed"),
    TableProbe("t10: two things the facts both read are still shown",
               "Ran the unit tests; all pass.",
               (T("pytest", _PY_OK, 0),), "shown", "tests.passed"),
)
