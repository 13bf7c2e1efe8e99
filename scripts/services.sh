#!/usr/bin/env bash
# Starts the local Postgres and Redis if they are installed but stopped, and
# prints the LATCH_TEST_* exports for the ones that answer. Tests pass without
# them (SQLite and memory); with them, storage tests also run on Postgres.
set -u

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if command -v pg_isready >/dev/null 2>&1; then
  if ! pg_up && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start >/dev/null 2>&1 || true
    for _ in $(seq 1 20); do pg_up && break; sleep 0.5; done
  fi
  if pg_up; then
    echo "export LATCH_TEST_POSTGRES='postgres://postgres@127.0.0.1:5432/test?sslmode=disable'"
  fi
fi

redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }
if command -v redis-cli >/dev/null 2>&1; then
  if ! redis_up && command -v redis-server >/dev/null 2>&1; then
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null 2>&1 || true
    for _ in $(seq 1 20); do redis_up && break; sleep 0.5; done
  fi
  if redis_up; then
    echo "export LATCH_TEST_REDIS='redis://127.0.0.1:6379/0'"
  fi
fi
exit 0
