#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster for the postgres target's integration tests and demos.
#
#   set -a; eval "$(tools/demo-data/start-postgres.sh)"; set +a
#   npx jest libs/engine/src/postgres --selectProjects integration
#   eval "$POSTGRES_STOP"
#
# Prints two lines on stdout, shell-quoted for eval: POSTGRES_URL=postgres://… and
# POSTGRES_STOP=<command that stops the cluster and deletes its directory>. Everything else goes to
# stderr. When POSTGRES_URL is already set it is echoed back with a no-op POSTGRES_STOP, so callers
# need no branch of their own. Installs nothing: the caller provides the server binaries (Debian:
# postgresql-<major>), found on PATH, in $PG_BIN, or under /usr/lib/postgresql/*/bin.
set -euo pipefail

log() { printf 'start-postgres: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

if [[ -n "${POSTGRES_URL:-}" ]]; then
  log "POSTGRES_URL is already set; using it as is"
  printf 'POSTGRES_URL=%q\n' "$POSTGRES_URL"
  printf 'POSTGRES_STOP=%q\n' ':'
  exit 0
fi

has_tools() { [[ -x "$1/initdb" && -x "$1/pg_ctl" && -x "$1/createdb" ]]; }

find_bin_dir() {
  local candidates=() dir
  [[ -n "${PG_BIN:-}" ]] && candidates+=("$PG_BIN")
  # PATH may hold symlinks to just some of the tools (e.g. /usr/local/bin/pg_ctl), so resolve them.
  if command -v pg_ctl >/dev/null 2>&1; then candidates+=("$(dirname "$(readlink -f "$(command -v pg_ctl)")")"); fi
  # Debian keeps the server binaries off PATH; prefer the newest installed major version.
  while IFS= read -r dir; do candidates+=("$dir"); done < <(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV)
  for dir in "${candidates[@]}"; do
    if has_tools "$dir"; then
      printf '%s\n' "$dir"
      return 0
    fi
  done
  return 1
}

BIN="$(find_bin_dir)" ||
  die "PostgreSQL server binaries not found (need initdb, pg_ctl and createdb; looked in \$PG_BIN, PATH and /usr/lib/postgresql/*/bin). Install the server package, e.g. apt-get install postgresql."

# The server refuses to run as root, so root runs it as an unprivileged system user.
RUN_AS=()
if [[ "$(id -u)" -eq 0 ]]; then
  PG_USER=nl2p-pg
  if ! id "$PG_USER" >/dev/null 2>&1; then
    log "creating system user $PG_USER"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_USER" ||
      die "could not create user $PG_USER"
  fi
  if command -v runuser >/dev/null 2>&1; then
    RUN_AS=(runuser -u "$PG_USER" --)
  else
    command -v setpriv >/dev/null 2>&1 || die "need runuser or setpriv to drop root privileges"
    RUN_AS=(setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --init-groups --)
  fi
fi

DIR="$(mktemp -d "${TMPDIR:-/tmp}/nl2p-pg.XXXXXX")"
chmod 700 "$DIR"
if [[ "$(id -u)" -eq 0 ]]; then chown "$PG_USER": "$DIR"; fi

STARTED=0
cleanup_on_failure() {
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    if [[ $STARTED -eq 1 ]]; then "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true; fi
    [[ -f "$DIR/server.log" ]] && tail -n 20 "$DIR/server.log" >&2 || true
    rm -rf "$DIR"
  fi
}
trap cleanup_on_failure EXIT

log "initdb in $DIR/data ($BIN)"
"${RUN_AS[@]}" "$BIN/initdb" -D "$DIR/data" --username=postgres --auth=trust --encoding=UTF8 --no-locale \
  --no-sync >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; die "initdb failed"; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port probed free can still be taken before the server binds it, so a failed start retries.
PORT=""
for _ in 1 2 3 4 5; do
  candidate=$((20000 + RANDOM % 40000))
  port_in_use "$candidate" && continue
  if "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 \
    -o "-p $candidate -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" start >&2; then
    PORT="$candidate"
    STARTED=1
    break
  fi
done
[[ -n "$PORT" ]] || die "could not start PostgreSQL on a free port"

"${RUN_AS[@]}" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres nl2p || die "createdb nl2p failed"

STOP="${RUN_AS[*]} $(printf '%q' "$BIN/pg_ctl") -D $(printf '%q' "$DIR/data") -m fast -w stop >/dev/null; rm -rf $(printf '%q' "$DIR")"
log "PostgreSQL $("$BIN/pg_ctl" --version | awk '{print $3}') listening on 127.0.0.1:$PORT (database nl2p)"
printf 'POSTGRES_URL=%q\n' "postgres://postgres@127.0.0.1:$PORT/nl2p"
printf 'POSTGRES_STOP=%q\n' "$STOP"
