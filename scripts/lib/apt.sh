# shellcheck shell=bash
# Sourced by scripts/infra and scripts/schemathesis: system packages from apt, as root or through
# passwordless sudo. The caller defines log and die (messages carry its own name).
#
#   apt_install <package...>   apt-get update once per process, then install without recommends

as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n "$@"
  else
    die "need root (or passwordless sudo) to run: $*"
  fi
}

APT_UPDATED=""
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install manually: $*"
  log "installing $* (apt)"
  local started=$SECONDS
  # Keep package maintainer scripts from starting system-wide daemons (5432, 6379): we run our own.
  local policy_created=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    as_root sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d'
    policy_created=1
  fi
  if [ -z "$APT_UPDATED" ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    APT_UPDATED=1
  fi
  local rc=0
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 </dev/null || rc=$?
  [ -n "$policy_created" ] && as_root rm -f /usr/sbin/policy-rc.d
  [ "$rc" = 0 ] || die "apt-get install $* failed (exit $rc)"
  log "installed $* in $((SECONDS - started))s"
}
