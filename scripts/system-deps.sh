#!/usr/bin/env bash
# Install the native packages tarokclub needs, from Debian, when missing.
#   scripts/system-deps.sh          WeasyPrint's libraries (Pango) and fonts
#   scripts/system-deps.sh --test   also Chromium (browser tests) and poppler-utils (PDF to PNG)
# As root the packages are installed with apt-get; otherwise a message names them.
set -euo pipefail

need=()
have_lib() { ldconfig -p 2>/dev/null | grep -q "$1"; }
command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
have_lib 'libpango-1.0.so' || need+=(libpango-1.0-0)
have_lib 'libpangoft2-1.0.so' || need+=(libpangoft2-1.0-0)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
if [ "${1:-}" = "--test" ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "tarokclub needs these system packages: ${need[*]}" >&2
  echo "Install them, e.g.: sudo apt-get install ${need[*]}" >&2
  [ "${1:-}" = "--test" ] && echo "(Without chromium the browser tests are skipped outside CI.)" >&2
  exit 0
fi
