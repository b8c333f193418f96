/* cmdtab.h — the command table: each subcommand declares once its name,
 * usage lines, summary, description and options. From it come the option
 * parser (cli_next), `--help`, the man pages (`arbiter __man`), bash and
 * zsh completion (`arbiter __complete`) and did-you-mean for options and
 * subcommands. A command's spec sits beside its code in cmd_*.c; main.c
 * lists them. */
#ifndef ARBITER_CLI_CMDTAB_H
#define ARBITER_CLI_CMDTAB_H

#include <stdint.h>
#include <stdio.h>

/* What an option's argument is: how completion offers values and whether
 * the parser checks a number. */
typedef enum cli_arg {
    CLI_ARG_NONE = 0, /* a switch */
    CLI_ARG_INT,      /* decimal, checked against [lo, hi] by the parser (p->num) */
    CLI_ARG_TEXT,     /* anything (checked by the command) */
    CLI_ARG_FILE,     /* a path */
    CLI_ARG_DIR,      /* a directory */
    CLI_ARG_GAME,     /* a game id */
    CLI_ARG_DECKS,    /* preset names or deck files, comma-separated */
    CLI_ARG_AGENTS,   /* agent kinds, comma-separated */
    CLI_ARG_RULE,     /* a rule ID of the catalogs */
    CLI_ARG_SEAT,     /* P1..P4, 0..3 or all */
    CLI_ARG_COMMAND   /* a shell command (--engine) */
} cli_arg;

/* The flags that mean the same in every command that takes them. */
typedef enum cli_shared {
    CLI_SH_NONE = 0,
    CLI_SH_OUTPUT, /* -o, --output FILE */
    CLI_SH_QUIET,  /* -q, --quiet */
    CLI_SH_JOBS,   /* -j, --jobs N (1..CLI_JOBS_MAX) */
    CLI_SH_JSON,   /* --json: a switch, output as JSON */
    CLI_SH_GAME    /* -g, --game ID */
} cli_shared;

/* Option ids: a short letter, or one of these for long-only options. */
enum { CLI_ID_LONG = 0x100 };

typedef struct cli_opt {
    const char *name; /* long name, without "--" */
    int id;           /* what cli_next returns: the short letter, or >= CLI_ID_LONG */
    char shortc;      /* the short form, 0 when none */
    cli_arg arg;
    const char *argname; /* "N", "FILE", … (NULL for a switch) */
    const char *help;    /* one paragraph; --help wraps it */
    uint64_t lo, hi;     /* CLI_ARG_INT: the accepted range (hi 0: any 64-bit) */
    cli_shared shared;
} cli_opt;

/* The shared flags, declared the same way everywhere (help says what the
 * command does with them). */
#define CLI_OPT_OUTPUT(help)                                                                                           \
    {                                                                                                                  \
        "output", 'o', 'o', CLI_ARG_FILE, "FILE", help, 0, 0, CLI_SH_OUTPUT                                            \
    }
#define CLI_OPT_QUIET(help)                                                                                            \
    {                                                                                                                  \
        "quiet", 'q', 'q', CLI_ARG_NONE, NULL, help, 0, 0, CLI_SH_QUIET                                                \
    }
#define CLI_OPT_JOBS(help)                                                                                             \
    {                                                                                                                  \
        "jobs", 'j', 'j', CLI_ARG_INT, "N", help, 1, CLI_JOBS_MAX, CLI_SH_JOBS                                         \
    }
#define CLI_OPT_JSON(help)                                                                                             \
    {                                                                                                                  \
        "json", CLI_ID_JSON, 0, CLI_ARG_NONE, NULL, help, 0, 0, CLI_SH_JSON                                            \
    }
#define CLI_OPT_GAME(help)                                                                                             \
    {                                                                                                                  \
        "game", 'g', 'g', CLI_ARG_GAME, "ID", help, 0, 0, CLI_SH_GAME                                                  \
    }
/* --engine CMD and --engine-timeout MS (an engine adapter, adapter.h) */
#define CLI_OPT_ENGINE(help)                                                                                           \
    {                                                                                                                  \
        "engine", CLI_ID_ENGINE, 0, CLI_ARG_COMMAND, "CMD", help, 0, 0, CLI_SH_NONE                                    \
    }
#define CLI_OPT_ENGINE_TIMEOUT                                                                                         \
    {                                                                                                                  \
        "engine-timeout", CLI_ID_ENGINE_TIMEOUT, 0, CLI_ARG_INT, "MS",                                                 \
            "per-request limit for --engine (default 10000)", 1, 3600000, CLI_SH_NONE                                  \
    }
#define CLI_OPT_END                                                                                                    \
    {                                                                                                                  \
        NULL, 0, 0, CLI_ARG_NONE, NULL, NULL, 0, 0, CLI_SH_NONE                                                        \
    }
#define CLI_ID_JSON (CLI_ID_LONG + 0xff)
#define CLI_ID_ENGINE (CLI_ID_LONG + 0xfe)
#define CLI_ID_ENGINE_TIMEOUT (CLI_ID_LONG + 0xfd)

typedef struct cli_spec cli_spec;
struct cli_spec {
    const char *name;                  /* "verify"; a subcommand: "deck check" */
    const char *summary;               /* one line for `arbiter --help` and NAME */
    const char *const *usage;          /* usage lines without "arbiter ", NULL-ended */
    const char *description;           /* preformatted text after the usage lines */
    const cli_opt *opts;               /* CLI_OPT_END-ended; --help is implied */
    const char *notes;                 /* preformatted text after the options */
    const char *exit;                  /* "0 …; 1 …" (printed as "Exit: …") */
    cli_arg operands;                  /* what the positional arguments are */
    const cli_spec *const *subs;       /* subcommands, NULL-ended (or NULL) */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    int hidden;                        /* not listed in `arbiter --help` */
};

/* The parser: cli_next returns the next option's id (> 0) with p->arg (its
 * argument, NULL for a switch) and, for CLI_ARG_INT, p->num; 0 when the
 * options are done: p->pos[0..p->npos) are the operands in order (options
 * and operands may mix; "--" ends the options). -1 when the command must
 * stop with exit code p->rc: after --help (0, printed) or a usage error
 * (2, printed with did-you-mean). "--name=value", "-xVALUE" and "-x VALUE"
 * work. The operands are moved to the front of argv[1..]. */
typedef struct cli_parser {
    const cli_spec *spec;
    int argc;
    char **argv;
    int i;              /* next argv index to read */
    int dashdash;       /* "--" seen */
    const char *arg;    /* the current option's argument */
    uint64_t num;       /* its value (CLI_ARG_INT) */
    const cli_opt *opt; /* the current option */
    char **pos;         /* the operands (argv + 1) */
    int npos;
    int rc;
} cli_parser;

void cli_parse_init(cli_parser *p, const cli_spec *s, int argc, char **argv);
int cli_next(cli_parser *p);
/* The default: branch of a command's option switch: an option the table
 * declares that the command does not handle (a programming error the
 * table test catches). Prints it; returns EXIT_INTERNAL. */
int cli_unhandled(const cli_parser *p);
/* "--name" (or "-x") of the current option, for messages. */
const char *cli_optname(const cli_parser *p);

/* Generated texts. */
void cli_spec_help(const cli_spec *s, FILE *out);
int cli_spec_man(const cli_spec *s, const char *version, const char *date, FILE *out);
/* A spec by name among specs[] (NULL-ended), or NULL. */
const cli_spec *cli_spec_find(const cli_spec *const *specs, const char *name);
/* Did-you-mean for a name among specs[] (buf, "" when none is near). */
char *cli_spec_near(const cli_spec *const *specs, const char *name, char *buf, size_t size);
/* An unknown subcommand of s: printed with did-you-mean; EXIT_USAGE. */
int cli_sub_unknown(const cli_spec *s, const char *name);
/* Dispatch argv[1] to one of s->subs (argv[0] is the parent's name); --help
 * or no subcommand prints s's help. */
int cli_sub_run(const cli_spec *s, int argc, char **argv);

/* The top-level commands (main.c), NULL-ended. */
extern const cli_spec *const cli_specs[];

#endif
