/* version.c — the library's version string. */
#include "arbiter/version.h"

const char *arb_version(void) { return ARB_VERSION; }
