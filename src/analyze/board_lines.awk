# board_lines.awk — a game's board layout (src/games/<id>/board.json) with
# the game's own constants put in: a string "=NAME" stands for the value of
# `#define NAME <integer>` in the game's header (src/games/<id>/<id>.h), so
# a threshold the viewer draws is the one the engine uses and cannot drift.
# Usage: awk -f board_lines.awk HEADER BOARD; prints BOARD with the values
# in; an unknown name fails (file:line), and so does a header without any.
FNR == NR {
    if ($1 == "#define" && $3 ~ /^-?[0-9]+$/) val[$2] = $3
    next
}
{
    line = $0
    out = ""
    while (match(line, /"=[A-Za-z_][A-Za-z0-9_]*"/)) {
        name = substr(line, RSTART + 2, RLENGTH - 3)
        if (!(name in val)) {
            printf "%s:%d: \"=%s\" names no integer #define of %s\n", FILENAME, FNR, name, ARGV[1] > "/dev/stderr"
            bad = 1
            exit 1
        }
        out = out substr(line, 1, RSTART - 1) val[name]
        line = substr(line, RSTART + RLENGTH)
    }
    print out line
}
END { if (bad) exit 1 }
