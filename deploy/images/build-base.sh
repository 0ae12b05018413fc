#!/usr/bin/env bash
# Builds the base image of Stockade's three images (platform, proxy, runtime) from Debian packages, without a Docker
# daemon or a registry: mmdebstrap makes a Debian bookworm root file system with a headless Java 17 runtime, umoci
# turns it into an OCI image, skopeo writes that as a docker-archive tar that Jib reads as `tar://...` (Jib's tar base
# images are `docker save` archives). The tar is cached per machine under a name that carries the recipe's hash (the
# lines between the recipe markers below), so it is built once and rebuilt only when the recipe changes;
# base-bookworm-jre17.tar, the name the hosts' `images` profiles read, links to the current recipe's tar and older
# recipes' tars are deleted.
#
#   deploy/images/build-base.sh            print the cached tar's path, building it first when missing
#   STOCKADE_IMAGE_CACHE=/dir build-base.sh   cache elsewhere (default ~/.cache/stockade)
#
# Needs root (mmdebstrap runs the packages' maintainer scripts in the new tree), mmdebstrap, umoci and skopeo
# (Debian packages of the same names). Progress goes to stderr; stdout carries only the path.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${STOCKADE_IMAGE_CACHE:-$HOME/.cache/stockade}"
recipe="$(sed -n '/^# recipe:begin/,/^# recipe:end/p' "$here/build-base.sh" | sha256sum | cut -c1-12)"
out="$cache/base-bookworm-jre17-$recipe.tar"
stable="$cache/base-bookworm-jre17.tar"
if [ -s "$out" ]; then
  ln -sfn "$(basename "$out")" "$stable"
  echo "$stable"
  exit 0
fi

for tool in mmdebstrap umoci skopeo; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build-base.sh: $tool is missing (apt-get install $tool)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "build-base.sh: run as root (mmdebstrap runs maintainer scripts in the new tree)" >&2; exit 2; }

mkdir -p "$cache"
work="$(mktemp -d "$cache/base-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# recipe:begin
# The uid and gid the hosts run as; the chart's securityContext (runAsUser 10001) and the images' user agree.
uid=10001
# Packages beyond Debian's Essential set: the JVM and the CA bundle the hosts' TLS clients trust. Nothing else: the
# platform's embedded PostgreSQL (zonky) brings its own binaries and libraries, the runtime's shell tool runs bash
# (Essential), SQLite is bundled in sqlite-jdbc.
packages=openjdk-17-jre-headless,ca-certificates
# A fixed date makes the layer's file times, and so its digest, the same on every machine.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1735689600}"

echo "build-base.sh: building the base image (Debian bookworm, $packages; a few minutes, once per machine)" >&2
# The JVM's postinst registers man pages with update-alternatives, which fails when their directory is missing.
mmdebstrap --variant=essential --include="$packages" \
  --setup-hook='mkdir -p "$1/usr/share/man/man1"' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook="echo 'stockade:x:$uid:$uid:stockade:/home/stockade:/usr/sbin/nologin' >> \"\$1/etc/passwd\"" \
  --customize-hook="echo 'stockade:x:$uid:' >> \"\$1/etc/group\"" \
  --customize-hook="echo 'stockade:!:20089::::::' >> \"\$1/etc/shadow\"" \
  --customize-hook="mkdir -p \"\$1/home/stockade\" \"\$1/data\" && chown $uid:$uid \"\$1/home/stockade\" \"\$1/data\"" \
  --customize-hook="rm -rf \"\$1\"/var/cache/apt/* \"\$1\"/var/lib/apt/lists/* \"\$1\"/var/log/*" \
  bookworm "$work/rootfs.tar" >&2

umoci init --layout "$work/oci" >&2
umoci new --image "$work/oci:base" >&2
umoci raw add-layer --image "$work/oci:base" --history.created "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)" \
  --history.created_by "deploy/images/build-base.sh $recipe (mmdebstrap bookworm: $packages)" "$work/rootfs.tar" >&2
umoci config --image "$work/oci:base" --no-history --os linux --architecture amd64 \
  --created "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)" \
  --config.user "$uid:$uid" --config.workingdir /home/stockade \
  --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --config.env JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 \
  --config.env LANG=C.UTF-8 \
  --config.label org.opencontainers.image.title=stockade-base \
  --config.label "org.opencontainers.image.description=Debian bookworm with $packages, user $uid" >&2
skopeo copy --quiet "oci:$work/oci:base" "docker-archive:$work/base.tar:stockade/base:bookworm-jre17" >&2
# recipe:end
mv "$work/base.tar" "$out"
ln -sfn "$(basename "$out")" "$stable"
find "$cache" -maxdepth 1 -name 'base-bookworm-jre17-*.tar' ! -name "$(basename "$out")" -delete
echo "$stable"
