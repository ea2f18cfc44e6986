# shellcheck shell=bash
# Sourced by scripts/with-infra and scripts/test-all: the test services for one command.
#
#   infra_session_up      reuse what the env or a standing `scripts/infra up` provides, start the rest
#                         with a private state dir, export DATABASE_URL / REDIS_URL / KAFKA_BROKERS
#   infra_session_down    stop what this session started and delete its private state
#
# The private state dir is what makes parallel runs safe: each session only ever stops its own
# services, never ones another session (or a developer's `scripts/infra up`) is still using.

INFRA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
INFRA_SESSION_STATE=""

# Point unset variables at the services of the shared state dir; `up` then reuses them if they answer.
infra_session_adopt_shared() {
  local shared="${INFRA_STATE_DIR:-$INFRA_ROOT/.infra}" svc var url
  for svc in pg redis kafka; do
    case "$svc" in
    pg) var=DATABASE_URL ;;
    redis) var=REDIS_URL ;;
    kafka) var=KAFKA_BROKERS ;;
    esac
    url="$(cat "$shared/$svc/url" 2>/dev/null || true)"
    if [ -z "${!var:-}" ] && [ -n "$url" ]; then
      export "$var=$url"
    fi
  done
}

infra_session_up() {
  infra_session_adopt_shared
  INFRA_SESSION_STATE="$(mktemp -d "${TMPDIR:-/tmp}/qrp-infra-session.XXXXXX")"
  local exports
  exports="$(INFRA_STATE_DIR="$INFRA_SESSION_STATE" "$INFRA_ROOT/scripts/infra" up)" || return 1
  eval "$exports"
  sed 's/^/  /' <<<"$exports" >&2
}

infra_session_down() {
  [ -n "$INFRA_SESSION_STATE" ] || return 0
  if INFRA_STATE_DIR="$INFRA_SESSION_STATE" "$INFRA_ROOT/scripts/infra" down; then
    rm -rf "$INFRA_SESSION_STATE"
  else
    echo "infra: WARNING: teardown failed; state kept in $INFRA_SESSION_STATE" >&2
  fi
  INFRA_SESSION_STATE=""
}
