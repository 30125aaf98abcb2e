#!/usr/bin/env bash
# Multi-process torture test of distlock with fault injection, on one database or on Redis.
#
#   scripts/torture.sh --db h2|postgresql|mariadb|redis [--workload locks|slots] [--processes P] [--seconds S]
#                      [--faults kill,pause,disconnect,skew,pool,rowlock|none] [--threads N] [--locks N] [--ttl-ms MS]
#                      [--rebuild]
#   scripts/torture.sh --db postgresql --faults failover --replication sync|async [--seconds S] [--failovers N]
#   scripts/torture.sh --db redis --faults failover [--replication sync|async] [--failovers N]
#
# Defaults: the locks workload, 4 worker JVMs, 60 seconds, every fault (on Redis kill, pause and disconnect), 3 threads
# per worker, 3 locks, a 2000 ms TTL, a 1 s statement timeout; allow 40 s or more for every fault to be injected at
# least once. --db redis keeps the locks in the local Redis under a key prefix of the run's own (deleted at the end)
# and the counter and fenced ledger in the controller's H2 database. --workload slots runs LockManager.runOncePerSlot
# instead: every worker runs 3 jobs (--locks N) every 2 s of a slot clock of its own, offset by up to ±3 s, under kill
# and pause by default (skew, pool and rowlock do not apply), and the checker ends with the SLOTS line. One run per
# database and workload at a time: a run drops and recreates its workload's tables (torture_* for locks,
# torture_slot_* for slots). Builds lock-core, lock-jdbc, lock-test-support, lock-redis and lock-torture with ./mvnw when the
# torture jar is missing or older than their sources. Connects to 127.0.0.1 only: the H2 and Redis cases serve an
# in-memory database from the controller's JVM over an H2 TCP server; the PostgreSQL and MariaDB cases use the local
# servers of the tests (DISTLOCK_TEST_*_URL/USER/PASSWORD override them), Redis the tests' DISTLOCK_TEST_REDIS_URL.
# Worker logs go to lock-torture/target/torture/<db>-<time>/. Exits with the checker's status: 0 every criterion
# held, 1 one failed, 2 the run could not be carried out.
# --db redis --faults failover runs the Redis failover run instead (io.distlock.torture.RedisFailover): a private
# primary, replica and Sentinel under the run directory, worker threads on connections that follow the failovers, the
# replica frozen at a random moment and the primary killed N times (default 20); it prints the FAILOVER line and, in
# sync mode (one replica to acknowledge every acquisition and renewal), exits 1 unless every count is 0.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '4,7p' "$0" | sed 's/^#//'; }
die() { echo "torture.sh: $*" >&2; usage >&2; exit 2; }

db=""
processes=4
seconds=60
workload=locks
faults=""
rebuild=false
replication=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --db) [ $# -ge 2 ] || die "--db needs a value"; db="$2"; shift 2 ;;
    --processes) [ $# -ge 2 ] || die "--processes needs a value"; processes="$2"; shift 2 ;;
    --seconds) [ $# -ge 2 ] || die "--seconds needs a value"; seconds="$2"; shift 2 ;;
    --workload) [ $# -ge 2 ] || die "--workload needs a value"; workload="$2"; shift 2 ;;
    --faults) [ $# -ge 2 ] || die "--faults needs a value"; faults="$2"; shift 2 ;;
    --threads|--locks|--ttl-ms|--failovers) [ $# -ge 2 ] || die "$1 needs a value"; extra+=("$1" "$2"); shift 2 ;;
    --replication) [ $# -ge 2 ] || die "--replication needs a value"; replication="$2"; shift 2 ;;
    --rebuild) rebuild=true; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1'" ;;
  esac
done
case "$db" in h2|postgresql|mariadb|redis) ;; *) die "--db must be h2, postgresql, mariadb or redis" ;; esac
case "$seconds" in ''|*[!0-9]*) die "--seconds needs a whole number" ;; esac
case "$workload:$db" in
  locks:redis) faults=${faults:-kill,pause,disconnect} ;;
  locks:*) faults=${faults:-kill,pause,disconnect,skew,pool,rowlock} ;;
  slots:redis) die "--workload slots runs on h2, postgresql or mariadb" ;;
  slots:*) faults=${faults:-kill,pause} ;;
  *) die "--workload must be locks or slots" ;;
esac

jar=lock-torture/target/lock-torture-0.1.0-SNAPSHOT.jar
classpath_file=lock-torture/target/torture.classpath
stamp=lock-torture/target/torture.built

# Rebuild when the jar or its class path is missing, a main source or pom is newer than the last build (the jar, or
# this script's stamp when newer: the jar is left untouched when its classes did not change), or a class path entry
# is gone.
needs_build() {
  $rebuild && return 0
  [ -f "$jar" ] && [ -f "$classpath_file" ] || return 0
  local reference="$jar" entry entries
  [ "$stamp" -nt "$jar" ] && reference="$stamp"
  [ -z "$(find lock-core/src/main lock-core/pom.xml lock-jdbc/src/main lock-jdbc/pom.xml lock-test-support/src/main \
    lock-test-support/pom.xml \
    lock-redis/src/main lock-redis/pom.xml lock-torture/src/main lock-torture/pom.xml pom.xml -newer "$reference" \
    -print -quit)" ] || return 0
  IFS=: read -r -a entries < "$classpath_file"
  for entry in "${entries[@]}"; do [ -e "$entry" ] || return 0; done
  return 1
}
if needs_build; then
  echo "torture.sh: building lock-core, lock-jdbc, lock-test-support, lock-redis and lock-torture"
  ./mvnw -B -q -pl lock-torture -am package -DskipTests
  touch "$stamp"
fi

if [ "$db:$faults" = "redis:failover" ]; then
  run_dir="lock-torture/target/torture/redis-failover-$(date -u +%Y%m%dT%H%M%SZ)"
  echo "torture.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ) --db redis --faults failover ${replication:+--replication $replication} ${extra[*]-}"
  exec timeout --kill-after=20 1800 java -Xmx256m -XX:TieredStopAtLevel=1 -cp "$jar:$(cat "$classpath_file")" \
    io.distlock.torture.RedisFailover --run-dir "$run_dir" ${replication:+--mode "$replication"} \
    ${extra[@]+"${extra[@]}"}
fi

run_dir="lock-torture/target/torture/${db}-${workload}-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$run_dir"
controller=""

# No worker outlives this script: stop the controller (its shutdown hook kills its workers), then kill any worker
# process it started that is still there, by the ids it recorded; SIGCONT first in case one is paused.
cleanup() {
  if [ -n "$controller" ] && kill -0 "$controller" 2>/dev/null; then
    kill -TERM "$controller" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$controller" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$controller" 2>/dev/null || true
  fi
  if [ -f "$run_dir/workers.pids" ]; then
    while read -r pid; do
      if [ -n "$pid" ] && grep -qs TortureWorker "/proc/$pid/cmdline"; then
        kill -CONT "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
      fi
    done < "$run_dir/workers.pids"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The failover fault runs on private servers of its own (a primary and a streaming standby on free ports), in one JVM
# that kills, promotes and rebuilds them: PostgresFailoverTorture.
if [ "$faults" = failover ]; then
  [ "$db" = postgresql ] || die "--faults failover runs on --db postgresql"
  case "$replication" in sync|async) ;; *) die "--faults failover needs --replication sync or async" ;; esac
  echo "torture.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ) --db $db --faults failover --replication $replication --seconds $seconds ${extra[*]-}"
  timeout --kill-after=20 "$((seconds + 300))" \
    java -Xmx256m -XX:TieredStopAtLevel=1 -cp "$jar:$(cat "$classpath_file")" io.distlock.torture.PostgresFailoverTorture \
    --replication "$replication" --seconds "$seconds" ${extra[@]+"${extra[@]}"} &
  controller=$!
  status=0
  wait "$controller" || status=$?
  controller=""
  exit "$status"
fi
[ -z "$replication" ] || die "--replication goes with --faults failover"

echo "torture.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ) --db $db --workload $workload --processes $processes --seconds $seconds --faults $faults ${extra[*]-}"
# The controller bounds its own phases; the timeout is the backstop if a database stops answering altogether.
timeout --kill-after=20 "$((seconds + 300))" \
  java -Xmx256m -XX:TieredStopAtLevel=1 -cp "$jar:$(cat "$classpath_file")" io.distlock.torture.TortureController \
  --db "$db" --workload "$workload" --processes "$processes" --seconds "$seconds" --faults "$faults" \
  --run-dir "$run_dir" \
  ${extra[@]+"${extra[@]}"} &
controller=$!
status=0
wait "$controller" || status=$?
controller=""
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "torture.sh: the run did not finish within $((seconds + 300)) s" >&2
  status=2
fi
exit "$status"
