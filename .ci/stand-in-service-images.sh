#!/usr/bin/env bash
# Builds stand-ins for the images compose.yaml pulls, because CI reaches no container registry:
# pgvector/pgvector:pg16, redis:7-bookworm, minio/minio, minio/mc and nginx:1.27-bookworm. They share
# one bookworm root file system (debootstrap) with Debian's PostgreSQL, Redis and nginx, this
# machine's Node 20, and s3rver standing in for MinIO; the entry points in .ci/stand-ins take the
# environment and arguments compose.yaml gives the official images. Debian has no pgvector package:
# Lectern detects that and uses its exact-cosine search. The images are cached like the base image.
set -euo pipefail
cd "$(dirname "$0")/.."
podman() { command podman --runtime runc "$@"; }
shared=localhost/lectern-ci/stand-in-services:bookworm
declare -A entrypoints=(
  [docker.io/pgvector/pgvector:pg16]='ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
STOPSIGNAL SIGINT'
  [docker.io/library/redis:7-bookworm]='WORKDIR /data
ENTRYPOINT ["/usr/local/bin/redis-entrypoint.sh"]
CMD ["redis-server"]'
  [docker.io/minio/minio:latest]='ENTRYPOINT ["minio"]
CMD ["server", "/data"]'
  [docker.io/minio/mc:latest]='ENTRYPOINT ["mc"]'
  [docker.io/library/nginx:1.27-bookworm]='ENTRYPOINT ["/usr/local/bin/nginx-entrypoint.sh"]
CMD ["nginx", "-g", "daemon off;"]
STOPSIGNAL SIGQUIT'
)
missing=0
for image in "${!entrypoints[@]}"; do podman image exists "$image" || missing=1; done
if [ "$missing" = 0 ]; then
  echo "stand-in service images already present"
  exit 0
fi

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp .ci/stand-ins/postgres-entrypoint.sh "$context/docker-entrypoint.sh"
cp .ci/stand-ins/redis-entrypoint.sh "$context/redis-entrypoint.sh"
cp .ci/stand-ins/nginx-entrypoint.sh "$context/nginx-entrypoint.sh"
cp .ci/stand-ins/minio.mjs "$context/minio"
cp .ci/stand-ins/mc.mjs "$context/mc"

if ! podman image exists "$shared"; then
  root="$context/root"
  mkdir "$root"
  debootstrap --variant=minbase --include=postgresql,redis-server,nginx,gettext-base bookworm "$root" \
    http://deb.debian.org/debian >/dev/null
  # Debian's packages make a cluster and enable a default site: the images start empty, as the official ones.
  rm -rf "$root"/var/lib/postgresql/* "$root"/etc/postgresql/* "$root"/etc/nginx/sites-enabled/default
  ln -sf /dev/stdout "$root/var/log/nginx/access.log"
  ln -sf /dev/stderr "$root/var/log/nginx/error.log"
  install -D -m 0755 "$(command -v node)" "$root/usr/local/bin/node"
  s3rver_version=$(node -p "require('./package.json').devDependencies.s3rver")
  npm install --prefix "$root/opt/s3rver" --omit=dev --no-audit --no-fund --no-package-lock \
    "s3rver@$s3rver_version" >/dev/null
  mkdir -p "$root/data"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$shared" >/dev/null
  rm -rf "$root"
fi

# Each name is the shared file system with the stand-in entry points and its own entry point.
for image in "${!entrypoints[@]}"; do
  printf 'FROM %s\nCOPY --chmod=0755 docker-entrypoint.sh redis-entrypoint.sh nginx-entrypoint.sh minio mc /usr/local/bin/\n%s\n' \
    "$shared" "${entrypoints[$image]}" >"$context/Containerfile"
  podman build --quiet --format docker -t "$image" -f "$context/Containerfile" "$context" >/dev/null
done
echo "stand-in service images built ($(podman image inspect "$shared" --format '{{.Size}}') bytes, shared)"
