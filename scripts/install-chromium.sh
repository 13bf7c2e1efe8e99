#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing. Idempotent and quiet:
# it prints one line when it installs and nothing when Chromium is already there.
set -euo pipefail

# The language screenshots (web/e2e/tests/i18n.test.mjs) need a Japanese font; Chromium brings Latin and Arabic.
if [ -x /usr/bin/chromium ] && [ -d /usr/share/fonts/opentype/ipafont-gothic ]; then
  exit 0
fi

echo "installing chromium and a Japanese font (Debian packages)…"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq >/dev/null
"${sudo_cmd[@]}" apt-get install -y -qq chromium fonts-ipafont-gothic >/dev/null

if [ ! -x /usr/bin/chromium ]; then
  echo "install-chromium: /usr/bin/chromium still missing after apt-get install" >&2
  exit 1
fi
