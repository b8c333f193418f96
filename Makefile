# arbiter — build, test and install. GNU make, C11.
#
#   make            build/libarbiter.a, build/libarbiter.so, build/arbiter
#   make deps       install missing Debian packages (apt-get; sudo when not root)
#   make demo       the main job on built-in defaults
#   make check      every class of test at small counts (a few CPU minutes),
#                   README's code blocks (check-readme) and make demo included
#   make check-all  the same at the full counts; check-heavy: only what it adds
#   make check-naramo (-catalyst, -operator, -brainstorm)  one game's rules
#                   unit tests and conformance cases, a few seconds
#   make sanitize   check's suites built with ASan + UBSan and the engines'
#                   state check after every action (ARB_CHECK_STATE), in build/san
#   make tsan       ThreadSanitizer build (build/tsan): unit tests, verify
#                   --jobs 4, conform -j 4 and parallel play --games
#   make coverage   gcov build (build/cov): branch coverage of each engine's
#                   rules code by the suite and by crosscheck --games 100
#   make install PREFIX=/usr/local
#
# Sources are found by directory: src/core, src/games/<id>, src/replay,
# src/conform, src/analyze make the library; src/cli the binary; every
# tests/check_*.c is one Check test program. The game registry is generated
# from the directories under src/games/, so adding an engine is adding a
# directory that defines `const arb_game arb_game_<id>`. src/HACKING.md has
# the developer's loop.

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
OPT     ?= -O2
SAN     ?=
# The library's own dependencies (arbiter.pc's Requires.private); msgpack-c
# is used by the interop test only and never by the library.
PKGS    := zlib libxml-2.0 libxxhash libsodium
TEST_PKGS := msgpack
# The shared library: ABI major (the SONAME) and full version.
ABI_MAJOR := 0
LIB_VERSION := $(shell sed -n 's/^\#define ARB_VERSION "\(.*\)"/\1/p' include/arbiter/version.h)
SONAME  := libarbiter.so.$(ABI_MAJOR)
DATADIR ?= $(PREFIX)/share/arbiter
MANDIR  ?= $(PREFIX)/share/man

CFLAGS_BASE := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
               -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g $(OPT) -fPIC $(SAN) \
               -Iinclude -Isrc
PKG_CFLAGS   = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS     = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS = $(shell pkg-config --cflags check $(TEST_PKGS) 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check $(TEST_PKGS) 2>/dev/null)
ALL_CFLAGS   = $(CFLAGS_BASE) $(PKG_CFLAGS) $(CFLAGS)
LIBS         = $(PKG_LIBS) -lpthread -lm -ldl

GAMES    := $(sort $(patsubst src/games/%/,%,$(dir $(wildcard src/games/*/*.c))))
LIB_SRC  := $(wildcard src/core/*.c) $(foreach g,$(GAMES),$(wildcard src/games/$(g)/*.c)) \
            $(wildcard src/replay/*.c) $(wildcard src/adapter/*.c) $(wildcard src/conform/*.c) \
            $(wildcard src/analyze/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/check_*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/games.o $(BUILD)/obj/gen/report_assets.o \
            $(BUILD)/obj/gen/report_tables.o
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# test objects are cached, not intermediate files make would delete
.SECONDARY: $(TEST_SRC:tests/%.c=$(BUILD)/obj/tests/%.o)
ARBITER  := $(BUILD)/arbiter

.PHONY: all deps demo check check-unit check-conform check-all sanitize tsan tsan-run install uninstall check-install man clean bench fuzz valgrind slurm-deps check-slurm
.DEFAULT_GOAL := all
all: $(BUILD)/libarbiter.a $(BUILD)/libarbiter.so $(ARBITER)

# --- dependencies -----------------------------------------------------------
# pkg-config name : Debian package(s)
DEP_MAP := zlib:zlib1g-dev msgpack:libmsgpack-dev libxml-2.0:libxml2-dev \
           check:check,libsubunit-dev libxxhash:libxxhash-dev libsodium:libsodium-dev
# command : Debian package, for the report tests (tests/report: prove,
# xmllint, node and npm read the conformance reports as CI systems do)
CMD_DEP_MAP := prove:perl xmllint:libxml2-utils node:nodejs npm:npm
# check-hash's Python reads XXH3-64 from Debian's python3-xxhash, which only
# Debian's own interpreter sees (not a pyenv/venv python3 earlier in PATH).
HASH_PYTHON ?= /usr/bin/python3
deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	command -v man >/dev/null 2>&1 || missing="$$missing man-db"; \
	command -v cc >/dev/null 2>&1 || missing="$$missing gcc"; \
	for m in $(DEP_MAP); do pc=$${m%%:*}; pk=$$(echo $${m#*:} | tr , ' '); \
	  pkg-config --exists $$pc 2>/dev/null || missing="$$missing $$pk"; done; \
	/usr/bin/python3 -c 'import nacl.signing' >/dev/null 2>&1 || missing="$$missing python3-nacl"; \
	for m in $(CMD_DEP_MAP); do command -v $${m%%:*} >/dev/null 2>&1 || missing="$$missing $${m#*:}"; done; \
	$(HASH_PYTHON) -c 'import xxhash' >/dev/null 2>&1 || missing="$$missing python3-xxhash"; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	fi

# --- library and binary -----------------------------------------------------
# Every object's header dependencies are exactly what the compiler read
# (-MMD writes obj/….d beside it, included at the end of this file): touching
# one header rebuilds only the objects that include it.
$(BUILD)/obj/%.o: %.c | $(BUILD)/.dirs
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# Where an installed arbiter finds its data (the conformance suite).
$(BUILD)/obj/src/conform/suite_path.o: ALL_CFLAGS += -DARB_DATADIR='"$(DATADIR)"'
$(BUILD)/obj/src/conform/suite_path.o: $(BUILD)/.datadir
$(shell mkdir -p $(BUILD); echo '$(DATADIR)' | cmp -s - $(BUILD)/.datadir || echo '$(DATADIR)' > $(BUILD)/.datadir)

$(BUILD)/gen/games.c: Makefile | $(BUILD)/.dirs
	@mkdir -p $(dir $@)
	@{ echo '/* generated by the Makefile from src/games/: do not edit */'; \
	   echo '#include "arbiter/game.h"'; \
	   for g in $(GAMES); do echo "extern const arb_game arb_game_$$g;"; done; \
	   echo 'const arb_game *const arb__games[] = {'; \
	   for g in $(GAMES); do echo "    &arb_game_$$g,"; done; \
	   echo '    NULL'; echo '};'; } > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/obj/gen/games.o: $(BUILD)/gen/games.c
	@mkdir -p $(dir $@)
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The HTML report's stylesheet and script (src/analyze/report.css, .js) as
# C string arrays, one line each (no over-long literal, no trigraph).
REPORT_ASSETS := src/analyze/report.css src/analyze/report.js
# A text file as the lines of a C string array (escaped, one per line).
C_LINES = sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/    "/' -e 's/$$/\\n",/'
$(BUILD)/gen/report_assets.c: $(REPORT_ASSETS) Makefile | $(BUILD)/.dirs
	@mkdir -p $(dir $@)
	@{ echo '/* generated by the Makefile from $(REPORT_ASSETS): do not edit */'; \
	   echo '#include <stddef.h>'; \
	   for f in $(REPORT_ASSETS); do n=$$(basename $$f | tr . _); \
	     echo "const char *const arb_an__$$n[] = {"; \
	     $(C_LINES) $$f; \
	     echo '    NULL'; echo '};'; done; } > $@.tmp && mv $@.tmp $@

# Each game's board layout (src/games/<id>/board.json: the zones the viewer
# draws and their place on the table; "=NAME" strings are the game header's
# constants, src/analyze/board_lines.awk) as lines, and the rule catalogs'
# rulebook citations (src/analyze/rule_cites.awk) for the ruling panel.
BOARD_LAYOUTS := $(sort $(wildcard src/games/*/board.json))
RULE_CATALOGS := $(sort $(wildcard conformance/*/rules.xml))
$(BUILD)/gen/report_tables.c: $(BOARD_LAYOUTS) $(wildcard src/games/*/*.h) $(RULE_CATALOGS) src/analyze/rule_cites.awk \
  src/analyze/board_lines.awk Makefile | $(BUILD)/.dirs
	@mkdir -p $(dir $@)
	@{ LC_ALL=C awk -f src/analyze/rule_cites.awk $(RULE_CATALOGS); \
	   for f in $(BOARD_LAYOUTS); do n=$$(basename $$(dirname $$f)); \
	     echo "static const char *const board_$$n[] = {"; \
	     awk -f src/analyze/board_lines.awk src/games/$$n/$$n.h $$f > $@.board || exit 1; \
	     $(C_LINES) $@.board; rm -f $@.board; \
	     echo '    NULL'; echo '};'; done; \
	   echo 'const arb_an_board_layout arb_an__board_layouts[] = {'; \
	   for f in $(BOARD_LAYOUTS); do n=$$(basename $$(dirname $$f)); echo "    { \"$$n\", board_$$n },"; done; \
	   echo '    { NULL, NULL }'; echo '};'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/report_tables.o: $(BUILD)/gen/report_tables.c
	@mkdir -p $(dir $@)
	@$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/obj/gen/report_assets.o: $(BUILD)/gen/report_assets.c
	@mkdir -p $(dir $@)
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/.dirs:
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/libarbiter.a: $(LIB_OBJ)
	@rm -f $@
	@echo "  AR      $@"
	@ar rcs $@ $^

# Only the public API is exported: the version script lists the defined
# global symbols that a public header names (internal arb_<id>__ and
# arb_<module>__ names stay local; tests/install checks the result).
$(BUILD)/libarbiter.map: $(LIB_OBJ) $(wildcard include/arbiter/*.h)
	@{ echo 'ARBITER_$(ABI_MAJOR) {'; echo '  global:'; \
	   nm -g --defined-only $(LIB_OBJ) | awk 'NF==3 && $$2 ~ /[TDRB]/ {print $$3}' | sort -u | \
	     comm -12 - $$(grep -ohE '\barb_[A-Za-z0-9_]+' include/arbiter/*.h | sort -u > $@.pub; echo $@.pub) | \
	     sed 's/.*/    &;/'; \
	   echo '  local: *;'; echo '};'; } > $@.tmp && rm -f $@.pub && mv $@.tmp $@

$(BUILD)/libarbiter.so.$(LIB_VERSION): $(LIB_OBJ) $(BUILD)/libarbiter.map
	@echo "  LD      $@"
	@$(CC) -shared $(SAN) -Wl,-soname,$(SONAME) -Wl,--version-script,$(BUILD)/libarbiter.map -o $@ $(LIB_OBJ) $(LIBS)

$(BUILD)/libarbiter.so: $(BUILD)/libarbiter.so.$(LIB_VERSION)
	@ln -sf libarbiter.so.$(LIB_VERSION) $(BUILD)/$(SONAME)
	@ln -sf $(SONAME) $@

$(ARBITER): $(CLI_OBJ) $(BUILD)/libarbiter.a
	@echo "  LD      $@"
	@$(CC) $(SAN) -rdynamic -o $@ $(CLI_OBJ) -Wl,--whole-archive $(BUILD)/libarbiter.a -Wl,--no-whole-archive $(LIBS) -ldl

# Regenerate the registry when the set of games changes.
$(shell mkdir -p $(BUILD); echo '$(GAMES)' | cmp -s - $(BUILD)/.games || echo '$(GAMES)' > $(BUILD)/.games)
$(BUILD)/gen/games.c: $(BUILD)/.games

# --- tests ------------------------------------------------------------------
# A test program is its own cached object (tests/*.h and the internal
# headers it reads come from its .d file) linked with the library.
$(BUILD)/obj/tests/%.o: tests/%.c | $(BUILD)/.dirs
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -MMD -MP -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(BUILD)/libarbiter.a
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(SAN) -o $@ $< $(BUILD)/libarbiter.a $(CHECK_LIBS) $(LIBS)

# --- test tiers (README "Running the tests") --------------------------------
# `make check` runs every class of test at counts that fit a few CPU
# minutes; `make check-all` runs the same targets at the full counts (what
# `make check` ran before the tiers existed); `make check-heavy` is only what
# check-all adds to check (CI runs check, then check-heavy). A count that is
# only a count is a variable:
#   ARB_TEST_GAMES      self-play games of each engine's property test (the
#                       test programs' default when unset is 200)
#   CROSSCHECK_MATCHES  matches per game through the reference adapter
#   HASH_SAMPLE         check-hash recomputes every Nth golden replay of each
#                       directory (1: the whole corpus)
ARB_TEST_GAMES     ?= 200
CROSSCHECK_MATCHES ?= 20
HASH_SAMPLE        ?= 10
FULL_GAMES         := 3000
FULL_CROSSCHECK    := 1000
FULL_COUNTS        := ARB_TEST_GAMES=$(FULL_GAMES) CROSSCHECK_MATCHES=$(FULL_CROSSCHECK) HASH_SAMPLE=1
ENGINE_TESTS       := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard $(GAMES:%=tests/check_%.c)))
CHECK_SUITES       := check-unit check-conform check-reports check-golden check-hostile check-format check-seal \
                      check-adapter check-hash check-organizer check-cmdtable check-readme check-demo \
                      check-catalog check-contract
.PHONY: check-suites check-heavy $(GAMES:%=check-%)

check-unit: $(TESTS) $(ARBITER)
	@fail=0; for t in $(TESTS); do \
	  case $$t in /*) ;; *) t=./$$t ;; esac; \
	  ARB_TEST_GAMES=$(ARB_TEST_GAMES) ARBITER=$(ARBITER) $$t || fail=1; done; \
	exit $$fail

check-suites: $(CHECK_SUITES)

# Everything the tests run, compiled and linked, nothing run (.ci/run builds
# it with clang and -Werror).
.PHONY: check-build
check-build: all $(TESTS) $(BUILD)/format_tables $(BUILD)/bench $(BUILD)/tests/toy_plugin.so $(BUILD)/tests/toy_plugin_c1.so

check: deps
	@$(MAKE) --no-print-directory check-suites
	@$(MAKE) --no-print-directory check-install

check-all: deps
	@$(MAKE) --no-print-directory $(FULL_COUNTS) check-suites
	@$(MAKE) --no-print-directory check-install

# What check-all runs beyond check: the engines' property cases at the full
# count, the 1000-match crosschecks alone, the golden replays check-hash did
# not sample.
check-heavy: $(ENGINE_TESTS) $(ARBITER) $(BUILD)/tests/toy_plugin.so $(BUILD)/tests/toy_plugin_c1.so
	@fail=0; for t in $(ENGINE_TESTS); do \
	  case $$t in /*) ;; *) t=./$$t ;; esac; \
	  CK_RUN_CASE=property ARB_TEST_GAMES=$(FULL_GAMES) ARBITER=$(ARBITER) $$t || fail=1; done; \
	exit $$fail
	@ARBITER=$(ARBITER) CROSSCHECK_MATCHES=$(FULL_CROSSCHECK) CROSSCHECK_ONLY=1 sh tests/adapter/check.sh
	@ARBITER=$(ARBITER) nice $(HASH_PYTHON) tests/hash/check.py --jobs 2 --sample $(HASH_SAMPLE) --unsampled

# One game's loop for an engine developer (a few seconds): its unit tests'
# `rules` case (tests/check_<game>.c, when the game has one yet) and its
# conformance cases. `make check-naramo` etc.
define CHECK_GAME
check-$(1): $(if $(wildcard tests/check_$(1).c),$(BUILD)/tests/check_$(1)) $(ARBITER)
	$(if $(wildcard tests/check_$(1).c),@CK_RUN_CASE=rules ARBITER=$(ARBITER) $(BUILD)/tests/check_$(1))
	@$(ARBITER) conform --quiet --game $(1) --jobs 2
endef
$(foreach g,$(GAMES),$(eval $(call CHECK_GAME,$(g))))

# The golden corpus (replays/golden/<game>/MANIFEST): every replay verifies
# and reproduces its manifest outcome and final hash under this engine.
# tests/golden/generate.sh rebuilds it; README "Changing a rule" has the
# engine developer's workflow (arbiter reseal, tests/golden/manifest.sh).
# Sealed replays: the signed sample in replays/sealed/ verifies under its
# key with arbiter and with replays/tcgr_dump.py (python3-nacl, installed by
# `make deps`: the independent reader checks signatures from FORMAT.md alone).
.PHONY: check-seal
# the organizer's day: pack, unpack (tests/organizer.sh)
check-organizer: $(ARBITER)
	@ARBITER=$(ARBITER) bash tests/organizer.sh

# the command table: completion, --help, parser and man SYNOPSIS agree
.PHONY: check-cmdtable
check-cmdtable: $(ARBITER)
	@ARBITER=$(ARBITER) bash tests/cli/cmdtable.sh

check-seal: $(ARBITER)
	@ARBITER=$(ARBITER) bash tests/seal/run.sh

# Every fenced code block of README.md, run as its annotation says
# (tests/readme/run.sh: run, transcript, c, file, covered-by); the blocks
# run from a checkout use these test programs and the toy plug-in.
# selftest.sh: run.sh fails on each broken block of tests/readme/broken.md.
# The rule catalogs conformance/<game>/rules.xml are what
# conformance/tools/catalog2xml.py makes of their source in the repository
# (conformance/catalog/: rules-catalog.md and the rulebooks).
.PHONY: check-readme check-demo check-catalog
check-catalog:
	@sh tests/catalog/check.sh

check-readme: all $(BUILD)/tests/check_naramo $(BUILD)/tests/check_brainstorm $(BUILD)/tests/toy_plugin.so
	@ARBITER=$(ARBITER) CC="$(CC)" READMETEST_CFLAGS="$(SAN)" bash tests/readme/run.sh
	@ARBITER=$(ARBITER) CC="$(CC)" READMETEST_CFLAGS="$(SAN)" bash tests/readme/selftest.sh

# README's first command: `make demo` itself, its log kept in $(BUILD).
check-demo: all
	@$(MAKE) --no-print-directory demo >$(BUILD)/demo.log 2>&1 || { tail -n 20 $(BUILD)/demo.log; echo "demo: FAIL: make demo (log: $(BUILD)/demo.log)"; exit 1; }
	@[ -s $(DEMO_HTML) ] && grep -q "Open the judge's report" $(BUILD)/demo.log || { echo "demo: FAIL: no report $(DEMO_HTML)"; exit 1; }
	@echo "demo: make demo recorded, verified and reported $(DEMO_FILE)"
.PHONY: check-golden check-hostile
check-golden: $(ARBITER)
	@ARBITER=$(ARBITER) bash tests/golden/check.sh

# The engine-neutral state hash (tests/hash/README.md): statehash.py computes
# every golden checkpoint's hash from `arbiter state --json` alone, as
# conformance/<game>/STATE.md documents it, and must agree with the engine.
.PHONY: check-hash
check-hash: $(ARBITER)
	@$(HASH_PYTHON) tests/hash/statehash.py --selftest
	@ARBITER=$(ARBITER) nice $(HASH_PYTHON) tests/hash/check.py --jobs 2 --sample $(HASH_SAMPLE)

# replays/FORMAT.md's card-pool, preset and outcome tables (which version-2
# files index) equal the engines', and the independent reader
# replays/tcgr_dump.py reads the v2 corpus and an archive like arbiter does.
.PHONY: check-format
$(BUILD)/format_tables: $(BUILD)/obj/tests/format_tables.o $(BUILD)/libarbiter.a
	@$(CC) $(SAN) -o $@ $< $(BUILD)/libarbiter.a $(LIBS)
check-format: $(ARBITER) $(BUILD)/format_tables
	@TABLES=$(BUILD)/format_tables ARBITER=$(ARBITER) bash tests/format_tables.sh

# Hostile inputs (tests/hostile/): each gets its documented exit code and
# error, within a memory limit, without a crash.
check-hostile: $(ARBITER)
	@ARBITER=$(ARBITER) bash tests/hostile/run.sh

# The engine protocol (conformance/ADAPTER.md) end to end for every game:
# conform --engine and verify --engine through the reference adapter,
# crosscheck over CROSSCHECK_MATCHES matches (two shards at once; 20 in
# check, 1000 in check-all and check-heavy), every
# engine-serve --fault caught, broken adapters reported. Prints matches/s.
.PHONY: check-adapter
check-adapter: $(ARBITER) $(BUILD)/tests/toy_plugin.so $(BUILD)/tests/toy_plugin_c1.so $(BUILD)/tests/toy_plugin_c2.so
	@ARBITER=$(ARBITER) PLUGIN=$(BUILD)/tests/toy_plugin.so PLUGIN_OLD=$(BUILD)/tests/toy_plugin_c1.so \
	  PLUGIN_C2=$(BUILD)/tests/toy_plugin_c2.so \
	  CROSSCHECK_MATCHES=$(CROSSCHECK_MATCHES) sh tests/adapter/check.sh

# The test game (tests/testgame.h) as an in-process plug-in engine (arbiter/plugin.h), and one
# built for another contract version (refused).
$(BUILD)/tests/toy_plugin.so: tests/toy_plugin.c tests/testgame.h $(wildcard include/arbiter/*.h)
	@mkdir -p $(dir $@)
	@echo "  PLUGIN  $@"
	@$(CC) $(ALL_CFLAGS) -shared -Itests -o $@ $<
$(BUILD)/tests/toy_plugin_c1.so: tests/toy_plugin.c tests/testgame.h $(wildcard include/arbiter/*.h)
	@mkdir -p $(dir $@)
	@$(CC) $(ALL_CFLAGS) -shared -Itests -DTOY_PLUGIN_CONTRACT=1 -o $@ $<
# ... and one built as arbiter 0.2 built plug-ins (contract 2: shimmed).
$(BUILD)/tests/toy_plugin_c2.so: tests/toy_plugin.c tests/testgame.h $(wildcard include/arbiter/*.h)
	@mkdir -p $(dir $@)
	@$(CC) $(ALL_CFLAGS) -shared -Itests -DTG_CONTRACT=2 -DTOY_PLUGIN_CONTRACT=2 -o $@ $<

# The engine contract's tree-wide promises (tests/contract/check.sh): no game
# named outside src/games, no abort/exit in the library, a plug-in built from
# one directory outside the checkout loads and plays.
.PHONY: check-contract
check-contract: $(ARBITER)
	@ARBITER=$(ARBITER) CC="$(CC)" sh tests/contract/check.sh

# Conformance suite: lint every XML file, then run every case of every game
# that has an engine in this build (others SKIP and are not coverage-gated).
check-conform: $(ARBITER)
	@$(ARBITER) conform lint
	@$(ARBITER) conform --quiet --jobs 4

# The conformance reports as CI reads them: prove and npm tap-parser on the
# TAP, xmllint + the Jenkins JUnit XSD on the JUnit, JSON.parse on the JSON,
# for a passing and a failing run (tests/report/README.md). report-deps
# installs the pinned npm tools into tests/report/node_modules (npm ci).
.PHONY: check-reports report-deps
REPORT_NODE := tests/report/node_modules/tap-parser/package.json
$(REPORT_NODE): tests/report/package.json tests/report/package-lock.json
	@echo "  NPM     tests/report (npm ci)"
	@cd tests/report && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@
report-deps: $(REPORT_NODE)
check-reports: $(ARBITER) $(REPORT_NODE)
	@ARBITER=$(ARBITER) sh tests/report/check_reports.sh

# The judge's viewer (arbiter report) in headless Chromium (Debian package
# chromium) driven by npm's playwright-core (installed into build/npm on
# first use, no browser download; needs nodejs and npm): every game's board
# against `arbiter state`, stepping, #r<INDEX>, seat files, a tampered file.
# Screenshots in build/report-shots/. Not part of `make check`; CI runs it.
.PHONY: check-browser
check-browser: $(ARBITER)
	@ARBITER=$(ARBITER) sh tests/report_browser.sh

# The suites of `make check` at its counts (crosscheck: 100 matches a game)
# under the sanitizers. ASan/UBSan run the code 2-4x slower: Check's
# per-test timeouts (hang guards, not speed tests) are stretched to match.
sanitize: deps
	@CK_TIMEOUT_MULTIPLIER=4 $(MAKE) --no-print-directory BUILD=build/san OPT=-O1 CROSSCHECK_MATCHES=100 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DARB_CHECK_STATE" \
	  check-suites

# Branch coverage of each engine's rules code (every file of src/games/<g>/
# but cards, narrate, agent, export and game): a gcov build in
# $(COVERAGE_BUILD) (-O0 --coverage) runs, per game and from zero counters,
# the conformance suite, then `crosscheck --game G --games 100` through the
# loopback engine-serve, and prints both "taken at least once" figures and
# crosscheck's ratio to the suite's against 97 % (tests/coverage/run.sh;
# exit 1 when a game misses it). Not part of `make check`.
COVERAGE_BUILD ?= build/cov
.PHONY: coverage
coverage: deps
	@$(MAKE) --no-print-directory BUILD=$(COVERAGE_BUILD) OPT=-O0 SAN=--coverage LDFLAGS=--coverage $(COVERAGE_BUILD)/arbiter
	@sh tests/coverage/run.sh $(COVERAGE_BUILD)

# ThreadSanitizer, in build/tsan: the unit tests (check_toolkit plays every
# engine in parallel threads while others read presets and cards), verify
# --jobs 4 over the golden corpus, conform -j 4, and play --games as four
# shards at once per game. Any data race report fails the target
# (halt_on_error, exit code 66). The property tests play fewer games here
# (ARB_TEST_GAMES=60): TSan looks at the threaded paths, which the counts of
# `make check` do not add to.
TSAN_ENV := TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" CK_TIMEOUT_MULTIPLIER=20 \
            ARB_TEST_GAMES=60
tsan: deps
	@$(MAKE) --no-print-directory BUILD=build/tsan OPT=-O1 \
	  SAN="-fsanitize=thread -fno-omit-frame-pointer" tsan-run

tsan-run: $(TESTS) $(ARBITER)
	@set -e; export $(TSAN_ENV); \
	for t in $(TESTS); do case $$t in /*) ;; *) t=./$$t ;; esac; \
	  echo "  TSAN    $$t"; ARBITER=$(ARBITER) $$t >$(BUILD)/tsan-unit.log 2>&1 || { cat $(BUILD)/tsan-unit.log; exit 1; }; done; \
	echo "  TSAN    verify --jobs 4 replays/golden (a directory at a time: a rules-version copy is the same match)"; \
	for d in replays/golden/*/; do $(ARBITER) verify --quiet --jobs 4 $$d*.tcgr; done; \
	echo "  TSAN    stats -j 4, select -j 4 (the ordered pool)"; \
	$(ARBITER) stats -j 4 replays/golden/naramo >/dev/null; \
	$(ARBITER) select -j 4 --winner P1 --verified replays/golden/catalyst/v2 >/dev/null; \
	echo "  TSAN    conform -j 4"; \
	$(ARBITER) conform -j 4 >$(BUILD)/tsan-conform.log || { tail -n 20 $(BUILD)/tsan-conform.log; exit 1; }; \
	d=$(BUILD)/tsan-play; rm -rf $$d; mkdir -p $$d; \
	for g in $(GAMES); do \
	  echo "  TSAN    play --game $$g --games 8 (4 shards at once)"; pids=""; \
	  for k in 0 1 2 3; do $(ARBITER) play --game $$g --games 8 --shard $$k/4 --seed 7 -o $$d >/dev/null & pids="$$pids $$!"; done; \
	  for p in $$pids; do wait $$p; done; \
	done; \
	$(ARBITER) verify --quiet --jobs 4 $$d/*.tcgr; \
	echo "  TSAN    play --games -j 4 (files and an archive)"; \
	$(ARBITER) play --game operator --games 16 --seed 3 -j 4 -o $$d/j >/dev/null; \
	$(ARBITER) play --game naramo --games 64 --seed 3 -j 4 --archive -o $$d/j.tcgr >/dev/null; \
	echo "  TSAN    report DIR -j 4"; \
	$(ARBITER) report -j 4 replays/golden/brainstorm/v2 -o $$d/r >/dev/null 2>&1; \
	echo "  TSAN    crosscheck -j 2 (one adapter per job)"; \
	$(ARBITER) crosscheck -j 2 --game naramo --games 8 --engine "$(ARBITER) engine-serve --game naramo" >/dev/null; \
	echo "tsan: unit tests, verify --jobs 4, stats/select/play/report -j 4, crosscheck -j 2, conform -j 4 and parallel play --games clean"

# Unit tests and a verify of every golden replay under valgrind: any memory
# error or definite/indirect leak fails (exit 99). Check runs in-process
# (CK_FORK=no) so valgrind sees the tests themselves.
VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
valgrind: deps
	@command -v valgrind >/dev/null 2>&1 || { echo "valgrind: install the valgrind package"; exit 1; }
	@$(MAKE) --no-print-directory $(TESTS) $(ARBITER)
	@fail=0; for t in $(TESTS); do echo "  VALGRIND $$t"; \
	  CK_FORK=no ARBITER=$(ARBITER) $(VALGRIND) ./$$t >$$t.vg.log 2>&1 || { fail=1; tail -n 30 $$t.vg.log; }; \
	  grep -h "^[0-9]*%: Checks" $$t.vg.log || true; done; \
	echo "  VALGRIND arbiter verify replays/golden/*/*.tcgr"; \
	for d in replays/golden/*/; do $(VALGRIND) $(ARBITER) verify --quiet $$d*.tcgr || fail=1; done; \
	exit $$fail

# --- Slurm: bulk verification on a real single-node cluster ---------------
# Needs the Debian packages munge, slurmctld, slurmd and slurm-client (root).
SLURM_PKGS := munge slurmctld slurmd slurm-client
slurm-deps:
	@command -v slurmctld >/dev/null 2>&1 && command -v sbatch >/dev/null 2>&1 && command -v munged >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $(SLURM_PKGS) >/dev/null; }

check-slurm: deps slurm-deps
	@$(MAKE) --no-print-directory all
	@tests/slurm/test_slurm.sh $(ARBITER)

# --- mutation testing (tests/mutation/README.md) ---------------------------
# Mutants of each engine's rules sources, scored by the conformance suite
# alone and with the game's unit tests. MUTANTS per game (0: all), SEED,
# GAMES (comma list); MUTATION_FLOORS="--floor-conform P --floor-unit P"
# fails the run below them (CI: .ci/run); MUTATION_JOBS mutants at once
# (default: one per core; the report is in sample order whatever it is).
MUTANTS ?= 20
SEED    ?= 1
GAMES_M ?=
MUTATION_FLOORS ?=
MUTATION_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
.PHONY: mutation
# The unit tests run only for the mutants conformance let through (a few a
# game), so they can afford the full count (MUTATION_GAMES): the property
# tests then kill what check's 200 games might miss.
MUTATION_GAMES ?= $(FULL_GAMES)
mutation: $(ARBITER) $(BUILD)/libarbiter.a
	@ARB_TEST_GAMES=$(MUTATION_GAMES) nice python3 tests/mutation/mutate.py --mutants $(MUTANTS) --seed $(SEED) --build $(BUILD) --jobs $(MUTATION_JOBS) \
	  $(if $(GAMES_M),--games $(GAMES_M)) --cc "$(CC)" --cflags "$(ALL_CFLAGS)" --libs "$(LIBS)" \
	  --check-cflags "$(CHECK_CFLAGS)" --check-libs "$(CHECK_LIBS)" --san "$(SAN)" \
	  --lib-objs "$(LIB_OBJ)" --cli-objs "$(CLI_OBJ)" $(MUTATION_FLOORS)

# --- main job ---------------------------------------------------------------
# Play a seeded naramo match, DEFENSE (defense-doe) against ASSAULT
# (assault-noobia), between the greedy agents on the clock; record it under
# $(BUILD)/demo, verify it, print its info and the first lines of the
# narration, write the judge's HTML report and say how to open it.
# DEMO_SEED picks another match.
DEMO_SEED ?= 2026
DEMO_FILE := $(BUILD)/demo/naramo-greedy-$(DEMO_SEED).tcgr
DEMO_HTML := $(BUILD)/demo/naramo-greedy-$(DEMO_SEED).html
DEMO_PLAY := play --game naramo --seed $(DEMO_SEED) --agents greedy --decks defense-doe,assault-noobia --names alice,bob --timed
demo: deps
	@$(MAKE) --no-print-directory all
	@$(ARBITER) games
	@mkdir -p $(BUILD)/demo
	@echo; echo "== arbiter $(DEMO_PLAY) -o $(DEMO_FILE)"
	@$(ARBITER) $(DEMO_PLAY) -o $(DEMO_FILE)
	@echo; echo "== arbiter verify $(DEMO_FILE)"
	@$(ARBITER) verify $(DEMO_FILE)
	@echo; echo "== arbiter info $(DEMO_FILE)"
	@$(ARBITER) info $(DEMO_FILE)
	@echo; echo "== arbiter log $(DEMO_FILE) (first 25 lines)"
	@$(ARBITER) log $(DEMO_FILE) | head -n 25
	@echo; echo "== arbiter report $(DEMO_FILE) -o $(DEMO_HTML)"
	@$(ARBITER) report $(DEMO_FILE) -o $(DEMO_HTML)
	@echo; echo "Open the judge's report in a browser: xdg-open $(DEMO_HTML)"
	@echo "(or file://$(abspath $(DEMO_HTML)); it is one self-contained page, no network)"

# --- fuzzing ----------------------------------------------------------------
# Every tests/fuzz/fuzz_NAME.c is a libFuzzer target over the library (and
# the CLI's objects, as $(BUILD)/fuzz/libcli.a, for the targets that drive
# subcommands in-process) built with clang and ASan+UBSan in $(BUILD)/fuzz;
# each runs FUZZ_SECONDS on a copy of its seed corpus tests/fuzz/corpus_NAME/
# (findings stay in $(BUILD)/fuzz, never in the source tree). The last lines
# of each log (executions/s, coverage) are printed; `make fuzz` fails on any
# crash, leak, sanitizer report, timeout or broken invariant.
FUZZ_SECONDS ?= 30
FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_CLI_OBJ  = $(filter-out $(BUILD)/obj/src/cli/main.o,$(CLI_OBJ))
$(BUILD)/libcli.a: $(FUZZ_CLI_OBJ)
	@rm -f $@
	@ar rcs $@ $^
fuzz: deps
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "fuzz: $(FUZZ_CC) is required (libFuzzer)"; exit 1; }
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=$(BUILD)/fuzz OPT=-O1 \
	  SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(BUILD)/fuzz/libarbiter.a $(BUILD)/fuzz/libcli.a
	@set -e; fail=0; for f in $(FUZZ_SRC); do n=$$(basename $$f .c); t=$${n#fuzz_}; \
	  echo "  FUZZ    $$n ($(FUZZ_SECONDS) s)"; \
	  $(FUZZ_CC) $(CFLAGS_BASE) $(PKG_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $(BUILD)/fuzz/$$n $$f \
	    $(BUILD)/fuzz/libcli.a $(BUILD)/fuzz/libarbiter.a $(LIBS); \
	  rm -rf $(BUILD)/fuzz/corpus_$$t; mkdir -p $(BUILD)/fuzz/corpus_$$t; \
	  if [ -d tests/fuzz/corpus_$$t ]; then cp tests/fuzz/corpus_$$t/* $(BUILD)/fuzz/corpus_$$t/ 2>/dev/null || true; fi; \
	  rc=0; (cd $(BUILD)/fuzz && ./$$n -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=512 -timeout=10 \
	     -print_final_stats=1 corpus_$$t >$$n.log 2>&1) || rc=$$?; \
	  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' $(BUILD)/fuzz/$$n.log | tr '\n' ' '; \
	  grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[^ ]+' $(BUILD)/fuzz/$$n.log | tail -n 1; \
	  if [ $$rc -ne 0 ]; then tail -n 30 $(BUILD)/fuzz/$$n.log; \
	    echo "fuzz: $$n FAILED (exit $$rc): see $(BUILD)/fuzz/$$n.log and the crash-* file there;"; \
	    echo "      add the input to tests/fuzz/corpus_$$t/ and a regression test"; fail=1; fi; done; \
	exit $$fail

# --- benchmarks (never asserted by a test) ---------------------------------
$(BUILD)/bench: $(BUILD)/obj/tests/bench/bench.o $(BUILD)/libarbiter.a
	@echo "  LD      $@"
	@$(CC) $(SAN) -o $@ $< $(BUILD)/libarbiter.a $(LIBS)

bench: deps
	@$(MAKE) --no-print-directory $(BUILD)/bench $(ARBITER)
	@$(BUILD)/bench --arbiter $(ARBITER)

# --- install ----------------------------------------------------------------
# Library (static, and shared with SONAME $(SONAME) and its symlinks),
# public headers, arbiter.pc (src/cli/share/mkpc.sh: with an rpath when
# PREFIX/lib is not a system library directory), the binary, man pages generated from the
# commands' --help, bash and zsh completion, the sbatch scripts and the
# conformance suite with its schemas under $(DATADIR) (where an installed
# `arbiter conform` finds it; ARBITER_CONFORMANCE overrides).
# `make uninstall` removes exactly what this installs.
MAN_DIR := $(BUILD)/man
man: $(ARBITER) src/cli/share/mkman.sh
	@rm -rf $(MAN_DIR) && PREFIX=$(PREFIX) sh src/cli/share/mkman.sh $(ARBITER) $(MAN_DIR)

# (not catalog/: the rule catalogs' source, which the installed rules.xml are generated from)
CONF_FILES := $(shell cd conformance 2>/dev/null && find . -path ./catalog -prune -o -type f \( -name '*.xml' -o -name '*.xsd' -o -name '*.md' \) -print | sort)
# The directories install writes into. Those that did not exist yet (and
# their missing parents) are listed, deepest first, in
# $(DATADIR)/installed-dirs, so uninstall removes exactly the directories
# install created (and only while empty) and nothing that was there before.
INSTALL_DIRS := $(PREFIX)/lib/pkgconfig $(PREFIX)/include/arbiter $(PREFIX)/bin $(DATADIR) $(MANDIR)/man1 \
                $(PREFIX)/share/bash-completion/completions $(PREFIX)/share/zsh/site-functions
INSTALLED_DIRS = $(DESTDIR)$(DATADIR)/installed-dirs
install: all man
	@{ cat $(INSTALLED_DIRS) 2>/dev/null; for d in $(INSTALL_DIRS); do \
	     while [ ! -d "$(DESTDIR)$$d" ] && [ "$$d" != / ] && [ "$$d" != . ]; do echo "$$d"; d=$$(dirname "$$d"); done; \
	   done; } | awk '!seen[$$0]++ { print length($$0) "\t" $$0 }' | sort -k1,1nr -k2 | cut -f2- >$(BUILD)/installed-dirs
	install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS))
	install -m 644 $(BUILD)/installed-dirs $(INSTALLED_DIRS)
	install -m 644 $(BUILD)/libarbiter.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libarbiter.so.$(LIB_VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libarbiter.so.$(LIB_VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libarbiter.so
	install -m 644 include/arbiter/*.h $(DESTDIR)$(PREFIX)/include/arbiter/
	install -m 755 $(ARBITER) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 src/cli/share/arbiter.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/arbiter
	install -m 644 src/cli/share/_arbiter $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_arbiter
	$(ARBITER) slurm-script verify > $(DESTDIR)$(DATADIR)/arbiter-verify.sbatch
	$(ARBITER) slurm-script play > $(DESTDIR)$(DATADIR)/arbiter-play.sbatch
	@cd conformance && for f in $(CONF_FILES); do \
	  install -D -m 644 $$f $(DESTDIR)$(DATADIR)/conformance/$$f || exit 1; done
	@sh src/cli/share/mkpc.sh '$(PREFIX)' '$(LIB_VERSION)' $(PKGS) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/arbiter.pc
	@command -v ldconfig >/dev/null 2>&1 && [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && ldconfig || true

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libarbiter.a $(DESTDIR)$(PREFIX)/lib/libarbiter.so \
	      $(DESTDIR)$(PREFIX)/lib/$(SONAME) $(DESTDIR)$(PREFIX)/lib/libarbiter.so.$(LIB_VERSION) \
	      $(DESTDIR)$(PREFIX)/lib/pkgconfig/arbiter.pc $(DESTDIR)$(PREFIX)/bin/arbiter \
	      $(DESTDIR)$(PREFIX)/share/bash-completion/completions/arbiter \
	      $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_arbiter
	rm -f $(DESTDIR)$(MANDIR)/man1/arbiter.1 $(DESTDIR)$(MANDIR)/man1/arbiter-*.1
	@dirs=$$(cat $(INSTALLED_DIRS) 2>/dev/null || true); \
	rm -rf $(DESTDIR)$(PREFIX)/include/arbiter $(DESTDIR)$(DATADIR); \
	for d in $$dirs; do [ -d "$(DESTDIR)$$d" ] && rmdir "$(DESTDIR)$$d" 2>/dev/null; done; true

# The installed tool from outside the checkout: install into a temporary
# prefix, run the README tour there, build the server example with
# pkg-config, run conform, check the SONAME and the exported symbols,
# render `man arbiter`, uninstall.
check-install: all
	@bash tests/install/test_install.sh

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
