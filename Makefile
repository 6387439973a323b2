# seekscope — plain Makefile, dependencies through pkg-config, objects out of tree in build/.
#   make            build ./seekscope
#   make check      build and run every test (unit, render, integration; root-only ones skip
#                   with a message when not root)
#   make sanitize   build with ASan+UBSan into build-san/ and run the tests there
#   make valgrind   the unit tests and fuzz replayers under valgrind memcheck
#   make fuzz       libFuzzer targets (clang) into build-fuzz/fuzz/; with FUZZ_SECONDS=N or
#                   FUZZ_RUNS=N also run each target (FUZZ_TARGETS, FUZZ_JOBS) on a copy of
#                   its seed corpus, see tests/fuzz/run-fuzz.sh
#   make demo       XFS agcount=1 vs agcount=4 comparison into out/ (see samples/)
#   make V=1        show the commands
PKGS      := libtracefs libtraceevent libtracecmd cairo libarchive ext2fs blkid zlib
CC        ?= cc
BUILD     ?= build
PREFIX    ?= /usr/local
CFLAGS    ?= -O2 -g
WARN      := -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CPPFLAGS  += -Iinclude -Icollector -Irender -D_GNU_SOURCE
ALL_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) $(PKG_CFLAGS) -MMD -MP
LDLIBS    += $(PKG_LIBS) -lm -lpthread

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

LIB_SRCS  := $(filter-out collector/main.c,$(wildcard collector/*.c render/*.c))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ  := $(BUILD)/collector/main.o
LIB       := $(BUILD)/libseekscope.a
BIN       := seekscope
TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_BINS := $(TEST_SRCS:%.c=$(BUILD)/%)
TOOLS     := $(BUILD)/tests/tools/gen-trace $(BUILD)/tests/tools/gen-blktrace

# Fuzz targets (tests/fuzz/fuzz_<name>.c).  Under the ordinary compiler each becomes a replayer
# that runs its seed corpus and every crasher found so far (tests/fuzz/regress/<name>/).
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_HDRS := $(wildcard tests/fuzz/*.h)
REPLAY_BINS := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/replay_%)
FUZZ_CC   ?= clang
FUZZ_BUILD := build-fuzz
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz/fuzz_%)
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# --child-silent-after-fork: the trace-cmd reader tries damaged files in a child that may crash
VALGRIND  := valgrind -q --error-exitcode=1 --child-silent-after-fork=yes --leak-check=full \
	--suppressions=$(CURDIR)/tests/valgrind.supp \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect

.PHONY: all check check-run unit sanitize valgrind valgrind-run fuzz fuzz-build clean install deps demo tools
all: $(BIN)

# Debian packages (installs what is missing when run as root; says what to install otherwise).
deps:
	$(Q)tests/install-deps.sh

$(BUILD)/%.o: %.c
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(MAIN_OBJ) $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/unit/%: tests/unit/%.c $(LIB) tests/unit/tap.h
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

# Test tools: synthetic trace generators for the render tests and the benchmarks.
$(BUILD)/tests/tools/%: tests/tools/%.c $(LIB)
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

tools: $(TOOLS)

$(BUILD)/tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(FUZZ_HDRS) $(LIB)
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/fuzz \
		-DREPLAY_DIRS='"$(CURDIR)/tests/fuzz/corpus/$*:$(CURDIR)/tests/fuzz/regress/$*"' \
		-o $@ $< tests/fuzz/replay_main.c $(LIB) $(LDFLAGS) $(LDLIBS)

# Every test prints TAP; tests/run-tests collects the results and prints "N passed, N failed".
# `check` first makes sure the packages are there, then builds with a fresh pkg-config reading.
check: deps
	$(Q)$(MAKE) --no-print-directory check-run

check-run: $(BIN) $(TEST_BINS) $(REPLAY_BINS) $(TOOLS)
	$(Q)SEEKSCOPE=$(CURDIR)/$(BIN) GEN_TRACE=$(CURDIR)/$(BUILD)/tests/tools/gen-trace \
		GEN_BLKTRACE=$(CURDIR)/$(BUILD)/tests/tools/gen-blktrace \
		tests/run-tests $(TEST_BINS) $(REPLAY_BINS) $(sort $(wildcard tests/cli/*.sh)) \
		$(sort $(wildcard tests/integration/*.sh))

unit: $(TEST_BINS) $(REPLAY_BINS)
	$(Q)tests/run-tests $(TEST_BINS) $(REPLAY_BINS)

# Library-internal leaks (fontconfig caches, libtracefs) are suppressed in tests/lsan.supp;
# full malloc stacks (slow unwind) so that the suppressions see the library frames.
sanitize: deps
	$(Q)ASAN_OPTIONS=fast_unwind_on_malloc=0 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		$(MAKE) --no-print-directory BUILD=build-san BIN=build-san/seekscope \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" check-run

# Unit tests and fuzz replayers under valgrind memcheck: any error or definite/indirect leak
# fails the test (an unoptimised build of its own, so that valgrind sees every access; the
# binary some unit tests run is built there too, and runs outside valgrind).
valgrind: deps
	$(Q)$(MAKE) --no-print-directory BUILD=build-vg BIN=build-vg/seekscope CFLAGS="-O0 -g" \
		valgrind-run

valgrind-run: $(BIN) $(TEST_BINS) $(REPLAY_BINS)
	$(Q)SEEKSCOPE=$(CURDIR)/$(BIN) VALGRIND="$(VALGRIND)" tests/run-tests $(TEST_BINS) $(REPLAY_BINS)

# libFuzzer builds: the library with coverage instrumentation and ASan+UBSan, one binary per
# target.  FUZZ_SECONDS / FUZZ_RUNS run them (tests/fuzz/run-fuzz.sh prints the figures).
fuzz: deps
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
		CFLAGS="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" fuzz-build
ifneq ($(FUZZ_SECONDS)$(FUZZ_RUNS),)
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_JOBS=$(FUZZ_JOBS) \
		tests/fuzz/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_TARGETS)
endif

fuzz-build: $(FUZZ_BINS)

$(FUZZ_BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_HDRS) $(LIB)
	$(call msg,FUZZ,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/fuzz -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< $(LIB) $(LDLIBS)

# The headline picture: XFS agcount=1 vs agcount=4 on loop devices (as root; otherwise the
# shipped sample traces are drawn).  Output in out/.
demo: deps
	$(Q)$(MAKE) --no-print-directory $(BIN)
	$(Q)samples/agcount-compare.sh -o out

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)

clean:
	rm -rf build build-san build-vg $(FUZZ_BUILD) $(BIN)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
