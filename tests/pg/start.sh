#!/bin/sh
# Starts a throw-away PostgreSQL for the server's tests (issue 19): initdb into a new
# temporary directory as a non-root user (the `postgres` user of the Debian package
# when run as root), listening on a free port of 127.0.0.1 only, trust
# authentication. Prints `PG_URL=postgres://…` and `PG_DIR=…` on stdout; stop it with
# tests/pg/stop.sh "$PG_DIR". Fails loudly when PostgreSQL cannot start.
set -eu
bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && bin="$d"
done
if [ -z "$bin" ]; then
  command -v initdb >/dev/null 2>&1 || { echo "no PostgreSQL (initdb) on this machine" >&2; exit 1; }
  bin=$(dirname "$(command -v initdb)")
fi
dir=$(mktemp -d /tmp/invoicing-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_user=""
if [ "$(id -u)" = 0 ]; then
  user=postgres
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home "$user"
  chown "$user" "$dir"
  as_user="runuser -u $user --"
else
  user=$(id -un)
fi
$as_user "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
$as_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
$as_user "$bin/createdb" -h 127.0.0.1 -p "$port" -U "$user" invoicing \
  || { cat "$dir/server.log" >&2; exit 1; }
echo "PG_URL=postgres://$user@127.0.0.1:$port/invoicing"
echo "PG_DIR=$dir"
