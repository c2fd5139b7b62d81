#!/bin/bash
# Stands in for the redis image's entry point: `redis-server …` runs as user redis in /data, on every
# interface without protected mode (the container network is the boundary, as in the official image).
set -euo pipefail
if [ "${1:-}" = redis-server ]; then
  shift
  chown -R redis:redis /data
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"
fi
exec "$@"
