#!/bin/sh
# Stops a PostgreSQL started by tests/pg/start.sh and removes its directory.
set -u
dir=$1
bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/pg_ctl" ] && bin="$d"
done
[ -n "$bin" ] || bin=$(dirname "$(command -v pg_ctl)")
owner=$(stat -c %U "$dir/data" 2>/dev/null || echo root)
if [ "$(id -u)" = 0 ] && [ "$owner" != root ]; then
  runuser -u "$owner" -- "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
else
  "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
fi
rm -rf "$dir"
