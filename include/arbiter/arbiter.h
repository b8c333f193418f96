/* arbiter/arbiter.h — the whole public API of libarbiter in one include. */
#ifndef ARBITER_ARBITER_H
#define ARBITER_ARBITER_H

#include "arbiter/version.h"
#include "arbiter/error.h"
#include "arbiter/rng.h"
#include "arbiter/hash.h"
#include "arbiter/tree.h"
#include "arbiter/text.h"
#include "arbiter/game.h"
#include "arbiter/toolkit.h"
#include "arbiter/match.h"
#include "arbiter/agent.h"
#include "arbiter/deck.h"
#include "arbiter/replay.h"
#include "arbiter/seal.h"
#include "arbiter/outfile.h"
#include "arbiter/analyze.h"
#include "arbiter/conform.h"
#include "arbiter/server.h"

#endif
