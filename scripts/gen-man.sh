#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Man pages from the command pages: docs/cli/floe-<cmd>.md -> floe-<cmd>.1 and
# docs/cli/README.md -> floe.1 (the overview, with a COMMANDS section listing
# every page found, so new commands appear without editing anything here).
#
#   scripts/gen-man.sh [--out DIR] [--version V]     (default DIR: docs/man)
#
# The build runs it into <build>/man and `make install` / `cmake --install`
# installs the result under share/man/man1. The Markdown understood is the
# subset the pages use: `#` title, `##` sections, `###` subsections,
# paragraphs, `- ` lists, fenced and 4-space-indented code, definition lists
# (a line, then `:   text`), `code`, **bold**, *emphasis* and [links](url).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/docs/man"
version=""
while [ $# -gt 0 ]; do
    case "$1" in
    --out) out="$2"; shift 2 ;;
    --version) version="$2"; shift 2 ;;
    *) echo "usage: gen-man.sh [--out DIR] [--version V]" >&2; exit 2 ;;
    esac
done
if [ -z "$version" ]; then
    version=$(sed -n 's/^project(floe VERSION \([0-9.]*\).*/\1/p' "$here/CMakeLists.txt")
fi
mkdir -p "$out"

# md2man NAME < page.md > page.1 (the whole page is read first so that a
# definition term can look at the line after it).
md2man() {
    awk -v name="$1" -v version="$version" '
    function esc(s) {
        gsub(/\\/, "\\e", s)
        gsub(/-/, "\\-", s)
        return s
    }
    function lead(s) {
        if (s ~ /^[.\047]/)
            s = "\\&" s
        return s
    }
    function inline(s,    m) {
        s = esc(s)
        while (match(s, /\[[^]]*\]\([^)]*\)/)) {
            m = substr(s, RSTART + 1, RLENGTH - 1)
            sub(/\]\(.*/, "", m)
            s = substr(s, 1, RSTART - 1) m substr(s, RSTART + RLENGTH)
        }
        while (match(s, /`[^`]*`/))
            s = substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 1, RLENGTH - 2) "\\fR" substr(s, RSTART + RLENGTH)
        while (match(s, /\*\*[^*]+\*\*/))
            s = substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 2, RLENGTH - 4) "\\fR" substr(s, RSTART + RLENGTH)
        while (match(s, /\*[^* ][^*]*\*/))
            s = substr(s, 1, RSTART - 1) "\\fI" substr(s, RSTART + 1, RLENGTH - 2) "\\fR" substr(s, RSTART + RLENGTH)
        return lead(s)
    }
    function blank(s) { return s ~ /^[ \t]*$/ }
    { L[NR] = $0 }
    END {
        printf ".TH \"%s\" \"1\" \"\" \"floe %s\" \"floe manual\"\n", toupper(name), version
        i = 1
        while (i <= NR && blank(L[i])) i++
        if (L[i] ~ /^# /) i++
        while (i <= NR && blank(L[i])) i++
        # the paragraph under the title is the NAME line
        desc = ""
        while (i <= NR && !blank(L[i]) && L[i] !~ /^#/) { desc = desc (desc ? " " : "") L[i]; i++ }
        print ".SH NAME"
        print name " \\- " inline(desc)
        para = 0
        for (; i <= NR; i++) {
            l = L[i]
            if (l ~ /^```/) {
                print ".PP"; print ".RS 4"; print ".nf"
                for (i++; i <= NR && L[i] !~ /^```/; i++) print lead(esc(L[i]))
                print ".fi"; print ".RE"; para = 0
                continue
            }
            if (l ~ /^    / && !indef) {
                print ".PP"; print ".RS 4"; print ".nf"
                for (; i <= NR && (L[i] ~ /^    / || (blank(L[i]) && L[i + 1] ~ /^    /)); i++)
                    print lead(esc(substr(L[i], 5)))
                i--
                print ".fi"; print ".RE"; para = 0
                continue
            }
            if (l ~ /^## /) {
                s = toupper(substr(l, 4))
                if (s == "NAME") {   # already made from the title
                    for (i++; i <= NR && L[i] !~ /^## /; i++) ;
                    i--
                    continue
                }
                print ".SH " esc(s); para = 0; indef = 0
                continue
            }
            if (l ~ /^### /) { print ".SS " inline(substr(l, 5)); para = 0; indef = 0; continue }
            if (blank(l)) { para = 0; continue }
            if (i < NR && L[i + 1] ~ /^:   /) {    # definition term
                print ".TP"; print inline(l); indef = 1; para = 1
                continue
            }
            if (l ~ /^:   /) { print inline(substr(l, 5)); continue }
            if (indef && l ~ /^    /) { print inline(substr(l, 5)); continue }
            indef = 0
            if (l ~ /^- /) { print ".IP \\(bu 2"; print inline(substr(l, 3)); para = 1; continue }
            if (l ~ /^  [^ ]/ && para) { print inline(substr(l, 3)); continue }
            if (!para) { print ".PP"; para = 1 }
            print inline(l)
        }
    }'
}

convert() { # md name
    md2man "$2" <"$1"
}

pages=""
for md in "$here"/docs/cli/floe-*.md; do
    [ -e "$md" ] || continue
    base=$(basename "$md" .md)
    convert "$md" "$base" >"$out/$base.1"
    pages="$pages $base"
done

# floe.1: the README, plus the list of command pages.
{
    convert "$here/docs/cli/README.md" floe
    echo ".SH COMMANDS"
    for p in $pages; do
        desc=$(awk 'NR > 1 && /^[^#[:space:]]/ { print; exit }' "$here/docs/cli/$p.md")
        echo ".TP"
        echo ".BR $p (1)"
        printf '%s\n' "$desc" | sed 's/\\/\\e/g; s/-/\\-/g; s/`\([^`]*\)`/\\fB\1\\fR/g'
    done
} >"$out/floe.1"
echo "gen-man: $(echo $pages | wc -w) command pages and floe.1 in $out"
