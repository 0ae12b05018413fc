#!/usr/bin/env sh
# Reproduces docs/benchmarks.md: builds benchmarks.jar and runs every benchmark with the GC profiler.
# Extra arguments go to JMH, e.g. `benchmarks/run.sh -f 1 -wi 2 -i 3 -w 1s -r 1s` (the recorded run)
# or `benchmarks/run.sh DomainDecision -p size=10000`.
set -eu
cd "$(dirname "$0")/.."
./mvnw -q -B -pl benchmarks -am package -DskipTests
exec java -jar benchmarks/target/benchmarks.jar -prof gc -rf json -rff benchmarks/target/jmh-result.json "$@"
