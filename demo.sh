#!/usr/bin/env bash
# Runs N replicas of the sample service against one database and shows, in their merged output, one execution per
# tick, the skips on the other replicas, a takeover after one replica is killed, and a late write refused by the
# fenced ledger after a replica is frozen past its lease. Ends with one SUMMARY line per job and DEMO OK.
#
#   ./demo.sh [--replicas N] [--seconds S] [--db h2|postgresql|mariadb]
set -euo pipefail
cd "$(dirname "$0")"

replicas=3
seconds=60
db=h2
while [ $# -gt 0 ]; do
  case "$1" in
    --replicas) replicas="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --db) db="$2"; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$replicas" -lt 2 ]; then echo "--replicas must be at least 2" >&2; exit 2; fi
if [ "$seconds" -lt 30 ]; then echo "--seconds must be at least 30" >&2; exit 2; fi

jar=lock-sample-app/target/lock-sample-app-0.1.0-SNAPSHOT.jar
if [ ! -f "$jar" ]; then
  echo "Building the sample application (first run only)..."
  ./mvnw -B -q -pl lock-sample-app -am package -DskipTests
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/distlock-demo.XXXXXX")
log="$work/output.log"
touch "$log"
pids=()
names=()
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
case "$db" in
  h2)
    db_port=$(free_port)
    java -Xmx128m -cp "$jar" -Dloader.main=org.h2.tools.Server org.springframework.boot.loader.launch.PropertiesLauncher \
      -tcp -tcpPort "$db_port" -ifNotExists -baseDir "$work/h2" >"$work/h2.log" 2>&1 &
    db_pid=$!
    for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$db_port") 2>/dev/null && break; sleep 0.1; done
    db_args=(--spring.datasource.url="jdbc:h2:tcp://127.0.0.1:$db_port/demo" --spring.datasource.username=sa) ;;
  postgresql)
    db_args=(--spring.profiles.active=postgresql) ;;
  mariadb)
    db_args=(--spring.profiles.active=mariadb) ;;
  *) echo "unknown database: $db (h2, postgresql or mariadb)" >&2; exit 2 ;;
esac

echo "Starting $replicas replicas on $db (output below; logs in $work)"
for i in $(seq 1 "$replicas"); do
  name="replica-$i"
  java "${java_opts[@]}" -jar "$jar" --server.port="$(free_port)" --demo.replica="$name" "${db_args[@]}" \
    >>"$log" 2>&1 &
  pids+=("$!")
  disown "$!"
  names+=("$name")
done
tail -n +1 -f "$log" &
tail_pid=$!

started=0
for _ in $(seq 1 240); do
  started=$(grep -c 'Started SampleApplication' "$log" || true)
  [ "$started" -ge "$replicas" ] && break
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "DEMO FAILED a replica exited during start-up"; exit 1; }; done
  sleep 0.5
done
[ "$started" -ge "$replicas" ] || { echo "DEMO FAILED replicas did not start within 2 minutes"; exit 1; }
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
kill "$tail_pid" 2>/dev/null || true
tail_pid=""
sleep 0.2

status=0
for job in ledger report; do
  summary=$(awk -v job="$job" '
    $1 == "EXECUTED" || $1 == "SKIPPED" {
      j = ""; s = ""; r = "";
      for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "job") j = kv[2]; if (kv[1] == "slot") s = kv[2]; if (kv[1] == "replica") r = kv[2]; }
      if (j != job) next;
      slots[s] = 1;
      if ($1 == "EXECUTED") { runs[s]++; executions++; byReplica[r]++; }
    }
    END {
      n = 0; dup = 0; for (s in slots) { n++; if (runs[s] > 1) dup++; }
      list = ""; for (r in byReplica) list = list (list == "" ? "" : ",") r ":" byReplica[r];
      printf "SUMMARY job=%s slots=%d executions=%d duplicates=%d replicas=%s\n", job, n, executions + 0, dup, list;
    }' "$log")
  echo "$summary"
  case "$summary" in *" duplicates=0 "*) ;; *) status=1 ;; esac
done
fenced=$(grep -c '^FENCED ' "$log" || true)
echo "Fenced writes refused: $fenced"
if [ "$status" -eq 0 ]; then
  echo "DEMO OK"
else
  echo "DEMO FAILED a slot was executed more than once"
fi
exit "$status"
