#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/deps.sh waits while another apt/dpkg holds the dpkg lock instead
# of failing (issue #21 item 11), and passes apt-get a lock timeout too.
# Driven with stand-ins on PATH for id, dpkg-query, fuser and apt-get: the
# lock is "held" for the first three polls.
set -u
: "${FLOE_SOURCE_DIR:?}"
source "$FLOE_SOURCE_DIR/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/bin"
cat >"$T/bin/id" <<'SH'
#!/bin/sh
echo 0
SH
cat >"$T/bin/dpkg-query" <<'SH'
#!/bin/sh
# every package installed but cmake
case "$*" in *" cmake") echo "unknown ok not-installed" ;; *) echo "install ok installed" ;; esac
SH
cat >"$T/bin/fuser" <<SH
#!/bin/sh
n=\$(cat "$T/polls" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$T/polls"
echo "fuser \$*" >>"$T/log"
[ "\$n" -lt 3 ]
SH
cat >"$T/bin/apt-get" <<SH
#!/bin/sh
echo "apt-get \$* (after \$(cat "$T/polls") polls)" >>"$T/log"
SH
chmod +x "$T/bin/"*
out=$(PATH="$T/bin:$PATH" FLOE_DEPS_POLL=0 bash "$FLOE_SOURCE_DIR/scripts/deps.sh" 2>&1)
eq "deps.sh succeeds once the lock is free" "$?" 0
has "deps.sh says it waits" "$out" "another apt/dpkg is running; waiting"
log=$(cat "$T/log")
has "polls the dpkg frontend lock" "$log" "fuser /var/lib/dpkg/lock-frontend"
has "apt-get update runs after the lock is free, with a lock timeout" "$log" \
    "apt-get -o DPkg::Lock::Timeout=600 update -qq (after 4 polls)"
has "apt-get install of the missing package" "$log" \
    "apt-get -o DPkg::Lock::Timeout=600 install -y -qq cmake"
# a lock held for longer than FLOE_DEPS_LOCK_WAIT: give up waiting, let apt-get try
echo -1000 >"$T/polls"
: >"$T/log"
out=$(PATH="$T/bin:$PATH" FLOE_DEPS_POLL=1 FLOE_DEPS_LOCK_WAIT=2 timeout 60 bash "$FLOE_SOURCE_DIR/scripts/deps.sh" 2>&1)
eq "bounded wait: deps.sh still finishes" "$?" 0
has "bounded wait: says so" "$out" "still busy after 2s"
has "bounded wait: apt-get gets the same bound" "$(cat "$T/log")" "DPkg::Lock::Timeout=2"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
