#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Functions named in the docs exist and are called with their prototype's
number of arguments. Every `floe_name(args)` in inline code or a fenced
block of README.md and docs/**/*.md must name a function or function-like
macro declared in include/floe/*.h or src/**/*.h, or a SQL function floe
registers (a "floe_..." string in src/sql); with arguments written (not
`()` or `(...)`), their number must be the prototype's. Prints each
mismatch; exit 1 if any. Usage: check-doc-api.py [REPO] (default: $FLOE_SOURCE_DIR or .)"""
import os
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FLOE_SOURCE_DIR", "."))


def split_args(text):
    """Top-level comma-separated pieces of text (parentheses, brackets,
    braces and string literals nest)."""
    out, depth, cur, quote = [], 0, "", None
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\" and i + 1 < len(text):
                cur += text[i + 1]
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            cur += c
        elif c in "([{":
            depth += 1
            cur += c
        elif c in ")]}":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def prototypes():
    """name -> number of parameters (None: variadic)."""
    protos = {}
    headers = sorted((root / "include" / "floe").glob("*.h")) + sorted((root / "src").rglob("*.h"))
    for h in headers:
        text = re.sub(r"/\*.*?\*/", " ", h.read_text(), flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        # a declaration: return type words, the name, the parameters, `;`
        for m in re.finditer(r"(?:^|[;}\n])\s*(?:FLOE_EXTERN\s+)?(?:const\s+)?[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*[\s*]+(floe_[a-z0-9_]+)\s*\(([^;{}]*?)\)\s*;", text, re.S):
            params = split_args(m.group(2))
            if params == ["void"]:
                params = []
            protos.setdefault(m.group(1), None if "..." in params else len(params))
        for m in re.finditer(r"#define\s+(floe_\w+)\(([^)]*)\)", text):
            protos.setdefault(m.group(1), len(split_args(m.group(2))))
    return protos


def sql_functions():
    """Names of the SQL functions floe registers (their arity is SQL's)."""
    names = set()
    for c in (root / "src" / "sql").glob("*.c"):
        names.update(re.findall(r'"(floe_[a-z0-9_]+)"', c.read_text()))
    return names


def calls(text):
    """(name, argument text or None, line) of each floe_ call in code spans
    and fenced blocks."""
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    spans = []
    for m in re.finditer(r"```([^\n]*)\n(.*?)```", text, re.S):
        if m.group(1).strip().lower() not in ("sql", "python", "py"):  # other languages' names
            spans.append((m.start(2), m.group(2)))
    prose = re.sub(r"```[^\n]*\n.*?```", lambda m: " " * len(m.group(0)), text, flags=re.S)
    for m in re.finditer(r"`([^`\n]+)`", prose):
        spans.append((m.start(1), m.group(1)))
    for start, span in spans:
        for m in re.finditer(r"(?<![\w.])(floe_[a-z0-9_]+)\(", span):
            depth, j = 1, m.end()
            while j < len(span) and depth:
                depth += {"(": 1, ")": -1}.get(span[j], 0)
                j += 1
            args = span[m.end():j - 1] if depth == 0 else None
            yield m.group(1), args, line_of(start + m.start())


def main():
    protos = prototypes()
    sql = sql_functions()
    if not protos:
        print("FAIL no prototypes found under include/floe")
        return 1
    bad = checked = 0
    docs = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    for doc in docs:
        for name, args, line in calls(doc.read_text()):
            where = f"{doc.relative_to(root)}:{line}"
            checked += 1
            if name not in protos:
                if name not in sql:
                    print(f"{where}: {name}: no such function in include/floe, src or floe's SQL")
                    bad += 1
                continue
            if args is None or args.strip() in ("", "...", "…"):
                continue
            pieces = split_args(args)
            if any(a.startswith(("...", "…")) for a in pieces):
                continue  # elided arguments: the name is what is checked
            n = len(pieces)
            if protos[name] is not None and n != protos[name]:
                print(f"{where}: {name}({args}): {n} arguments, the header has {protos[name]}")
                bad += 1
    print(f"{checked - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
