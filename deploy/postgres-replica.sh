#!/bin/sh
# The scale profile's streaming replica (docker-compose.yml), run as the postgres user: the first time, a base backup
# of the primary over the replication protocol (--write-recovery-conf: standby.signal, and primary_conninfo to stream
# from it ever after), then PostgreSQL as a hot standby, which answers reads.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  export PGPASSWORD="$REPLICATION_PASSWORD"
  until pg_basebackup --host=primary --username=replicator --pgdata="$PGDATA" --wal-method=stream --write-recovery-conf --checkpoint=fast; do
    echo "waiting for the primary"
    rm -rf "${PGDATA:?}"/*
    sleep 2
  done
  chmod 700 "$PGDATA"
fi
exec postgres
