#!/usr/bin/env bash
# Install the Debian packages floe needs to build and test, if missing.
# As root: apt-get update + apt-get install, after any other apt/dpkg has
# finished. Otherwise: print the command, fail.
set -euo pipefail
PKGS=(cmake ninja-build pkg-config gcc clang libclang-rt-14-dev
      libjansson-dev libsqlite3-dev zlib1g-dev libzstd-dev libsnappy-dev libdeflate-dev
      liblz4-dev liblz4-1
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
# Another apt or dpkg (unattended-upgrades, a second `make` in another
# checkout) may hold the dpkg lock: wait for it instead of failing. apt-get
# itself waits too (DPkg::Lock::Timeout) for the moment between our poll and
# its start; FLOE_DEPS_LOCK_WAIT bounds both (seconds, default 600).
lock_wait=${FLOE_DEPS_LOCK_WAIT:-600}
wait_for_dpkg_lock() {
  command -v fuser >/dev/null || return 0
  local waited=0
  while fuser /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock \
      >/dev/null 2>&1; do
    if [ "$waited" -ge "$lock_wait" ]; then
      echo "deps: apt/dpkg still busy after ${lock_wait}s; trying anyway" >&2
      return 0
    fi
    [ "$waited" -eq 0 ] && echo "deps: another apt/dpkg is running; waiting for it to finish"
    sleep "${FLOE_DEPS_POLL:-2}"
    waited=$((waited + ${FLOE_DEPS_POLL:-2}))
  done
}
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt=(apt-get -o "DPkg::Lock::Timeout=$lock_wait")
  wait_for_dpkg_lock
  "${apt[@]}" update -qq
  wait_for_dpkg_lock
  "${apt[@]}" install -y -qq "${missing[@]}" >/dev/null
else
  echo "deps: missing Debian packages. Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
