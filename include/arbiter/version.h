/* arbiter/version.h — the library's version, alone, so that core code (and
 * a program that wants only the number) need not include the umbrella
 * header arbiter/arbiter.h. */
#ifndef ARBITER_VERSION_H
#define ARBITER_VERSION_H

#define ARB_VERSION "0.2.0"

#ifdef __cplusplus
extern "C" {
#endif
const char *arb_version(void);
#ifdef __cplusplus
}
#endif
#endif
