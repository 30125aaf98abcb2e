#!/usr/bin/env bash
# Builds the lock-benchmarks module and runs the JMH comparison of distlock, ShedLock, Spring Integration's
# JdbcLockRegistry, a raw-SQL floor and PostgreSQL advisory locks.
#
#   scripts/bench.sh [--quick] [--db h2|postgresql|mariadb|all] [more options, see --help]
#
# A full run of everything (about 25 minutes on 2 cores) regenerates docs/benchmarks.md; --quick (about three minutes
# for all databases, under one for --db h2) and narrowed runs (--db h2, --threads 1, ...) write their report to
# lock-benchmarks/target/benchmarks-quick.md or benchmarks-partial.md instead, so that they never overwrite the
# published figures. Every run prints JMH's table and the STATEMENTS, WATCHDOG and RATIO lines, and writes JSON
# results under lock-benchmarks/target/. PostgreSQL and MariaDB are skipped with a notice when they do not answer
# (URLs: DISTLOCK_TEST_POSTGRESQL_URL, DISTLOCK_TEST_MARIADB_URL, with _USER and _PASSWORD, as for the tests).
# BENCH_JAVA_OPTS adds JVM options, e.g. BENCH_JAVA_OPTS=-XX:StartFlightRecording=filename=bench.jfr to profile a run.
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
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
