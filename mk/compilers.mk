# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The compiler matrix: each compiler of COMPILERS builds the board kernel
# into its own out/build/linux-<compiler>/; tools/compiler-verdict.sh then
# wants no warning from any object and CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING
# as the compiler really is. The clang packages are installed here, when
# asked for, not by every `make deps`.

COMPILERS ?= gcc LLVM=-16
compilers: deps
	$(Q)for c in $(COMPILERS); do \
		case $$c in gcc) c= ;; esac; \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory kernel $$c || exit 1; \
		echo "  TIME    $${c:-gcc}: $$(($$(date +%s) - start)) s"; \
		$(MAKE) --no-print-directory compiler-verdict $$c || exit 1; \
	done

compiler-verdict:
	$(Q)sh $(TOP)/tools/compiler-verdict.sh $(KOUT) "$(KCC)" "$(if $(LLVM),--target=$(CROSS_COMPILE:%-=%))"

.PHONY: compilers compiler-verdict
