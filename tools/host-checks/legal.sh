#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: legal_info_complete host
# inputs: $NSBSP_SDCARD $NSBSP_LEGAL $NSBSP_LEGAL_SCHEMA
# inputs: /usr/bin/mcopy /usr/bin/dumpimage /usr/bin/cpio /usr/lib/python3/dist-packages/jsonschema
#
# Host checks of the licence information (docs/legal.md); reuse_lint, of
# the repository's own files, is in reuse.sh.
# legal_info_complete: the legal information (make sbom, make legal-info:
#   out/legal-info/) covers the image as it is flashed. Read from
#   sdcard.img itself with mtools, dumpimage and cpio: every file of the
#   boot partition, every image node of each FIT there and every file and
#   link of the FIT's initramfs has exactly one row in files.csv with the
#   same bytes (SHA-256) and a component of manifest.csv; every component
#   has its licence files, every licence id a full text
#   (licence-texts.csv); sbom.spdx.json validates against the official
#   SPDX 2.3 JSON schema (board/legal/) and holds each component as a
#   package and each file with its checksum. Each finding is named.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
set -u

case $1 in
legal_info_complete)
	legal=$NSBSP_LEGAL
	sdcard=$NSBSP_SDCARD
	work=$OUT/legal-selftest
	rm -rf "$work"
	mkdir -p "$work/fat"
	trap 'rm -rf "$work"' EXIT
	[ -r "$sdcard" ] || fail "no $sdcard (make image)"
	for f in manifest.csv files.csv licence-texts.csv sbom.spdx.json; do
		[ -s "$legal/$f" ] || fail "no $legal/$f (make sbom)"
	done
	# What the image holds: "WHERE<TAB>PATH<TAB>SHA256" a line.
	spec=$sdcard@@$(($(od -An -tu4 -j454 -N4 "$sdcard") * 512))
	mdir -/ -b -i "$spec" :: > "$work/fat.list" || fail "mdir cannot read the boot partition of $sdcard"
	n=0
	while read -r p; do
		p=${p#::}
		case $p in */) continue ;; esac
		n=$((n + 1))
		mcopy -n -i "$spec" "::$p" "$work/fat/$n" 2> /dev/null || continue
		printf 'sdcard\t/%s\t%s\n' "${p#/}" "$(sha256sum < "$work/fat/$n" | cut -d ' ' -f 1)"
		# A FIT: a device tree with /images (the Pis' DTBs are ones too).
		if [ "$(od -An -tx1 -N4 "$work/fat/$n" | tr -d ' ')" = d00dfeed ] &&
			fdtget -l "$work/fat/$n" /images > /dev/null 2>&1; then
			echo "$n" >> "$work/fits"
		fi
	done < "$work/fat.list" > "$work/image.list"
	[ -s "$work/fits" ] || fail "no FIT in the boot partition of $sdcard"
	while read -r n; do
		fit=$work/fat/$n
		dumpimage -l "$fit" > "$work/fit.txt" || fail "dumpimage cannot read the FIT"
		awk '/^ Image [0-9]+ \(/ { i = $2; sub(/^\(/, "", $3); sub(/\)$/, "", $3); name = $3; next }
			/^ [^ ]/ { i = "" } i != "" && /^  Type:/ { sub(/^  Type:[[:space:]]*/, ""); print i, name, $0 }' \
			"$work/fit.txt" > "$work/nodes"
		[ -s "$work/nodes" ] || fail "no image node in the FIT"
		while read -r i name type; do
			dumpimage -T flat_dt -p "$i" -o "$work/node" "$fit" > /dev/null || fail "cannot take image $name out of the FIT"
			printf 'fit\t%s\t%s\n' "$name" "$(sha256sum < "$work/node" | cut -d ' ' -f 1)" >> "$work/image.list"
			case $type in
			RAMDisk*)
				mkdir -p "$work/root"
				if [ "$(od -An -tx1 -N2 "$work/node" | tr -d ' ')" = 1f8b ]; then
					gzip -dc < "$work/node" > "$work/node.cpio" && mv "$work/node.cpio" "$work/node"
				fi
				(cd "$work/root" && cpio -id --quiet --no-absolute-filenames < "$work/node") 2> /dev/null ||
					fail "cannot unpack the initramfs $name"
				;;
			esac
		done < "$work/nodes"
	done < "$work/fits"
	[ -d "$work/root" ] || fail "no ramdisk image node in the FIT"
	(cd "$work/root" && find . -type f) | sort | while read -r f; do
		printf 'initramfs\t%s\t%s\n' "${f#.}" "$(sha256sum < "$work/root/$f" | cut -d ' ' -f 1)"
	done >> "$work/image.list"
	(cd "$work/root" && find . -type l) | sort | while read -r f; do
		printf 'initramfs\t%s\t%s\n' "${f#.}" "$(printf '%s' "$(readlink "$work/root/$f")" | sha256sum | cut -d ' ' -f 1)"
	done >> "$work/image.list"
	echo "the image: $(grep -c '^sdcard' "$work/image.list") files in the boot partition, $(grep -c '^fit' "$work/image.list") FIT image nodes, $(grep -c '^initramfs' "$work/image.list") files and links in the initramfs"

	python3 - "$work/image.list" "$legal" "$NSBSP_LEGAL_SCHEMA" <<'PY' || fail "the legal information does not cover the image (findings above)"
import csv, json, os, sys
listing, legal, schema_path = sys.argv[1:4]
bad = []
image = [l.rstrip('\n').split('\t') for l in open(listing)]
with open(os.path.join(legal, 'files.csv')) as f:
    rows = list(csv.DictReader(f))
with open(os.path.join(legal, 'manifest.csv')) as f:
    comps = {r['component']: r for r in csv.DictReader(f)}
with open(os.path.join(legal, 'licence-texts.csv')) as f:
    texts = {r['licence']: r['text'] for r in csv.DictReader(f)}
by = {}
for r in rows:
    by.setdefault((r['where'], r['path']), []).append(r)
for where, path, digest in image:
    found = by.pop((where, path), [])
    what = '%s %s' % (where, path)
    if len(found) != 1:
        bad.append('%s: %d rows in files.csv (want exactly one)' % (what, len(found)))
        continue
    r = found[0]
    if r['sha256'] != digest:
        bad.append('%s: files.csv has other bytes (sha256 %s, the image %s): make sbom again' % (what, r['sha256'][:12], digest[:12]))
    if not r['component']:
        bad.append('%s: belongs to no component (%s)' % (what, r['note'] or 'no reason given'))
    elif r['component'] not in comps:
        bad.append('%s: component %s is not in manifest.csv' % (what, r['component']))
    if not r['licence']:
        bad.append('%s: no licence' % what)
for (where, path), rs in sorted(by.items()):
    bad.append('%s %s: in files.csv but not in the image' % (where, path))
for name, c in sorted(comps.items()):
    if not c['licence']:
        bad.append('component %s: no licence' % name)
    files = c['licence_files'].split()
    if not files:
        bad.append('component %s: no licence file' % name)
    for lf in files:
        p = os.path.join(legal, lf)
        if not os.path.isfile(p) or os.path.getsize(p) == 0:
            bad.append('component %s: licence file %s missing or empty' % (name, lf))
    for w in c['licence'].replace('(', ' ').replace(')', ' ').split():
        if w in ('AND', 'OR', 'WITH'):
            continue
        t = texts.get(w, '')
        if not t or not os.path.isfile(os.path.join(legal, t)) or os.path.getsize(os.path.join(legal, t)) == 0:
            bad.append('component %s: no text of licence %s (licence-texts.csv)' % (name, w))
    if not c['source']:
        bad.append('component %s: no source named' % name)
# The SBOM: valid SPDX 2.3, and the same components and files.
import jsonschema
with open(schema_path) as f:
    schema = json.load(f)
with open(os.path.join(legal, 'sbom.spdx.json')) as f:
    sbom = json.load(f)
for e in jsonschema.Draft7Validator(schema).iter_errors(sbom):
    bad.append('sbom.spdx.json: %s: %s' % ('/'.join(map(str, e.path)), e.message))
pkgs = {p['name'] for p in sbom.get('packages', [])}
for name in comps:
    if name not in pkgs:
        bad.append('sbom.spdx.json: no package %s' % name)
sums = {f['fileName']: {c['algorithm']: c['checksumValue'] for c in f['checksums']} for f in sbom.get('files', [])}
for where, path, digest in image:
    name = './%s/%s' % (where, path.lstrip('/'))
    if sums.get(name, {}).get('SHA256') != digest:
        bad.append('sbom.spdx.json: %s missing or with other bytes' % name)
refs = {r['licenseId'] for r in sbom.get('hasExtractedLicensingInfos', [])}
ids = {x['SPDXID'] for x in sbom.get('packages', []) + sbom.get('files', [])} | {'SPDXRef-DOCUMENT'}
for r in sbom.get('relationships', []):
    for k in ('spdxElementId', 'relatedSpdxElement'):
        if r[k] not in ids:
            bad.append('sbom.spdx.json: a relationship names %s, which is not in the document' % r[k])
for x in sbom.get('packages', []) + sbom.get('files', []):
    for w in x.get('licenseConcluded', '').replace('(', ' ').replace(')', ' ').split():
        if w.startswith('LicenseRef-') and w not in refs:
            bad.append('sbom.spdx.json: %s has no text in hasExtractedLicensingInfos' % w)
for b in bad:
    print('NOT COVERED: ' + b)
print('%d components, %d rows in files.csv, %d licence texts; the SBOM: %d packages, %d files, valid SPDX 2.3' % (
    len(comps), len(rows), len(texts), len(sbom.get('packages', [])), len(sbom.get('files', []))))
sys.exit(1 if bad else 0)
PY
	;;
*)
	fail "legal.sh: unknown case $1"
	;;
esac
