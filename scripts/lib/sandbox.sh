# shellcheck shell=bash
# Sourced by the checks that run against a live sandbox (the SDK quick starts, the dashboard's browser
# test): one sandbox as `npm start` runs it (sandbox/README.md), on free loopback ports, with an API key,
# signing secret, operator token and data folder of this run (docs/testing.md "One sandbox for the
# quick starts").
#
#   sandbox_up <who>   when QR_PAYOUT_BASE_URL is already set (test-all starts one sandbox for all its
#                      sandbox stages), uses that one; otherwise starts one (the caller stops it:
#                      `trap sandbox_down EXIT` before the call). Exports QR_PAYOUT_BASE_URL, QR_PAYOUT_API_KEY,
#                      QR_PAYOUT_SIGNING_SECRET, QR_PAYOUT_ADMIN_URL, QR_PAYOUT_ADMIN_TOKEN and
#                      QR_PAYOUT_SANDBOX_LOG.
#   sandbox_down       stops the sandbox this shell started (none started: nothing to do).
#   sandbox_log_tail   the last lines of its log, to stderr (for a failed check's report).
# Needs ROOT (the clone) set by the sourcing script.

SANDBOX_PGID=""
SANDBOX_DIR=""

# sandbox_free_ports <count>: that many distinct free loopback ports on one line, picked by the
# sandbox's own rule (sandbox/src/free-port.ts).
sandbox_free_ports() {
  (cd "$ROOT" && scripts/node24 node --conditions=development --import tsx sandbox/src/free-ports-cli.ts "$1")
}

sandbox_random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

sandbox_up() {
  local who="$1"
  [ -z "${QR_PAYOUT_BASE_URL:-}" ] || return 0
  SANDBOX_DIR="$(mktemp -d "${TMPDIR:-/tmp}/qr-payout-sandbox-XXXXXX")"
  local ports port admin_port
  ports="$(sandbox_free_ports 2)" || return 1
  read -r port admin_port <<<"$ports"
  export QR_PAYOUT_BASE_URL="http://127.0.0.1:$port"
  export QR_PAYOUT_ADMIN_URL="http://127.0.0.1:$admin_port"
  export QR_PAYOUT_API_KEY="sk_sandbox_$(sandbox_random_hex 12)"
  export QR_PAYOUT_SIGNING_SECRET="whsec_$(sandbox_random_hex 24)"
  export QR_PAYOUT_ADMIN_TOKEN="$(sandbox_random_hex 24)"
  export QR_PAYOUT_SANDBOX_LOG="$SANDBOX_DIR/sandbox.log"
  echo "$who: starting a sandbox on $QR_PAYOUT_BASE_URL (admin $QR_PAYOUT_ADMIN_URL)" >&2
  # Only a shell's variables, as a newcomer's `npm start` has; its own process group, so stopping it
  # takes the node process and everything it started.
  (cd "$ROOT" && exec setsid env -i PATH="$PATH" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" LANG="${LANG:-C.UTF-8}" \
    ${QR_PAYOUT_TOOLS:+QR_PAYOUT_TOOLS="$QR_PAYOUT_TOOLS"} \
    SANDBOX_DATA_DIR="$SANDBOX_DIR/data" PORT="$port" ADMIN_PORT="$admin_port" \
    SANDBOX_API_KEY="$QR_PAYOUT_API_KEY" SANDBOX_SIGNING_SECRET="$QR_PAYOUT_SIGNING_SECRET" \
    PAYOUT_ADMIN_TOKEN="$QR_PAYOUT_ADMIN_TOKEN" OTEL_SDK_DISABLED=true \
    scripts/node24 node --conditions=development --import tsx sandbox/src/main.ts) >"$QR_PAYOUT_SANDBOX_LOG" 2>&1 &
  SANDBOX_PGID=$!
  # The banner's last line comes once the sandbox tenant (our key and secret) exists.
  local started=$SECONDS
  until grep -q 'Press Ctrl-C to stop' "$QR_PAYOUT_SANDBOX_LOG"; do
    if ! kill -0 "$SANDBOX_PGID" 2>/dev/null || [ $((SECONDS - started)) -ge 300 ]; then
      sandbox_log_tail
      echo "$who: the sandbox did not start" >&2
      return 1
    fi
    sleep 0.5
  done
  echo "$who: sandbox up in $((SECONDS - started))s" >&2
}

sandbox_log_tail() {
  [ -n "${QR_PAYOUT_SANDBOX_LOG:-}" ] && [ -f "$QR_PAYOUT_SANDBOX_LOG" ] && tail -40 "$QR_PAYOUT_SANDBOX_LOG" >&2
  return 0
}

sandbox_down() {
  [ -n "$SANDBOX_PGID" ] || return 0
  kill -TERM -- "-$SANDBOX_PGID" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 -- "-$SANDBOX_PGID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$SANDBOX_PGID" 2>/dev/null || true
  SANDBOX_PGID=""
  [ -z "$SANDBOX_DIR" ] || rm -rf "$SANDBOX_DIR"
  SANDBOX_DIR=""
  unset QR_PAYOUT_BASE_URL QR_PAYOUT_ADMIN_URL QR_PAYOUT_API_KEY QR_PAYOUT_SIGNING_SECRET QR_PAYOUT_ADMIN_TOKEN \
    QR_PAYOUT_SANDBOX_LOG
}
