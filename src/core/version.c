/* version.c — the library's version string. */
#include "arbiter/arbiter.h"

const char *arb_version(void) { return ARB_VERSION; }
