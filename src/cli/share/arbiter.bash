# bash completion for arbiter — commands, each command's options (read from
# its own --help, so they never drift), game ids, seats and files.
_arbiter()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$(arbiter --help 2>/dev/null | awk '/^Commands:/{on=1;next} on&&/^  [a-z]/{print $1} on&&/^$/&&n++{exit}') --help --version" -- "$cur"))
        return
    fi
    case $prev in
        --game|-g)
            COMPREPLY=($(compgen -W "$(arbiter games 2>/dev/null | awk 'NR>1{print $1}')" -- "$cur"))
            return ;;
        -o|--output|--key|--keyring|--position|--manifest|--expectations|--save-failing|--plugin)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(arbiter "$cmd" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur"))
        return
    fi
    if [ "$cmd" = help ]; then
        COMPREPLY=($(compgen -W "$(arbiter --help 2>/dev/null | awk '/^Commands:/{on=1;next} on&&/^  [a-z]/{print $1} on&&/^$/&&n++{exit}')" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _arbiter arbiter
