# authcode — build, test, demo. `make demo` and `make test` install what they
# need on a fresh Debian/Ubuntu machine (libcurl and libcrypto headers via apt-get,
# a Python venv for the django-oauth-toolkit interop server, Debian's Glewlwyd
# for the signature and modern-client-profile interop server).

SWIFT      ?= swift
PREFIX     ?= /usr/local
VENV       := $(CURDIR)/.venv
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CURL_H     := $(firstword $(wildcard /usr/include/curl/curl.h /usr/include/*/curl/curl.h /usr/local/include/curl/curl.h /opt/homebrew/include/curl/curl.h))
SSL_H      := $(firstword $(wildcard /usr/include/openssl/evp.h /usr/include/*/openssl/evp.h /usr/local/include/openssl/evp.h /opt/homebrew/include/openssl/evp.h))
# Every test is Swift Testing; XCTest is off so the summary line is unambiguous.
TEST_FLAGS ?=
# What shares state between threads (the lock, the batch, the cache), run
# under the thread sanitizer in a build directory of its own.
TSAN_FILTER ?= CoreTests\.LockTests|FlowTests\.(BatchRunnerTests|OrderedWriterTests|TokenCacheTests|MethodFallbackTests)

.PHONY: all build release debug test demo install clean deps venv glewlwyd bench fuzz help

all: build

help:
	@echo "make build    release build (.build/release/authcode)"
	@echo "make test     install what is missing, build, run every test (a thread-sanitizer pass first)"
	@echo "make glewlwyd install Debian's Glewlwyd for the interop tests (make test does it)"
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
# libcrypto headers (OpenSSL 3) for Sources/CCrypto; the library itself is
# the one libcurl's OpenSSL build already loads.
ifeq ($(SSL_H),)
	@if [ "$$(uname)" = Darwin ]; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		echo "make: installing libssl-dev (libcrypto headers) with apt-get"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq libssl-dev >/dev/null || \
		{ echo "make: could not install libssl-dev; install the OpenSSL 3 development headers and retry" >&2; exit 1; }; \
	else \
		echo "make: OpenSSL headers not found and no apt-get here; install OpenSSL 3's development package (openssl/evp.h) and retry" >&2; exit 1; \
	fi
endif

# tinyproxy: the real proxy the proxy tests run on 127.0.0.3
# (Tests/EndToEndTests/Support/ProxyServer.swift); tinyproxy-bin is the
# binary alone, no system service.
	@if [ "$$(uname)" != Darwin ] && ! command -v tinyproxy >/dev/null 2>&1 && [ ! -x /usr/bin/tinyproxy ]; then \
		if command -v apt-get >/dev/null 2>&1; then \
			echo "make: installing tinyproxy-bin (for the proxy tests) with apt-get"; \
			$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 tinyproxy-bin >/dev/null 2>&1 || \
			{ $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq -o DPkg::Lock::Timeout=600 && \
			  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 tinyproxy-bin >/dev/null; } || \
			{ echo "make: could not install tinyproxy-bin; the proxy tests need tinyproxy" >&2; exit 1; }; \
		else \
			echo "make: tinyproxy not found and no apt-get here; install tinyproxy for the proxy tests" >&2; \
		fi; \
	fi

venv:
	@Fixtures/django/setup-venv.sh "$(VENV)"

# Glewlwyd (Debian package) for Tests/EndToEndTests/GlewlwydInteropTests.swift;
# does nothing when installed (Fixtures/glewlwyd/README.md).
glewlwyd:
	@Fixtures/glewlwyd/install.sh

# The Swift runtime linked statically: startup drops from ~18 to ~10 ms and a
# flow's peak RSS by ~4 MiB (Fixtures/bench); the binary needs only libc and libcurl.
# Build chatter goes to stderr, so `make -s demo | jq .` sees only the token.
build release: deps
	@echo "$(SWIFT) build -c release --product authcode --static-swift-stdlib" >&2
	@$(SWIFT) build -c release --product authcode --static-swift-stdlib >&2

debug: deps
	$(SWIFT) build

# The thread-sanitizer pass runs first, so that the last line of `make test`
# is the main run's summary; a race it reports fails the target.
test: deps venv glewlwyd
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --build-path .build-tsan --disable-xctest --filter '$(TSAN_FILTER)'
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
