#!/usr/bin/env bash
# make test's lanes (the Makefile's `test` sets PY, PYTEST, PG_URL, REDIS_TEST_URL), each timed,
# with a summary of their times at the end; the first failing lane stops the run.
#   lint      ruff, mypy, import layers, migrations, the adjudicator cases; on one core, beside
#             the parallel lane, its output shown when that lane ends
#   parallel  every independent test on PostgreSQL (it makes the test databases)
#   browser   the browser and real-worker tests on PostgreSQL and Redis (each pytest worker has
#             a Celery queue and a database of its own, so two run at once)
#   sqlite    make run's settings (DEBUG=1, a SQLite file, no REDIS_URL: tasks in-process): the
#             tests marked sqlite, and tests/sqlite (the demo played through `make run` itself)
# The pytest lanes run on two pytest-xdist workers that steal work from each other, so that a
# long test does not leave one idle.
set -u
cd "$(dirname "$0")/.."
out=.lanes
rm -rf "$out" .lanes.sqlite3*
mkdir -p "$out"
xdist=(-n 2 --dist worksteal)
pg=(env "DATABASE_URL=$PG_URL" "REDIS_URL=$REDIS_TEST_URL" "$PYTEST" "${xdist[@]}" --ignore=tests/sqlite)
sqlite=(env DEBUG=1 "DATABASE_URL=sqlite:///$PWD/.lanes.sqlite3" REDIS_URL= "$PYTEST" "${xdist[@]}")

lane() {  # NAME COMMAND...: runs it and notes its time and outcome in the summary
    local name=$1 t0=$SECONDS outcome=ok
    shift
    "$@" || outcome=FAILED
    printf '%-9s %4d s  %s\n' "$name" $((SECONDS - t0)) "$outcome" >> "$out/summary"
    [ "$outcome" = ok ]
}

stop() {
    echo
    echo "make test: a lane failed"
    cat "$out/summary"
    exit 1
}

lane lint make --no-print-directory checks > "$out/lint.log" 2>&1 &
lint=$!
lane parallel "${pg[@]}" --create-db --reuse-db -m "not browser and not worker"
parallel=$?
wait "$lint"
linted=$?
cat "$out/lint.log"
[ "$parallel" = 0 ] && [ "$linted" = 0 ] || stop
lane browser "${pg[@]}" --reuse-db -m "browser or worker" || stop
lane sqlite "${sqlite[@]}" -m sqlite tests || stop
echo
echo "make test: every lane passed"
cat "$out/summary"
