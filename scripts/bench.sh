#!/usr/bin/env bash
# Builds the lock-benchmarks module and runs the JMH comparison of distlock, ShedLock, Spring Integration's
# JdbcLockRegistry, a raw-SQL floor and PostgreSQL advisory locks on the databases, of distlock's Redis store,
# Redisson's RLock and Spring Integration's RedisLockRegistry on Redis, the heap and watchdog cost of 10,000 held
# leases, the server-side errors of the contended cycle, and the handover latency of every store's locks against
# Redisson's RLock (the anchor).
#
#   scripts/bench.sh [--quick] [--db h2|postgresql|mariadb|redis|all] [more options, see --help]
#
# A full run of everything (about 45 minutes on 2 cores) regenerates docs/benchmarks.md; --quick (under five minutes
# for all stores, about one for --db h2) and narrowed runs (--db h2, --threads 1, ...) write their report to
# lock-benchmarks/target/benchmarks-quick.md or benchmarks-partial.md instead, so that they never overwrite the
# published figures. Every run prints JMH's table, the STATEMENTS, ERRORS, WATCHDOG, HEAP, RATIO and HANDOVER lines
# and the GOAL lines, and writes JSON results under lock-benchmarks/target/. PostgreSQL, MariaDB and Redis are
# skipped with a notice when they do not answer (URLs: DISTLOCK_TEST_POSTGRESQL_URL, DISTLOCK_TEST_MARIADB_URL, with
# _USER and _PASSWORD, and DISTLOCK_TEST_REDIS_URL, as for the tests). --db redis (or all) runs the cycle and the
# handover on Redis; Redisson, the handover's anchor, runs in every handover run that Redis answers.
# BENCH_JAVA_OPTS adds JVM options, e.g. BENCH_JAVA_OPTS=-XX:StartFlightRecording=filename=bench.jfr to profile a run.
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    echo
    break
  fi
done

echo "[bench] building lock-benchmarks"
./mvnw -B -q -pl lock-benchmarks -am package -DskipTests

# shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
exec java -Xms1g -Xmx1g ${BENCH_JAVA_OPTS:-} -jar lock-benchmarks/target/benchmarks.jar --command "scripts/bench.sh${*:+ $*}" "$@"
