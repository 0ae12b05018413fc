#!/usr/bin/env bash
# Keycloak, a real external OpenID Connect provider for KeycloakSignInTest: the official distribution from Maven
# Central (org.keycloak:keycloak-quarkus-dist), checked against Central's SHA-1 and unpacked once into the cache
# (~/.cache/stockade, or STOCKADE_CACHE). Keycloak 26 runs on Java 21 or later: the test looks for one in
# /usr/lib/jvm (or STOCKADE_KEYCLOAK_JAVA).
set -euo pipefail
VERSION=26.7.3
CACHE="${STOCKADE_CACHE:-$HOME/.cache/stockade}"
HOME_DIR="$CACHE/keycloak-$VERSION"
STAMP="$HOME_DIR/.stockade-built"
[ -f "$STAMP" ] && { echo "$HOME_DIR"; exit 0; }
mkdir -p "$CACHE"
URL="https://repo1.maven.org/maven2/org/keycloak/keycloak-quarkus-dist/$VERSION/keycloak-quarkus-dist-$VERSION.tar.gz"
TAR="$CACHE/keycloak-quarkus-dist-$VERSION.tar.gz"
if [ ! -f "$TAR" ]; then
  curl -sfL -o "$TAR.part" "$URL"
  mv "$TAR.part" "$TAR"
fi
want=$(curl -sfL "$URL.sha1" | cut -c1-40)
have=$(sha1sum "$TAR" | cut -c1-40)
[ "$want" = "$have" ] || { echo "keycloak: checksum mismatch ($have, Central says $want)" >&2; rm -f "$TAR"; exit 1; }
tmp=$(mktemp -d "$CACHE/keycloak.XXXXXX")
tar xzf "$TAR" -C "$tmp"
# Keycloak builds itself for its configuration before it serves (a minute or more); build once here, for the
# in-memory database the test uses, so each test starts the optimized server.
java=""
for jdk in /usr/lib/jvm/*; do
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release" 2>/dev/null || true)
  if [ -n "$v" ] && [ "$v" -ge 21 ] && [ -x "$jdk/bin/java" ]; then java="$jdk"; fi
done
[ -n "${STOCKADE_KEYCLOAK_JAVA:-}" ] && java="$STOCKADE_KEYCLOAK_JAVA"
[ -n "$java" ] || { echo "keycloak: needs Java 21 or later in /usr/lib/jvm (or STOCKADE_KEYCLOAK_JAVA)" >&2; exit 1; }
JAVA_HOME="$java" "$tmp/keycloak-$VERSION/bin/kc.sh" build --db=dev-mem >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log" >&2; exit 1; }
rm -rf "$HOME_DIR"
mv "$tmp/keycloak-$VERSION" "$HOME_DIR"
rm -rf "$tmp"
touch "$STAMP"
echo "$HOME_DIR"
