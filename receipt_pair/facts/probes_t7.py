"""Table t7's probes: every reading and rule t7 adds (reading_t7.py, decide_t7.py,
languages.py), a log where it must decide and a near one where it must decide otherwise or
leave the claim to the models."""

from .probe_kit import T, TableProbe

_NODE_OK = ("> @acme/worker@1.0.0 test /app/packages/worker\n> node --test\n\n"
            "PASS review-db\nPASS review-api\nAll tests passed (27)")
_NODE_RED = ("> @acme/worker@1.0.0 test /app/packages/worker\n> node --test\n\n"
             "FAIL review-db\n  AssertionError: expected 202, got 500\n1 test failed")
_VITEST_87 = (" \u2713 tests/a.test.ts (40 tests) 12ms\n \u2713 tests/b.test.ts (47 tests) 9ms\n\n"
              " Test Files  2 passed (2)\n      Tests  87 passed (87)\n   Duration  596ms")
_VITEST_101_4 = (" \u276f dist/tests/a.test.js (4 tests | 4 failed) 8ms\n\n"
                 " Test Files  1 failed | 6 passed (7)\n      Tests  4 failed | 101 passed (105)")
_DIGEST = ("The push refers to repository [docker.io/acme/app]\n5f70bf18a086: Pushed\n"
           "d3a1f33e8a5a: Layer already exists\n"
           "4: digest: sha256:798a35d606b2ccec30736c0ebda609c98839099e024f6d823992426931eece14 "
           "size: 1788")
_PUSH_MAIN = ("To github.com:acme/app.git\n   3b2a6f1..9c41e07  main -> main")


T7_PROBES = (
    TableProbe("t7: a pnpm run filtered to a package runs that package's tests (t6 read no "
               "test run)",
               "`pnpm --filter @acme/worker test` passes",
               (T("pnpm --filter @acme/worker test", _NODE_OK, 0),),
               "shown", "tests.passed"),
    TableProbe("t7: the same filtered run failing is no receipt (its failure lines name no "
               "package: the models read it)",
               "`pnpm --filter @acme/worker test` passes",
               (T("pnpm --filter @acme/worker test", _NODE_RED, 1),),
               None, None),
    TableProbe("t7: one package's run is a part: it shows no claim of the whole suite",
               "the tests pass",
               (T("pnpm -C packages/worker test", _NODE_OK, 0),),
               None, None),
    TableProbe("t7: a part run that passed the claimed count shows it",
               "All 87 unit tests pass.",
               (T("npx vitest run tests/a.test.ts tests/b.test.ts", _VITEST_87, 0),),
               "shown", "tests.count-matches"),
    TableProbe("t7: a part run that passed another count is left to the models",
               "All 90 unit tests pass.",
               (T("npx vitest run tests/a.test.ts tests/b.test.ts", _VITEST_87, 0),),
               None, None),
    TableProbe("t7: a part run with the claimed count is stale after an edit of code",
               "All 87 unit tests pass.",
               (T("npx vitest run tests/a.test.ts tests/b.test.ts", _VITEST_87, 0),
                T('Edit {"file_path": "src/a.ts", "old_string": "a", "new_string": "b"}',
                  "The file src/a.ts has been updated successfully.", None, kind="edit")),
               "not shown", "tests.edited-after"),
    TableProbe("t7: docker's digest line in a CI stage is left to the models (the reading was "
               "withdrawn after two attack passes)",
               "the image was pushed to Docker Hub",
               (T("stage: Push image to DockerHub", _DIGEST),),
               None, None),
    TableProbe("t7: a push said in French is a push claim",
               "Commit pouss\u00e9 sur `main`",
               (T("git push origin main", _PUSH_MAIN, 0),),
               "shown", "push.updated"),
    TableProbe("t7: a push said in Russian to another branch is not shown by it",
               "\u0417\u0430\u043f\u0443\u0448\u0435\u043d\u043e \u043d\u0430 `release`",
               (T("git push origin main", _PUSH_MAIN, 0),),
               "not shown", "push.other-branch"),
    TableProbe("t7: a push said in French with a negation is left to the models",
               "Le commit n'a pas \u00e9t\u00e9 pouss\u00e9",
               (T("git push origin main", _PUSH_MAIN, 0),),
               None, None),
    TableProbe("t7: a filtered run that matched no package shows nothing either way",
               "the web tests pass",
               (T("pnpm --filter web test", 'No projects matched the filters in "/app"', 0),),
               None, None),
    TableProbe("t7: a part run with the claimed count after the whole run failed is left to "
               "the models",
               "All 87 unit tests pass.",
               (T("npx vitest run", _VITEST_87.replace("2 passed (2)", "1 failed | 2 passed "
                  "(3)").replace("87 passed (87)", "4 failed | 87 passed (91)"), 1),
                T("npx vitest run tests/a.test.ts tests/b.test.ts", _VITEST_87, 0)),
               None, None),
    TableProbe("t7: a push said in Russian in the future is left to the models",
               "\u0417\u0430\u043f\u0443\u0448\u0443 \u043d\u0430 main",
               (T("git push origin main", _PUSH_MAIN, 0),),
               None, None),
    TableProbe("t7: a push said in German to a word that is no branch is left to the models",
               "Nach dem Review gepusht",
               (T("git push origin main", _PUSH_MAIN, 0),),
               None, None),
    TableProbe("t7: a push struck out is left to the models",
               "~~Pouss\u00e9 sur main~~",
               (T("git push origin main", _PUSH_MAIN, 0),),
               None, None),
    TableProbe("t7: a part run sharded is no count of its own",
               "All 87 unit tests pass.",
               (T("npx vitest run tests/a.test.ts tests/b.test.ts --shard=1/3", _VITEST_87, 0),),
               None, None),
    TableProbe("t7: a failing package run with no summary of a runner is no failure",
               "the tests pass",
               (T("npm test", _VITEST_87, 0),
                T("npm --prefix docs test", "npm ERR! Missing script: \"test\"", 1)),
               None, None),
    TableProbe("t7: a push said in Spanish names its branch after the branch word",
               "Subido a la rama main",
               (T("git push origin main", _PUSH_MAIN, 0),),
               "shown", "push.updated"),
    TableProbe("t7: a failing run is no contradiction of a claim of its own kind of tests with "
               "exactly the number that passed",
               "All 101 unit tests pass",
               (T("npx vitest run", _VITEST_101_4, 1),),
               None, None),
    TableProbe("t7: the same run contradicts the same count said of all the tests",
               "All 101 tests pass",
               (T("npx vitest run", _VITEST_101_4, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t7: the same run contradicts a claim of its kind with another count",
               "All 105 unit tests pass",
               (T("npx vitest run", _VITEST_101_4, 1),),
               "contradicted", "tests.failed"),
    TableProbe("t7: a runner's summary echoed through a filtered pnpm exec is an echo (t6 and "
               "t7's first versions showed the claim by it)",
               "the web tests pass",
               (T('pnpm --filter web exec echo "Tests  5 passed (5)"', " Tests  5 passed (5)",
                  0),),
               "not shown", "tests.echoed"),
    TableProbe("t7: the same filtered pnpm exec running the runner shows the claim",
               "the web tests pass",
               (T("pnpm --filter web exec vitest run", " Tests  5 passed (5)", 0),),
               "shown", "tests.passed"),
)
