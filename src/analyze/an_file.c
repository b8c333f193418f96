/* an_file.c — the analyzer's source over a .tcgr file. Placeholder until the
 * replay reader is merged: it refuses every file with a clear message. */
#include "analyze/an_int.h"

int arb_an_open_file(arb_an_source **out, const char *path, arb_error *err)
{
    *out = NULL;
    arb_error_set(err, ARB_EUNSUPPORTED, NULL, "this build has no replay reader");
    arb_error_where(err, "%s", path);
    return ARB_EUNSUPPORTED;
}
