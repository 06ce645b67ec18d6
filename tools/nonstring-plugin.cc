// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
// GCC 15's -Wunterminated-string-initialization for GCC < 15, as a plugin.
//
// A char, signed char or unsigned char array (variable, struct or union
// member, element of an array of arrays, at any depth of braces and
// designators) initialized from a string literal whose terminating NUL
// does not fit is reported, unless the variable or member carries the
// nonstring attribute, or nonstring_array: the attribute this plugin
// registers so that the kernel's __nonstring_array (GCC 15.1's nonstring
// on an array of char arrays, which GCC < 15 rejects) means what it means
// to GCC 15.1. A literal longer than the array is not this warning.
//
// How: the C front end shortens the literal before a plugin sees the
// declaration, and turns brace lists of character constants into the same
// kind of STRING_CST, so the declaration alone cannot tell a literal from
// { 'a', 'b' } (GCC 15 warns only on literals). GCC 12's own -Wc++-compat
// check "initializer-string for array of ... is too long for C++" fires
// exactly at the literal sites, ignoring nonstring. The plugin turns that
// check on, swallows every -Wc++-compat diagnostic (unless the user asked
// for them), keeps the locations of that one, and decides each of them
// when the declaration is finished: the literal's bytes (read back from
// the source) pick the array it initialized, and that array's variable or
// member says whether it is nonstring.
//
// Findings are ordinary warnings tagged [-Wunterminated-string-initialization],
// never errors, even under -Werror (as patch 0004 does for GCC 15).
// Usage: gcc -fplugin=nonstring.so -DNONSTRING_PLUGIN ...
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"
#include "diagnostic.h"
#include "stringpool.h"
#include "attribs.h"
#include "intl.h"
#include "langhooks.h"

#include <string>
#include <vector>

int plugin_is_GPL_compatible;

namespace {

const char lit_msgid[] = "initializer-string for array of %qT is too long for C++";
const char opt_text[] = "-Wunterminated-string-initialization";

// One char array initialized from a STRING_CST as long as the array.
struct candidate {
	std::string bytes;
	tree type;		// the array type
	tree decl;		// its variable or innermost member
	bool nonstring;		// its variable or member carries the attribute
	bool used;
};

std::vector<location_t> hits;	// literal sites, parse order, not yet decided
bool user_cxx_compat;		// -Wc++-compat given: do not swallow
bool swallowing;		// the diagnostic in progress is ours to drop
bool emitting;			// our own warning is in progress
diagnostic_starter_fn orig_starter;
diagnostic_finalizer_fn orig_finalizer;
char *(*orig_option_name)(diagnostic_context *, int, diagnostic_t, diagnostic_t);

bool char_array_p(tree type)
{
	if (TREE_CODE(type) != ARRAY_TYPE)
		return false;
	tree elt = TYPE_MAIN_VARIANT(TREE_TYPE(type));
	return elt == char_type_node || elt == signed_char_type_node ||
	       elt == unsigned_char_type_node;
}

bool nonstring_p(tree decl)
{
	return decl && DECL_P(decl) &&
	       (lookup_attribute("nonstring", DECL_ATTRIBUTES(decl)) ||
		lookup_attribute("nonstring_array", DECL_ATTRIBUTES(decl)));
}

// Collect the candidates of an initializer in constructor order. DECL is
// the innermost member on the way down, or the variable (as GCC 15.1 does).
void collect(tree init, tree type, tree decl, std::vector<candidate> &out)
{
	if (!init || !type)
		return;
	if (TREE_CODE(init) == STRING_CST) {
		if (!char_array_p(type) || !TYPE_SIZE_UNIT(type) ||
		    TREE_CODE(TYPE_SIZE_UNIT(type)) != INTEGER_CST ||
		    compare_tree_int(TYPE_SIZE_UNIT(type), TREE_STRING_LENGTH(init)))
			return;
		out.push_back({std::string(TREE_STRING_POINTER(init),
					   TREE_STRING_LENGTH(init)),
			       type, decl, nonstring_p(decl), false});
		return;
	}
	if (TREE_CODE(init) != CONSTRUCTOR)
		return;
	unsigned i;
	tree idx, val;
	FOR_EACH_CONSTRUCTOR_ELT(CONSTRUCTOR_ELTS(init), i, idx, val) {
		if (RECORD_OR_UNION_TYPE_P(type)) {
			if (idx && TREE_CODE(idx) == FIELD_DECL)
				collect(val, TREE_TYPE(idx), idx, out);
		} else if (TREE_CODE(type) == ARRAY_TYPE) {
			collect(val, TREE_TYPE(type), decl, out);
		}
	}
}

// The bytes of the string literal at LOC (without its NUL), read back
// from the source the way the front end read them; false if they cannot
// be (e.g. a literal made by the # operator).
bool literal_bytes(location_t loc, std::string &out)
{
	int num = 1;
	location_t *locs = &loc;
	if (g_string_concat_db)
		g_string_concat_db->get_string_concatenation(loc, &num, &locs);
	std::vector<cpp_string> pieces;
	for (int i = 0; i < num; i++) {
		expanded_location e = expand_location(locs[i]);
		if (!e.file || e.line <= 0 || e.column <= 0)
			return false;
		char_span line = location_get_source_line(e.file, e.line);
		if (!line || (size_t)e.column > line.length())
			return false;
		const char *s = line.get_buffer() + e.column - 1;
		const char *end = line.get_buffer() + line.length();
		if (*s != '"')
			return false;	// wide or prefixed: not a char literal
		const char *p = s + 1;
		while (p < end && *p != '"')
			p += (*p == '\\' && p + 1 < end) ? 2 : 1;
		if (p >= end)
			return false;
		pieces.push_back({(unsigned)(p + 1 - s), (const unsigned char *)s});
	}
	cpp_string res;
	if (!cpp_interpret_string(parse_in, pieces.data(), pieces.size(), &res,
				  CPP_STRING))
		return false;
	out.assign((const char *)res.text, res.len ? res.len - 1 : 0);
	free(const_cast<unsigned char *>(res.text));
	return true;
}

void report(location_t loc, const candidate *c)
{
	emitting = true;
	if (c) {
		unsigned HOST_WIDE_INT avail = tree_to_uhwi(TYPE_SIZE_UNIT(c->type));
		warning_at(loc, OPT_Wc___compat,
			   "initializer-string for array of %qT truncates NUL "
			   "terminator but destination lacks %qs attribute "
			   "(%wu chars into %wu available)",
			   TYPE_MAIN_VARIANT(TREE_TYPE(c->type)), "nonstring",
			   avail + 1, avail);
		// Not in GCC 15's output: where __nonstring would go.
		if (c->decl && DECL_P(c->decl))
			inform(DECL_SOURCE_LOCATION(c->decl), "%qD declared here",
			       c->decl);
	} else {
		warning_at(loc, OPT_Wc___compat,
			   "initializer-string for array of %qs truncates NUL "
			   "terminator but destination lacks %qs attribute",
			   "char", "nonstring");
	}
	emitting = false;
}

// Decide the pending literal sites against the candidates of the
// declaration just finished (none if it has no initializer).
void decide(std::vector<candidate> &cands)
{
	bool all_same = true;
	for (const candidate &c : cands)
		all_same &= c.nonstring == cands[0].nonstring;
	for (location_t hit : hits) {
		// The literal's bytes pick its array; if they cannot be read,
		// a declaration whose arrays all agree still decides.
		candidate *match = nullptr;
		std::string bytes;
		bool known = literal_bytes(hit, bytes);
		for (candidate &c : cands)
			if (!c.used && (known ? c.bytes == bytes : all_same)) {
				match = &c;
				break;
			}
		// A range designator ([0 ... 3] = "ab") is one site for
		// several elements: the same bytes again.
		for (candidate &c : cands)
			if (!match && known && c.bytes == bytes)
				match = &c;
		if (match)
			match->used = true;
		if (!match || !match->nonstring)
			report(hit, match);
	}
	hits.clear();
}

void on_finish_decl(void *gcc_data, void *)
{
	tree decl = (tree)gcc_data;
	if (!VAR_P(decl))
		return;
	std::vector<candidate> cands;
	tree init = DECL_INITIAL(decl);
	if (init && init != error_mark_node)
		collect(init, TREE_TYPE(decl), decl, cands);
	decide(cands);
}

void on_flush(void *, void *)
{
	std::vector<candidate> none;
	decide(none);
}

bool ours_to_drop(diagnostic_info *d)
{
	if (emitting)
		return false;
	if (d->kind == DK_NOTE)
		return swallowing;	// the note of a dropped warning
	return d->option_index == OPT_Wc___compat && !user_cxx_compat;
}

void starter(diagnostic_context *dc, diagnostic_info *d)
{
	if (!emitting && d->option_index == OPT_Wc___compat &&
	    !strcmp(d->message.format_spec, _(lit_msgid)))
		hits.push_back(diagnostic_location(d));
	swallowing = ours_to_drop(d);
	if (!swallowing)
		orig_starter(dc, d);
}

void finalizer(diagnostic_context *dc, diagnostic_info *d, diagnostic_t k)
{
	if (swallowing)
		pp_clear_output_area(dc->printer);
	else
		orig_finalizer(dc, d, k);
}

char *option_name(diagnostic_context *dc, int opt, diagnostic_t orig,
		  diagnostic_t kind)
{
	if (emitting && opt == OPT_Wc___compat)
		return xstrdup(opt_text);
	return orig_option_name ? orig_option_name(dc, opt, orig, kind) : nullptr;
}

void on_start_unit(void *, void *)
{
	// After the front end's option handling: nothing else that
	// -Wc++-compat would switch on (e.g. -Wenum-compare) is touched.
	user_cxx_compat = warn_cxx_compat;
	warn_cxx_compat = 1;
	// Never an error, even under -Werror, as patch 0004 does for GCC 15.
	diagnostic_classify_diagnostic(global_dc, OPT_Wc___compat, DK_WARNING,
				       UNKNOWN_LOCATION);
}

tree handle_nonstring_array(tree *node, tree name, tree, int, bool *no_add)
{
	tree type = TREE_TYPE(*node);
	bool ok = (VAR_P(*node) || TREE_CODE(*node) == FIELD_DECL) &&
		  TREE_CODE(type) == ARRAY_TYPE;
	while (ok && TREE_CODE(TREE_TYPE(type)) == ARRAY_TYPE)
		type = TREE_TYPE(type);
	if (!ok || !char_array_p(type)) {
		warning(OPT_Wattributes, "%qE attribute ignored on objects of type %qT",
			name, TREE_TYPE(*node));
		*no_add = true;
	}
	return NULL_TREE;
}

const attribute_spec nonstring_array_attr = {
	"nonstring_array", 0, 0, true, false, false, false,
	handle_nonstring_array, NULL
};

void on_attributes(void *, void *)
{
	register_attribute(&nonstring_array_attr);
}

} // namespace

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	if (!plugin_default_version_check(version, &gcc_version)) {
		error("%s: built for GCC %s, not this compiler", info->base_name,
		      gcc_version.basever);
		return 1;
	}
	if (strncmp(lang_hooks.name, "GNU C", 5) || strstr(lang_hooks.name, "++"))
		return 0;	// C only, as GCC 15's warning
	orig_starter = global_dc->begin_diagnostic;
	orig_finalizer = global_dc->end_diagnostic;
	orig_option_name = global_dc->option_name;
	global_dc->begin_diagnostic = starter;
	global_dc->end_diagnostic = finalizer;
	global_dc->option_name = option_name;
	const char *n = info->base_name;
	register_callback(n, PLUGIN_ATTRIBUTES, on_attributes, NULL);
	register_callback(n, PLUGIN_START_UNIT, on_start_unit, NULL);
	register_callback(n, PLUGIN_FINISH_DECL, on_finish_decl, NULL);
	register_callback(n, PLUGIN_FINISH_PARSE_FUNCTION, on_flush, NULL);
	register_callback(n, PLUGIN_FINISH_UNIT, on_flush, NULL);
	return 0;
}
