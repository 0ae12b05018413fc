#!/usr/bin/env bash
# Agent runtime benchmark: start-to-ready and webhook intake latency at a fixed rate (open loop).
#   runtime-host/bench/run.sh [rate/s=500] [seconds=30] [warmup seconds=10] [starts=10]
# Builds the runtime jar and the test classes (the provider double and the load generator live there),
# then runs dev.stockade.runtime.bench.RuntimeBenchmark against the jar as a separate process.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
./mvnw -q -B -pl runtime-host -am -DskipTests install
./mvnw -q -B -pl runtime-host dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
cp="runtime-host/target/test-classes:runtime-host/target/classes:$(cat runtime-host/target/bench.cp)"
exec java -cp "$cp" dev.stockade.runtime.bench.RuntimeBenchmark runtime-host/target/stockade-runtime.jar \
  "${1:-500}" "${2:-30}" "${3:-10}" "${4:-10}"
