#!/usr/bin/env bash
# Platform host (api-host) speed on loopback, with a baseline in the same run:
#   http   wrk at 64 connections: GET /health (no auth, no database: the baseline), GET /v1/auth/me and
#          GET /v1/orgs/{id}/projects with an API token; throughput and p50/p99
#   trail  1,000,000 audit entries in one organization, then GET /v1/orgs/{id}/audit-trail: first page, deep pages
#          through the cursor, filters; p50/p99, without and with the V20 indexes, and EXPLAIN ANALYZE of each query
#   launch launch to the first 200 on /health with the embedded database: cold (empty data dir) and warm restart,
#          with where the time went (log lines stamped with milliseconds since launch)
# The JMH and in-process parts (authentication alone, audit append rate) are in docs/benchmarks.md.
#
# Usage: benchmarks/platform/run.sh [http] [trail] [launch]      (no argument: all three)
#   env: SECS=15 WARMUP=10 CONNS=64 THREADS=2 TRAIL_SECS=10 TRAIL_CONNS=4 TRAIL_ROWS=1000000 LAUNCH_RUNS=5
#        PORT=18480 JAR=api-host/target/stockade-platform.jar JAVA_OPTS=... KEEP=1 (keep the temp dir)
#        CDS=/path/app.jsa (launch: also a warm restart with that AppCDS archive; made first when absent)
# Needs wrk, curl, jq and psql; it installs nothing: `apt-get install wrk curl jq postgresql-client`.
# Builds the jar when absent: ./mvnw -q -B -pl api-host -am package -DskipTests
# Everything runs in a temp dir; every process started here is stopped on exit (trap).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SECS=${SECS:-15} WARMUP=${WARMUP:-10} CONNS=${CONNS:-64} THREADS=${THREADS:-2}
TRAIL_SECS=${TRAIL_SECS:-10} TRAIL_CONNS=${TRAIL_CONNS:-4} TRAIL_ROWS=${TRAIL_ROWS:-1000000}
LAUNCH_RUNS=${LAUNCH_RUNS:-5} PORT=${PORT:-18480}
JAR="${JAR:-$ROOT/api-host/target/stockade-platform.jar}"
BASE="http://127.0.0.1:$PORT"
PARTS=("$@"); ((${#PARTS[@]})) || PARTS=(http trail launch)

for tool in wrk curl jq psql java; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing (apt-get install wrk curl jq postgresql-client)" >&2; exit 2; }
done
[ -f "$JAR" ] || (cd "$ROOT" && ./mvnw -q -B -pl api-host -am package -DskipTests)

W="$(mktemp -d /tmp/stockade-platformbench.XXXXXX)"
PLATFORM_PID=
stop_platform() {
  if [ -n "$PLATFORM_PID" ]; then
    kill -TERM "$PLATFORM_PID" 2>/dev/null || true
    wait "$PLATFORM_PID" 2>/dev/null || true
    PLATFORM_PID=
  fi
}
cleanup() { stop_platform; [ -n "${KEEP:-}" ] && echo "kept $W" >&2 || rm -rf "$W"; }
trap cleanup EXIT INT TERM

load() { cut -d' ' -f1 /proc/loadavg; }
ms_now() { echo $(( $(date +%s%N) / 1000000 )); }

# start_platform DIR: starts the jar in the background; its output, each line stamped with ms since launch, goes to
# DIR.log; sets PLATFORM_PID and T0.
start_platform() {
  local dir="$1"
  T0=$(ms_now)
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$JAR" --dev-hub --data-dir "$dir" --port "$PORT" \
    > >(while IFS= read -r l; do echo "$(( $(ms_now) - T0 )) $l"; done > "$dir.log") 2>&1 &
  PLATFORM_PID=$!
}
JAVA_OPTS=${JAVA_OPTS:-}

# wait_health: polls /health every 20 ms; prints the ms from launch to the first 200
wait_health() {
  for _ in $(seq 1 6000); do
    if curl -sf -o /dev/null "$BASE/health"; then echo $(( $(ms_now) - T0 )); return 0; fi
    kill -0 "$PLATFORM_PID" 2>/dev/null || { echo "the platform exited" >&2; return 1; }
    sleep 0.02
  done
  return 1
}

wait_enrolled() {
  for _ in $(seq 1 600); do
    [ "$(curl -sf "$BASE/v1/installation" | jq -r .enrolled 2>/dev/null)" = true ] && return 0
    sleep 0.2
  done
  echo "not enrolled after 120 s" >&2; return 1
}

api() { # api METHOD PATH TOKEN [JSON]
  curl -sf -X "$1" -H "Authorization: Bearer $3" -H 'Content-Type: application/json' ${4:+-d "$4"} "$BASE$2"
}

# the platform with an org, 20 projects and an API token that is a member of each
setup_platform() {
  DATA="$W/data"
  start_platform "$DATA"
  wait_health >/dev/null
  wait_enrolled
  OWNER=$(cat "$DATA/owner-token")
  ORG=$(api POST /v1/orgs "$OWNER" '{"name":"bench"}' | jq -r .id)
  local made; made=$(api POST "/v1/orgs/$ORG/api-tokens" "$OWNER" '{"name":"wrk"}')
  TOKEN=$(jq -r .token <<<"$made")
  local token_id; token_id=$(api GET /v1/auth/me "$TOKEN" | jq -r .id)
  for i in $(seq 1 20); do
    local p; p=$(api POST "/v1/orgs/$ORG/projects" "$OWNER" "{\"name\":\"p$i\"}" | jq -r .id)
    api PUT "/v1/projects/$p/members/api-tokens/$token_id" "$OWNER" '{"role":"MEMBER"}' >/dev/null
  done
  PGPORT=$(sed -n 4p "$DATA/pg/postmaster.pid")
  PSQL=(psql -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt)
}

# bench NAME URL_PATH TOKEN SECS CONNS THREADS: one wrk run, one summary row
bench() {
  local name="$1" path="$2" token="$3" secs="$4" conns="$5" threads="$6" out
  out=$(wrk -t "$threads" -c "$conns" -d "${secs}s" --latency ${token:+-H "Authorization: Bearer $token"} "$BASE$path")
  echo "$out" > "$W/wrk-$(tr -c 'a-zA-Z0-9\n' _ <<<"$name").txt"
  local rps p50 p99 bad
  rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  printf '%-44s %10s %10s %10s %8s %6s\n' "$name" "$rps" "$p50" "$p99" "${bad:-0}" "$(load)"
}
header() { printf '%-44s %10s %10s %10s %8s %6s\n' "$1" req/s p50 p99 non-2xx load; }

part_http() {
  echo "== http: wrk -t $THREADS -c $CONNS -d ${SECS}s --latency (after ${WARMUP}s of warm-up on each path)"
  for path in /health /v1/auth/me "/v1/orgs/$ORG/projects"; do
    wrk -t "$THREADS" -c "$CONNS" -d "${WARMUP}s" -H "Authorization: Bearer $TOKEN" "$BASE$path" >/dev/null
  done
  header path
  bench "GET /health (baseline: no auth, no db)" /health "" "$SECS" "$CONNS" "$THREADS"
  bench "GET /v1/auth/me" /v1/auth/me "$TOKEN" "$SECS" "$CONNS" "$THREADS"
  bench "GET /v1/orgs/{id}/projects (20 items)" "/v1/orgs/$ORG/projects" "$TOKEN" "$SECS" "$CONNS" "$THREADS"
}

V20="$ROOT/api-host/src/main/resources/db/migration/V20__audit_indexes.sql"

# 1,000,000 entries in one organization, ids growing with time like real appends: 10 projects, 50 actors, a third
# reads, one in ten denied; kinds: egress (most), inference (1 in 7), project-member (1 in 13), halt (1 in 2000)
load_trail() {
  local t0; t0=$(ms_now)
  "${PSQL[@]}" -v org="$ORG" -v rows="$TRAIL_ROWS" <<'SQL'
INSERT INTO audit_entries (org_id, project_id, at, kind, action, is_read, outcome, actor_type, actor_id, target, details)
SELECT :'org'::uuid, md5('p' || (i % 10))::uuid,
       date_trunc('second', now() - make_interval(secs => (:rows - i) * 0.6)),
       CASE WHEN i % 2000 = 0 THEN 'halt' WHEN i % 7 = 0 THEN 'inference'
            WHEN i % 13 = 0 THEN 'project-member' ELSE 'egress' END,
       CASE WHEN i % 3 = 0 THEN 'read' ELSE 'decide' END, i % 3 = 0,
       CASE WHEN i % 10 = 0 THEN 'deny' ELSE 'allow' END,
       'sandbox-token', 'sbx-' || (i % 50), 'api.example.com:443',
       jsonb_build_object('method', 'GET', 'path', '/v1/items/' || i)
FROM generate_series(1, :rows) AS i;
VACUUM ANALYZE audit_entries;
SQL
  echo "loaded $TRAIL_ROWS entries in $(( $(ms_now) - t0 )) ms (generate_series, one INSERT)"
}

cursor_at() { # cursor_at OFFSET [KIND]: the query string of the page after the entry at OFFSET (newest first)
  "${PSQL[@]}" -F ' ' -c "SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), id
    FROM audit_entries WHERE org_id = '$ORG' ${2:+AND kind = '$2'} ORDER BY at DESC, id DESC OFFSET $1 LIMIT 1" \
    | awk '{printf "cursor=%s&cursorId=%s", $1, $2}'
}

# the SQL AuditTrail.page runs for a query string (the same clauses, literals instead of parameters)
page_sql() {
  local qs="$1" where="org_id = '$ORG'" at id
  at=$(sed -n 's/.*cursor=\([^&]*\).*/\1/p' <<<"$qs"); id=$(sed -n 's/.*cursorId=\([^&]*\).*/\1/p' <<<"$qs")
  [ -n "$at" ] && where+=" AND (at, id) < ('$at', $id)"
  [[ "$qs" =~ kind=([a-z-]+) ]] && where+=" AND kind = '${BASH_REMATCH[1]}'"
  [[ "$qs" =~ projectId=([0-9a-f-]+) ]] && where+=" AND project_id = '${BASH_REMATCH[1]}'"
  [[ "$qs" =~ excludeReads=true ]] && where+=" AND NOT is_read"
  echo "SELECT id, at, project_id, kind, action, is_read, outcome, actor_type, actor_id, target, details
    FROM audit_entries WHERE $where ORDER BY at DESC, id DESC LIMIT 51"
}

trail_round() { # trail_round LABEL: every case, EXPLAIN ANALYZE then wrk
  local label="$1" name qs
  echo "-- $label"
  for name in "${!CASES[@]}"; do
    qs="${CASES[$name]}"
    echo "EXPLAIN ($label) $name:" >> "$W/explain.txt"
    "${PSQL[@]}" -c "EXPLAIN (ANALYZE, BUFFERS) $(page_sql "$qs")" >> "$W/explain.txt"
  done
  header "audit-trail page ($label)"
  while IFS= read -r name; do
    qs="${CASES[$name]}"
    bench "$name" "/v1/orgs/$ORG/audit-trail?$qs" "$TOKEN" "$TRAIL_SECS" "$TRAIL_CONNS" 1 </dev/null
  done < <(printf '%s\n' "${!CASES[@]}" | sort)
}

part_trail() {
  echo "== trail: $TRAIL_ROWS entries, wrk -t 1 -c $TRAIL_CONNS -d ${TRAIL_SECS}s --latency per page"
  load_trail
  local project; project=$("${PSQL[@]}" -c "SELECT md5('p3')::uuid")
  declare -gA CASES=(
    ["1 first page"]="limit=50"
    ["2 deep page, offset 500k"]="$(cursor_at 500000)&limit=50"
    ["3 deep page, offset 999k"]="$(cursor_at 999000)&limit=50"
    ["4 kind=inference, first page"]="kind=inference&limit=50"
    ["5 kind=inference, offset 100k"]="kind=inference&$(cursor_at 100000 inference)&limit=50"
    ["6 kind=halt (1 in 2000), first"]="kind=halt&limit=50"
    ["7 kind=halt, offset 400"]="kind=halt&$(cursor_at 400 halt)&limit=50"
    ["8 projectId, first page"]="projectId=$project&limit=50"
    ["9 excludeReads=true, first page"]="excludeReads=true&limit=50"
  )
  # an authenticated warm-up of the page code before anything is measured
  wrk -t 1 -c "$TRAIL_CONNS" -d "${WARMUP}s" -H "Authorization: Bearer $TOKEN" "$BASE/v1/orgs/$ORG/audit-trail?limit=50" >/dev/null
  local names; names=$(sed -n 's/^CREATE INDEX \([a-z_]*\).*/\1/p' "$V20" | paste -sd, -)
  "${PSQL[@]}" -c "DROP INDEX $names; ANALYZE audit_entries"
  trail_round "before: V1 index only"
  local t0; t0=$(ms_now)
  "${PSQL[@]}" -f "$V20" -c "ANALYZE audit_entries"
  echo "V20 indexes built on $TRAIL_ROWS rows in $(( $(ms_now) - t0 )) ms"
  trail_round "after: V20 indexes"
  echo "EXPLAIN ANALYZE of every case: $W/explain.txt"
  [ -n "${KEEP:-}" ] || cat "$W/explain.txt"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

part_launch() {
  echo "== launch: $LAUNCH_RUNS runs each, ms from exec to the first 200 on /health"
  local cold=() warm=() base=() cds=() t saved="$JAVA_OPTS"
  if [ -n "${CDS:-}" ] && [ ! -f "$CDS" ]; then # CDS=file: make the archive once (a start and a stop)
    JAVA_OPTS="$saved -XX:ArchiveClassesAtExit=$CDS"
    start_platform "$W/cds"; wait_health >/dev/null; sleep 2; stop_platform
    JAVA_OPTS="$saved"
  fi
  for i in $(seq 1 "$LAUNCH_RUNS"); do
    t=$(ms_now); java $JAVA_OPTS -jar "$JAR" --version >/dev/null; base+=($(( $(ms_now) - t )))
    rm -rf "$W/launch" "$W/launch.log"
    start_platform "$W/launch"; cold+=("$(wait_health)"); stop_platform; cp "$W/launch.log" "$W/launch-cold.log"
    start_platform "$W/launch"; warm+=("$(wait_health)"); stop_platform; cp "$W/launch.log" "$W/launch-warm.log"
    if [ -n "${CDS:-}" ]; then # the same warm restart with an AppCDS archive of the platform's classes
      JAVA_OPTS="$saved -XX:SharedArchiveFile=$CDS"
      start_platform "$W/launch"; cds+=("$(wait_health)"); stop_platform
      JAVA_OPTS="$saved"
    fi
    echo "run $i: java -jar --version ${base[-1]} ms, cold ${cold[-1]} ms, warm ${warm[-1]} ms${CDS:+, warm+CDS ${cds[-1]} ms} (load $(load))"
  done
  [ -z "${CDS:-}" ] || echo "median warm restart with AppCDS ($CDS): $(printf '%s\n' "${cds[@]}" | median) ms"
  printf 'median: --version %s ms (baseline: JVM and jar only), cold %s ms, warm %s ms\n' \
    "$(printf '%s\n' "${base[@]}" | median)" "$(printf '%s\n' "${cold[@]}" | median)" \
    "$(printf '%s\n' "${warm[@]}" | median)"
  # one more cold and warm start, not counted, logging the steps of zonky, Flyway and Hikari (logback-profile.xml)
  JAVA_OPTS="$JAVA_OPTS -Dlogback.configurationFile=$ROOT/benchmarks/platform/logback-profile.xml"
  rm -rf "$W/launch" "$W/launch.log"
  start_platform "$W/launch"; t=$(wait_health); sleep 1; stop_platform; cp "$W/launch.log" "$W/launch-cold.log"
  start_platform "$W/launch"; t=$(wait_health); sleep 1; stop_platform; cp "$W/launch.log" "$W/launch-warm.log"
  JAVA_OPTS="$saved"
  echo "where the time went, profile run (ms since exec, then the line):"
  for k in cold warm; do echo "  $k:"; sed 's/^/    /' "$W/launch-$k.log" | cut -c1-180; done
}

for part in "${PARTS[@]}"; do
  case "$part" in
    http|trail)
      [ -n "${ORG:-}" ] || setup_platform
      "part_$part" ;;
    launch)
      stop_platform; ORG=
      part_launch ;;
    *) echo "run.sh: unknown part $part (http, trail, launch)" >&2; exit 2 ;;
  esac
done
