#!/usr/bin/env bash
# realsites.sh — the real-site measurement of issue 13 ("The preview behaves like the real
# browser"), not part of `make test`: fetches the static sites pinned in scripts/realsites.txt
# with `npm pack` (the npm registry; nothing else is downloaded), unpacks each site's folder
# outside the repository, and runs e2e/realsites' TestRealSites, which compares each site
# served over HTTP with the same folder in the studio's preview (one Chromium, sites in turn).
#
# Environment (all optional):
#   REALSITES_LIST   the list file (default scripts/realsites.txt)
#   REALSITES_CACHE  where tarballs, unpacked sites and the report go
#                    (default ${TMPDIR:-/tmp}/webcoding-realsites; tarballs are kept between runs)
#   REALSITES_ONLY   comma-separated site names to run (default: all)
#   WEBCODING_REALSITES_SETTLE_MS  wait after load before observing (default 1500)
#   WEBCODING_REALSITES_SHOTS      a folder to write each site's served/preview screenshots to
# Output: the test's log, and the report at $REALSITES_CACHE/report.md (first line
# "realsites: N identical of M"). Extra arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=${REALSITES_LIST:-scripts/realsites.txt}
CACHE=${REALSITES_CACHE:-${TMPDIR:-/tmp}/webcoding-realsites}
mkdir -p "$CACHE/tgz"
rm -rf "$CACHE/sites"
mkdir -p "$CACHE/sites"

while read -r name pkg folder extra; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ -z "$folder" ] || [ -n "${extra:-}" ]; then
    echo "realsites.sh: bad line in $LIST: $name $pkg $folder ${extra:-}" >&2
    exit 2
  fi
  tgz="$CACHE/tgz/$name.tgz"
  if [ ! -s "$tgz" ] || [ "$(cat "$tgz.pin" 2>/dev/null)" != "$pkg" ]; then
    echo "realsites.sh: npm pack $pkg" >&2
    tmp=$(mktemp -d)
    file=$(cd "$tmp" && npm pack --silent "$pkg" | tail -n 1)
    mv "$tmp/$file" "$tgz"
    echo "$pkg" > "$tgz.pin"
    rm -rf "$tmp"
  fi
  out=$(mktemp -d)
  tar xzf "$tgz" -C "$out"
  top=$(find "$out" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  if [ ! -f "$top/$folder/index.html" ]; then
    echo "realsites.sh: $pkg has no $folder/index.html" >&2
    exit 2
  fi
  cp -R "$top/$folder" "$CACHE/sites/$name"
  rm -rf "$out"
done < "$LIST"

echo "realsites.sh: $(ls "$CACHE/sites" | wc -l) sites in $CACHE/sites" >&2
WEBCODING_REALSITES="$CACHE/sites" WEBCODING_REALSITES_REPORT="$CACHE/report.md" \
  WEBCODING_REALSITES_ONLY="${REALSITES_ONLY:-}" \
  go test -count=1 -timeout 3600s -tags conformance -run 'TestRealSites' -v ./e2e/realsites "$@" || status=$?
[ -f "$CACHE/report.md" ] && head -n 1 "$CACHE/report.md"
exit "${status:-0}"
