#!/bin/sh
# Debian's Chromium (and fonts for cards and emoji) for the browser tests in tests/e2e.
# Installs only what is missing; needs root (apt-get), as on the project's machines and CI.
set -e
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"
[ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || need="$need fonts-noto-color-emoji"
[ -z "$need" ] && exit 0
if [ "$(id -u)" != "0" ]; then
    echo "install_chromium.sh: missing$need; install as root: apt-get install -y$need" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $need >/dev/null
