# bash completion for arbiter — everything comes from the binary's own
# command table (`arbiter __complete WORD…`): commands, subcommands, each
# command's options, and values (games, presets, agents, rule IDs, seats);
# "@files"/"@dirs" hand over to the shell's file completion.
_arbiter()
{
    local cur=${COMP_WORDS[COMP_CWORD]} IFS=$'\n'
    local -a c
    c=($(arbiter __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
    [ "$cur" = "=" ] && cur=
    case ${c[0]} in
        @files) COMPREPLY=($(compgen -f -- "$cur")) ;;
        @dirs) COMPREPLY=($(compgen -d -- "$cur")) ;;
        *) COMPREPLY=("${c[@]}") ;;
    esac
}
complete -o filenames -F _arbiter arbiter
