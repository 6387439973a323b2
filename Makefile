# seekscope — plain Makefile, dependencies through pkg-config, objects out of tree in build/.
#   make            build ./seekscope
#   make check      build and run every test (unit, render, integration; root-only ones skip
#                   with a message when not root)
#   make sanitize   build with ASan+UBSan into build-san/ and run the tests there
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

.PHONY: all check check-run unit sanitize clean install deps demo tools
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

# Every test prints TAP; tests/run-tests collects the results and prints "N passed, N failed".
# `check` first makes sure the packages are there, then builds with a fresh pkg-config reading.
check: deps
	$(Q)$(MAKE) --no-print-directory check-run

check-run: $(BIN) $(TEST_BINS) $(TOOLS)
	$(Q)SEEKSCOPE=$(CURDIR)/$(BIN) GEN_TRACE=$(CURDIR)/$(BUILD)/tests/tools/gen-trace GEN_BLKTRACE=$(CURDIR)/$(BUILD)/tests/tools/gen-blktrace tests/run-tests $(TEST_BINS) $(sort $(wildcard tests/cli/*.sh)) $(sort $(wildcard tests/integration/*.sh))

unit: $(TEST_BINS)
	$(Q)tests/run-tests $(TEST_BINS)

# Library-internal leaks (fontconfig caches, libtracefs) are suppressed in tests/lsan.supp;
# full malloc stacks (slow unwind) so that the suppressions see the library frames.
sanitize: deps
	$(Q)ASAN_OPTIONS=fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 $(MAKE) --no-print-directory BUILD=build-san BIN=build-san/seekscope \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" check-run

# The headline picture: XFS agcount=1 vs agcount=4 on loop devices (as root; otherwise the
# shipped sample traces are drawn).  Output in out/.
demo: deps
	$(Q)$(MAKE) --no-print-directory $(BIN)
	$(Q)samples/agcount-compare.sh -o out

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)

clean:
	rm -rf build build-san $(BIN)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
