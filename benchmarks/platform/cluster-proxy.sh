#!/usr/bin/env bash
# The cluster proxy's cost, on loopback, with its baseline in the same run: wrk against GET /health (no auth, no
# database) and against GET /v1/clusters/{id}/proxy/health with a sandbox's cluster JWT, for a cluster whose API
# server URL is this same platform. A proxied request is: cluster-JWT verification, the authorization table, the
# halt check, a request JWT signed with the project key (ES256), the SSRF guard, the forward (JDK client), the
# streamed answer and an audit entry; the forwarded /health itself is the baseline's work.
#
# Usage: benchmarks/platform/cluster-proxy.sh
#   env: SECS=15 WARMUP=10 CONNS=16 THREADS=2 PORT=18481 JAR=api-host/target/stockade-platform.jar JAVA_OPTS=...
# Needs wrk, curl and jq. Builds the jar when absent. Everything runs in a temp dir; the platform is stopped on exit.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SECS=${SECS:-15} WARMUP=${WARMUP:-10} CONNS=${CONNS:-16} THREADS=${THREADS:-2} PORT=${PORT:-18481}
JAR="${JAR:-$ROOT/api-host/target/stockade-platform.jar}"
BASE="http://127.0.0.1:$PORT"
JAVA_OPTS=${JAVA_OPTS:-}

for tool in wrk curl jq java; do
  command -v "$tool" >/dev/null || { echo "cluster-proxy.sh: $tool is missing" >&2; exit 2; }
done
[ -f "$JAR" ] || (cd "$ROOT" && ./mvnw -q -B -pl api-host -am package -DskipTests)

W="$(mktemp -d /tmp/stockade-clusterbench.XXXXXX)"
PLATFORM_PID=
cleanup() {
  if [ -n "$PLATFORM_PID" ]; then kill -TERM "$PLATFORM_PID" 2>/dev/null || true; wait "$PLATFORM_PID" 2>/dev/null || true; fi
  rm -rf "$W"
}
trap cleanup EXIT INT TERM

# the platform may dial itself here: loopback and plain http are allowed for this run only
cat > "$W/config.yaml" <<'YAML'
clusters:
  allow-loopback-unsafe: true
  allow-plain-http: true
YAML
# shellcheck disable=SC2086
java $JAVA_OPTS -jar "$JAR" --dev-hub --data-dir "$W/data" --port "$PORT" --config "$W/config.yaml" \
  > "$W/platform.log" 2>&1 &
PLATFORM_PID=$!
for _ in $(seq 1 600); do
  [ "$(curl -sf "$BASE/v1/installation" | jq -r .enrolled 2>/dev/null)" = true ] && break
  kill -0 "$PLATFORM_PID" 2>/dev/null || { cat "$W/platform.log" >&2; exit 1; }
  sleep 0.2
done

api() { # api METHOD PATH TOKEN [JSON]
  curl -sf -X "$1" -H "Authorization: Bearer $3" -H 'Content-Type: application/json' ${4:+-d "$4"} "$BASE$2"
}
OWNER=$(cat "$W/data/owner-token")
ORG=$(api POST /v1/orgs "$OWNER" '{"name":"bench"}' | jq -r .id)
PROJECT=$(api POST "/v1/orgs/$ORG/projects" "$OWNER" '{"name":"p"}' | jq -r .id)
CLUSTER=$(api POST "/v1/projects/$PROJECT/clusters" "$OWNER" "{\"name\":\"self\",\"apiServerUrl\":\"$BASE\"}" | jq -r .id)
SANDBOX=$(api POST "/v1/projects/$PROJECT/sandbox-tokens" "$OWNER" '{"name":"s"}' | jq -r .token)
CLUSTER_TOKEN=$(api POST /v1/auth/cluster-token "$SANDBOX" | jq -r .token) # 15 minutes: longer than the run
PROXIED="/v1/clusters/$CLUSTER/proxy/health"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $CLUSTER_TOKEN" "$BASE$PROXIED")" = 200 ] \
  || { echo "the proxied request does not answer 200" >&2; exit 1; }

row() { # row NAME PATH TOKEN
  local out
  out=$(wrk -t "$THREADS" -c "$CONNS" -d "${SECS}s" --latency ${3:+-H "Authorization: Bearer $3"} "$BASE$2")
  printf '%-44s %10s %10s %10s %8s %6s\n' "$1" "$(awk '/^Requests\/sec/ {print $2}' <<<"$out")" \
    "$(awk '$1=="50%" {print $2}' <<<"$out")" "$(awk '$1=="99%" {print $2}' <<<"$out")" \
    "$(awk '/Non-2xx/ {print $NF}' <<<"$out" | grep . || echo 0)" "$(cut -d' ' -f1 /proc/loadavg)"
}

echo "== wrk -t $THREADS -c $CONNS -d ${SECS}s --latency (after ${WARMUP}s of warm-up on each path); $(nproc) cores"
wrk -t "$THREADS" -c "$CONNS" -d "${WARMUP}s" "$BASE/health" >/dev/null
wrk -t "$THREADS" -c "$CONNS" -d "${WARMUP}s" -H "Authorization: Bearer $CLUSTER_TOKEN" "$BASE$PROXIED" >/dev/null
printf '%-44s %10s %10s %10s %8s %6s\n' path req/s p50 p99 non-2xx load
row "GET /health (baseline)" /health ""
row "GET /v1/clusters/{id}/proxy/health" "$PROXIED" "$CLUSTER_TOKEN"
row "GET /health (baseline, again)" /health ""
