#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Include-graph check: no #include runs up the layer order.

The one authoritative order is the ```layers block of docs/architecture.md
(which repeats ../shared/design/ARCHITECTURE.md): one line per level,
"<level> <module> <module> ...", lowest first. A file of module M
(src/M/..., ext/ is module ext) may include "N/..." only when N's level is
M's or lower. Every folder under src/ must appear in the order. Exceptions
(meant to be none) are lines "<file> <included path>" in
scripts/layers-exceptions.txt, each with a # comment saying why; an
exception that no longer matches an include is an error too, so the file
only shrinks. A ctest entry (layers); exit status 1 on any violation.
"""
import os
import re
import sys

root = os.environ.get("FLOE_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = 0


def ok(msg):
    global passed
    passed += 1
    print("ok   " + msg)


def bad(msg):
    global failed
    failed += 1
    print("FAIL " + msg)


def read_order():
    text = open(os.path.join(root, "docs/architecture.md"), encoding="utf-8").read()
    m = re.search(r"^```layers\n(.*?)^```", text, re.S | re.M)
    if not m:
        sys.exit("docs/architecture.md has no ```layers block")
    level = {}
    for line in m.group(1).splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        n, *mods = line.split()
        for mod in mods:
            level[mod.rstrip("/")] = int(n)
    return level


def read_exceptions():
    path = os.path.join(root, "scripts/layers-exceptions.txt")
    out = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if "#" not in line and line.strip():
                bad("layers-exceptions.txt: a line without a # reason: " + line.strip())
                continue
            fields = line.split("#")[0].split()
            if len(fields) == 2:
                out[tuple(fields)] = False
    return out


level = read_order()
exceptions = read_exceptions()
include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

for d in sorted(os.listdir(os.path.join(root, "src"))):
    if os.path.isdir(os.path.join(root, "src", d)) and d not in level:
        bad("src/%s/ is not in the layer order of docs/architecture.md" % d)

violations = 0
for top in ("src", "ext"):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            parts = rel.split(os.sep)
            mod = "ext" if top == "ext" else parts[1]
            if mod not in level:
                continue
            src = open(path, encoding="utf-8", errors="replace").read()
            for inc in include_re.findall(src):
                # a path relative to the file first, then to src/ (the include path)
                local = os.path.normpath(os.path.join(dirpath, inc))
                if os.path.exists(local) and os.path.relpath(local, root).startswith("src" + os.sep):
                    target = os.path.relpath(local, os.path.join(root, "src")).split(os.sep)[0]
                elif "/" in inc:
                    target = inc.split("/")[0]
                else:
                    continue
                if target not in level or level[target] <= level[mod]:
                    continue
                key = (rel, inc)
                if key in exceptions:
                    exceptions[key] = True
                    print("note %s includes %s (%s, level %d > %d): listed in scripts/layers-exceptions.txt"
                          % (rel, inc, target, level[target], level[mod]))
                    continue
                violations += 1
                bad("%s (%s, level %d) includes \"%s\" (%s, level %d): runs up the layer order"
                    % (rel, mod, level[mod], inc, target, level[target]))

# README.md's "What is where" lists src/'s modules at the same levels.
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
m = re.search(r"^## What is where\n+```\n(.*?)^```", readme, re.S | re.M)
listed, cur = {}, None
for line in (m.group(1).splitlines() if m else []):
    r = re.match(r"^ {1,3}(\d+)? +([a-z]+)/ ", line)
    if r:
        cur = int(r.group(1)) if r.group(1) else cur
        listed[r.group(2)] = cur
src_mods = [d for d in level if os.path.isdir(os.path.join(root, "src", d))]
wrong = [d for d in src_mods if listed.get(d) != level[d]]
if not wrong:
    ok("README.md's What is where lists src/'s modules at their levels")
else:
    bad("README.md's What is where disagrees with docs/architecture.md on: " + " ".join(
        "%s (README %s, order %d)" % (d, listed.get(d), level[d]) for d in wrong))

if violations == 0:
    ok("no include runs up the layer order of docs/architecture.md")
for (f, inc), used in sorted(exceptions.items()):
    if not used:
        bad("layers-exceptions.txt lists %s -> %s, which no longer exists: remove the line" % (f, inc))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
