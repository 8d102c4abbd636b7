#!/bin/sh
# The scale profile's primary (docker-compose.yml), once, when its data directory is created: the role its streaming
# replica connects with, allowed to connect for replication (the image's pg_hba.conf allows ordinary connections only).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v password="$REPLICATION_PASSWORD" <<'SQL'
create role replicator with replication login password :'password';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
