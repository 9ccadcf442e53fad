# Shared by script/server, script/test and script/demo. Source it; do not run it.
#
# Everything slow to build (cargo-leptos, wasm-bindgen-cli, the cargo target folder) is kept under
# the home folder so a fresh clone reuses it; delete ~/.cache/mentat to start over.

MENTAT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MENTAT_CACHE="${MENTAT_CACHE:-$HOME/.cache/mentat}"
MENTAT_TOOLS="${MENTAT_TOOLS:-$MENTAT_CACHE/tools}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$MENTAT_CACHE/target}"
export PATH="$MENTAT_TOOLS/bin:$HOME/.cargo/bin:$PATH"

CARGO_LEPTOS_VERSION="0.3.10"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "installing system packages needs root (or sudo): $*"
  fi
}

# Debian packages, installed only when something is missing. apt-get update runs at most once.
apt_ensure() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  if [ -z "${MENTAT_APT_UPDATED:-}" ]; then
    as_root apt-get update -qq || die "apt-get update failed; check the network or the package mirrors"
    MENTAT_APT_UPDATED=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || die "could not install ${missing[*]} with apt-get"
}

# The wasm-bindgen version Cargo.lock pins; the CLI must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$MENTAT_ROOT/Cargo.lock"
}

rust_ensure() {
  command -v cargo >/dev/null || die "cargo is not on PATH; Mentat needs a Rust toolchain (rustup) of version 1.95 or newer"
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  mkdir -p "$MENTAT_TOOLS"
  if [ "$(cargo-leptos --version 2>/dev/null)" != "cargo-leptos $CARGO_LEPTOS_VERSION" ]; then
    say "building cargo-leptos $CARGO_LEPTOS_VERSION (once per machine; about 15 minutes on 2 cores)"
    # no_downloads: a missing helper tool is an error instead of a download this network refuses.
    cargo install "cargo-leptos@$CARGO_LEPTOS_VERSION" --locked --features no_downloads --root "$MENTAT_TOOLS"
  fi
  local wbg
  wbg="$(wasm_bindgen_version)"
  [ -n "$wbg" ] || die "Cargo.lock names no wasm-bindgen version"
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wbg" ]; then
    say "building wasm-bindgen-cli $wbg (once per machine; about 3 minutes)"
    # Not --locked: its own lock file names a webpki-roots release the registry no longer serves.
    cargo install "wasm-bindgen-cli@$wbg" --root "$MENTAT_TOOLS" --force
  fi
}

# build_frontend SITE_ROOT [cargo-leptos args]: builds the browser half (wasm, JS, CSS, public
# files) into SITE_ROOT. Release (script/server) and debug (script/test) builds use different
# folders so a test run never swaps the files under a running server.
# wasm-opt, which cargo-leptos runs on release builds of the browser half. Binaryen from npm (a
# WebAssembly build that node runs), because Debian's binaryen 108 predates the reference types
# rustc now emits for wasm32: its output fails in the browser at start-up with
# "WebAssembly.Table.set(): Argument 1 is invalid", so the page never becomes interactive.
BINARYEN_VERSION=132.0.0
binaryen_ensure() {
  local dir="$MENTAT_TOOLS/binaryen-$BINARYEN_VERSION"
  if [ ! -x "$dir/node_modules/.bin/wasm-opt" ]; then
    command -v npm >/dev/null || apt_ensure nodejs npm
    say "installing wasm-opt (binaryen $BINARYEN_VERSION from npm)"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "binaryen@$BINARYEN_VERSION" >/dev/null \
      || die "could not install binaryen $BINARYEN_VERSION from the npm registry"
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
}

build_frontend() {
  local site="$1"; shift
  binaryen_ensure
  # A cdylib's file name carries no hash, so checkouts sharing the cache overwrite each other's
  # frontend.wasm while cargo still thinks its own is fresh: relink when another checkout built last.
  local owner="$CARGO_TARGET_DIR/front/.mentat-checkout"
  if [ "$(cat "$owner" 2>/dev/null)" != "$MENTAT_ROOT" ]; then
    rm -f "$CARGO_TARGET_DIR"/front/wasm32-unknown-unknown/*/frontend.wasm \
          "$CARGO_TARGET_DIR"/front/wasm32-unknown-unknown/*/deps/frontend.wasm
    mkdir -p "$CARGO_TARGET_DIR/front"
    printf '%s\n' "$MENTAT_ROOT" >"$owner"
  fi
  # A release also gets a brotli and a gzip copy of every file, made once here rather than on
  # every request (server/src/http/statics.rs serves them).
  local precompress=()
  case " $* " in *" --release "*) precompress=(--precompress) ;; esac
  # The content hashes of the file names go into the site's own folder, where the server reads
  # them (app/src/assets.rs), instead of beside a binary this build does not make.
  mkdir -p "$site"
  (cd "$MENTAT_ROOT" && LEPTOS_SITE_ROOT="$site" LEPTOS_HASH_FILE_NAME="$(cd "$site" && pwd)/hash.txt" \
    cargo leptos build --frontend-only "${precompress[@]}" "$@")
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until Mentat answers /healthz with the database up, or fails after $2 seconds.
wait_healthy() {
  local url="$1" limit="${2:-60}" i
  for ((i = 0; i < limit * 4; i++)); do
    if curl -fsS "$url/healthz" 2>/dev/null | grep -q '"db":"ok"'; then return 0; fi
    sleep 0.25
  done
  return 1
}
