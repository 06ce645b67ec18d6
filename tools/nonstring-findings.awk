# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The -Wunterminated-string-initialization findings in a compiler's
# messages (GCC 15, the nonstring plugin or clang >= 21), one line each:
#   SITE:LINE:COL: DECLARATION:LINE: MESSAGE
# DECLARATION is where __nonstring belongs (the plugin's "declared here"
# note; "?" when the compiler names none: clang, GCC 15). A literal that
# comes from a macro is reported by GCC where it is spelled (the #define,
# then "in expansion of macro" notes up to the use) and by clang at the
# use (then "expanded from macro" notes down to the #define); SITE is
#   site=report    where the compiler reports it (the default)
#   site=use       the use: GCC's last "in expansion of macro" note
#   site=spelling  the #define: clang's last "expanded from macro" note
#   site=chain     the use, a tab, then every location of the finding
#                  (its own and its macro notes'), FILE:LINE:COL each
# so that both compilers' findings can be held against each other.
# Paths are made relative to the kernel tree: ksrc (its absolute path),
# relsrc (the same relative to the build folder) and kout (the build
# folder), each with a trailing slash; all optional.
function rel(p) {
	if (ksrc != "" && index(p, ksrc) == 1) p = substr(p, length(ksrc) + 1)
	if (relsrc != "" && index(p, relsrc) == 1) p = substr(p, length(relsrc) + 1)
	if (kout != "" && index(p, kout) == 1) p = substr(p, length(kout) + 1)
	return p
}
# "FILE:LINE:COL: note: ..." -> "FILE:LINE:COL" (relative).
function where(s,    a, n, p) {
	split(s, a, ": ")
	n = split(a[1], p, ":")
	return rel(p[1]) ":" p[2] ":" p[3]
}
function flush() {
	if (at != "") {
		s = at
		if (site == "use" && use != "") s = use
		if (site == "spelling" && spell != "") s = spell
		if (site == "chain") print (use != "" ? use : at) "\t" chain
		else print s ": " decl ": " msg
	}
	at = ""
}
/: warning: .*\[-Wunterminated-string-initialization\]$/ {
	flush()
	split($0, a, ": warning: ")
	at = where(a[1] ": x"); msg = a[2]; decl = "?"; use = ""; spell = ""; indecl = 0
	chain = at
	sub(/ \[-Wunterminated-string-initialization\]$/, "", msg)
	next
}
at == "" { next }
/: note: in expansion of macro / && !indecl { use = where($0); chain = chain " " use; next }
/: note: in definition of macro / && !indecl { chain = chain " " where($0); next }
/: note: expanded from macro / && !indecl { spell = where($0); chain = chain " " spell; next }
/: note: .* declared here$/ && decl == "?" {
	n = split(where($0), p, ":")
	decl = p[1] ":" p[2]
	indecl = 1	# the macro notes after this one are the declaration's
	next
}
/: (warning|error): / { flush() }
END { flush() }
