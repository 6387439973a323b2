# SPDX-License-Identifier: GPL-2.0-or-later
# seekscope — plain Makefile, dependencies through pkg-config, objects out of tree.
#   make              build ./seekscope (objects in build/)
#   make O=DIR        build out of tree: objects and the binary in DIR
#   make check        build and run every test (unit, cli, integration; root-only ones skip
#                     with a message when not root, and fail instead under CI=true)
#   make sanitize     build with ASan+UBSan into build-san/ and run the tests there
#   make valgrind     the unit tests and fuzz replayers under valgrind memcheck
#   make fuzz         libFuzzer targets (clang) into build-fuzz/fuzz/; with FUZZ_SECONDS=N or
#                     FUZZ_RUNS=N also run each target (FUZZ_TARGETS, FUZZ_JOBS) on a copy of
#                     its seed corpus, see tests/fuzz/run-fuzz.sh
#   make demo         XFS agcount=1 vs agcount=4 comparison into out/ (see samples/)
#   make man          the manual pages (docs/man/*.scd, scdoc) into build/man/
#   make install      PREFIX=/usr/local DESTDIR= : the binary, the manual pages and the bash
#                     completion; make uninstall removes what it installed
#   make V=1          show the commands;  WERROR=0 builds without -Werror (packagers)
#
# The folders and the one direction of their dependencies are in docs/architecture.md; the
# LAYERS table below is the build's copy of it.  Each folder is compiled with the include
# paths of the folders it may use and no others, so an include against the direction fails to
# compile, and `make check-layers` (part of `make check`) checks the calls between folders in
# the objects' symbol tables.

# Packages and the oldest versions seekscope is known to build with (Debian 12's).
PKGS      := libtracefs:1.6 libtraceevent:1.7 libtracecmd:1.3 cairo:1.16 libpng:1.6 libarchive:3.6 \
	     ext2fs:1.46 blkid:2.36 zlib:1.2.11 libzstd:1.5 libdeflate:1.14 libavcodec:59 libavformat:59 libavutil:57 \
	     libswscale:6
# headers without a pkg-config module: <xfs/xfs.h> for XFS_IOC_GETBMAPX (xfslibs-dev)
HDRS      := xfs/xfs.h
PKG_NAMES := $(foreach p,$(PKGS),$(firstword $(subst :, ,$(p))))
CC        ?= cc
O         ?=
BUILD     ?= $(if $(O),$(O),build)
BIN       ?= $(if $(O),$(O)/seekscope,seekscope)
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SCDOC     ?= scdoc
DESTDIR   ?=
CFLAGS    ?= -O2 -g
# seekscope itself is linked with link-time optimisation: the statistics pass calls small
# functions of a dozen files per event (-10 % instructions, issue 18).  The objects are
# fat, so tests and tools link them as plain objects; the sanitizer, valgrind and fuzz
# builds set LTO= (empty).
LTO       ?= -flto=auto -ffat-lto-objects
WERROR    ?= 1
WARN      := -std=gnu11 -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wshadow \
	     -Wno-missing-field-initializers
PKG_CFLAGS := $(shell pkg-config --cflags $(PKG_NAMES) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKG_NAMES) 2>/dev/null)
# FFmpeg and libarchive are loaded by the code that needs them, when it runs (the movie
# encoder, render/video/avlib.h; the extraction workload and mkarchive,
# collector/workload/arlib.h): seekscope links everything else, and the tests and tools,
# which call them themselves, link them too.
DLOPEN_LIBS := $(shell pkg-config --libs $(filter libav% libsw% libarchive,$(PKG_NAMES)) 2>/dev/null)
CPPFLAGS  += -D_GNU_SOURCE
BASE_CFLAGS = $(WARN) $(CFLAGS) $(CPPFLAGS) $(PKG_CFLAGS) -MMD -MP
LDLIBS    += $(PKG_LIBS) -lm -lpthread -ldl

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

# ---- the layers --------------------------------------------------------------------------
# FOLDER: the folders whose headers it may include (include/ is open to all).  Lower layers
# first; a folder may use only folders listed before it.
LAYERS := \
	collector/core: \
	collector/capture:collector/core \
	collector/fsprobe:collector/core \
	collector/workload:collector/core \
	collector/record:collector/capture,collector/fsprobe,collector/core \
	render/readers:collector/core \
	render/analysis:render/readers,collector/core \
	render/report:render/analysis,render/readers,collector/core \
	render/plot:render/analysis,render/readers,collector/core \
	render/plot/panels:render/plot,render/analysis,render/readers,collector/core \
	render/video:render/plot,render/analysis,render/readers,collector/core \
	render/html:render/plot/panels,render/plot,render/analysis,render/readers,collector/core \
	render/cli:render/html,render/video,render/plot/panels,render/plot,render/report,render/analysis,render/readers,collector/capture,collector/fsprobe,collector/core \
	collector/cli:render/cli,render/html,render/video,render/plot/panels,render/plot,render/report,render/analysis,render/readers,collector/record,collector/workload,collector/capture,collector/fsprobe,collector/core
FOLDERS   := $(foreach l,$(LAYERS),$(firstword $(subst :, ,$(l))))
uses      = $(subst $(comma), ,$(patsubst $(1):%,%,$(filter $(1):%,$(LAYERS))))
comma     := ,
# include paths of a folder: include/, itself, and what it may use
incs      = -Iinclude -I$(1) $(addprefix -I,$(call uses,$(1)))
ALL_INCS  := -Iinclude $(addprefix -I,$(FOLDERS))

# The library halves: core (shared), collector (capture, probe, workload, recording session),
# render (readers, analysis, report, plot).  The cli folders are linked as objects.
srcs_of   = $(wildcard $(addsuffix /*.c,$(1)))
CORE_SRCS := $(call srcs_of,collector/core)
COLL_SRCS := $(call srcs_of,collector/capture collector/fsprobe collector/workload collector/record)
REND_SRCS := $(call srcs_of,render/readers render/analysis render/report render/plot render/plot/panels \
	     render/video render/html)
# The HTML viewer's stylesheet and script (readable sources in render/html/web/, the scripts
# concatenated in this order) become byte arrays in the render library with `xxd -i`.
WEB_CSS   := render/html/web/viewer.css
WEB_JS    := $(addprefix render/html/web/,util.js data.js draw.js draw_panels.js ui.js)
WEB_GEN   := $(BUILD)/render/html/web_assets.c
CLI_SRCS  := $(call srcs_of,render/cli collector/cli)
LIB_CORE  := $(BUILD)/libseekscope-core.a
LIB_COLL  := $(BUILD)/libseekscope-collector.a
LIB_REND  := $(BUILD)/libseekscope-render.a
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/%.o)
# what the tests link: every cli object but main()'s
TEST_OBJS := $(filter-out $(BUILD)/collector/cli/main.o,$(CLI_OBJS))
LIBS      := $(LIB_REND) $(LIB_COLL) $(LIB_CORE)

TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_BINS := $(TEST_SRCS:%.c=$(BUILD)/%)
TEST_HDRS := $(wildcard tests/lib/*.h tests/unit/*.h)
TOOLS     := $(BUILD)/tests/tools/gen-trace $(BUILD)/tests/tools/gen-blktrace \
             $(BUILD)/tests/tools/png-colour $(BUILD)/tests/tools/study-figure \
             $(BUILD)/tests/tools/tc-unpack

# Fuzz targets (tests/fuzz/fuzz_<name>.c).  Under the ordinary compiler each becomes a replayer
# that runs its seed corpus and every crasher found so far (tests/fuzz/regress/<name>/).
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
# (and the unit tests' headers a target shares: a replayer compiles two sources at once, so its
# dependency file lists only the second's)
FUZZ_HDRS := $(wildcard tests/fuzz/*.h tests/unit/*.h)
REPLAY_BINS := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/replay_%)
FUZZ_CC   ?= clang
FUZZ_BUILD := build-fuzz
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# smaller HTML cell grids and fine bins, chunks of 32 requests, 8 processes and 64 marks per
# trace (render/html/html_col.h), archive trees 64 levels deep at most instead of 512
# (collector/workload/rmtree.h: each entry's path is checked component by component): same
# code, fast inputs that also reach the limits
FUZZ_DEFS := -DSS_HTML_BASE_W=16 -DSS_HTML_BASE_H=8 -DSS_HTML_FINE_BINS=100u \
	-DSS_HTML_CHUNK=32u -DSS_HTML_MAX_PROCS=8u -DSS_HTML_MAX_MARKS=64u \
	-DSS_RMTREE_MAX_DEPTH=64
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz/fuzz_%)
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# --child-silent-after-fork: the trace-cmd reader tries damaged files in a child that may crash
VALGRIND  := valgrind -q --error-exitcode=1 --child-silent-after-fork=yes --leak-check=full \
	--suppressions=$(CURDIR)/tests/valgrind.supp \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect

.PHONY: all check check-run check-layers unit sanitize valgrind valgrind-run fuzz fuzz-build \
	clean install uninstall deps demo tools pkgcheck man
all: $(BIN)

# Missing libraries are named (with the version wanted) before anything is compiled.
pkgcheck:
	$(Q)missing=; for p in $(PKGS); do n=$${p%%:*}; v=$${p#*:}; \
		pkg-config --exists "$$n >= $$v" 2>/dev/null || missing="$$missing $$n>=$$v"; done; \
	for h in $(HDRS); do printf '#include <%s>\n' "$$h" | $(CC) -E -x c - >/dev/null 2>&1 || \
		missing="$$missing <$$h>"; done; \
	if [ -n "$$missing" ]; then \
		echo "seekscope: missing pkg-config packages or headers:$$missing" >&2; \
		echo "  on Debian: 'make deps' as root installs them (tests/install-deps.sh lists them)" >&2; \
		exit 1; fi

# Debian packages (installs what is missing when run as root; says what to install otherwise).
deps:
	$(Q)tests/install-deps.sh all

# the trace-cmd reader works around a bug of libtracecmd before 1.5 (trace-cmd 3.3)
LIBTRACECMD_VERSION := $(shell pkg-config --modversion libtracecmd 2>/dev/null | \
	awk -F. '{ printf "%d", $$1 * 10000 + $$2 * 100 + $$3 }')
$(BUILD)/render/readers/import_tracecmd_reader.o: CPPFLAGS += -DSS_LIBTRACECMD_VERSION=$(LIBTRACECMD_VERSION)

# one rule for every library and cli object: the folder's own include paths
$(BUILD)/%.o: %.c | pkgcheck
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(BASE_CFLAGS) $(LTO) $(call incs,$(patsubst %/,%,$(dir $<))) -c -o $@ $<

# the viewer's assets: generated C (const arrays), compiled like the rest of render/html
$(WEB_GEN): $(WEB_CSS) $(WEB_JS) Makefile
	$(call msg,XXD,$@)
	@mkdir -p $(dir $@)
	$(Q)cat $(WEB_CSS) >$@.css && cat $(WEB_JS) >$@.js && \
		{ echo '/* generated by the Makefile from render/html/web/: do not edit */'; \
		  echo '#include "web_assets.h"'; \
		  xxd -i -n ss_web_css $@.css && xxd -i -n ss_web_js $@.js; } | \
		sed 's/^unsigned/const unsigned/' >$@.tmp && mv $@.tmp $@ && rm -f $@.css $@.js

$(WEB_GEN:%.c=%.o): $(WEB_GEN) | pkgcheck
	$(call msg,CC,$<)
	$(Q)$(CC) $(BASE_CFLAGS) $(call incs,render/html) -c -o $@ $<

$(LIB_CORE): $(CORE_SRCS:%.c=$(BUILD)/%.o)
$(LIB_COLL): $(COLL_SRCS:%.c=$(BUILD)/%.o)
$(LIB_REND): $(REND_SRCS:%.c=$(BUILD)/%.o) $(WEB_GEN:%.c=%.o)
$(LIBS):
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIBS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LTO) $(LDFLAGS) -o $@ $^ $(filter-out $(DLOPEN_LIBS),$(LDLIBS))

# Tests, tools and fuzz targets may use every folder.
# (-fno-lto: they link the fat objects' plain code, not a link-time optimisation each)
TEST_CFLAGS = $(BASE_CFLAGS) $(if $(LTO),-fno-lto) $(ALL_INCS) -Itests/lib -Itests/unit \
	      -DSS_SRCDIR='"$(CURDIR)"'
$(BUILD)/tests/unit/%: tests/unit/%.c $(TEST_OBJS) $(LIBS) $(TEST_HDRS)
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TEST_CFLAGS) -o $@ $< $(TEST_OBJS) $(LIBS) $(LDFLAGS) $(LDLIBS)

# Manual pages: one scdoc source per page in docs/man/ (NAME.SECTION.scd), rendered at build
# time.  tests/unit/test_cli_vocab.c checks their OPTIONS against the option tables.
MAN_SRCS  := $(wildcard docs/man/*.scd)
MAN_PAGES := $(MAN_SRCS:docs/man/%.scd=$(BUILD)/man/%)
COMPLETION := collector/cli/completion.bash

man: $(MAN_PAGES)

$(BUILD)/man/%: docs/man/%.scd
	$(call msg,SCDOC,$<)
	@mkdir -p $(dir $@)
	@command -v $(SCDOC) >/dev/null || { echo "seekscope: $(SCDOC) is needed for the manual pages: 'make deps' as root installs it" >&2; exit 1; }
	$(Q)$(SCDOC) <$< >$@.tmp || { rm -f $@.tmp; exit 1; }; mv $@.tmp $@

# Test tools: synthetic trace generators for the render tests and the benchmarks.
$(BUILD)/tests/tools/%: tests/tools/%.c $(LIBS)
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TEST_CFLAGS) -o $@ $< $(LIBS) $(LDFLAGS) $(LDLIBS)

tools: $(TOOLS)

$(BUILD)/tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(FUZZ_HDRS) $(TEST_OBJS) $(LIBS)
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TEST_CFLAGS) -Itests/fuzz \
		-DREPLAY_DIRS='"$(CURDIR)/tests/fuzz/corpus/$*:$(CURDIR)/tests/fuzz/regress/$*"' \
		-o $@ $< tests/fuzz/replay_main.c $(TEST_OBJS) $(LIBS) $(LDFLAGS) $(LDLIBS)

# The calls between folders, read from the objects: a folder may call only into the folders
# LAYERS lets it include.
check-layers: $(CLI_OBJS) $(LIBS)
	$(Q)tests/tools/check-layers.sh $(BUILD) $(LAYERS)

# Every test prints TAP; tests/run-tests collects the results and prints "N passed, N failed".
# `check` first makes sure the packages are there, then builds with a fresh pkg-config reading.
check:
	$(Q)tests/install-deps.sh check
	$(Q)$(MAKE) --no-print-directory check-run

check-run: check-layers $(BIN) $(TEST_BINS) $(REPLAY_BINS) $(TOOLS) $(MAN_PAGES)
	$(Q)SEEKSCOPE=$(abspath $(BIN)) GEN_TRACE=$(abspath $(BUILD))/tests/tools/gen-trace \
		MAN_DIR=$(abspath $(BUILD))/man GEN_BLKTRACE=$(abspath $(BUILD))/tests/tools/gen-blktrace \
		PNG_COLOUR=$(abspath $(BUILD))/tests/tools/png-colour \
		TC_UNPACK=$(abspath $(BUILD))/tests/tools/tc-unpack \
		tests/run-tests $(TEST_BINS) $(REPLAY_BINS) $(sort $(wildcard tests/cli/*.sh)) \
		$(sort $(wildcard tests/integration/*.sh))

unit: $(TEST_BINS) $(REPLAY_BINS)
	$(Q)SEEKSCOPE=$(abspath $(BIN)) tests/run-tests $(TEST_BINS) $(REPLAY_BINS)

# Library-internal leaks (fontconfig caches, libtracefs) are suppressed in tests/lsan.supp;
# full malloc stacks (slow unwind) so that the suppressions see the library frames.
sanitize: deps
	$(Q)ASAN_OPTIONS=fast_unwind_on_malloc=0 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		$(MAKE) --no-print-directory O=build-san \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" LTO= \
		LDFLAGS="-fsanitize=address,undefined" check-run

# Unit tests and fuzz replayers under valgrind memcheck: any error or definite/indirect leak
# fails the test (an unoptimised build of its own, so that valgrind sees every access; the
# binary some unit tests run is built there too, and runs outside valgrind).
valgrind: deps
	$(Q)$(MAKE) --no-print-directory O=build-vg CFLAGS="-O0 -g" LTO= valgrind-run

valgrind-run: $(BIN) $(TEST_BINS) $(REPLAY_BINS)
	$(Q)SEEKSCOPE=$(abspath $(BIN)) VALGRIND="$(VALGRIND)" tests/run-tests $(TEST_BINS) $(REPLAY_BINS)

# libFuzzer builds: the libraries with coverage instrumentation and ASan+UBSan, one binary per
# target.  FUZZ_SECONDS / FUZZ_RUNS run them (tests/fuzz/run-fuzz.sh prints the figures).
fuzz: deps
	$(Q)$(MAKE) --no-print-directory O=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
		CFLAGS="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(FUZZ_DEFS)" LTO= fuzz-build
ifneq ($(FUZZ_SECONDS)$(FUZZ_RUNS),)
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_JOBS=$(FUZZ_JOBS) \
		tests/fuzz/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_TARGETS)
endif

fuzz-build: $(FUZZ_BINS)

$(FUZZ_BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_HDRS) $(TEST_OBJS) $(LIBS)
	$(call msg,FUZZ,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TEST_CFLAGS) -Itests/fuzz -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< \
		$(TEST_OBJS) $(LIBS) $(LDLIBS)

# The headline picture: XFS agcount=1 vs agcount=4 on loop devices (as root; otherwise the
# shipped sample traces are drawn).  Output in out/.
demo:
	$(Q)tests/install-deps.sh demo
	$(Q)$(MAKE) --no-print-directory $(BIN)
	$(Q)SEEKSCOPE=$(abspath $(BIN)) samples/agcount-compare.sh -o out

install: $(BIN) $(MAN_PAGES)
	install -D -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/seekscope
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	install -D -m 0644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/seekscope

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/seekscope $(DESTDIR)$(BASHCOMPDIR)/seekscope \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES)))

clean:
	rm -rf build build-san build-vg $(FUZZ_BUILD) seekscope $(if $(O),$(O))

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
