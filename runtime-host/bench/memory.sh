#!/usr/bin/env bash
# Memory search benchmark: N entries in a real SQLite file, full text alone and fused with vectors.
#   runtime-host/bench/memory.sh [entries=100000] [queries=200]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
./mvnw -q -B -pl runtime-host -am -DskipTests install
./mvnw -q -B -pl runtime-host dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
exec java -Xmx3g -cp "runtime-host/target/test-classes:runtime-host/target/classes:$(cat runtime-host/target/bench.cp)" \
  dev.stockade.runtime.bench.MemoryBenchmark "${1:-100000}" "${2:-200}"
