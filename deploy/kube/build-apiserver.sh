#!/usr/bin/env bash
# Builds a real kube-apiserver (v1.20.2, from Debian bookworm's `kubernetes` source package) for the tests that run
# the Kubernetes provisioner, the cluster proxy and the Helm chart against a real API server instead of a mock. No
# newer apiserver can be built from the registries CI reaches (later Debian releases strip it; the Go proxy is not
# reachable). The binary is cached outside the work tree, keyed on the exact Debian source version and checked against
# the sha256 recorded when it was built, so a machine builds it once (about 11 minutes on 2 cores, 2.5 GB of scratch).
#
#   deploy/kube/build-apiserver.sh                  print the cache folder (kube-apiserver inside), building first
#   STOCKADE_KUBE_CACHE=/dir build-apiserver.sh     cache elsewhere (default ~/.cache/stockade/kube-v1.20.2)
#
# Installs golang-go, etcd-server, rsync and golang-github-modern-go-reflect2-dev with apt when missing (needs root
# then). Recipe and caveats: the project's research note kubernetes-apiserver.md. Progress goes to stderr; stdout
# carries only the folder.
set -euo pipefail

version=1.20.5+really1.20.2-1.1+deb12u1
cache="${STOCKADE_KUBE_CACHE:-$HOME/.cache/stockade/kube-v1.20.2}"
bin="$cache/kube-apiserver"

cached() {
  [ -x "$bin" ] && [ "$(cat "$cache/source-version" 2>/dev/null)" = "$version" ] \
    && (cd "$cache" && sha256sum --quiet -c kube-apiserver.sha256 >/dev/null 2>&1)
}

# etcd runs beside the API server in the tests, so it is needed even when the binary is cached
need=()
command -v etcd >/dev/null 2>&1 || need+=(etcd-server)
src_list=/etc/apt/sources.list.d/stockade-debian-src.sources
if ! cached; then
  command -v go >/dev/null 2>&1 || need+=(golang-go)
  command -v rsync >/dev/null 2>&1 || need+=(rsync)
  [ -d /usr/share/gocode/src/github.com/modern-go/reflect2 ] || need+=(golang-github-modern-go-reflect2-dev)
  # apt-get source needs deb-src lines; Debian's images ship only deb lines
  if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    need+=(deb-src)
  fi
fi
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "build-apiserver.sh: needs root to set up ${need[*]}" >&2; exit 2; }
  if [[ " ${need[*]} " == *" deb-src "* ]] && [ ! -f "$src_list" ]; then
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$src_list"
  fi
  pkgs=()
  for p in "${need[@]}"; do [ "$p" = deb-src ] || pkgs+=("$p"); done
  apt-get update -qq
  [ ${#pkgs[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi
if cached; then
  echo "$cache"
  exit 0
fi

mkdir -p "$cache"
work="$(mktemp -d "${TMPDIR:-/tmp}/stockade-kube-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "build-apiserver.sh: building kube-apiserver from Debian's kubernetes $version (about 11 minutes, once per machine)" >&2

cd "$work"
apt-get source --download-only "kubernetes=$version" >&2
dpkg-source -x "kubernetes_$version.dsc" src >&2

# The vendored github.com/modern-go/reflect2 v1.0.1 breaks on Go >= 1.18: the binary builds, but every POST of a typed
# object panics in reflect2.Type2 and clients see HTTP/2 INTERNAL_ERROR. Debian's 1.0.2 sources replace it.
vendored=src/vendor/github.com/modern-go/reflect2
rm -f "$vendored"/*.go "$vendored"/*.s
for f in /usr/share/gocode/src/github.com/modern-go/reflect2/*; do
  case $f in *_test.go|*/go.mod) ;; *) cp "$f" "$vendored/" ;; esac
done

# The tree's own Makefile, as debian/rules does (a plain `go build -mod=vendor` wants go.mod updated); the version
# variables stand in for the .git folder the source package lacks.
cd src
mkdir -p .go/src/k8s.io && ln -s ../../.. .go/src/k8s.io/kubernetes
export GOPATH="$PWD/.go" CGO_ENABLED=0 HOME="$work/home" GOCACHE="$work/gocache"
export KUBE_GIT_COMMIT=faecb196815e248d3ecfb03c680a4507229c2a56 KUBE_GIT_VERSION=v1.20.2 \
  KUBE_GIT_TREE_STATE=clean KUBE_GIT_MAJOR=1 KUBE_GIT_MINOR=20
make WHAT=cmd/kube-apiserver GOLDFLAGS="-s -w" >&2

# Written beside the cache's binary and renamed into place, so an interrupted build never leaves a half binary that
# the checksum would vouch for.
cp _output/bin/kube-apiserver "$cache/kube-apiserver.new"
mv "$cache/kube-apiserver.new" "$bin"
(cd "$cache" && sha256sum kube-apiserver > kube-apiserver.sha256)
echo "$version" > "$cache/source-version"
"$bin" --version >&2
echo "$cache"
