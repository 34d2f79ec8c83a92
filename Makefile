# SPDX-License-Identifier: GPL-2.0
#
# make              build flash.ko for the pinned test kernel
# make KDIR=.. KSRC=..  build it for another kernel (build tree, source tree)
# make tools        build the userspace tools (tools/*)
# make check        install what is missing, build, run every test
# make demo         boot QEMU's SD card, compare mq-deadline and flash
# make bench        every fio job x scheduler x card model (QUICK=1: short)
# make sparse       the module through sparse (C=2) and W=1
# make mutants      flash.ko with each rule broken: which test catches it
# make debug-module flash.ko for the debug kernel (scripts/build-debug-kernel),
#                   in .cache/debug-build/
# make install      flash.ko into /lib/modules/RELEASE/updates (RELEASE: the
#                   KDIR kernel's), depmod, the udev rule; DESTDIR=..: stage
#                   there, without depmod
# make uninstall    remove both again
# make cross-module CROSS=arm64|armhf  flash.ko cross-built with W=1 for
#                   Debian's arm64 or armmp kernel of the pinned version
#                   (scripts/cross-kernel-tree), in .cache/cross-CROSS/
# make series-module SERIES=7.3  flash.ko (W=1) for Debian's kernel of
#                   another series (6.1, 7.2, 7.3; scripts/fetch-kernel-tree),
#                   in .cache/build-SERIES/

include scripts/kernel-version

KDIR ?= /lib/modules/$(KVER)/build
KSRC ?= $(CURDIR)/.cache/linux-source-$(KPKG_VERSION)
TOOLS := flashmodel flashtrace flashemu
# where make install puts things: the release of the KDIR kernel
KRELEASE = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
MODDIR = $(DESTDIR)/lib/modules/$(KRELEASE)/updates
UDEVRULESDIR ?= /lib/udev/rules.d
UDEV_RULE := 70-flash-iosched.rules

all: module

module: $(KSRC)/block/elevator.h
	$(MAKE) -C $(KDIR) M=$(CURDIR) KSRC=$(KSRC) modules

$(KSRC)/block/elevator.h:
	@echo "flash: no private block headers in KSRC=$(KSRC)." >&2
	@echo "  Run scripts/bootstrap (the pinned kernel), or see README.md" >&2
	@echo "  'Install on a real machine' and give KDIR=... KSRC=..." >&2
	@exit 1

sparse: $(KSRC)/block/elevator.h
	$(MAKE) -C $(KDIR) M=$(CURDIR) KSRC=$(KSRC) C=2 W=1 modules

# kbuild builds in place: the debug build works in a copy of the sources
debug-module:
	d=$$(scripts/build-debug-kernel) && rm -rf .cache/debug-build && \
	mkdir -p .cache/debug-build && cp *.c *.h Kbuild .cache/debug-build/ && \
	$(MAKE) -C $$d/src M=$(CURDIR)/.cache/debug-build KSRC=$$d/src W=1 modules

# Without DESTDIR: depmod, and udev rereads its rules.  With DESTDIR
# (packaging), the live system is not touched.
install: module
	@[ -n "$(KRELEASE)" ] || { echo "flash: no kernel release in KDIR=$(KDIR)" >&2; exit 1; }
	install -D -m 644 flash.ko $(MODDIR)/flash.ko
	install -D -m 644 udev/$(UDEV_RULE) $(DESTDIR)$(UDEVRULESDIR)/$(UDEV_RULE)
ifeq ($(DESTDIR),)
	depmod -a $(KRELEASE)
	-udevadm control --reload 2>/dev/null
endif

uninstall:
	@[ -n "$(KRELEASE)" ] || { echo "flash: no kernel release in KDIR=$(KDIR)" >&2; exit 1; }
	rm -f $(MODDIR)/flash.ko $(DESTDIR)$(UDEVRULESDIR)/$(UDEV_RULE)
ifeq ($(DESTDIR),)
	depmod -a $(KRELEASE)
	-udevadm control --reload 2>/dev/null
endif

# C=2 too: sparse checks the 32-bit and arm64 builds as well
cross-module:
	@case "$(CROSS)" in arm64|armhf) ;; *) echo "make cross-module CROSS=arm64|armhf" >&2; exit 1 ;; esac
	trees=$$(scripts/cross-kernel-tree $(CROSS)) && eval "$$trees" && \
	rm -rf .cache/cross-$(CROSS) && mkdir -p .cache/cross-$(CROSS) && \
	cp *.c *.h Kbuild .cache/cross-$(CROSS)/ && \
	$(MAKE) -C $$KDIR M=$(CURDIR)/.cache/cross-$(CROSS) KSRC=$$KSRC W=1 C=2 modules

series-module:
	t=$$(scripts/fetch-kernel-tree $(SERIES)) && eval "$$t" && \
	rm -rf .cache/build-$(SERIES) && mkdir -p .cache/build-$(SERIES) && \
	cp *.c *.h Kbuild .cache/build-$(SERIES)/ && \
	$(MAKE) -C $$KDIR M=$(CURDIR)/.cache/build-$(SERIES) KSRC=$$KSRC W=1 modules

tools:
	for t in $(TOOLS); do $(MAKE) -C tools/$$t || exit; done

check:
	tests/run

mutants:
	scripts/mutants

# QUICK=1: the short bench; ZOO=DIR: another card zoo (default
# tools/flashmodel/zoo)
bench:
	scripts/bench $(if $(filter-out 0,$(QUICK)),--quick) $(if $(ZOO),--zoo $(ZOO))

demo:
	scripts/demo

# Not kbuild's clean: it deletes *.ko and modules.order below the whole
# folder, the VM test bed's cached module tree in .cache/ included.
clean:
	rm -f *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers
	for t in $(TOOLS); do $(MAKE) -C tools/$$t clean; done
	rm -rf tests/unit/build

.PHONY: all module sparse debug-module cross-module series-module install \
	uninstall mutants tools check demo bench clean
