#!/usr/bin/env bash
# Runs N replicas of the sample service against one database, their schedulers' clocks skewed (replica-1 3 s behind,
# replica-2 on time, replica-3 3 s ahead, and so on), and shows in their merged output: a four-second job guarded by
# the lock alone running slots twice, the same job claimed per slot running each slot once, a takeover after one
# replica is killed, and a late write refused by the fenced ledger after a replica is frozen past its lease. Ends
# with one SUMMARY line per job and DEMO OK when every job claimed per slot ran each slot at most once. With
# --db redis the locks, their fencing tokens and the scheduled slots are in the Redis server at 127.0.0.1:6379
# (DEMO_REDIS_HOST, DEMO_REDIS_PORT), under a key prefix of the run's own, and the ledger in an H2 TCP server. With
# --aot the replicas run the ahead-of-time processed application (-Dspring.aot.enabled=true; not with --db redis,
# whose beans differ from the ones processed at build time). Every replica serves the lock dashboard; the demo prints
# the URL of one. With --dashboard the replicas keep running for SECONDS more (default 300) after the scenes, their
# dashboards in admin mode on 127.0.0.1, so that a person can watch the slots, pause (kill -STOP) and kill replicas,
# and force-release locks live.
#
#   ./demo.sh [--replicas N] [--seconds S] [--db h2|postgresql|mariadb|redis] [--aot] [--dashboard [SECONDS]]
set -euo pipefail
cd "$(dirname "$0")"

replicas=3
seconds=60
db=h2
aot=false
linger=0
while [ $# -gt 0 ]; do
  case "$1" in
    --replicas) replicas="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --db) db="$2"; shift 2 ;;
    --aot) aot=true; shift ;;
    --dashboard)
      if [ $# -gt 1 ] && [[ "$2" =~ ^[0-9]+$ ]]; then linger="$2"; shift 2; else linger=300; shift; fi ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$replicas" -lt 2 ]; then echo "--replicas must be at least 2" >&2; exit 2; fi
if [ "$seconds" -lt 30 ]; then echo "--seconds must be at least 30" >&2; exit 2; fi
case "$db" in h2|postgresql|mariadb|redis) ;;
  *) echo "unknown database: $db (h2, postgresql, mariadb or redis)" >&2; exit 2 ;; esac
if [ "$aot" = true ] && [ "$db" = redis ]; then
  echo "--aot runs the beans processed at build time, for the JDBC store: it does not apply to --db redis" >&2; exit 2
fi
redis_host=${DEMO_REDIS_HOST:-127.0.0.1}
redis_port=${DEMO_REDIS_PORT:-6379}
if [ "$db" = redis ] && ! (exec 3<>"/dev/tcp/$redis_host/$redis_port") 2>/dev/null; then
  echo "DEMO FAILED no Redis server answers at $redis_host:$redis_port (start one, or set DEMO_REDIS_HOST and DEMO_REDIS_PORT)"
  exit 1
fi

jar=lock-sample-app/target/lock-sample-app-0.1.0-SNAPSHOT.jar
# A jar built before the sample had the Redis store (or its ahead-of-time classes) lacks them: build again.
jar_lists() {
  if command -v unzip >/dev/null; then unzip -l "$jar"; elif command -v jar >/dev/null; then jar tf "$jar"; else echo "BOOT-INF/lib/lock-redis- __ApplicationContextInitializer"; fi
}
if [ ! -f "$jar" ] || ! jar_lists 2>/dev/null | grep -q 'BOOT-INF/lib/lock-redis-' \
    || ! jar_lists 2>/dev/null | grep -q '__ApplicationContextInitializer'; then
  # Not quiet: on a cold Maven cache the first build downloads for minutes, and says so line by line.
  echo "Building the sample application (./mvnw -pl lock-sample-app -am package -DskipTests)..."
  ./mvnw -B -pl lock-sample-app -am package -DskipTests | grep -E '^\[INFO\] (Building |BUILD|Downloaded from)|ERROR' || true
  [ -f "$jar" ] || { echo "DEMO FAILED the sample application did not build"; exit 1; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/distlock-demo.XXXXXX")
log="$work/output.log"
touch "$log"
pids=()
names=()
ports=()
db_pid=""

cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}" ${db_pid:+"$db_pid"}; do
    kill -CONT "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}" ${db_pid:+"$db_pid"}; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  [ -n "${tail_pid:-}" ] && kill "$tail_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  # The run's Redis keys (lock hashes, token counters, slot hashes and run lists), where redis-cli is at hand.
  if [ -n "${redis_prefix:-}" ] && command -v redis-cli >/dev/null; then
    redis-cli -h "$redis_host" -p "$redis_port" --scan --pattern "${redis_prefix}*" 2>/dev/null \
      | xargs -r redis-cli -h "$redis_host" -p "$redis_port" del >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT
trap 'echo; echo "Interrupted."; exit 130' INT TERM

free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 20000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}

java_opts=(-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
if [ "$aot" = true ]; then java_opts+=(-Dspring.aot.enabled=true); fi
# The sample's tables (sample_locks, its slot table and token sequence, sample_fencing_tokens, sample_ledger_entries)
# are its own, so a server database shared with other users is safe; a run on a server drops them first, so that
# every run starts from empty tables, as on H2. One demo per database at a time.
reset_tables() {
  printf '%s\n' 'DROP TABLE IF EXISTS sample_locks_slots;' 'DROP TABLE IF EXISTS sample_locks;' \
    'DROP SEQUENCE IF EXISTS sample_locks_token_seq;' 'DROP TABLE IF EXISTS sample_fencing_tokens;' \
    'DROP TABLE IF EXISTS sample_ledger_entries;' >"$work/reset.sql"
  java -Xmx64m -cp "$jar" -Dloader.main=org.h2.tools.RunScript org.springframework.boot.loader.launch.PropertiesLauncher \
    -url "$1" -user "$2" -password "" -script "$work/reset.sql" >"$work/reset.log" 2>&1 \
    || { echo "DEMO FAILED could not reset the sample's tables at $1 (see $work/reset.log)"; exit 1; }
}
start_h2() {
  db_port=$(free_port)
  java -Xmx128m -cp "$jar" -Dloader.main=org.h2.tools.Server org.springframework.boot.loader.launch.PropertiesLauncher \
    -tcp -tcpPort "$db_port" -ifNotExists -baseDir "$work/h2" >"$work/h2.log" 2>&1 &
  db_pid=$!
  for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$db_port") 2>/dev/null && break; sleep 0.1; done
  db_args=(--spring.datasource.url="jdbc:h2:tcp://127.0.0.1:$db_port/demo" --spring.datasource.username=sa)
}
case "$db" in
  h2)
    start_h2 ;;
  redis)
    # The ledger and its fence in a fresh H2 database, shared by the replicas; locks, tokens and slots in Redis under
    # a prefix of this run's own, so that tokens start at 1 as the fence does.
    start_h2
    redis_prefix="distlock-demo:$(date +%s)-$$:"
    db_args+=(--spring.profiles.active=redis --spring.data.redis.host="$redis_host"
      --spring.data.redis.port="$redis_port" --distributed-lock.redis.key-prefix="$redis_prefix") ;;
  postgresql)
    # The server of the postgresql profile in application.yml.
    reset_tables jdbc:postgresql://127.0.0.1:5432/test postgres
    db_args=(--spring.profiles.active=postgresql) ;;
  mariadb)
    # The server of the mariadb profile in application.yml.
    reset_tables jdbc:mariadb://127.0.0.1:3306/test root
    db_args=(--spring.profiles.active=mariadb) ;;
esac

# Scheduler clock offsets, by replica: 3 s behind, on time, 3 s ahead, and round again.
offsets=(-PT3S PT0S PT3S)
offset_of() { echo "${offsets[$(( ($1 - 1) % 3 ))]}"; }
# With --dashboard, the dashboards offer forced releases, to whoever reaches 127.0.0.1 only.
dashboard_args=()
if [ "$linger" -gt 0 ]; then
  dashboard_args=(--server.address=127.0.0.1 --distributed-lock.dashboard.admin-enabled=true
    --distributed-lock.dashboard.allow-unprotected-admin=true)
fi
start_replica() {
  local name="replica-$1" port
  port=$(free_port)
  java "${java_opts[@]}" -jar "$jar" --server.port="$port" --demo.replica="$name" \
    --sample.scheduler-clock-offset="$(offset_of "$1")" "${db_args[@]}" ${dashboard_args[@]+"${dashboard_args[@]}"} \
    >>"$log" 2>&1 &
  pids+=("$!")
  disown "$!"
  names+=("$name")
  ports+=("$port")
}

# Waits until N replicas have started, for at most two minutes.
await_started() {
  local started=0
  for _ in $(seq 1 240); do
    started=$(grep -c 'Started SampleApplication' "$log" || true)
    [ "$started" -ge "$1" ] && return 0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "DEMO FAILED a replica exited during start-up"; exit 1; }; done
    sleep 0.5
  done
  echo "DEMO FAILED replicas did not start within 2 minutes"; exit 1
}

clocks=""
for i in $(seq 1 "$replicas"); do clocks+="${clocks:+, }replica-$i $(offset_of "$i")"; done
store="$db"
[ "$db" = redis ] && store="redis at $redis_host:$redis_port (keys under $redis_prefix), ledger on h2"
if [ "$aot" = true ]; then store="$store, ahead-of-time processed (spring.aot.enabled)"; fi
echo "Starting $replicas replicas on $store; scheduler clock offsets: $clocks (output below; logs in $work)"
tail -n +1 -f "$log" &
tail_pid=$!
if [ "$db" = h2 ] || [ "$db" = redis ]; then
  for i in $(seq 1 "$replicas"); do start_replica "$i"; done
else
  # The first replica creates the tables alone: concurrent CREATE TABLE IF NOT EXISTS can collide on a server.
  start_replica 1
  await_started 1
  for i in $(seq 2 "$replicas"); do start_replica "$i"; done
fi
await_started "$replicas"
echo "DASHBOARD replica-2 http://127.0.0.1:${ports[1]}/distlock (every replica serves one: ports ${ports[*]})"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }

pid_of() {
  local i
  for i in "${!names[@]}"; do [ "${names[$i]}" = "$1" ] && { echo "${pids[$i]}"; return; }; done
}

last_executor() { grep -o 'EXECUTED job=ledger [^ ]* replica=[^ ]*' "$log" | tail -n 1 | sed 's/.*replica=//'; }

# Scene: a replica frozen while it holds the ledger lock, longer than the lease; its late write is fenced.
while [ "$(elapsed)" -lt $((seconds / 5)) ]; do sleep 0.5; done
before=$(grep -c 'EXECUTED job=ledger' "$log" || true)
waited=0
while [ "$(grep -c 'EXECUTED job=ledger' "$log" || true)" -le "$before" ]; do
  sleep 0.05; waited=$((waited + 1))
  [ "$waited" -lt 600 ] || { echo "DEMO FAILED no ledger execution for 30 s"; exit 1; }
done
frozen=$(last_executor)
kill -STOP "$(pid_of "$frozen")"
echo "PAUSED replica=$frozen (holding the ledger lock; frozen for 10 s, past its 3 s lease)"
sleep 10
kill -CONT "$(pid_of "$frozen")"
echo "RESUMED replica=$frozen"

# Scene: the replica that executed last is killed; another takes over within one lease.
while [ "$(elapsed)" -lt $((seconds / 2)) ]; do sleep 0.5; done
victim=$(last_executor)
victim_pid=$(pid_of "$victim")
kill -9 "$victim_pid"
echo "KILLED replica=$victim"

while [ "$(elapsed)" -lt "$seconds" ]; do sleep 0.5; done
if [ "$linger" -gt 0 ]; then
  # Restart the killed replica, so that the dashboards show it again, and leave everything running for a while.
  for i in "${!names[@]}"; do
    if [ "${names[$i]}" = "$victim" ]; then
      java "${java_opts[@]}" -jar "$jar" --server.port="${ports[$i]}" --demo.replica="$victim" \
        --sample.scheduler-clock-offset="$(offset_of "$((i + 1))")" "${db_args[@]}" "${dashboard_args[@]}" \
        >>"$log" 2>&1 &
      pids[i]=$!
      disown "$!"
    fi
  done
  echo "LINGER the replicas keep running for $linger s; watch, pause (kill -STOP), kill and force-release live:"
  for i in "${!names[@]}"; do
    echo "DASHBOARD ${names[$i]} http://127.0.0.1:${ports[$i]}/distlock (pid ${pids[$i]})"
  done
  linger_end=$(( $(date +%s) + linger ))
  while [ "$(date +%s)" -lt "$linger_end" ]; do sleep 1; done
fi
# Freeze every replica, so that the output shown and the summary below cover the same lines; the clean-up at exit
# stops them.
for pid in "${pids[@]}"; do kill -STOP "$pid" 2>/dev/null || true; done
sleep 1
kill "$tail_pid" 2>/dev/null || true
tail_pid=""

# One line per job. Its slots are the fire times of its schedule from the first slot executed to the last slot any
# replica printed; missed slots are those no replica executed; duplicates are executions beyond the first of their
# slot.
summarize() {
  awk -v job="$1" -v period="$2" '
    function epoch(ts,   y, m, d, era, yoe, doy, doe) {
      y = substr(ts, 1, 4) + 0; m = substr(ts, 6, 2) + 0; d = substr(ts, 9, 2) + 0;
      if (m <= 2) y--;
      era = int(y / 400); yoe = y - era * 400;
      doy = int((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
      doe = yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy;
      return (era * 146097 + doe - 719468) * 86400 + substr(ts, 12, 2) * 3600 + substr(ts, 15, 2) * 60 + substr(ts, 18, 2);
    }
    # A slot refused as too early has not come yet by the database clock: it does not extend the slots of the job.
    $1 == "SKIPPED" && $NF == "reason=too-early" { next }
    $1 == "EXECUTED" || $1 == "SKIPPED" {
      j = ""; s = "";
      for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "job") j = kv[2]; if (kv[1] == "slot") s = kv[2]; }
      if (j != job || s == "") next;
      t = epoch(s);
      if (last == "" || t > last) last = t;
      if ($1 == "EXECUTED") {
        if (first == "" || t < first) first = t;
        executions++;
        if (!(t in ran)) { ran[t] = 1; distinct++; }
      }
    }
    END {
      slots = first == "" ? 0 : int((last - first) / period) + 1;
      printf "SUMMARY job=%s slots=%d executions=%d duplicates=%d missed=%d\n", job, slots, executions, executions - distinct, slots - distinct;
    }' "$log"
}

status=0
for job in ledger:5 report:15 lock-only:4 per-slot:4; do
  summary=$(summarize "${job%%:*}" "${job##*:}")
  echo "$summary"
  # The lock-only job's duplicates are what clock skew does to a lock without a slot: reported, not failed.
  case "$summary" in *"job=lock-only "*|*" duplicates=0 "*) ;; *) status=1 ;; esac
done
fenced=$(grep -c '^FENCED ' "$log" || true)
echo "Fenced writes refused: $fenced"
if [ "$status" -eq 0 ]; then
  echo "DEMO OK"
else
  echo "DEMO FAILED a slot of a job claimed per slot was executed more than once"
fi
exit "$status"
