#!/usr/bin/env bash
# Install the Debian packages floe needs to build and test, if missing.
# As root: apt-get update + apt-get install. Otherwise: print the command, fail.
set -euo pipefail
PKGS=(cmake ninja-build pkg-config gcc clang libclang-rt-14-dev
      libjansson-dev libsqlite3-dev zlib1g-dev libzstd-dev libsnappy-dev
      libcurl4-openssl-dev libssl-dev libmicrohttpd-dev libxml2-dev libreadline-dev
      python3-snappy python3-zstandard python3-botocore graphviz
      sqlite3 curl python3-avro nodejs npm clang-tidy cppcheck)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# nodejs/npm may come from outside Debian's packages on some machines: accept them on PATH.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "deps: missing Debian packages. Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
