# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The compiler matrix: each compiler of COMPILERS builds the board kernel
# into its own out/build/linux-<compiler>/; tools/compiler-verdict.sh then
# wants no warning from any object nor from the final link and modpost
# (linked again for it), -Werror=attributes, the real
# -Wunterminated-string-initialization on where the compiler has it, and
# CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING as the compiler really is. Then
# the two nonstring checkers are held against each other on the whole
# kernel without the series (make nonstring-full). The clang packages are
# installed here, when asked for, not by every `make deps`.

COMPILERS ?= gcc LLVM=-16 LLVM=-22
compilers: deps
	$(Q)for c in $(COMPILERS); do \
		case $$c in gcc) c= ;; esac; \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory kernel $$c || exit 1; \
		echo "  TIME    $${c:-gcc}: $$(($$(date +%s) - start)) s"; \
		$(MAKE) --no-print-directory compiler-verdict $$c || exit 1; \
	done
	$(Q)$(MAKE) --no-print-directory nonstring-full

compiler-verdict: kernel
	$(Q)rm -f $(KOUT)/vmlinux.o $(KOUT)/vmlinux
	$(Q)$(KMAKE) -s Image modules > $(KOUT)/link.log 2>&1 || { cat $(KOUT)/link.log; exit 1; }
	$(Q)sh $(TOP)/tools/compiler-verdict.sh $(KOUT) "$(KCC)" "$(KCC_TARGET)"

.PHONY: compilers compiler-verdict
