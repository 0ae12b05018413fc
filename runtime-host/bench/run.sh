#!/usr/bin/env bash
# Agent runtime benchmark: start-to-ready and webhook intake latency at a fixed rate (open loop).
#   runtime-host/bench/run.sh [rate/s=500] [seconds=30] [warmup seconds=10] [starts=10] [runtime jar]
# The runtime jar defaults to the one just built; pass a copy kept outside target/ to measure another build with
# the same harness (old and new alternating; SKIP_BUILD=1 reuses the classes built before). JAVA_OPTS reaches the
# harness, e.g. a JFR of the runs-executing phase:
#   JAVA_OPTS="-Dbench.jfr.out=/tmp/runs.jfr -Dbench.jfr=profile" runtime-host/bench/run.sh 300 20 5 3
# Builds the runtime jar and the test classes (the provider double and the load generator live there), then runs
# dev.stockade.runtime.bench.RuntimeBenchmark against the jar as a separate process; the harness starts the
# provider double in a third process (dev.stockade.runtime.bench.ProviderProcess; JVM options through
# -Dbench.provider.jvm="...") so that its own JVM only generates the load and measures.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if [[ -z "${SKIP_BUILD:-}" ]]; then
  ./mvnw -q -B -pl runtime-host -am -DskipTests install
  ./mvnw -q -B -pl runtime-host dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
fi
cp="runtime-host/target/test-classes:runtime-host/target/classes:$(cat runtime-host/target/bench.cp)"
exec java ${JAVA_OPTS:-} -cp "$cp" dev.stockade.runtime.bench.RuntimeBenchmark \
  "${5:-runtime-host/target/stockade-runtime.jar}" "${1:-500}" "${2:-30}" "${3:-10}" "${4:-10}"
