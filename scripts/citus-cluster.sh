#!/usr/bin/env bash
# A local Citus cluster on this machine: one coordinator and N workers, each a PostgreSQL 15 cluster of
# Debian's (pg_createcluster) on its own port, trusting 127.0.0.1, with the citus extension in database
# $CITUS_DB. Idempotent: a cluster that exists is started, not made again. Prints the coordinator's
# DATABASE_URL last. Needs the extension built (../shared/citus/install.sh, or your distribution's
# package); docs/scaling.md has the same steps for machines of your own.
#
#   scripts/citus-cluster.sh up [workers=2] [first port=5440]    make or start, then join the workers
#   scripts/citus-cluster.sh add <port>                          one more worker, joined (no rebalance)
#   scripts/citus-cluster.sh down [workers=2] [first port=5440]  stop and drop every cluster of the set
set -euo pipefail

VERSION=15
DB="${CITUS_DB:-lastro}"
NAME_PREFIX="${CITUS_NAME_PREFIX:-citus}"

need_root() {
  if [ "$(id -u)" != 0 ]; then
    echo "citus-cluster: run as root (pg_createcluster and pg_ctlcluster need it)" >&2
    exit 1
  fi
}

psql_at() { su postgres -c "psql -X -q -h 127.0.0.1 -p $1 -d ${2:-postgres} -v ON_ERROR_STOP=1 -Atc \"$3\""; }

# Makes (once) and starts one node: Citus preloaded, logical WAL (shard moves use logical replication),
# prepared transactions (Citus commits a multi-node write in two phases), trust on 127.0.0.1 only.
node_up() {
  local port=$1 name="${NAME_PREFIX}${1}"
  if ! pg_lsclusters -h | awk '{print $2}' | grep -qx "$name"; then
    pg_createcluster -q "$VERSION" "$name" -p "$port" -- --auth-local=trust --auth-host=trust >/dev/null
    local conf="/etc/postgresql/$VERSION/$name/conf.d/citus.conf"
    cat >"$conf" <<EOF
shared_preload_libraries = 'citus'
listen_addresses = '127.0.0.1'
wal_level = logical
max_prepared_transactions = 200
max_connections = 300
fsync = ${CITUS_FSYNC:-on}
citus.shard_count = ${CITUS_SHARD_COUNT:-32}
EOF
  fi
  # A cluster that is already online makes start fail. Right after `down`, a new cluster in the same
  # directory can meet the old server's shared memory for a moment: start is tried again, and one
  # that still cannot start is reported with its log.
  local tries=0
  until pg_isready -q -h 127.0.0.1 -p "$port" ||
    pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$name" start; do
    tries=$((tries + 1))
    if [ "$tries" -ge 10 ]; then
      tail -n 20 "/var/log/postgresql/postgresql-$VERSION-$name.log" >&2 || true
      exit 1
    fi
    sleep 2
  done
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 1; done
  psql_at "$port" postgres "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1 ||
    psql_at "$port" postgres "CREATE DATABASE $DB"
  psql_at "$port" "$DB" "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS citus"
}

join_worker() {
  local coordinator=$1 port=$2
  psql_at "$coordinator" "$DB" \
    "SELECT 1 FROM pg_dist_node WHERE nodeport = $port" | grep -q 1 ||
    psql_at "$coordinator" "$DB" "SELECT citus_add_node('127.0.0.1', $port)" >/dev/null
}

# Every node is up before the coordinator is touched: a coordinator made earlier already lists its
# workers, and setting its host syncs metadata to them, which fails while one is still stopped.
up() {
  local workers=${1:-2} first=${2:-5440}
  need_root
  for i in $(seq 0 "$workers"); do node_up $((first + i)); done
  psql_at "$first" "$DB" "SELECT citus_set_coordinator_host('127.0.0.1', $first)" >/dev/null
  for i in $(seq 1 "$workers"); do join_worker "$first" $((first + i)); done
  echo "postgres://postgres@127.0.0.1:$first/$DB"
}

add() {
  local port=$1 coordinator=${2:-5440}
  need_root
  node_up "$port"
  join_worker "$coordinator" "$port"
}

down() {
  local workers=${1:-2} first=${2:-5440}
  need_root
  for i in $(seq "$workers" -1 0); do
    local name="${NAME_PREFIX}$((first + i))"
    pg_lsclusters -h | awk '{print $2}' | grep -qx "$name" || continue
    pg_dropcluster --stop "$VERSION" "$name"
  done
}

case "${1:-up}" in
  up) shift || true; up "$@" ;;
  add) shift; add "$@" ;;
  down) shift; down "$@" ;;
  *) echo "usage: $0 up|add|down …" >&2; exit 2 ;;
esac
