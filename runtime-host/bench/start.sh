#!/usr/bin/env bash
# Agent runtime start to ready only, with telemetry export off, on, or both, for one or more runtime jars.
#   runtime-host/bench/start.sh [rounds=10] [off|otlp|both=both] [runtime jar ...=runtime-host/target/stockade-runtime.jar]
# Builds the runtime jar and the test classes of this module (the provider double, the collector stand-in and
# the harness live there; SKIP_BUILD=1 reuses them), then runs dev.stockade.runtime.bench.StartBenchmark.
# Pass several jars (builds of earlier commits kept aside) to compare them start for start, interleaved.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if [[ -z "${SKIP_BUILD:-}" ]]; then
  ./mvnw -q -B -pl runtime-host -DskipTests package
  ./mvnw -q -B -pl runtime-host test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/bench.cp
fi
cp="runtime-host/target/test-classes:runtime-host/target/classes:$(cat runtime-host/target/bench.cp)"
rounds="${1:-10}"
modes="${2:-both}"
shift $(( $# < 2 ? $# : 2 ))
jars=("$@")
[[ ${#jars[@]} -gt 0 ]] || jars=(runtime-host/target/stockade-runtime.jar)
exec java -cp "$cp" dev.stockade.runtime.bench.StartBenchmark "$rounds" "$modes" "${jars[@]}"
