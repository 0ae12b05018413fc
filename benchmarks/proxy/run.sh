#!/usr/bin/env bash
# Egress-proxy speed benchmark, loopback only: bulk download, small-request rate and latency, idle
# tunnel memory; Stockade (direct, passthrough, intercepted) side by side with Squid and tinyproxy.
# Usage: benchmarks/proxy/run.sh
#   env: SECS=10 WARMUP=2 CONNS=8 ROUNDS=2 BIG_MB=100 IDLE_COUNT=10000 IDLE_HOLD=10 IDLE_OPEN_SECONDS=150
#        IDLE_PATHS="intercepted passthrough squid" WARMUP_SECS=20 WARMUP_CONNECT_SECS=5 WARMUP_BULK=10 KEEP=1 (keep the temp dir) BUILD=1
#        MATRIX=bulk (each round: only the bulk downloads) JAR=path (another proxy build) PORT_OFFSET=N
#        MATRIX=tunnel (each round: only direct, passthrough and Squid's tunnel, back to back; the summary
#        adds the medians over the rounds and the median of each round's passthrough/direct ratio)
#        MATRIX=latency (each round: small HTTPS requests at one fixed rate, LAT_RATE=2000 per second, open
#        loop: direct, through passthrough and through Squid's tunnel; for the added-p99 target)
#        MATRIX=connect (each round: CONNECT_SAMPLES=100 new HTTPS connections per path, interleaved
#        direct / passthrough / Squid's tunnel; p25, median, p75 of curl's time to TLS established)
#        INTERCEPT_ONLY=1 (rate rows: stockade intercepted, squid ssl-bump, stockade http forward)
#        PROXY_ARGS="--passthrough-io nio" (more proxy options) PROXY_JAVA_OPTS=... (JVM options)
#   e.g. only the idle-tunnel test, given time to open all 10,000:
#        ROUNDS=0 IDLE_PATHS=intercepted IDLE_OPEN_SECONDS=1800 benchmarks/proxy/run.sh
# Everything runs in a temp dir, every process started here is stopped on exit (trap).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SECS=${SECS:-10}            # seconds per rate measurement
WARMUP=${WARMUP:-2}         # seconds of warm-up before each rate measurement (not counted)
CONNS=${CONNS:-8}           # concurrent connections for the rate tests
ROUNDS=${ROUNDS:-2}         # the bulk and rate matrix runs this many times
IDLE_COUNT=${IDLE_COUNT:-10000}
IDLE_HOLD=${IDLE_HOLD:-10}  # seconds the idle tunnels are held
IDLE_OPEN_SECONDS=${IDLE_OPEN_SECONDS:-150}  # bound on opening them (Stockade opens ~15/s here, see docs)
BIG_MB=${BIG_MB:-100}
O=${PORT_OFFSET:-0}   # PORT_OFFSET=N: shift every port, so two runs on one machine do not collide
ORIGIN_HTTP=$((18080 + O)) ORIGIN_HTTPS=$((18443 + O)) PROXY=$((13128 + O)) PASS=$((13129 + O))
SQUID=$((13130 + O)) SQUID_BUMP=$((13131 + O)) TINY=$((13132 + O))
JAR="${JAR:-$ROOT/proxy-host/target/stockade-proxy.jar}"   # JAR=...: measure another build
LOAD="$ROOT/benchmarks/src/main/java/dev/stockade/bench/proxy/ProxyLoad.java"

# ---- tools ---------------------------------------------------------------------------------------
need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || need+=(nginx)
command -v tinyproxy >/dev/null || need+=(tinyproxy)
command -v openssl >/dev/null || need+=(openssl)
command -v curl >/dev/null || need+=(curl)
# ssl-bump (the interception peer) needs Debian's OpenSSL build of Squid
if ! command -v squid >/dev/null || ! squid -v | grep -q -- '--with-openssl'; then need+=(squid-openssl); fi
if ((${#need[@]})); then
  echo "installing: ${need[*]}" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ! -f "$JAR" ] || [ -n "${BUILD:-}" ]; then
  (cd "$ROOT" && ./mvnw -q -B -o -pl proxy-host -am install -DskipTests)
fi
# the idle-tunnel test needs ~IDLE_COUNT descriptors in the proxy (twice that for spliced tunnels)
ulimit -n 200000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
NOFILE=$(ulimit -n)

W="$(mktemp -d /tmp/stockade-proxybench.XXXXXX)"
chmod 755 "$W"   # nginx workers and squid drop to unprivileged users and read from here
PIDS=()
cleanup() {
  trap - EXIT INT TERM
  for p in "${PIDS[@]}"; do kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
  sleep 0.5
  for p in "${PIDS[@]}"; do kill -9 -- -"$p" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] && echo "kept $W" >&2 || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM   # exit runs the EXIT trap once
# each server in its own process group (setsid) so cleanup stops it and its helpers by id
start() { local name=$1; shift; setsid "$@" >"$W/$name.out" 2>&1 & PIDS+=($!); echo $! >"$W/$name.spid"; }
wait_port() {
  for _ in $(seq 1 150); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.2; done
  echo "port $1 never opened" >&2; cat "$W"/*.out >&2; exit 1
}

# ---- certificates and origin ----------------------------------------------------------------------
cd "$W"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=proxybench test CA" \
  -keyout ca-key.pem -out ca.pem 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
  -keyout origin-key.pem -out origin.csr 2>/dev/null
printf 'subjectAltName=DNS:localhost,DNS:origin.test,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >ext.cnf
openssl x509 -req -in origin.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -extfile ext.cnf \
  -out origin.pem 2>/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=squid bump CA" \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
  -keyout squid-ca-key.pem -out squid-ca.pem 2>/dev/null
chmod 644 ./*.pem
mkdir -p www nginx-tmp
head -c $((BIG_MB * 1024 * 1024)) /dev/urandom >www/big
chmod -R a+rX www

cat >nginx.conf <<EOF
worker_processes 1;
daemon off;
pid $W/nginx.pid;
error_log $W/nginx-error.log warn;
worker_rlimit_nofile 100000;
events { worker_connections 40000; }
http {
  access_log off;
  sendfile on; tcp_nodelay on;
  keepalive_requests 10000000; keepalive_timeout 1h;
  client_header_timeout 1h;  # idle tunnels reach the origin without a request: nginx must not close them
  client_body_temp_path $W/nginx-tmp; proxy_temp_path $W/nginx-tmp; fastcgi_temp_path $W/nginx-tmp;
  uwsgi_temp_path $W/nginx-tmp; scgi_temp_path $W/nginx-tmp;
  server {
    listen 127.0.0.1:$ORIGIN_HTTP;
    listen 127.0.0.1:$ORIGIN_HTTPS ssl;
    ssl_certificate $W/origin.pem; ssl_certificate_key $W/origin-key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    root $W/www;
    location = /tiny { default_type text/plain; return 200 "ok\n"; }
  }
}
EOF
start nginx nginx -c "$W/nginx.conf" -p "$W"

# ---- Stockade ---------------------------------------------------------------------------------------
cat >policy.yaml <<'EOF'
name: bench
networkDefaultVerdict: deny
allowedDomains:
  - pattern: origin.test
    verdict: allow
    transport: upstream
  - pattern: localhost
    verdict: allow
    transport: direct
EOF
start stockade java ${PROXY_JAVA_OPTS:-} -jar "$JAR" --policy "$W/policy.yaml" --no-watch \
  --port $PROXY --passthrough-port $PASS --passthrough-tls-origin-port $ORIGIN_HTTPS \
  --passthrough-http-origin-port $ORIGIN_HTTP --data-dir "$W/stockade" --audit "$W/audit.log" \
  --extra-trust "$W/ca.pem" --resolve origin.test=127.0.0.1 --resolve localhost=127.0.0.1 \
  --unsafe-allow-loopback-origins --idle-timeout "${PROXY_IDLE_TIMEOUT:-3600}" \
  --request-head-timeout "${PROXY_IDLE_TIMEOUT:-3600}" ${PROXY_ARGS:-}
# (the default 300 s idle timeout would close the first idle tunnels while the last are still opening,
# and the default 30 s request-head timeout closes an intercepted tunnel that sends no request)
STOCKADE_PID=$(cat stockade.spid)

# ---- peers: Squid (plain forward + CONNECT tunnel on one port, ssl-bump on another), tinyproxy -----
printf '127.0.0.1 origin.test localhost\n' >hosts
/usr/lib/squid/security_file_certgen -c -s "$W/squid-ssl-db" -M 16MB >/dev/null
chown -R proxy "$W/squid-ssl-db"
touch squid-access.log squid-cache.log tinyproxy.log && chown proxy squid-access.log squid-cache.log && chmod 666 tinyproxy.log
cat >squid.conf <<EOF
http_port 127.0.0.1:$SQUID
http_port 127.0.0.1:$SQUID_BUMP ssl-bump cert=$W/squid-ca.pem key=$W/squid-ca-key.pem generate-host-certificates=on dynamic_cert_mem_cache_size=16MB
sslcrtd_program /usr/lib/squid/security_file_certgen -s $W/squid-ssl-db -M 16MB
sslcrtd_children 4 startup=1 idle=1
acl step1 at_step SslBump1
ssl_bump peek step1
ssl_bump bump all
tls_outgoing_options cafile=$W/ca.pem
http_access allow all
cache deny all
cache_mem 8 MB
access_log stdio:$W/squid-access.log
cache_log $W/squid-cache.log
pid_filename $W/squid.pid
hosts_file $W/hosts
shutdown_lifetime 0 seconds
coredump_dir $W
cache_effective_user proxy
max_filedescriptors 100000
pinger_enable off
netdb_filename none
EOF
start squid squid -N -f "$W/squid.conf"
cat >tinyproxy.conf <<EOF
User nobody
Group nogroup
Port $TINY
Listen 127.0.0.1
Timeout 600
LogFile "$W/tinyproxy.log"
LogLevel Connect
MaxClients 1000
Allow 127.0.0.1
ConnectPort $ORIGIN_HTTPS
DisableViaHeader Yes
EOF
start tinyproxy tinyproxy -d -c "$W/tinyproxy.conf"
for p in $ORIGIN_HTTP $ORIGIN_HTTPS $PROXY $PASS $SQUID $SQUID_BUMP $TINY; do wait_port "$p"; done
STOCKADE_CA="$W/stockade/ca.pem"
SQUID_PID=$(cat squid.spid) TINY_PID=$(cat tinyproxy.spid)

# ---- measurements ---------------------------------------------------------------------------------
RES="$W/results.tsv"
printf 'round\ttest\tpath\tresult\tload(1m)\n' >"$RES"
load() { cut -d' ' -f1 /proc/loadavg; }
# CPU seconds (user+system) a process used: the proxy's own cost per MB or per request, which the
# shared machine's load disturbs far less than throughput does
TCK=$(getconf CLK_TCK)
cpu() { [ -n "${1:-}" ] && awk '{print $14+$15}' "/proc/$1/stat" || echo 0; }
SERVER=""  # pid whose CPU a measurement reports (empty: direct, nothing in between)
cpudelta() { [ -n "$SERVER" ] && awk -v a="$1" -v b="$(cpu "$SERVER")" -v t="$TCK" 'BEGIN{printf " proxyCPU=%.2fs", (b-a)/t}' || true; }
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$(load)" | tee -a "$RES"; }

bulk() { # round label curl-args...
  local r=$1 label=$2; shift 2
  local out c0; c0=$(cpu "$SERVER")
  out=$(curl -s -o /dev/null --max-time 120 -w '%{http_code} %{speed_download} %{size_download}' "$@") || true
  read -r code speed size <<<"$out"
  if [ "$code" = 200 ] && [ "$size" = $((BIG_MB * 1024 * 1024)) ]; then
    row "$r" bulk "$label" "$(awk -v s="$speed" 'BEGIN{printf "%.0f MB/s", s/1048576}')$(cpudelta "$c0")"
  else
    row "$r" bulk "$label" "FAILED ($out)"
  fi
}

jload() { # round label ProxyLoad-rate-args...
  local r=$1 label=$2; shift 2
  local out c0; c0=$(cpu "$SERVER")
  out=$(java -Xmx512m "$LOAD" rate --conns "$CONNS" --seconds "$SECS" --warmup "$WARMUP" --path /tiny "$@" 2>"$W/jload.err") \
    || out="FAILED $(head -c 300 "$W/jload.err")"
  [ -s "$W/jload.err" ] && head -3 "$W/jload.err" >&2
  row "$r" "rate/java" "$label" "$(sed -E 's/ p999_us=[0-9]+//; s/ requests=[0-9]+//' <<<"$out")$(cpudelta "$c0")"
}

wrkrun() { # round label wrk-args...
  local r=$1 label=$2; shift 2
  local out rps p50 p90 p99 errs c0; c0=$(cpu "$SERVER")
  out=$(wrk -t 2 -c "$CONNS" -d "${SECS}s" --latency "$@" 2>&1) || true
  rps=$(awk '/Requests\/sec/{print $2}' <<<"$out")
  p50=$(awk '$1=="50%"{print $2}' <<<"$out"); p90=$(awk '$1=="90%"{print $2}' <<<"$out"); p99=$(awk '$1=="99%"{print $2}' <<<"$out")
  errs=$(awk '/Non-2xx|Socket errors/{printf "%s ", $0}' <<<"$out")
  row "$r" "rate/wrk" "$label" "rps=${rps%.*} p50=$p50 p90=$p90 p99=$p99 ${errs}$(cpudelta "$c0")"
}

connects() { # round: time to TLS established for new connections, the three paths interleaved
  local r=$1 out="$W/connect-$1.txt"
  : >"$out"
  for _ in $(seq 1 "${CONNECT_SAMPLES:-100}"); do
    echo "direct $(curl -s -o /dev/null -r 0-0 --cacert ca.pem -w '%{time_appconnect}' "https://localhost:$ORIGIN_HTTPS/big")" >>"$out"
    echo "passthrough $(curl -s -o /dev/null -r 0-0 --cacert ca.pem -w '%{time_appconnect}' "https://localhost:$PASS/big")" >>"$out"
    echo "squid $(curl -s -o /dev/null -r 0-0 -x "http://127.0.0.1:$SQUID" --cacert ca.pem -w '%{time_appconnect}' "https://localhost:$ORIGIN_HTTPS/big")" >>"$out"
  done
  for k in direct passthrough squid; do
    row "$r" connect "$k https" "$(awk -v k="$k" '$1 == k {print $2 * 1000}' "$out" | sort -n | awk '{a[NR] = $1}
      END {printf "p25=%.2fms median=%.2fms p75=%.2fms n=%d", a[int(NR / 4) + 1], a[int(NR / 2) + 1], a[int(NR * 3 / 4) + 1], NR}')"
  done
}

cat >abs.lua <<'EOF'
-- absolute-form requests for a forward proxy: wrk connects to the proxy, the target is in the path
wrk.path = os.getenv("ABS_URL")
wrk.headers["Host"] = os.getenv("ABS_HOST")
EOF

echo "== machine: $(nproc) cores; open-files limit $NOFILE; $(uptime)" | tee "$W/machine.txt"
# warm-up, not recorded: the proxy is a long-running JVM, so its JIT compiles the TLS, splice and
# HTTP paths first (a cold first transfer spends seconds of CPU in the compiler)
echo "== warm-up (${WARMUP_SECS:=20}s of Stockade traffic and ${WARMUP_CONNECT_SECS:=$((WARMUP_SECS / 4))}s of new passthrough connections, not recorded)"
# (WARMUP_BULK downloads per path: the kernel-splice path is only reached by bulk transfers, and C2 is
# still compiling it after a handful of them)
for _ in $(seq 1 "${WARMUP_BULK:-10}"); do
  curl -s -o /dev/null --cacert ca.pem "https://localhost:$PASS/big" || true
  curl -s -o /dev/null -x "http://127.0.0.1:$PROXY" --cacert "$STOCKADE_CA" "https://origin.test:$ORIGIN_HTTPS/big" || true
done
java -Xmx512m "$LOAD" rate --conns "$CONNS" --seconds $((WARMUP_SECS / 4)) --warmup 0 --path /tiny --connect 127.0.0.1:$PASS --tls --trust ca.pem --host localhost >/dev/null 2>&1 || true
java -Xmx512m "$LOAD" rate --conns "$CONNS" --seconds $((WARMUP_SECS / 4)) --warmup 0 --path /tiny --proxy 127.0.0.1:$PROXY --tls --trust "$STOCKADE_CA" --host origin.test:$ORIGIN_HTTPS >/dev/null 2>&1 || true
wrk -t 2 -c "$CONNS" -d $((WARMUP_SECS / 4))s "https://localhost:$PASS/tiny" >/dev/null 2>&1 || true
# new passthrough connections, one request each: the per-connection code (accept, ClientHello, caller
# lookup, decision, dial, audit) runs once per connection, so the keep-alive loads above leave it to
# the interpreter and C1, and C2 would still be compiling it during the measured rounds (seen as
# 40-50 ms of compiler CPU per measured bulk download; a few tens of thousands of connections settle it)
wrk -t 1 -c 4 -d "${WARMUP_CONNECT_SECS}s" -H "Connection: close" "https://localhost:$PASS/tiny" >/dev/null 2>&1 || true
ABS_URL="http://origin.test:$ORIGIN_HTTP/tiny" ABS_HOST="origin.test:$ORIGIN_HTTP" \
  wrk -t 2 -c "$CONNS" -d $((WARMUP_SECS / 4))s -s abs.lua "http://127.0.0.1:$PROXY" >/dev/null 2>&1 || true
for r in $(seq 1 "$ROUNDS"); do
  echo "== round $r: $(uptime)"
  if [ -n "${INTERCEPT_ONLY:-}" ]; then  # only the intercepted small-request rows and their peer
    SERVER=$STOCKADE_PID; jload "$r" "stockade intercepted (CONNECT+MITM)" --proxy 127.0.0.1:$PROXY --tls --trust "$STOCKADE_CA" --host origin.test:$ORIGIN_HTTPS
    SERVER=$SQUID_PID; jload "$r" "squid ssl-bump (MITM)" --proxy 127.0.0.1:$SQUID_BUMP --tls --trust squid-ca.pem --host origin.test:$ORIGIN_HTTPS
    SERVER=$STOCKADE_PID; ABS_URL="http://origin.test:$ORIGIN_HTTP/tiny" ABS_HOST="origin.test:$ORIGIN_HTTP" \
      wrkrun "$r" "stockade http forward" -s abs.lua "http://127.0.0.1:$PROXY"
    continue
  fi
  if [ "${MATRIX:-all}" = connect ]; then
    connects "$r"
    continue
  fi
  # bulk download, HTTPS, $BIG_MB MB
  SERVER=""; bulk "$r" "direct https" --cacert ca.pem "https://localhost:$ORIGIN_HTTPS/big"
  SERVER=$STOCKADE_PID; bulk "$r" "stockade passthrough (SNI port)" --cacert ca.pem "https://localhost:$PASS/big"
  if [ "${MATRIX:-all}" = latency ]; then
    # added latency at one fixed request rate (open loop, latency from when each request was due), so
    # direct and passthrough are compared under the same load rather than each at its own maximum
    SERVER=""; jload "$r" "direct https @${LAT_RATE:-2000}/s" --rate "${LAT_RATE:-2000}" --connect 127.0.0.1:$ORIGIN_HTTPS --tls --trust ca.pem --host localhost
    SERVER=$STOCKADE_PID; jload "$r" "stockade passthrough @${LAT_RATE:-2000}/s" --rate "${LAT_RATE:-2000}" --connect 127.0.0.1:$PASS --tls --trust ca.pem --host localhost
    SERVER=$SQUID_PID; jload "$r" "squid CONNECT tunnel @${LAT_RATE:-2000}/s" --rate "${LAT_RATE:-2000}" --proxy 127.0.0.1:$SQUID --tls --trust ca.pem --host 127.0.0.1:$ORIGIN_HTTPS --sni localhost
    continue
  fi
  if [ "${MATRIX:-all}" = tunnel ]; then
    SERVER=$SQUID_PID; bulk "$r" "squid CONNECT tunnel" -x "http://127.0.0.1:$SQUID" --cacert ca.pem "https://localhost:$ORIGIN_HTTPS/big"
    continue
  fi
  bulk "$r" "stockade intercepted (CONNECT+MITM)" -x "http://127.0.0.1:$PROXY" --cacert "$STOCKADE_CA" "https://origin.test:$ORIGIN_HTTPS/big"
  SERVER=$SQUID_PID; bulk "$r" "squid CONNECT tunnel" -x "http://127.0.0.1:$SQUID" --cacert ca.pem "https://localhost:$ORIGIN_HTTPS/big"
  bulk "$r" "squid ssl-bump (MITM)" -x "http://127.0.0.1:$SQUID_BUMP" --cacert squid-ca.pem "https://origin.test:$ORIGIN_HTTPS/big"
  SERVER=$TINY_PID; bulk "$r" "tinyproxy CONNECT tunnel" -x "http://127.0.0.1:$TINY" --cacert ca.pem "https://127.0.0.1:$ORIGIN_HTTPS/big"
  [ "${MATRIX:-all}" = bulk ] && continue

  # small HTTPS requests, persistent connections, same Java client for every path
  SERVER=""; jload "$r" "direct https" --connect 127.0.0.1:$ORIGIN_HTTPS --tls --trust ca.pem --host localhost
  SERVER=$STOCKADE_PID; jload "$r" "stockade passthrough (SNI port)" --connect 127.0.0.1:$PASS --tls --trust ca.pem --host localhost
  jload "$r" "stockade intercepted (CONNECT+MITM)" --proxy 127.0.0.1:$PROXY --tls --trust "$STOCKADE_CA" --host origin.test:$ORIGIN_HTTPS
  SERVER=$SQUID_PID; jload "$r" "squid CONNECT tunnel" --proxy 127.0.0.1:$SQUID --tls --trust ca.pem --host 127.0.0.1:$ORIGIN_HTTPS --sni localhost
  jload "$r" "squid ssl-bump (MITM)" --proxy 127.0.0.1:$SQUID_BUMP --tls --trust squid-ca.pem --host origin.test:$ORIGIN_HTTPS
  SERVER=$TINY_PID; jload "$r" "tinyproxy CONNECT tunnel" --proxy 127.0.0.1:$TINY --tls --trust ca.pem --host 127.0.0.1:$ORIGIN_HTTPS --sni localhost

  # small requests with wrk: HTTPS direct vs passthrough; plain HTTP direct vs forward proxies
  SERVER=""; wrkrun "$r" "direct https" "https://localhost:$ORIGIN_HTTPS/tiny"
  SERVER=$STOCKADE_PID; wrkrun "$r" "stockade passthrough (SNI port)" "https://localhost:$PASS/tiny"
  SERVER=""; wrkrun "$r" "direct http" "http://127.0.0.1:$ORIGIN_HTTP/tiny"
  SERVER=$STOCKADE_PID; wrkrun "$r" "stockade passthrough-http (Host)" -H "Host: localhost" "http://127.0.0.1:$PASS/tiny"
  SERVER=$STOCKADE_PID; ABS_URL="http://origin.test:$ORIGIN_HTTP/tiny" ABS_HOST="origin.test:$ORIGIN_HTTP" \
    wrkrun "$r" "stockade http forward" -s abs.lua "http://127.0.0.1:$PROXY"
  SERVER=$SQUID_PID; ABS_URL="http://origin.test:$ORIGIN_HTTP/tiny" ABS_HOST="origin.test:$ORIGIN_HTTP" \
    wrkrun "$r" "squid http forward" -s abs.lua "http://127.0.0.1:$SQUID"
  SERVER=$TINY_PID; ABS_URL="http://127.0.0.1:$ORIGIN_HTTP/tiny" ABS_HOST="127.0.0.1:$ORIGIN_HTTP" \
    wrkrun "$r" "tinyproxy http forward" -s abs.lua "http://127.0.0.1:$TINY"
done

# ---- idle tunnels: RSS of the proxy process while IDLE_COUNT tunnels sit idle -----------------------
rss() { awk '/VmRSS/{printf "%.0f MiB", $2/1024}' "/proc/$1/status"; }
idle() { # label pid ProxyLoad-idle-args...
  local label=$1 pid=$2; shift 2
  local before; before=$(rss "$pid")
  java -Xmx3g "$LOAD" idle --count "$IDLE_COUNT" --threads 16 --hold "$IDLE_HOLD" --open-seconds "$IDLE_OPEN_SECONDS" "$@" >"$W/idle.out" 2>"$W/idle.err" &
  local cpid=$!
  for _ in $(seq 1 $((IDLE_OPEN_SECONDS * 2 + 1200))); do grep -q holding "$W/idle.out" 2>/dev/null && break; kill -0 $cpid 2>/dev/null || break; sleep 0.5; done
  sleep 2
  local during; during=$(rss "$pid")
  local fds; fds=$(ls "/proc/$pid/fd" | wc -l)   # how many tunnels the proxy really holds now
  # a JVM's RSS holds garbage until a collection: also read it after a full GC (live tunnels only)
  local aftergc=""
  if jcmd "$pid" GC.run >/dev/null 2>&1; then sleep 1; aftergc=" afterGC=$(rss "$pid")"; fi
  local held; held=$(grep holding "$W/idle.out" || echo "client failed: $(head -c 200 "$W/idle.err")")
  wait $cpid || true
  row idle "$IDLE_COUNT idle tunnels" "$label" "VmRSS before=$before held=$during$aftergc proxyFDs=$fds ($held; $(grep released "$W/idle.out" || true))"
}
IDLE_PATHS=${IDLE_PATHS:-intercepted passthrough squid}   # which idle-tunnel tests run
want() { [[ " $IDLE_PATHS " == *" $1 "* ]]; }
want intercepted && idle "stockade intercepted (CONNECT+TLS done)" "$STOCKADE_PID" --proxy 127.0.0.1:$PROXY --tls --trust "$STOCKADE_CA" --host origin.test:$ORIGIN_HTTPS
# a spliced tunnel holds two descriptors in the proxy: stay under the descriptor limit
PASS_IDLE=$(( IDLE_COUNT * 2 + 500 > NOFILE ? (NOFILE - 500) / 2 : IDLE_COUNT ))
want passthrough && IDLE_COUNT=$PASS_IDLE idle "stockade passthrough (TLS spliced)" "$STOCKADE_PID" --connect 127.0.0.1:$PASS --tls --trust ca.pem --host localhost
want squid && idle "squid CONNECT tunnel (TLS done)" "$SQUID_PID" --proxy 127.0.0.1:$SQUID --tls --trust ca.pem --host 127.0.0.1:$ORIGIN_HTTPS --sni localhost

echo
echo "== summary ($(nproc) cores; conns=$CONNS; ${SECS}s per rate figure after ${WARMUP}s warm-up; ${BIG_MB} MB bulk)"
column -t -s $'\t' "$RES"
if [ "${MATRIX:-all}" = tunnel ]; then
  # medians over the rounds, and the median of the per-round ratios to direct (drift between rounds cancels)
  awk -F'\t' '$2 == "bulk" && $4 ~ /MB\/s/ { split($4, v, " "); speed[$3, $1] = v[1]; paths[$3] = 1; rounds[$1] = 1
      if (match($4, /proxyCPU=[0-9.]+/)) cpu[$3, $1] = substr($4, RSTART + 9, RLENGTH - 9) }
    function median(a, n,   i, j, t) {  # insertion sort, mawk has no asort
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END {
      d = "direct https"
      for (p in paths) { if (p == d) continue; n = 0; split("", s); split("", q); split("", ds); split("", c)
        for (r in rounds) if (((p, r) in speed) && ((d, r) in speed)) { n++; s[n] = speed[p, r]; ds[n] = speed[d, r]; q[n] = speed[p, r] / speed[d, r]; c[n] = cpu[p, r] + 0 }
        if (n) printf "median over %d rounds: %s %.0f MB/s, direct %.0f MB/s; median per-round ratio %.0f%%; median proxy CPU %.2fs\n", n, p, median(s, n), median(ds, n), 100 * median(q, n), median(c, n) }
    }' "$RES"
fi
