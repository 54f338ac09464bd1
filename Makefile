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
TSAN_FILTER ?= CoreTests\.LockTests|FlowTests\.(BatchRunnerTests|OrderedWriterTests|TokenCacheTests|MethodFallbackTests|PasskeyFileTests)

VERSION    := $(shell sed -n 's/.*current = "\(.*\)".*/\1/p' Sources/Core/Text/Version.swift)
ARCH       := $(shell uname -m)
# The commit --version reports ("-dirty" with uncommitted changes); "unknown" outside git.
COMMIT     := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { git diff --quiet HEAD 2>/dev/null || c="$$c-dirty"; echo "$$c"; } || echo unknown)
# The man page's date: the last commit's, so the same source gives the same page.
DATE       := $(shell git log -1 --format=%cs 2>/dev/null || date -u +%F)
# The Swift runtime linked statically: startup drops from ~18 to ~10 ms and a
# flow's peak RSS by ~4 MiB (Fixtures/bench); the binary needs only libc and
# libcurl. The commit reaches C as a string (Sources/CCurl/shim.c).
RELEASE    := -c release --static-swift-stdlib -Xcc '-DAUTHCODE_COMMIT="$(COMMIT)"'
# What install and dist ship; install-files takes other builds (the tests use debug ones).
BIN        ?= .build/release/authcode
MANGEN     ?= .build/release/authcode-man
SHARE      ?= .build/share
DIST       := authcode-$(VERSION)-linux-$(ARCH)

.PHONY: all build release debug test test-tools demo install install-files share man clean deps venv glewlwyd bench layout fuzz help dist

all: build

help:
	@echo "make build    release build (.build/release/authcode)"
	@echo "make test     install what is missing, build, run every test (a thread-sanitizer pass and the fixture's self-tests first)"
	@echo "make glewlwyd install Debian's Glewlwyd for the interop tests (make test does it)"
	@echo "make demo     build and mint a token from the local fixture server"
	@echo "make install  install the binary, man page and completions under $(PREFIX) (PREFIX=..., DESTDIR=...)"
	@echo "make dist     dist/$(DIST).tar.gz (+ .sha256): binary, man page, completions, README, LICENSE"
	@echo "make bench    authcode vs the curl+openssl+sed script people write today"
	@echo "make layout   re-record which functions a run executes (Fixtures/layout) and relink; needs valgrind"
	@echo "make fuzz     run the libFuzzer harnesses for a bounded time"
	@echo "make clean    remove build products"

# zsh, fish and mandoc: the completion and man page tests run the real programs;
# strace: the trust store tests count the files a run opens.
test-tools:
	@missing=""; for tool in zsh fish mandoc strace; do command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ] && [ "$$(uname)" != Darwin ]; then \
		if command -v apt-get >/dev/null 2>&1; then \
			echo "make: installing$$missing with apt-get (for the shell, man page and trust store tests)"; \
			$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 $$missing >/dev/null || \
			{ $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq && \
			  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 $$missing >/dev/null; } || \
			{ echo "make: could not install$$missing; install them and retry" >&2; exit 1; }; \
		else \
			echo "make: the tests need$$missing; install them and retry" >&2; exit 1; \
		fi; \
	fi

# libcurl headers: part of Swift's documented Linux prerequisites; macOS ships them.
deps:
ifeq ($(CURL_H),)
	@if [ "$$(uname)" = Darwin ]; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		echo "make: installing libcurl4-openssl-dev (libcurl headers) with apt-get"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 libcurl4-openssl-dev >/dev/null || \
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

# On Linux the release link also uses the toolchain's ld.lld to
# - link libstdc++ statically (the runtime uses a few of its functions; mapping
#   the shared library costs ~1 MiB of resident pages),
# - pack relative relocations (DT_RELR, glibc >= 2.36: 470 KiB of tables
#   read at every start become 4 KiB),
# - lay out the functions a run executes together (Fixtures/layout/hot-functions.txt,
#   made by Fixtures/layout/record.sh, `make layout`): each page fault maps
#   64 KiB around it. Every function in a section of its own (-function-sections
#   for Swift, -ffunction-sections for C), or the list moves whole files; the
#   few that have no symbol, the PLT, .init and .fini go first
#   (Fixtures/layout/unlisted-functions.ld);
# - export only the symbols shared libraries need (--no-export-dynamic: the
#   Swift driver exports every symbol, 200 KiB of tables the loader reads);
# - align the segments to 64 KiB (max-page-size): Linux then loads the binary
#   at a 64 KiB boundary, so the fault-around windows fall on the same code in
#   every run (with 4 KiB, where the hot code meets them moved with the random
#   base: one flow's peak RSS varied by 0.5 MiB, 0.3 higher on median).
# One flow's peak RSS: 17.2 -> ~13.6 MiB (README, "Performance").
# Build chatter goes to stderr, so `make -s demo | jq .` sees only the token.
ifeq ($(shell uname),Linux)
LIBSTDCXX_A   := $(shell c++ -print-file-name=libstdc++.a 2>/dev/null || clang -print-file-name=libstdc++.a 2>/dev/null)
GLIBC_MINOR   := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
RELEASE_LINK  := -Xswiftc -use-ld=lld \
                 -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
                 -Xlinker --symbol-ordering-file=$(CURDIR)/Fixtures/layout/hot-functions.txt -Xlinker --no-warn-symbol-ordering \
                 -Xlinker -T -Xlinker $(CURDIR)/Fixtures/layout/unlisted-functions.ld -Xlinker --no-export-dynamic \
                 -Xlinker -z -Xlinker max-page-size=65536
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
	@# SwiftPM does not see the layout files the link reads: relink when they change.
	@for f in Fixtures/layout/hot-functions.txt Fixtures/layout/unlisted-functions.ld; do \
		if [ "$$f" -nt .build/release/authcode ]; then rm -f .build/release/authcode; fi; done
	@echo "$(SWIFT) build $(RELEASE) $(RELEASE_LINK) --product authcode" >&2
	@$(SWIFT) build $(RELEASE) $(RELEASE_LINK) --product authcode >&2

# The man page generator, with the same flags so it reuses the release modules.
man: build
	@$(SWIFT) build $(RELEASE) $(RELEASE_LINK) --product authcode-man >&2

debug: deps
	$(SWIFT) build

# The thread-sanitizer pass runs first, so that the last line of `make test`
# is the main run's summary; a race it reports fails the target.
# The fixture's self-tests (Fixtures/server/run-selftests.sh: every
# selftest*.py entry point, the replicas' too) run beside the Swift builds,
# which leave a core idle most of the time; their report comes before the
# main run, so the last line is still its summary.
test: deps test-tools venv glewlwyd
	@mkdir -p .build
	@Fixtures/server/run-selftests.sh "$(VENV)/bin/python" > .build/fixture-selftests.log 2>&1 & selftests=$$!; \
	echo "$(SWIFT) build --build-tests --sanitize=thread --build-path .build-tsan (fixture self-tests beside it)"; \
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build-tsan && \
	$(SWIFT) test --skip-build --sanitize=thread --build-path .build-tsan --disable-xctest --filter '$(TSAN_FILTER)' && \
	$(SWIFT) build --build-tests; built=$$?; \
	wait $$selftests; passed=$$?; cat .build/fixture-selftests.log; \
	[ $$built -eq 0 ] && [ $$passed -eq 0 ]
	AUTHCODE_DJANGO_PYTHON="$(VENV)/bin/python" $(SWIFT) test --skip-build --disable-xctest $(TEST_FLAGS)

demo: build
	@Fixtures/scripts/demo.sh "$(CURDIR)/.build/release/authcode"

install: build man
	@$(MAKE) --no-print-directory install-files

# The man page and completions, generated from the option table by the built programs.
share:
	@mkdir -p "$(SHARE)/completions"
	"$(MANGEN)" --date "$(DATE)" > "$(SHARE)/authcode.1"
	"$(BIN)" --completion bash > "$(SHARE)/completions/authcode.bash"
	"$(BIN)" --completion zsh > "$(SHARE)/completions/_authcode"
	"$(BIN)" --completion fish > "$(SHARE)/completions/authcode.fish"

install-files: share
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
		"$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
		"$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$(BIN)" "$(DESTDIR)$(PREFIX)/bin/authcode"
	install -m 644 "$(SHARE)/authcode.1" "$(DESTDIR)$(PREFIX)/share/man/man1/authcode.1"
	install -m 644 "$(SHARE)/completions/authcode.bash" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/authcode"
	install -m 644 "$(SHARE)/completions/_authcode" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_authcode"
	install -m 644 "$(SHARE)/completions/authcode.fish" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/authcode.fish"

# A release tarball and its SHA-256, then checked as a user would
# (Fixtures/dist/check.sh: unpacked in a clean directory, ldd, env -i, a real flow).
dist: build man
	@$(MAKE) --no-print-directory share
	@rm -rf "dist/$(DIST)" && mkdir -p "dist/$(DIST)/completions"
	install -m 755 "$(BIN)" "dist/$(DIST)/authcode"
	strip "dist/$(DIST)/authcode"
	install -m 644 "$(SHARE)/authcode.1" README.md LICENSE "dist/$(DIST)/"
	install -m 644 "$(SHARE)"/completions/* "dist/$(DIST)/completions/"
	cd dist && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="$(DATE) 00:00Z" \
		-czf "$(DIST).tar.gz" "$(DIST)" && sha256sum "$(DIST).tar.gz" > "$(DIST).tar.gz.sha256"
	@rm -rf "dist/$(DIST)"
	@Fixtures/dist/check.sh "dist/$(DIST).tar.gz" "$(VERSION)" "$(COMMIT)"

clean:
	rm -rf .build .build-* dist

bench: build venv
	@Fixtures/bench/run.sh "$(CURDIR)/.build/release/authcode"

# The hot-function list from the code as it is now, then the link again
# (the list is newer than the binary: see `build`). Fixtures/layout/README.md.
layout: build
	@Fixtures/layout/record.sh "$(CURDIR)/.build/release/authcode"
	@$(MAKE) -s build

fuzz: deps
	@Fixtures/fuzz/run.sh
