# SPDX-License-Identifier: Apache-2.0
# bash completion for floe:   source scripts/floe-completion.bash
#
# Commands and their options are read from floe itself (`floe --help`,
# `floe <command> --help`), so new commands complete without editing this
# file. Table names come from the SQLite catalog of the warehouse in use
# (--warehouse DIR on the command line, else $FLOE_WAREHOUSE, else
# ./warehouse), read with the sqlite3 shell or, failing that, python3.

_floe_tables() {
    local wh=$1 cat=$2 db
    db="$wh/catalog.db"
    [ -r "$db" ] || return 0
    cat=${cat//\'/\'\'}
    local q="SELECT table_namespace || '.' || table_name FROM iceberg_tables WHERE catalog_name = '$cat' ORDER BY 1"
    if command -v sqlite3 >/dev/null 2>&1; then
        sqlite3 -readonly "$db" "$q" 2>/dev/null
    elif command -v python3 >/dev/null 2>&1; then
        python3 - "$db" "$q" 2>/dev/null <<'PY'
import sqlite3, sys
c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
for (name,) in c.execute(sys.argv[2]):
    print(name)
PY
    fi
}

_floe() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local floe=${words[0]}
    local commands
    commands=$("$floe" --help 2>/dev/null | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')

    if [ "$cword" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands help --help --version" -- "$cur"))
        return
    fi
    local cmd=${words[1]}
    if [ "$cmd" = help ]; then
        [ "$cword" -eq 2 ] && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi

    case "$prev" in
    --warehouse) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --svg | --token-file | -f) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --format)
        local formats
        formats=$("$floe" "$cmd" --help 2>/dev/null | grep -o -- '--format [a-z|]*' | head -1 |
            cut -d' ' -f2 | tr '|' ' ')
        COMPREPLY=($(compgen -W "${formats:-table csv json}" -- "$cur"))
        return
        ;;
    esac

    if [[ $cur == -* ]]; then
        local opts
        opts=$("$floe" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
        COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
        return
    fi

    # Anything else may be a table name.
    local wh=${FLOE_WAREHOUSE:-./warehouse} catname=local i
    for ((i = 2; i < cword; i++)); do
        case "${words[i]}" in
        --warehouse) wh=${words[i + 1]} ;;
        --warehouse=*) wh=${words[i]#--warehouse=} ;;
        --catalog-name) catname=${words[i + 1]} ;;
        --catalog-name=*) catname=${words[i]#--catalog-name=} ;;
        esac
    done
    wh=${wh/#\~/$HOME}
    COMPREPLY=($(compgen -W "$(_floe_tables "$wh" "$catname")" -- "$cur"))
}

complete -F _floe floe
