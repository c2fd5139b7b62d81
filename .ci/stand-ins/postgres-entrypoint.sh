#!/bin/bash
# Stands in for the entry point of the postgres images (pgvector/pgvector): the first start makes the
# cluster in $PGDATA with POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB, password logins from any
# address; then PostgreSQL runs in the foreground as user postgres.
set -euo pipefail
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 0700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file=$(mktemp)
  printf '%s' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$password_file"
  "$bin/initdb" --pgdata="$PGDATA" --username="${POSTGRES_USER:-postgres}" --pwfile="$password_file" \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$password_file"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  database=${POSTGRES_DB:-${POSTGRES_USER:-postgres}}
  if [ "$database" != postgres ]; then
    echo "CREATE DATABASE \"$database\";" | "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
