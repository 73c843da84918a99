# SPDX-License-Identifier: GPL-2.0-only
#
# The README's commands:
#   make          the release build that make install installs (build/release,
#                 for PREFIX and SYSCONFDIR), as yourself
#   make build    the developers' build of libudrv, udrv, udrvd and udrv-bench
#                 (build/dev), which the tests use
#   make check    install what is missing, build (also ASan+UBSan, static,
#                 arm64, armhf), run every test that runs on this machine,
#                 print "N passed, N failed" (scripts/check.py; ~20 min)
#   make lab-check  the lab tests: tests/lab on Debian's real kernels in
#                 QEMU and through labgrid (scripts/check.py --lab; ~30 min
#                 on 2 cores); .ci/run runs both
#   make lab      the latency suite: boot Debian's standard and PREEMPT_RT
#                 kernels in QEMU, run every udrv bench idle and under load,
#                 print the toggle and latency tables, write
#                 build/lab/results.json (make lab-quick: few samples, for CI;
#                 make lab-demo: a short tour of udrv in the lab)
#   make soak     not part of make check: 10^6 GPIO edges and 10^6 UIO
#                 interrupts under the all load on both x86 kernels, checking
#                 sent (counted at the source) = received + lost exactly;
#                 prints a table, writes build/lab/soak.json (rig/lab/suite/soak.py)
#   make fuzz     the libFuzzer harnesses, FUZZ_SECONDS (600) each, the corpus
#                 growing in build/fuzz/corpus (FUZZ="parse cli": only those),
#                 and udrv-report's loader and the Python package's API
#                 (tests/python/test_py_fuzz.py, in build/py-test) with
#                 FUZZ_EXAMPLES (2000) new hypothesis examples per property
#                 (tests/fuzz/README.md)
#   make gpiod-dbus  libgpiod 2.2.1's gpiocli and gpio-manager, built from its
#                 tarball (build/gpiod-dbus; scripts/build-gpiod-dbus): udrvd's peers
#   make arm64    static udrv and udrv-bench for 64-bit ARM (build/arm64,
#                 cross/arm64.ini)
#   make armhf    static udrv and udrv-bench for 32-bit ARM (build/armhf,
#                 cross/armhf.ini)
#   make install  build/release installed into PREFIX (/usr/local; DESTDIR
#                 for staging): the library, headers, pkg-config file, udrv,
#                 udrvd, man pages; udrvd's policy in SYSCONFDIR (/etc), its
#                 bus policy, unit, udev rules and groups where dbus, systemd,
#                 udev and systemd-sysusers read them; then the groups created
#                 and udev reloaded (scripts/make-install)
#   make deb      the Debian packages (debian/) into build/deb: the declared
#                 build-dependencies, dpkg-buildpackage with its tests, lintian
#                 (scripts/deb-build; DEB_ARCH=arm64 cross-builds)
#   make deb-test install build/deb's packages, use them, purge them: for a
#                 throwaway machine (a fresh chroot), not a workstation
#                 (scripts/deb-test)
#   make abi-baseline  rewrite abi/libudrv.so.1.abi from build/dev's library:
#                 only with a new version node or a soname bump (docs/abi.md)

# Debian's python3: scripts/install-deps installs the modules the tests and
# the report need (pytest, matplotlib, hypothesis) for it, not for another
# python3 that may come first on PATH (pyenv, a venv)
PYTHON ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
BUILD  ?= build
PREFIX ?= /usr/local
# udrvd's policy: SYSCONFDIR/udrv/udrvd.conf (scripts/make-install)
SYSCONFDIR ?= /etc
FUZZ_SECONDS ?= 600
FUZZ_EXAMPLES ?= 2000
FUZZ ?=

.PHONY: all release build deps deps-check deps-lab check lab-check fuzz lab lab-quick lab-demo soak static arm64 armhf install clean \
	abi-baseline deb deb-test gpiod-dbus

# make: the release build that make install installs (build/release, for
# PREFIX and SYSCONFDIR), as yourself; make build: the developers' build/dev
all: release

release:
	@BUILD=$(BUILD) PREFIX=$(PREFIX) SYSCONFDIR=$(SYSCONFDIR) scripts/make-install build

# scripts/install-deps' profiles: the toolkit's packages (make deps), and
# what make check (--check) and the lab (--lab) add
deps:
	@scripts/install-deps
deps-check:
	@scripts/install-deps --check
deps-lab:
	@scripts/install-deps --lab

$(BUILD)/dev/build.ninja:
	meson setup $(BUILD)/dev

build: $(BUILD)/dev/build.ninja
	ninja -C $(BUILD)/dev

$(BUILD)/static/build.ninja:
	meson setup $(BUILD)/static -Dstatic_tools=true -Ddefault_library=static -Dbuildtype=release

static: $(BUILD)/static/build.ninja
	ninja -C $(BUILD)/static

$(BUILD)/arm64/build.ninja $(BUILD)/armhf/build.ninja: $(BUILD)/%/build.ninja:
	meson setup $(BUILD)/$* --cross-file=cross/$*.ini -Dstatic_tools=true \
		-Ddefault_library=static -Dbuildtype=release

arm64 armhf: %: $(BUILD)/%/build.ninja
	ninja -C $(BUILD)/$*

# libgpiod 2.2.1's gpiocli and gpio-manager (the brokers' comparison, in the lab
# and tests/daemon), built from its release tarball into build/gpiod-dbus
gpiod-dbus: deps-check
	scripts/build-gpiod-dbus

check: deps-check
	$(PYTHON) scripts/check.py

lab-check: deps-lab
	$(PYTHON) scripts/check.py --lab

# both parts run; the status says whether either found something
fuzz: deps-check
	@status=0; \
	$(PYTHON) tests/fuzz/run.py --build $(BUILD)/fuzz --seconds $(FUZZ_SECONDS) $(FUZZ) || status=1; \
	UDRV_REPORT_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PYTHON) -m pytest -q -p no:cacheprovider \
		tests/rig/report/test_report_fuzz.py tests/rig/lava/test_lava_fuzz.py || status=1; \
	if [ -x $(BUILD)/py-test/bin/python ]; then \
		UDRV_PY_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BUILD)/py-test/bin/python -m pytest -q \
			-p no:cacheprovider tests/python/test_py_fuzz.py || status=1; \
	else \
		echo "make fuzz: no $(BUILD)/py-test (the udrv package): make check builds it"; \
		status=1; \
	fi; \
	exit $$status

lab: deps-lab static arm64 build gpiod-dbus
	$(PYTHON) -m rig.lab suite

lab-quick: deps-lab static arm64 build gpiod-dbus
	$(PYTHON) -m rig.lab suite --quick

lab-demo: deps-lab static arm64
	$(PYTHON) -m rig.lab demo

soak: deps-lab static
	$(PYTHON) -m rig.lab.suite.soak

# the ABI that scripts/abi-check (make check) holds the library to
abi-baseline: deps-check build
	abidw --headers-dir include/udrv --no-corpus-path --no-show-locs \
		--out-file abi/libudrv.so.1.abi $(BUILD)/dev/lib/libudrv.so.1

# installs build/release (make); as root it builds nothing in a checkout that
# is not root's (scripts/make-install says what to run first); then the
# groups (systemd-sysusers) and udev's rules reloaded, or what to run for a
# DESTDIR
install:
	@BUILD=$(BUILD) PREFIX=$(PREFIX) SYSCONFDIR=$(SYSCONFDIR) DESTDIR=$(DESTDIR) \
		scripts/make-install install

deb:
	scripts/deb-build $(if $(DEB_ARCH),-a $(DEB_ARCH))

deb-test:
	scripts/deb-test

clean:
	rm -rf $(BUILD)/dev $(BUILD)/release $(BUILD)/asan $(BUILD)/static $(BUILD)/arm64 $(BUILD)/armhf $(BUILD)/venv $(BUILD)/lava \
		$(BUILD)/fuzz $(BUILD)/deb
