#!/usr/bin/env bash
# Builds the lock-benchmarks module and runs the JMH comparison of distlock, ShedLock, Spring Integration's
# JdbcLockRegistry, a raw-SQL floor and PostgreSQL advisory locks, the heap and watchdog cost of 10,000 held leases,
# and the handover latency of distlock, JdbcLockRegistry and Redisson's RLock (the anchor, on a local Redis).
#
#   scripts/bench.sh [--quick] [--db h2|postgresql|mariadb|redis|all] [more options, see --help]
#
# A full run of everything (about 40 minutes on 2 cores) regenerates docs/benchmarks.md; --quick (under five minutes
# for all databases, about one for --db h2) and narrowed runs (--db h2, --threads 1, ...) write their report to
# lock-benchmarks/target/benchmarks-quick.md or benchmarks-partial.md instead, so that they never overwrite the
# published figures. Every run prints JMH's table and the STATEMENTS, WATCHDOG, HEAP, RATIO and HANDOVER lines, and
# writes JSON results under lock-benchmarks/target/. PostgreSQL, MariaDB and Redis are skipped with a notice when they
# do not answer (URLs: DISTLOCK_TEST_POSTGRESQL_URL, DISTLOCK_TEST_MARIADB_URL, with _USER and _PASSWORD, and
# DISTLOCK_TEST_REDIS_URL, as for the tests). Redisson runs in every handover run that Redis answers; --db redis (or
# all) adds distlock's Redis store when the lock-redis module is built along (profile redis-store, switched on by
# the module's presence).
# BENCH_JAVA_OPTS adds JVM options, e.g. BENCH_JAVA_OPTS=-XX:StartFlightRecording=filename=bench.jfr to profile a run.
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    echo
    break
  fi
done

echo "[bench] building lock-benchmarks"
if grep -q '<module>lock-benchmarks</module>' pom.xml; then
  ./mvnw -B -q -pl lock-benchmarks -am package -DskipTests
else
  # Not yet a module of the reactor: build what it depends on first.
  ./mvnw -B -q -pl lock-spring-boot-starter,lock-test-support -am install -DskipTests
  ./mvnw -B -q -f lock-benchmarks/pom.xml package -DskipTests
fi

# shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
exec java -Xms1g -Xmx1g ${BENCH_JAVA_OPTS:-} -jar lock-benchmarks/target/benchmarks.jar --command "scripts/bench.sh${*:+ $*}" "$@"
