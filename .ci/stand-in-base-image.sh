#!/usr/bin/env bash
# Builds a stand-in for node:20-bookworm-slim, because CI reaches no container registry, only
# Debian's mirror and npm's. It is a minimal bookworm root file system (debootstrap) with this
# machine's Node 20 and npm in /usr/local and a `node` user with uid 1000, as the official image
# has them. It is imported under the official name, so the repository's Dockerfile builds unchanged.
# The image is cached: a second call with it present does nothing.
set -euo pipefail
image=docker.io/library/node:20-bookworm-slim
podman() { command podman --runtime runc "$@"; }
if podman image exists "$image"; then
  echo "stand-in $image already present"
  exit 0
fi
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
install -D -m 0755 "$(command -v node)" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$root/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$image" >/dev/null
echo "stand-in $image built ($(podman image inspect "$image" --format '{{.Size}}') bytes)"
