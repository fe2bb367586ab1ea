#!/usr/bin/env bash
# mk/deb.sh OUTDIR: build the Debian package (dpkg-buildpackage -b) from a
# copy of the checkout's tracked and new files (not build/, data/,
# results/), put the .deb in OUTDIR and run lintian on it (no errors
# allowed; warnings are fixed or overridden with a reason in
# debian/iostrat.lintian-overrides; IOSTRAT_DEB_LINTIAN=0 skips it).
set -euo pipefail
out=$1
top=$(pwd)
case $out in /*) ;; *) out=$top/$out ;; esac
for c in dpkg-buildpackage dh lintian scdoc; do
	command -v $c >/dev/null || { echo "deb: needs $c (make deps installs it)" >&2; exit 1; }
done
ver=$(dpkg-parsechangelog -S Version)
tmp=$(mktemp -d /tmp/iostrat-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/iostrat-$ver
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard |
	grep -zv -e '^build' -e '^data/' -e '^results/' |
	xargs -0 cp --parents -t "$src"
(cd "$src" && dpkg-buildpackage -b -us -uc) >"$tmp/build.log" 2>&1 || {
	tail -n 30 "$tmp/build.log" >&2
	echo "deb: dpkg-buildpackage failed (log above)" >&2
	exit 1
}
mkdir -p "$out"
cp "$tmp"/*.deb "$tmp"/*.changes "$out/"
deb=$(ls "$out"/iostrat_"$ver"_*.deb)
echo "built $deb"
[ "${IOSTRAT_DEB_LINTIAN:-1}" = 0 ] && exit 0 # (lab/check.sh: the package, not its lint)
lintian --fail-on error --info --display-info "$tmp"/*.changes | tee "$out/lintian.txt"
