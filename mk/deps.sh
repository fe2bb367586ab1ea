#!/usr/bin/env bash
# Install the Debian packages given as arguments, only those missing.
# Silent and fast when everything is there; sudo when not root.
set -euo pipefail
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || {
		echo "deps: need root or sudo to install: ${missing[*]}" >&2
		exit 1
	}
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/iostrat-deps.log 2>&1; then
	$sudo apt-get update -q >>/tmp/iostrat-deps.log 2>&1 || true
	if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/iostrat-deps.log 2>&1; then
		echo "deps: apt-get could not install: ${missing[*]} (log: /tmp/iostrat-deps.log)" >&2
		tail -n 5 /tmp/iostrat-deps.log >&2
		exit 1
	fi
fi
