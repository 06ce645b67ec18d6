#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
"""Write the legal information of sdcard.img: what is in it, under which
licence, and where its source is (Buildroot's `make legal-info`).

Everything is read from the product and the build's own records, never
from a list of what should be there:
- sdcard.img's boot partition: its files; a FIT among them: its image
  nodes; the FIT's ramdisk: every file of the product initramfs;
- where each came from: the staging records (SDCARD_ORIGINS, the
  initramfs's ORIGINS: "DEST<TAB>SOURCE" lines), the FIT's staging folder
  (a node is the file of the same bytes there);
- whose each source is: a .deb of DEBS that ships the path, the kernel
  tree, the repository (each file's licence from its REUSE information,
  `reuse spdx`), a target program built from the repository (and the
  static C library it links), or a file the build generated;
- licences: the kernel's COPYING and LICENSES/, each .deb's copyright
  file (board/legal/licences names the licence where the copyright file is
  not machine-readable), the repository's LICENSE and LICENSES/.

Writes into OUT: manifest.csv (a component a line), files.csv (every file
of the image and the component it belongs to), licence-texts.csv, the
licences/ folder, sbom.spdx.json (SPDX 2.3, checked against the official
JSON schema) and, with --sources, sources/: the repository's own sources,
the kernel's tarball, series and configuration, and the Debian source
packages of the .debs (apt-get source with its own state), or where those
cannot be had, their exact names and versions.

A file that belongs to no component is written with an empty component
(legal_info_complete names it); an error in the product stops with exit 1.
"""
import argparse
import csv
import datetime
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

# Debian's short licence names (copyright-format 1.0) and their SPDX ids.
DEBIAN_SPDX = {
    'GPL-1': 'GPL-1.0-only', 'GPL-1+': 'GPL-1.0-or-later',
    'GPL-2': 'GPL-2.0-only', 'GPL-2+': 'GPL-2.0-or-later',
    'GPL-3': 'GPL-3.0-only', 'GPL-3+': 'GPL-3.0-or-later',
    'LGPL-2': 'LGPL-2.0-only', 'LGPL-2+': 'LGPL-2.0-or-later',
    'LGPL-2.1': 'LGPL-2.1-only', 'LGPL-2.1+': 'LGPL-2.1-or-later',
    'LGPL-3': 'LGPL-3.0-only', 'LGPL-3+': 'LGPL-3.0-or-later',
    'BSD-2-clause': 'BSD-2-Clause', 'BSD-3-clause': 'BSD-3-Clause',
    'ISC': 'ISC', 'MIT': 'MIT', 'Expat': 'MIT', 'Apache-2.0': 'Apache-2.0',
    'MPL-1.1': 'MPL-1.1', 'MPL-2.0': 'MPL-2.0', 'CC0-1.0': 'CC0-1.0',
}
# SPDX ids whose text Debian's base-files has in /usr/share/common-licenses.
COMMON_LICENSES = {
    'GPL-1.0': 'GPL-1', 'GPL-2.0': 'GPL-2', 'GPL-3.0': 'GPL-3',
    'LGPL-2.0': 'LGPL-2', 'LGPL-2.1': 'LGPL-2.1', 'LGPL-3.0': 'LGPL-3',
    'Apache-2.0': 'Apache-2.0', 'MPL-1.1': 'MPL-1.1', 'MPL-2.0': 'MPL-2.0',
    'CC0-1.0': 'CC0-1.0', 'GFDL-1.2': 'GFDL-1.2', 'GFDL-1.3': 'GFDL-1.3',
}
SPDX_OPERATORS = {'AND', 'OR', 'WITH'}


def die(msg):
    print('Error: ' + msg, file=sys.stderr)
    sys.exit(1)


def run(*cmd, binary=False, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode != 0:
        die('%s: %s' % (' '.join(cmd), r.stderr.decode(errors='replace').strip()))
    return r.stdout if binary else r.stdout.decode()


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def sha1(data):
    return hashlib.sha1(data).hexdigest()


def licence_ids(expr):
    """The licence and exception ids of an SPDX expression."""
    return [w for w in re.split(r'[\s()]+', expr) if w and w not in SPDX_OPERATORS]


def normalise(ident):
    """SPDX's deprecated GPL-2.0 and GPL-2.0+ say -only and -or-later."""
    m = re.fullmatch(r'((?:L?GPL|AGPL)-[0-9.]+)(\+?)', ident)
    if m:
        return m.group(1) + ('-or-later' if m.group(2) else '-only')
    return ident


def and_of(exprs):
    parts = []
    for e in exprs:
        e = e.strip()
        if e and e not in parts:
            parts.append(e)
    if not parts:
        return ''
    return ' AND '.join(p if len(parts) == 1 or ' ' not in p else '(%s)' % p for p in parts)


class Component:
    def __init__(self, name, version, licence, kind):
        self.name, self.version, self.licence, self.kind = name, version, licence, kind
        self.licence_files = []     # relative to OUT
        self.source_package = ''    # Debian source package(s) "name=version ..."
        self.sources = []           # (name, version) of Debian source packages
        self.source = ''            # where the source is (filled in by sources())
        self.origin = ''
        self.purl = ''
        self.supplier = 'NOASSERTION'
        self.static_with = []       # components statically linked into it
        self.copyright_text = ''    # for LicenseRef- texts


# ---- reading the product ------------------------------------------------

def partition_offset(image):
    with open(image, 'rb') as f:
        mbr = f.read(512)
    if len(mbr) < 512 or mbr[510:512] != b'\x55\xaa':
        die('%s: no MBR partition table' % image)
    return int.from_bytes(mbr[454:458], 'little') * 512


def fat_files(image, work):
    """The boot partition's files: {"/name": bytes}."""
    spec = '%s@@%d' % (image, partition_offset(image))
    names = [n.strip() for n in run('mdir', '-/', '-b', '-i', spec, '::').splitlines() if n.strip()]
    files = {}
    for n in names:
        path = n[2:] if n.startswith('::') else n
        if path.endswith('/'):
            continue
        dest = os.path.join(work, 'fat' + path.replace('/', '_'))
        r = subprocess.run(['mcopy', '-n', '-i', spec, '::' + path, dest], capture_output=True)
        if r.returncode != 0:     # a folder
            continue
        with open(dest, 'rb') as f:
            files['/' + path.lstrip('/')] = f.read()
    return files


def fit_nodes(fit_path, work):
    """The FIT's image nodes: [(name, type, bytes)], in dumpimage's order."""
    listing = run('dumpimage', '-l', fit_path)
    nodes, index, cur = [], {}, None
    for line in listing.splitlines():
        m = re.match(r'^ Image (\d+) \((.+)\)$', line)
        if m:
            index[int(m.group(1))] = [m.group(2), '']
            cur = int(m.group(1))
        elif re.match(r'^ \S', line):
            cur = None
        m = re.match(r'^  Type:\s+(.*)$', line)
        if m and cur is not None:
            index[cur][1] = m.group(1).strip()
    for i in sorted(index):
        out = os.path.join(work, 'fit-node-%d' % i)
        run('dumpimage', '-T', 'flat_dt', '-p', str(i), '-o', out, fit_path)
        with open(out, 'rb') as f:
            nodes.append((index[i][0], index[i][1], f.read()))
    return nodes


def cpio_entries(data):
    """A newc cpio's entries: [(path, mode, bytes)] (a link's bytes: its target)."""
    entries, at = [], 0
    while at + 110 <= len(data):
        hdr = data[at:at + 110]
        if hdr[:6] not in (b'070701', b'070702'):
            die('initramfs: not a newc cpio archive at byte %d' % at)
        fields = [int(hdr[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
        mode, filesize, namesize = fields[1], fields[6], fields[11]
        name_at = at + 110
        name = data[name_at:name_at + namesize - 1].decode()
        body_at = (name_at + namesize + 3) & ~3
        body = data[body_at:body_at + filesize]
        at = (body_at + filesize + 3) & ~3
        if name == 'TRAILER!!!':
            break
        path = '/' + (name[2:] if name.startswith('./') else name).lstrip('/')
        entries.append((path, mode, body))
    return entries


# ---- where things come from ---------------------------------------------

def read_origins(path):
    origins = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.rstrip('\n')
                if '\t' in line:
                    dest, src = line.split('\t', 1)
                    origins[os.path.normpath(dest)] = src
    return origins


def deb_index(debs_dir):
    """{path: [deb file]} of every .deb in DEBS/debs, and {deb: control}."""
    paths, control = {}, {}
    for deb in sorted(os.listdir(os.path.join(debs_dir, 'debs'))):
        if not deb.endswith('.deb'):
            continue
        full = os.path.join(debs_dir, 'debs', deb)
        fields = {}
        for line in run('dpkg-deb', '-f', full, 'Package', 'Version', 'Source', 'Built-Using',
                        'Architecture').splitlines():
            k, _, v = line.partition(':')
            fields[k.strip()] = v.strip()
        control[full] = fields
        for line in run('dpkg-deb', '-c', full).splitlines():
            name = line.split(None, 5)[5].split(' -> ')[0] if len(line.split(None, 5)) == 6 else ''
            name = os.path.normpath('/' + name.lstrip('.').lstrip('/'))
            if name != '/':
                paths.setdefault(name, []).append(full)
    return paths, control


def reuse_licences(top):
    """{relative path: licence expression} from the repository's REUSE data."""
    out = run('reuse', '--root', top, 'spdx', cwd=top)
    lic, cur = {}, None
    for line in out.splitlines():
        if line.startswith('FileName: '):
            cur = os.path.normpath(line[len('FileName: '):])
            lic[cur] = []
        elif line.startswith('LicenseInfoInFile: ') and cur is not None:
            v = line[len('LicenseInfoInFile: '):].strip()
            if v not in ('NONE', 'NOASSERTION'):
                lic[cur].append(v)
    return {k: and_of(v) for k, v in lic.items()}


def file_spdx_header(path):
    try:
        with open(path, errors='replace') as f:
            head = f.read(4096)
    except OSError:
        return ''
    m = re.search(r'SPDX-License-Identifier:\s*([^\n*]+?)\s*(?:\*/|-->|#\})?\s*$', head, re.M)
    return ' '.join(normalise(w) for w in m.group(1).split()) if m else ''


def under(path, folder):
    folder = os.path.realpath(folder)
    return path == folder or path.startswith(folder + os.sep)


# ---- licences -----------------------------------------------------------

def read_licence_table(path):
    table = {}
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            m = re.match(r'^(\S+)\s+(.+?)(?:\s+source=(\S+))?$', line)
            if not m:
                die('%s: cannot read "%s" (KEY LICENCE [source=PACKAGE])' % (path, line))
            table[m.group(1)] = (m.group(2), m.group(3))
    return table


def dep5_licence(text):
    """The SPDX licence of a machine-readable copyright file's "Files: *"."""
    if not re.match(r'^Format:\s*\S*copyright-format', text):
        return ''
    for stanza in re.split(r'\n\s*\n', text):
        if re.search(r'^Files:\s*\*\s*$', stanza, re.M):
            m = re.search(r'^License:\s*(.+)$', stanza, re.M)
            if m:
                words = []
                for w in re.split(r'(\s+|[()])', m.group(1).strip()):
                    if w.strip() in ('or', 'and'):
                        words.append(w.strip().upper())
                    elif w.strip() and w.strip() not in '()':
                        ident = DEBIAN_SPDX.get(w.strip())
                        if ident is None:
                            return ''
                        words.append(ident)
                    elif w.strip():
                        words.append(w.strip())
                return ' '.join(words)
    return ''


class Texts:
    """Full texts of licence ids: the repository's LICENSES/, the kernel's
    LICENSES/ (by their Valid-License-Identifier lines), Debian's
    common-licenses; else a component's own licence file naming it."""

    def __init__(self, top, ksrc):
        self.known = {}
        for d in (os.path.join(top, 'LICENSES'),):
            if os.path.isdir(d):
                for n in os.listdir(d):
                    if n.endswith('.txt'):
                        self.known.setdefault(n[:-4], ('file', os.path.join(d, n)))
        kl = os.path.join(ksrc, 'LICENSES')
        for root, _, names in os.walk(kl):
            for n in names:
                p = os.path.join(root, n)
                with open(p, errors='replace') as f:
                    t = f.read()
                body = t.split('License-Text:', 1)[1].lstrip('\n') if 'License-Text:' in t else t
                for ident in re.findall(r'^(?:Valid-License|SPDX-Exception)-Identifier:\s*(\S+)', t, re.M):
                    self.known.setdefault(normalise(ident), ('text', body))

    def find(self, ident):
        if ident in self.known:
            return self.known[ident]
        base = re.sub(r'-(only|or-later)$', '', ident)
        name = COMMON_LICENSES.get(base)
        if name and os.path.exists('/usr/share/common-licenses/' + name):
            return ('file', '/usr/share/common-licenses/' + name)
        return None


# ---- the legal information ----------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--out', required=True)
    ap.add_argument('--top', required=True)
    ap.add_argument('--sdcard', required=True)
    ap.add_argument('--sdcard-origins', required=True)
    ap.add_argument('--origins', required=True, help="the initramfs staging's records")
    ap.add_argument('--fit-stage', required=True)
    ap.add_argument('--debs', required=True)
    ap.add_argument('--ksrc', required=True)
    ap.add_argument('--kout', required=True)
    ap.add_argument('--ktarball', required=True)
    ap.add_argument('--kpatches', required=True)
    ap.add_argument('--target-bin', required=True)
    ap.add_argument('--target-cc', required=True)
    ap.add_argument('--prog', action='append', default=[], help='NAME=SRC,SRC,...')
    ap.add_argument('--build-out', required=True, help="the build's output folder (out/)")
    ap.add_argument('--licences', required=True, help='board/legal/licences')
    ap.add_argument('--schema', required=True)
    ap.add_argument('--sde', type=int, required=True)
    ap.add_argument('--sources', action='store_true')
    ap.add_argument('--apt-state')
    ap.add_argument('--uboot', help="SRC=BUILD: Debian's u-boot source tree and the build folder of the image's U-Boot")
    a = ap.parse_args()

    top = os.path.realpath(a.top)
    # Everything but sources/ is written into a scratch folder and moved
    # into OUT at the end; sources/ is written by --sources only, and a
    # run without it leaves an earlier one's there (and names it).
    out = a.out
    tmp = out + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, 'licences'))
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix='nsbsp-legal.')
    try:
        build(a, top, tmp, os.path.join(out, 'sources'), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for n in os.listdir(tmp):
        dest = os.path.join(out, n)
        if os.path.isdir(dest) and not os.path.islink(dest):
            shutil.rmtree(dest)
        elif os.path.lexists(dest):
            os.remove(dest)
        os.rename(os.path.join(tmp, n), dest)
    os.rmdir(tmp)


def build(a, top, out, srcdir, work):
    table = read_licence_table(a.licences)
    texts = Texts(top, a.ksrc)
    comps = {}

    # The product.
    fat = fat_files(a.sdcard, work)
    # A FIT is a device tree with /images (the Pis' DTBs are device trees
    # too).
    fits = {}
    for p, d in fat.items():
        if d[:4] != b'\xd0\x0d\xfe\xed':
            continue
        tmp = os.path.join(work, 'dt.dtb')
        with open(tmp, 'wb') as f:
            f.write(d)
        if subprocess.run(['fdtget', '-l', tmp, '/images'], capture_output=True).returncode == 0:
            fits[p] = d
    if not fits:
        die('%s: no FIT in the boot partition' % a.sdcard)
    rows = []                   # (where, path, sha256, data, origin)
    sd_origins = read_origins(a.sdcard_origins)
    for p in sorted(fat):
        rows.append(('sdcard', p, fat[p], sd_origins.get(p, '')))
    stage = {}
    for root, _, names in os.walk(a.fit_stage):
        for n in names:
            real = os.path.realpath(os.path.join(root, n))
            if os.path.isfile(real):
                with open(real, 'rb') as f:
                    stage.setdefault(sha256(f.read()), real)
    ramdisks = []
    for fp, fdata in sorted(fits.items()):
        fit_path = os.path.join(work, 'fit.itb')
        with open(fit_path, 'wb') as f:
            f.write(fdata)
        for name, typ, data in fit_nodes(fit_path, work):
            rows.append(('fit', name, data, stage.get(sha256(data), '')))
            if typ.lower().startswith('ramdisk'):
                ramdisks.append(data)
    if not ramdisks:
        die('no ramdisk image node in the FIT')
    origins = read_origins(a.origins)
    links = {}
    for data in ramdisks:
        if data[:2] == b'\x1f\x8b':
            data = gzip.decompress(data)
        for path, mode, body in cpio_entries(data):
            kind = mode & 0o170000
            if kind == 0o120000:
                # (gen_init_cpio stores the target with its NUL)
                body = body.rstrip(b'\0')
                links[path] = body.decode()
                rows.append(('initramfs', path, body, 'link:' + body.decode()))
            elif kind == 0o100000:
                rows.append(('initramfs', path, body, origins.get(path, '')))

    # Whose each file is.
    deb_paths, deb_control = deb_index(a.debs)
    reuse = reuse_licences(top)
    project_licence = ''
    with open(os.path.join(top, 'LICENSE')) as f:
        m = re.search(r'SPDX-License-Identifier:\s*([A-Za-z0-9.+-]+)', f.read())
        project_licence = m.group(1) if m else 'NOASSERTION'
    progs = {}
    for p in a.prog:
        name, _, srcs = p.partition('=')
        progs[name] = [s for s in srcs.split(',') if s]
    ksrc, kout, debroot = (os.path.realpath(x) for x in (a.ksrc, a.kout, os.path.join(a.debs, 'root')))
    build_out, target_bin = os.path.realpath(a.build_out), os.path.realpath(a.target_bin)

    def project():
        if 'nonstring-bsp' not in comps:
            v = subprocess.run(['git', '-C', top, 'describe', '--always', '--dirty'],
                               capture_output=True, text=True).stdout.strip() or 'unknown'
            c = Component('nonstring-bsp', v, '', 'project')
            c.origin = 'this repository'
            c.supplier = 'Organization: The nonstring-bsp authors'
            comps[c.name] = c
        return comps['nonstring-bsp']

    def linux():
        if 'linux' not in comps:
            kv = run('make', '-s', '-C', a.ksrc, 'kernelversion').strip()
            with open(os.path.join(a.ksrc, 'COPYING'), errors='replace') as f:
                m = re.search(r'SPDX-License-Identifier:\s*(.+)$', f.read(), re.M)
            lic = ' '.join(normalise(w) for w in m.group(1).split()) if m else 'GPL-2.0-only'
            c = Component('linux', kv, lic, 'kernel')
            pkg = run('dpkg', '-S', os.path.realpath(a.ktarball)).split(':', 1)[0]
            srcpkg = run('dpkg-query', '-W', '-f', '${source:Package} ${source:Version}', pkg).split()
            c.source_package = '%s=%s' % (srcpkg[0], srcpkg[1])
            c.origin = '%s %s (%s) with kernel-patches/series' % (
                pkg, run('dpkg-query', '-W', '-f', '${Version}', pkg), a.ktarball)
            c.supplier = 'Organization: Debian'
            comps[c.name] = c
        return comps['linux']

    usrc, _, ubuild = (a.uboot or '').partition('=')
    ubuild = os.path.realpath(ubuild) if ubuild else ''

    def uboot():
        if 'u-boot' not in comps:
            v = run('dpkg-parsechangelog', '-l', os.path.join(usrc, 'debian', 'changelog'), '-S', 'Version').strip()
            c = Component('u-boot', v, 'GPL-2.0-or-later', 'uboot')
            c.sources = [('u-boot', v)]
            c.source_package = 'u-boot=%s' % v
            c.origin = "Debian's source package u-boot %s, rpi_arm64_defconfig + board/uboot/rpi_arm64.config" % v
            c.supplier = 'Organization: Debian'
            comps[c.name] = c
            copy_licence(out, c, os.path.join(usrc, 'Licenses', 'README'), 'Licenses/README')
            copy_licence(out, c, os.path.join(usrc, 'Licenses', 'gpl-2.0.txt'), 'Licenses/gpl-2.0.txt')
        return comps['u-boot']

    def deb(full):
        ctl = deb_control[full]
        name = ctl['Package']
        if name not in comps:
            src = ctl.get('Source', '') or name
            m = re.match(r'^(\S+)(?:\s+\((.+)\))?$', src)
            src_name, src_version = m.group(1), m.group(2) or ctl['Version']
            copyright_text = deb_copyright(full, name)
            if src_name in table or name in table:
                lic = table.get(name, table.get(src_name))[0]
            else:
                lic = dep5_licence(copyright_text) or 'LicenseRef-deb-%s' % src_name
            c = Component(name, ctl['Version'], lic, 'deb')
            c.copyright_text = copyright_text
            c.sources = [(src_name, src_version)]
            for bu in filter(None, (x.strip() for x in ctl.get('Built-Using', '').split(','))):
                m = re.match(r'^(\S+)\s+\(=\s*(.+)\)$', bu)
                if m:
                    c.sources.append((m.group(1), m.group(2)))
            c.source_package = ' '.join('%s=%s' % s for s in c.sources)
            c.origin = os.path.basename(full)
            c.purl = 'pkg:deb/debian/%s@%s?arch=%s' % (name, ctl['Version'], ctl.get('Architecture', ''))
            c.supplier = 'Organization: Debian'
            comps[name] = c
            write_licence_file(out, c, 'copyright', copyright_text)
        return comps[name]

    def static_libs():
        """The host packages whose static libraries a target program links."""
        found = []
        for flag in ('-print-file-name=libc.a', '-print-libgcc-file-name'):
            lib = os.path.realpath(run(a.target_cc, flag).strip())
            pkg = run('dpkg', '-S', lib).split(':', 1)[0]
            if pkg in comps:
                found.append(comps[pkg])
                continue
            f = dict(zip(('p', 'v', 'sp', 'sv', 'bu'), run(
                'dpkg-query', '-W', '-f', '${Package}\t${Version}\t${source:Package}\t${source:Version}\t${Built-Using}',
                pkg).split('\t')))
            with open('/usr/share/doc/%s/copyright' % pkg, errors='replace') as fh:
                copyright_text = fh.read()
            entry = table.get(pkg, table.get(f['sp']))
            lic = entry[0] if entry else (dep5_licence(copyright_text) or 'LicenseRef-deb-%s' % f['sp'])
            c = Component(pkg, f['v'], lic, 'static')
            c.copyright_text = copyright_text
            c.sources = [(f['sp'], f['sv'])]
            if entry and entry[1]:
                m = re.search(r'(?:^|,\s*)%s \(= ([^)]+)\)' % re.escape(entry[1]), f['bu'])
                if m:
                    c.sources = [(entry[1], m.group(1))]
            c.source_package = ' '.join('%s=%s' % s for s in c.sources)
            c.origin = '%s (%s), linked statically into the target programs' % (pkg, os.path.basename(lib))
            c.purl = 'pkg:deb/debian/%s@%s' % (pkg, f['v'])
            c.supplier = 'Organization: Debian'
            comps[pkg] = c
            write_licence_file(out, c, 'copyright', copyright_text)
            found.append(c)
        return found

    files = []      # (where, path, component, licence, sha256, sha1, note)
    for where, path, data, origin in rows:
        comp, lic, note = classify(origin, path, where, links, deb_paths, reuse, progs, project_licence,
                                   top, ksrc, kout, debroot, build_out, target_bin,
                                   project, linux, deb, static_libs, ubuild, uboot)
        files.append([where, path, comp.name if comp else '', lic, sha256(data), sha1(data), note])
    # A link belongs to the component of the file it leads to.
    by_path = {(f[0], f[1]): f for f in files}
    for f in files:
        if f[0] == 'initramfs' and f[1] in links and not f[2]:
            target = resolve_link(f[1], links)
            t = by_path.get(('initramfs', target))
            if t and t[2]:
                f[2], f[3], f[6] = t[2], t[3], 'symbolic link to %s' % target
            else:
                f[6] = 'symbolic link to %s, which is no file of the image' % target

    # Licences of the kernel and of the repository.
    if 'linux' in comps:
        c = comps['linux']
        copy_licence(out, c, os.path.join(a.ksrc, 'COPYING'), 'COPYING')
        for root, _, names in os.walk(os.path.join(a.ksrc, 'LICENSES')):
            for n in sorted(names):
                p = os.path.join(root, n)
                copy_licence(out, c, p, os.path.relpath(p, a.ksrc))
    if 'nonstring-bsp' in comps:
        c = comps['nonstring-bsp']
        c.licence = and_of([project_licence] + [f[3] for f in files if f[2] == c.name])
        copy_licence(out, c, os.path.join(top, 'LICENSE'), 'LICENSE')
        for n in sorted(os.listdir(os.path.join(top, 'LICENSES'))):
            copy_licence(out, c, os.path.join(top, 'LICENSES', n), os.path.join('LICENSES', n))
        c.static_with = [s.name for s in comps.values() if s.kind == 'static']
    for c in comps.values():
        if c.kind == 'deb':
            for s in c.sources[1:]:
                c.static_with.append('%s=%s' % s)

    # The full text of every licence id used.
    texts_rows = []
    os.makedirs(os.path.join(out, 'licences', 'texts'), exist_ok=True)
    used = sorted({i for c in comps.values() for i in licence_ids(c.licence)}
                  | {i for f in files for i in licence_ids(f[3])})
    for ident in used:
        where = ''
        if ident.startswith('LicenseRef-'):
            for c in comps.values():
                if c.licence == ident or ident in licence_ids(c.licence):
                    where = c.licence_files[0] if c.licence_files else ''
                    break
        else:
            found = texts.find(ident)
            if found:
                rel = os.path.join('licences', 'texts', ident + '.txt')
                if found[0] == 'file':
                    shutil.copyfile(found[1], os.path.join(out, rel))
                else:
                    with open(os.path.join(out, rel), 'w') as f:
                        f.write(found[1])
                where = rel
            else:
                # A component's own licence file that has the text.
                for c in comps.values():
                    if ident in licence_ids(c.licence) and c.copyright_text and \
                            text_mentions(c.copyright_text, ident):
                        where = c.licence_files[0]
                        break
        texts_rows.append((ident, where))

    if a.sources:
        sources(a, top, srcdir, comps)
    describe_sources(a, srcdir, comps)

    with open(os.path.join(out, 'manifest.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['component', 'version', 'licence', 'licence_files', 'source_package', 'source', 'origin'])
        for c in sorted(comps.values(), key=lambda c: c.name):
            w.writerow([c.name, c.version, c.licence, ' '.join(c.licence_files), c.source_package,
                        c.source, c.origin])
    with open(os.path.join(out, 'files.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['where', 'path', 'component', 'licence', 'sha256', 'note'])
        for r in files:
            w.writerow([r[0], r[1], r[2], r[3], r[4], r[6]])
    with open(os.path.join(out, 'licence-texts.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['licence', 'text'])
        w.writerows(texts_rows)

    sbom = spdx(a, comps, files, texts_rows, out)
    validate(sbom, a.schema)
    with open(os.path.join(out, 'sbom.spdx.json'), 'w') as f:
        json.dump(sbom, f, indent=1, sort_keys=True)
        f.write('\n')
    missing = [r for r in files if not r[2]]
    print('  LEGAL   %d components, %d files (%d of no component), %d licences%s' % (
        len(comps), len(files), len(missing), len(texts_rows), ', sources' if a.sources else ''))


def classify(origin, path, where, links, deb_paths, reuse, progs, project_licence, top, ksrc, kout,
             debroot, build_out, target_bin, project, linux, deb, static_libs, ubuild, uboot):
    """(component, licence, note) of one file of the image."""
    if not origin:
        return None, '', 'no record of where it came from'
    if origin.startswith('link:'):
        return None, '', ''             # resolved after every file is known
    real = os.path.realpath(origin)
    if under(real, debroot):
        # (the last name unresolved: a link of the .deb is its own entry)
        rel = os.path.normpath('/' + os.path.relpath(
            os.path.join(os.path.realpath(os.path.dirname(origin)), os.path.basename(origin)), debroot))
        owners = deb_paths.get(rel, [])
        if len(owners) != 1:
            return None, '', '%s: shipped by %s' % (rel, ', '.join(map(os.path.basename, owners)) or 'no .deb')
        c = deb(owners[0])
        return c, c.licence, ''
    if ubuild and under(real, ubuild):
        c = uboot()
        return c, c.licence, 'built from %s' % c.origin
    if under(real, ksrc) or under(real, kout):
        c = linux()
        return c, file_spdx_header(real) or c.licence, ''
    if under(real, target_bin):
        name = os.path.basename(real)
        if name not in progs:
            return None, '', 'a target program of no known sources'
        lics = []
        for s in progs[name]:
            rel = os.path.relpath(os.path.realpath(s), top)
            if not reuse.get(rel):
                return None, '', '%s: a source without a licence (no SPDX header, not in .reuse/dep5)' % rel
            lics.append(reuse[rel])
        c = project()
        static_libs()
        return c, and_of(lics), 'built from %s' % ' '.join(os.path.relpath(s, top) for s in progs[name])
    if under(real, build_out):
        c = project()
        return c, project_licence, 'made by the build (%s)' % os.path.relpath(real, build_out)
    if under(real, top):
        rel = os.path.relpath(real, top)
        if not reuse.get(rel):
            return None, '', '%s: no licence (no SPDX header, not in .reuse/dep5)' % rel
        return project(), reuse[rel], rel
    return None, '', 'from %s, which is nothing the legal information knows' % origin


def resolve_link(path, links, depth=0):
    target = links[path]
    full = os.path.normpath(target if target.startswith('/') else os.path.join(os.path.dirname(path), target))
    if full in links and depth < 16:
        return resolve_link(full, links, depth + 1)
    return full


def text_mentions(text, ident):
    words = re.sub(r'[-.]', ' ', re.sub(r'-(only|or-later)$', '', ident)).lower().split()
    low = text.lower()
    return all(w in low for w in words)


def deb_copyright(deb_file, package):
    """The copyright file of a .deb (its doc folder may be a link to another
    package's, which is then fetched from the .deb of that package)."""
    tar = run('dpkg-deb', '--fsys-tarfile', deb_file, binary=True)
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        for m in t.getmembers():
            if os.path.normpath(m.name) == 'usr/share/doc/%s/copyright' % package and m.isfile():
                return t.extractfile(m).read().decode(errors='replace')
        for m in t.getmembers():
            if os.path.normpath(m.name) == 'usr/share/doc/%s' % package and m.issym():
                other = os.path.basename(m.linkname)
                for d in os.listdir(os.path.dirname(deb_file)):
                    if d.startswith(other + '_') and d.endswith('.deb'):
                        return deb_copyright(os.path.join(os.path.dirname(deb_file), d), other)
    die('%s: no copyright file' % deb_file)


def write_licence_file(out, c, name, text):
    rel = os.path.join('licences', c.name, name)
    os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
    with open(os.path.join(out, rel), 'w') as f:
        f.write(text)
    c.licence_files.append(rel)


def copy_licence(out, c, src, name):
    rel = os.path.join('licences', c.name, name)
    os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
    shutil.copyfile(src, os.path.join(out, rel))
    c.licence_files.append(rel)


# ---- sources ------------------------------------------------------------

def describe_sources(a, src, comps):
    """Where each component's source is: in SRC (sources/, written by
    make legal-info) when it is there, else its exact name and version."""
    record = {}
    if os.path.exists(os.path.join(src, 'debian', 'sources.csv')):
        with open(os.path.join(src, 'debian', 'sources.csv')) as f:
            for r in csv.DictReader(f):
                record[(r['source_package'], r['version'])] = r['files']
    for c in comps.values():
        if c.kind == 'project':
            rel = os.path.join('nonstring-bsp', 'nonstring-bsp-%s.tar.gz' % c.version)
            c.source = ('sources/' + rel) if os.path.exists(os.path.join(src, rel)) else \
                'the repository at %s (make legal-info archives it)' % c.version
        elif c.kind == 'kernel':
            tb = os.path.join(src, 'linux', os.path.basename(a.ktarball))
            c.source = 'sources/linux/ (%s, patches/series, config)' % os.path.basename(a.ktarball) \
                if os.path.exists(tb) else '%s with kernel-patches/series (make legal-info copies them)' % a.ktarball
        else:
            where = []
            for s in c.sources:
                got = record.get(s, '')
                if got and not got.startswith('not downloaded'):
                    where.append('sources/debian/%s' % got.split()[0])
                else:
                    where.append('Debian source package %s %s (%s)' % (
                        s[0], s[1], got or 'not downloaded: make legal-info fetches it'))
            c.source = ' '.join(where)


def sources(a, top, src, comps):
    """sources/: written anew; downloads are kept in the apt state."""
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    if 'nonstring-bsp' in comps:
        c = comps['nonstring-bsp']
        name = 'nonstring-bsp-%s' % c.version
        repo_tarball(top, name, a.sde, os.path.join(src, 'nonstring-bsp', name + '.tar.gz'))
    if 'linux' in comps:
        d = os.path.join(src, 'linux')
        os.makedirs(os.path.join(d, 'patches'), exist_ok=True)
        tb = os.path.join(d, os.path.basename(a.ktarball))
        try:
            os.link(os.path.realpath(a.ktarball), tb)
        except OSError:
            shutil.copyfile(a.ktarball, tb)
        series = os.path.join(a.kpatches, 'series')
        shutil.copyfile(series, os.path.join(d, 'patches', 'series'))
        with open(series) as f:
            for p in f.read().split('\n'):
                p = p.split('#', 1)[0].strip()
                if p:
                    shutil.copyfile(os.path.join(a.kpatches, p), os.path.join(d, 'patches', p))
        shutil.copyfile(os.path.join(a.kout, '.config'), os.path.join(d, 'config'))
    wanted = sorted({s for c in comps.values() if c.kind in ('deb', 'static', 'uboot') for s in c.sources})
    got = apt_sources(a.apt_state, wanted, os.path.join(src, 'debian'))
    with open(os.path.join(src, 'debian', 'sources.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['source_package', 'version', 'files'])
        for s in wanted:
            w.writerow([s[0], s[1], got.get(s, 'not downloaded')])


def repo_tarball(top, name, sde, dest):
    """The repository's files as they are in the work tree (tracked, and
    new ones not ignored), in a tarball that is the same for the same
    content: sorted, owner 0, mtime SOURCE_DATE_EPOCH."""
    names = run('git', '-C', top, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0')
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, 'wb') as raw:
        with gzip.GzipFile(filename='', mode='wb', fileobj=raw, mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode='w', format=tarfile.PAX_FORMAT) as t:
                for n in sorted(set(filter(None, names))):
                    p = os.path.join(top, n)
                    if not os.path.lexists(p):
                        continue
                    ti = t.gettarinfo(p, arcname=os.path.join(name, n))
                    ti.uid = ti.gid = 0
                    ti.uname = ti.gname = ''
                    ti.mtime = sde
                    ti.mode = 0o755 if ti.mode & 0o111 else 0o644
                    if ti.isfile():
                        with open(p, 'rb') as f:
                            t.addfile(ti, f)
                    else:
                        t.addfile(ti)


def apt_sources(state, wanted, dest):
    """apt-get source --download-only of each (name, version), with apt's
    own state in STATE (deb-src entries made from the host's sources, the
    host's dpkg configuration untouched). {(name, version): files or
    "not downloaded: why"}."""
    os.makedirs(dest, exist_ok=True)
    got = {}
    if not state:
        return {s: 'not downloaded: no apt state folder' for s in wanted}
    state = os.path.abspath(state)
    for d in ('lists/partial', 'cache/archives/partial', 'parts', 'download'):
        os.makedirs(os.path.join(state, d), exist_ok=True)
    make_deb_src(os.path.join(state, 'sources.list'))
    opts = ['-o', 'Dir::State::Lists=%s/lists' % state, '-o', 'Dir::Cache=%s/cache' % state,
            '-o', 'Dir::Etc::SourceList=%s/sources.list' % state,
            '-o', 'Dir::Etc::SourceParts=%s/parts' % state,
            '-o', 'Dir::State::Status=/dev/null', '-o', 'APT::Sandbox::User=root']
    if not os.path.exists(os.path.join(state, 'lists', '.updated')):
        print('  APT     fetching the Debian source package lists into %s' % state)
        r = subprocess.run(['apt-get', '-q'] + opts + ['update'], capture_output=True, text=True)
        if r.returncode != 0:
            why = (r.stderr.strip().splitlines() or ['apt-get update failed'])[-1]
            return {s: 'not downloaded: %s' % why for s in wanted}
        open(os.path.join(state, 'lists', '.updated'), 'w').close()
    for name, version in wanted:
        print('  APT     source %s %s' % (name, version))
        r = subprocess.run(['apt-get', '-q', '--download-only'] + opts + ['source', '%s=%s' % (name, version)],
                           cwd=os.path.join(state, 'download'), capture_output=True, text=True)
        if r.returncode != 0:
            # The first file apt could not fetch says why, not its summary.
            why = (r.stderr.strip().splitlines() or ['apt-get source failed'])[-1].replace('E: ', '')
            m = re.search(r'^E: Failed to fetch (\S+)\s+(.*?)(?:\s*\[IP:.*)?$', r.stderr, re.M)
            if m:
                why = 'apt could not fetch %s (%s)' % (m.group(1).rsplit('/', 1)[-1], m.group(2).strip())
            got[(name, version)] = 'not downloaded: %s' % why
            print('  APT     %s %s: %s' % (name, version, got[(name, version)]))
            continue
        dsc = '%s_%s.dsc' % (name, re.sub(r'^\d+:', '', version))
        files = [dsc] + dsc_files(os.path.join(state, 'download', dsc))
        for f in files:
            target = os.path.join(dest, f)
            if not os.path.exists(target):
                try:
                    os.link(os.path.join(state, 'download', f), target)
                except OSError:
                    shutil.copyfile(os.path.join(state, 'download', f), target)
        got[(name, version)] = ' '.join(files)
    return got


def dsc_files(dsc):
    with open(dsc, errors='replace') as f:
        text = f.read()
    m = re.search(r'^Files:\n((?: .*\n?)+)', text, re.M)
    return [line.split()[2] for line in m.group(1).splitlines() if len(line.split()) == 3] if m else []


def make_deb_src(dest):
    """deb-src lines for the host's Debian sources (.list and .sources)."""
    lines = []
    for path in ['/etc/apt/sources.list'] + sorted(
            os.path.join('/etc/apt/sources.list.d', n) for n in os.listdir('/etc/apt/sources.list.d')
            if n.endswith('.list') or n.endswith('.sources')) if os.path.isdir('/etc/apt/sources.list.d') else []:
        if not os.path.exists(path):
            continue
        with open(path) as f:
            text = f.read()
        if path.endswith('.sources'):
            for stanza in re.split(r'\n\s*\n', text):
                kv = {}
                for line in stanza.splitlines():
                    if line.startswith('#') or ':' not in line or line.startswith(' '):
                        continue
                    k, _, v = line.partition(':')
                    kv[k.strip()] = v.strip()
                if 'deb' in kv.get('Types', '').split() and kv.get('Enabled', 'yes') != 'no':
                    opt = ' [signed-by=%s]' % kv['Signed-By'] if kv.get('Signed-By', '').startswith('/') else ''
                    for uri in kv.get('URIs', '').split():
                        for suite in kv.get('Suites', '').split():
                            lines.append('deb-src%s %s %s %s' % (opt, uri, suite, kv.get('Components', '')))
        else:
            for line in text.splitlines():
                if re.match(r'^\s*deb\s', line):
                    lines.append(re.sub(r'^\s*deb\s', 'deb-src ', line))
    with open(dest, 'w') as f:
        f.write('\n'.join(sorted(set(lines))) + '\n')


# ---- SBOM ---------------------------------------------------------------

def spdx_id(kind, name):
    return 'SPDXRef-%s-%s' % (kind, re.sub(r'[^A-Za-z0-9.-]+', '-', name).strip('-'))


def spdx(a, comps, files, texts_rows, out):
    with open(a.sdcard, 'rb') as f:
        img = f.read()
    created = datetime.datetime.fromtimestamp(a.sde, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
    image_id = 'SPDXRef-Package-sdcard.img'
    project_version = comps['nonstring-bsp'].version if 'nonstring-bsp' in comps else 'unknown'
    doc = {
        'spdxVersion': 'SPDX-2.3',
        'dataLicense': 'CC0-1.0',
        'SPDXID': 'SPDXRef-DOCUMENT',
        'name': 'nonstring-bsp sdcard.img %s' % project_version,
        'documentNamespace': 'https://spdx.org/spdxdocs/nonstring-bsp-sdcard-%s' % sha256(img),
        'creationInfo': {
            'created': created,
            'creators': ['Tool: nonstring-bsp-legal-info', 'Organization: The nonstring-bsp authors'],
        },
        'documentDescribes': [image_id],
        'packages': [{
            'SPDXID': image_id,
            'name': 'sdcard.img',
            'versionInfo': project_version,
            'downloadLocation': 'NOASSERTION',
            'filesAnalyzed': False,
            'primaryPackagePurpose': 'FIRMWARE',
            'checksums': [{'algorithm': 'SHA256', 'checksumValue': sha256(img)},
                          {'algorithm': 'SHA1', 'checksumValue': sha1(img)}],
            'licenseConcluded': and_of(c.licence for c in sorted(comps.values(), key=lambda c: c.name)),
            'licenseDeclared': 'NOASSERTION',
            'copyrightText': 'NOASSERTION',
            'supplier': 'Organization: The nonstring-bsp authors',
            'comment': 'The SD card image: the boot partition with the signed FIT and boot.scr.',
        }],
        'files': [],
        'relationships': [{'spdxElementId': 'SPDXRef-DOCUMENT', 'relationshipType': 'DESCRIBES',
                           'relatedSpdxElement': image_id}],
    }
    for c in sorted(comps.values(), key=lambda c: c.name):
        p = {
            'SPDXID': spdx_id('Package', c.name),
            'name': c.name,
            'versionInfo': c.version,
            'downloadLocation': 'NOASSERTION',
            'filesAnalyzed': False,
            'licenseConcluded': c.licence or 'NOASSERTION',
            'licenseDeclared': c.licence or 'NOASSERTION',
            'copyrightText': 'NOASSERTION',
            'supplier': c.supplier,
            'sourceInfo': 'source: %s; %s' % (c.source, c.origin),
        }
        if c.purl:
            p['externalRefs'] = [{'referenceCategory': 'PACKAGE-MANAGER', 'referenceType': 'purl',
                                  'referenceLocator': c.purl}]
        doc['packages'].append(p)
        doc['relationships'].append({'spdxElementId': image_id, 'relationshipType': 'CONTAINS',
                                     'relatedSpdxElement': p['SPDXID']})
        for s in c.static_with:
            if s in comps:
                doc['relationships'].append({'spdxElementId': p['SPDXID'], 'relationshipType': 'STATIC_LINK',
                                             'relatedSpdxElement': spdx_id('Package', s)})
    seen = set()
    for where, path, comp, lic, digest, digest1, note in files:
        fid = spdx_id('File', '%s-%s' % (where, path))
        if fid in seen:
            fid = spdx_id('File', '%s-%s-%s' % (where, path, digest[:12]))
        seen.add(fid)
        f = {
            'SPDXID': fid,
            'fileName': './%s%s' % (where, path if path.startswith('/') else '/' + path),
            'checksums': [{'algorithm': 'SHA1', 'checksumValue': digest1},
                          {'algorithm': 'SHA256', 'checksumValue': digest}],
            'licenseConcluded': lic or 'NOASSERTION',
            'licenseInfoInFiles': licence_ids(lic) or ['NOASSERTION'],
            'copyrightText': 'NOASSERTION',
        }
        if note:
            f['comment'] = note
        doc['files'].append(f)
        doc['relationships'].append({'spdxElementId': image_id, 'relationshipType': 'CONTAINS',
                                     'relatedSpdxElement': fid})
        if comp:
            doc['relationships'].append({'spdxElementId': spdx_id('Package', comp), 'relationshipType': 'CONTAINS',
                                         'relatedSpdxElement': fid})
    # The kernel's pedigree: its patches, applied to the Debian tree.
    if 'linux' in comps:
        series = os.path.join(a.kpatches, 'series')
        with open(series) as fh:
            names = [p.split('#', 1)[0].strip() for p in fh.read().split('\n')]
        for p in filter(None, names):
            with open(os.path.join(a.kpatches, p), 'rb') as fh:
                data = fh.read()
            fid = spdx_id('File', 'kernel-patches-' + p)
            doc['files'].append({
                'SPDXID': fid,
                'fileName': './kernel-patches/%s' % p,
                'fileTypes': ['SOURCE'],
                'checksums': [{'algorithm': 'SHA1', 'checksumValue': sha1(data)},
                              {'algorithm': 'SHA256', 'checksumValue': sha256(data)}],
                'licenseConcluded': 'GPL-2.0-only',
                'licenseInfoInFiles': ['GPL-2.0-only'],
                'copyrightText': 'NOASSERTION',
            })
            doc['relationships'].append({'spdxElementId': fid, 'relationshipType': 'PATCH_APPLIED',
                                         'relatedSpdxElement': spdx_id('Package', 'linux')})
    refs = []
    for ident, where in texts_rows:
        if ident.startswith('LicenseRef-'):
            with open(os.path.join(out, where), errors='replace') if where else io.StringIO('') as fh:
                refs.append({'licenseId': ident, 'name': ident[len('LicenseRef-'):],
                             'extractedText': fh.read() or 'NOASSERTION'})
    if refs:
        doc['hasExtractedLicensingInfos'] = refs
    return doc


def validate(doc, schema_path):
    import jsonschema
    with open(schema_path) as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        for e in errors[:10]:
            print('sbom.spdx.json: %s: %s' % ('/'.join(map(str, e.path)), e.message), file=sys.stderr)
        die('the SBOM does not validate against %s' % schema_path)


if __name__ == '__main__':
    main()
