#!/bin/bash
# Stands in for the nginx image's entry point, in the parts compose.yaml uses: it sources each
# executable /docker-entrypoint.d/*.envsh, runs each executable *.sh there, then makes each
# /etc/nginx/templates/NAME.template into /etc/nginx/conf.d/NAME with the environment's variables
# filled in (only those defined, so nginx's own $variables stay).
set -euo pipefail
for file in /docker-entrypoint.d/*; do
  [ -x "$file" ] || continue
  case "$file" in
    *.envsh) . "$file" ;;
    *.sh) "$file" ;;
  esac
done
defined=$(env | cut -d= -f1 | sed 's/.*/${&}/' | tr '\n' ' ')
for template in /etc/nginx/templates/*.template; do
  [ -e "$template" ] || continue
  envsubst "$defined" <"$template" >"/etc/nginx/conf.d/$(basename "$template" .template)"
done
exec "$@"
