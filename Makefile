# authcode — build, test, demo. `make demo` and `make test` install what they
# need on a fresh Debian/Ubuntu machine (libcurl headers via apt-get, a Python
# venv for the django-oauth-toolkit interop server).

SWIFT      ?= swift
PREFIX     ?= /usr/local
VENV       := $(CURDIR)/.venv
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CURL_H     := $(firstword $(wildcard /usr/include/curl/curl.h /usr/include/*/curl/curl.h /usr/local/include/curl/curl.h /opt/homebrew/include/curl/curl.h))
# Every test is Swift Testing; XCTest is off so the summary line is unambiguous.
TEST_FLAGS ?=

.PHONY: all build release debug test demo install clean deps venv bench fuzz help

all: build

help:
	@echo "make build    release build (.build/release/authcode)"
	@echo "make test     install what is missing, build, run every test"
	@echo "make demo     build and mint a token from the local fixture server"
	@echo "make install  install to $(PREFIX)/bin (PREFIX=...)"
	@echo "make bench    authcode vs the curl+openssl+sed script people write today"
	@echo "make fuzz     run the libFuzzer harnesses for a bounded time"
	@echo "make clean    remove build products"

# libcurl headers: part of Swift's documented Linux prerequisites; macOS ships them.
deps:
ifeq ($(CURL_H),)
	@if [ "$$(uname)" = Darwin ]; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		echo "make: installing libcurl4-openssl-dev (libcurl headers) with apt-get"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >/dev/null || \
		{ echo "make: could not install libcurl4-openssl-dev; install the libcurl development headers and retry" >&2; exit 1; }; \
	else \
		echo "make: libcurl headers not found and no apt-get here; install libcurl's development package (curl/curl.h) and retry" >&2; exit 1; \
	fi
endif

venv:
	@Fixtures/django/setup-venv.sh "$(VENV)"

# The Swift runtime linked statically: startup drops from ~18 to ~10 ms and a
# flow's peak RSS by ~4 MiB (Fixtures/bench); the binary needs only libc and libcurl.
# On Linux the release link also uses the toolchain's ld.lld to
# - link libstdc++ statically (the runtime uses a few of its functions; mapping
#   the shared library costs ~1 MiB of resident pages),
# - pack relative relocations (DT_RELR, glibc >= 2.36: 470 KiB of tables
#   read at every start become 4 KiB),
# - lay out the functions a run executes together (Fixtures/layout/hot-functions.txt,
#   made by Fixtures/layout/record.sh): each page fault maps 64 KiB around it.
# One flow's peak RSS: 17.2 -> ~14.5 MiB (README, "Performance").
# Build chatter goes to stderr, so `make -s demo | jq .` sees only the token.
ifeq ($(shell uname),Linux)
LIBSTDCXX_A   := $(shell c++ -print-file-name=libstdc++.a 2>/dev/null || clang -print-file-name=libstdc++.a 2>/dev/null)
GLIBC_MINOR   := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
RELEASE_LINK  := -Xswiftc -use-ld=lld \
                 -Xlinker --symbol-ordering-file=$(CURDIR)/Fixtures/layout/hot-functions.txt -Xlinker --no-warn-symbol-ordering
ifneq ($(wildcard $(LIBSTDCXX_A)),)
RELEASE_LINK  += -Xlinker -L$(CURDIR)/.build/static-libstdc++
endif
ifeq ($(shell [ "$(GLIBC_MINOR)" -ge 36 ] 2>/dev/null && echo yes),yes)
RELEASE_LINK  += -Xlinker -z -Xlinker pack-relative-relocs
endif
endif

build release: deps
ifneq ($(wildcard $(LIBSTDCXX_A)),)
	@mkdir -p .build/static-libstdc++ && ln -sf "$(LIBSTDCXX_A)" .build/static-libstdc++/libstdc++.a
endif
	@echo "$(SWIFT) build -c release --product authcode --static-swift-stdlib $(RELEASE_LINK)" >&2
	@$(SWIFT) build -c release --product authcode --static-swift-stdlib $(RELEASE_LINK) >&2

debug: deps
	$(SWIFT) build

test: deps venv
	$(SWIFT) build --build-tests
	AUTHCODE_DJANGO_PYTHON="$(VENV)/bin/python" $(SWIFT) test --skip-build --disable-xctest $(TEST_FLAGS)

demo: build
	@Fixtures/scripts/demo.sh "$(CURDIR)/.build/release/authcode"

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 .build/release/authcode "$(DESTDIR)$(PREFIX)/bin/authcode"

clean:
	rm -rf .build .build-*

bench: build venv
	@Fixtures/bench/run.sh "$(CURDIR)/.build/release/authcode"

fuzz: deps
	@Fixtures/fuzz/run.sh
