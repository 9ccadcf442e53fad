# A PostgreSQL server owned by Mentat, started from Debian's binaries. Source it.
#
# PostgreSQL refuses to run as root, so when we are root every server command runs as the
# `postgres` system user that Debian's package creates, on a data folder that user owns.

pg_bindir() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [ -n "$dir" ] && [ -x "$dir/pg_ctl" ] || return 1
  printf '%s\n' "$dir"
}

pg_ensure_installed() {
  if ! pg_bindir >/dev/null; then
    apt_ensure postgresql
    # Debian starts a cluster of its own on install; Mentat runs its own servers, so stop it.
    as_root sh -c 'command -v pg_ctlcluster >/dev/null && pg_lsclusters -h 2>/dev/null | while read -r v c _; do pg_ctlcluster "$v" "$c" stop || true; done' || true
  fi
  PG_BIN="$(pg_bindir)" || die "PostgreSQL is not installed and could not be installed: apt-get install postgresql, then try again"
}

pg_user() {
  if [ "$(id -u)" = 0 ]; then echo postgres; else id -un; fi
}

# From /, which every user may enter: the working folder may be closed to the postgres user.
as_pg() {
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# pg_usable_dir DIR: creates DIR for the server's user; true when that user can reach it.
pg_usable_dir() {
  local dir="$1"
  mkdir -p "$dir" 2>/dev/null || return 1
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || die "the postgres system user is missing; reinstall Debian's postgresql package"
    chown postgres:postgres "$dir"
    chmod 700 "$dir"
    runuser -u postgres -- test -w "$dir"
  fi
}

# pg_prepare_dir DIR: creates DIR for the server's user and proves that user can reach it.
pg_prepare_dir() {
  local dir="$1"
  if ! pg_usable_dir "$dir"; then
    die "PostgreSQL runs as the postgres user, who cannot reach $dir: a folder above it is closed to other users. Allow passage with 'chmod o+x' on each parent folder of $dir, or set DATABASE_URL to a PostgreSQL server you run yourself."
  fi
}

# Where the private PostgreSQL of script/server keeps its data when the checkout's own .data/
# is closed to the postgres user (a checkout in root's home or in a `mktemp -d` folder, run as
# root): one folder per checkout, named after its path, under this root.
MENTAT_PG_FALLBACK_ROOT="${MENTAT_PG_FALLBACK_ROOT:-/var/lib/mentat}"

pg_fallback_home() {
  local root="$1"
  printf '%s/%s-%s/pg\n' "$MENTAT_PG_FALLBACK_ROOT" "$(basename "$root")" \
    "$(printf '%s' "$root" | sha256sum | cut -c1-12)"
}

# private_pg_home ROOT: the folder of the checkout's private PostgreSQL (its cluster is in
# data/ below it), chosen once and remembered in .data/pg-home: the checkout's .data/pg when the
# server's user can reach it, else pg_fallback_home.
private_pg_home() {
  local root="$1" remembered="$1/.data/pg-home" home
  if [ -s "$remembered" ]; then
    home="$(cat "$remembered")"
    if [ -f "$home/data/PG_VERSION" ] || pg_usable_dir "$home"; then
      printf '%s\n' "$home"
      return 0
    fi
  fi
  home="$root/.data/pg"
  if ! pg_usable_dir "$home"; then
    rmdir "$home" 2>/dev/null || true
    home="$(pg_fallback_home "$root")"
    if [ "$(id -u)" = 0 ]; then
      mkdir -p "$(dirname "$home")"
      chmod 755 "$MENTAT_PG_FALLBACK_ROOT" "$(dirname "$home")"
    fi
    pg_usable_dir "$home" \
      || die "PostgreSQL runs as the postgres user, who can reach neither $root/.data nor $home. Set DATABASE_URL to a PostgreSQL server you run yourself."
    say "the postgres user cannot enter $root, so Mentat's private PostgreSQL keeps this checkout's data in $home"
  fi
  mkdir -p "$root/.data"
  printf '%s\n' "$home" >"$remembered"
  printf '%s\n' "$home"
}

# pg_port DIR: the port a running cluster listens on (from its postmaster.pid).
pg_port() {
  sed -n 4p "$1/postmaster.pid" 2>/dev/null
}

# pg_init DIR PASSWORD: a new cluster whose superuser is `mentat`.
pg_init() {
  local dir="$1" password="$2" pwfile
  pwfile="$(mktemp)"
  printf '%s\n' "$password" >"$pwfile"
  chmod 644 "$pwfile"
  as_pg "$PG_BIN/initdb" -D "$dir" -U mentat --auth=scram-sha-256 --pwfile="$pwfile" \
    --encoding=UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 \
    || { rm -f "$pwfile"; cat "$dir.initdb.log" >&2; die "initdb failed for $dir (log above)"; }
  rm -f "$pwfile"
}

# pg_start DIR PORT LOG [extra server options]
pg_start() {
  local dir="$1" port="$2" log="$3"; shift 3
  local opts="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='' $*"
  if ! as_pg "$PG_BIN/pg_ctl" -D "$dir" -l "$log" -o "$opts" -w -t 60 start >/dev/null; then
    tail -n 20 "$log" >&2 || true
    die "PostgreSQL did not start from $dir on port $port (the end of its log is above; is the port taken?)"
  fi
}

pg_running() {
  as_pg "$PG_BIN/pg_ctl" -D "$1" status >/dev/null 2>&1
}

pg_stop() {
  as_pg "$PG_BIN/pg_ctl" -D "$1" -m fast -w stop >/dev/null 2>&1 || true
}
