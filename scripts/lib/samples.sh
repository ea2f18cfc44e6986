# shellcheck shell=bash
# Sourced by the SDK stages to check the samples of /docs/samples (docs/testing.md "Samples"): written
# to files by gateway/src/docs/samples/cli.ts, then run against the sandbox of scripts/lib/sandbox.sh
# (curl, TypeScript and Python in sdk-python, Go in sdk-go), each answer checked against the statuses
# its operation documents; anything a sample writes to stderr, but the Go samples' one log line of
# an API error, fails it. Needs ROOT (the clone) set by the sourcing script.
#
#   samples_write <dir> [--sandbox]       the samples into <dir>; --sandbox: with ids made on the sandbox
#   samples_run_curl <dir>                run every curl sample against the sandbox, check its status
#   samples_run_python <dir> <python>     the same for the Python samples, with that interpreter
#   samples_run_typescript <dir>          the same for the TypeScript samples, with Node 24 and tsx
#   samples_build_go <dir>                go vet and go build of every Go sample, as packages of sdk/go's module
#   samples_run_go <dir>                  run every Go sample built, check its status

samples_write() {
  (cd "$ROOT" && scripts/node24 node --conditions=development --import tsx gateway/src/docs/samples/cli.ts "$@")
}

# samples_check <dir> <language> <operationId> <status>: the status is one the operation documents;
# `2xx` (an SDK returned an answer) stands for any of its 2xx. A 5xx is never a sample's answer.
samples_check() {
  local dir="$1" language="$2" op="$3" status="$4" documented
  documented="$(awk -F '\t' -v op="$op" '$1 == op { print $2 }' "$dir/statuses.tsv")"
  local ok=1
  case "$status" in
    2xx) [[ " $documented" == *" 2"* ]] || ok=0 ;;
    [1-4][0-9][0-9]) [[ " $documented " == *" $status "* ]] || ok=0 ;;
    *) ok=0 ;;
  esac
  if [ "$ok" = 1 ]; then
    printf 'samples: %-10s %-24s %s\n' "$language" "$op" "$status" >&2
    return 0
  fi
  echo "samples: $language $op answered $status; it documents $documented, and a 5xx never passes" >&2
  return 1
}

samples_operations() { cut -f1 "$1/statuses.tsv"; }

samples_run_curl() {
  local dir="$1" failed=0 op status
  mkdir -p "$dir/answers"
  for op in $(samples_operations "$dir"); do
    # The sample as written; curl keeps the body aside and prints the status. Anything on stderr
    # (a command the sample needs missing, such as a UUID maker) fails it: the API's answer to a
    # request without its Idempotency-Key is a documented 400 that would otherwise pass.
    status="$(ANSWER="$dir/answers/$op.curl.json" bash -c '
      curl() { command curl -o "$ANSWER" -w "%{http_code}" "$@"; }
      . "$1"' _ "$dir/curl/$op.sh" 2>"$dir/answers/$op.curl.stderr")" || status="curl failed"
    if [ -s "$dir/answers/$op.curl.stderr" ]; then
      cat "$dir/answers/$op.curl.stderr" >&2
      status="stderr: $(head -c 200 "$dir/answers/$op.curl.stderr")"
    fi
    samples_check "$dir" curl "$op" "$status" || failed=1
  done
  return "$failed"
}

samples_run_python() {
  local dir="$1" python="$2" failed=0 op status
  # One interpreter for all of them (an import of httpx each would cost more than the calls); each
  # sample runs as its own __main__, its QrPayoutError caught for the status.
  "$python" - "$dir" >"$dir/python-answers.log" 2>&1 <<'PY' || { cat "$dir/python-answers.log" >&2; return 1; }
import runpy
import sys
from pathlib import Path

from qr_payout import QrPayoutError

folder = Path(sys.argv[1])
for line in (folder / "statuses.tsv").read_text().splitlines():
    op = line.split("\t")[0]
    try:
        runpy.run_path(str(folder / "python" / f"{op}.py"), run_name="__main__")
        status = "2xx"
    except QrPayoutError as error:
        status = str(error.status)
    except Exception as error:  # noqa: BLE001 - the check names what broke, then goes on
        print(f"{op}: {error!r}", file=sys.stderr)
        status = f"error {type(error).__name__}"
    (folder / "python" / f"{op}.status").write_text(status)
PY
  for op in $(samples_operations "$dir"); do
    status="$(cat "$dir/python/$op.status" 2>/dev/null || echo 'no answer')"
    samples_check "$dir" python "$op" "$status" || failed=1
  done
  return "$failed"
}

# samples_show <language> <op> <file>...: a failed sample's output, each file that has any.
samples_show() {
  local language="$1" op="$2" file
  shift 2
  for file in "$@"; do
    [ -s "$file" ] || continue
    echo "samples: $language $op, its ${file##*.}:" >&2
    head -c 2000 "$file" >&2
    echo >&2
  done
}

samples_run_typescript() {
  local dir="$1" failed=0 op status
  # One Node process imports each sample as written (scripts/samples-run-typescript.ts); its
  # `@qr-payout/client` is the workspace's source, through the development condition.
  (cd "$ROOT" && scripts/node24 node --conditions=development --import tsx \
    scripts/samples-run-typescript.ts "$dir") || return 1
  for op in $(samples_operations "$dir"); do
    status="$(cat "$dir/typescript/$op.status" 2>/dev/null || echo 'no answer')"
    if [ -s "$dir/typescript/$op.stderr" ]; then
      status="stderr: $(head -c 200 "$dir/typescript/$op.stderr")"
    fi
    samples_check "$dir" typescript "$op" "$status" ||
      { samples_show typescript "$op" "$dir/typescript/$op".{stdout,stderr}; failed=1; }
  done
  return "$failed"
}

samples_build_go() {
  local dir="$1" package rc=0
  # Inside sdk/go's module so the samples import this checkout's SDK; a folder starting with a dot,
  # so no `./...` of another check picks it up, named explicitly here. One go build links them all,
  # without symbols (-s -w: a third to a half less time), into <dir>/go-bin.
  package="$(mktemp -d "$ROOT/sdk/go/.samples-XXXXXX")"
  cp -r "$dir/go/." "$package/"
  local packages=() op
  for op in $(samples_operations "$dir"); do packages+=("./$(basename "$package")/$op"); done
  mkdir -p "$dir/go-bin"
  (cd "$ROOT/sdk/go" && go vet "${packages[@]}" && go build -ldflags='-s -w' -o "$dir/go-bin/" "${packages[@]}") || rc=$?
  rm -rf "$package"
  [ "$rc" = 0 ] && echo "samples: go vet and go build of ${#packages[@]} Go samples ok" >&2
  return "$rc"
}

# samples_go_status <exit code> <stderr file>: 2xx for an answer (exit 0, nothing on stderr); the
# status of the API error the sample stopped on: its one line, log.Fatal of a *qrpayout.Error
# ("2026/11/29 12:00:00 qrpayout: 409 DeliveryInFlight: ...", sdk/go/errors.go); else what broke.
samples_go_status() {
  local code="$1" stderr="$2" line
  if [ "$code" = 0 ] && [ ! -s "$stderr" ]; then
    echo 2xx
    return
  fi
  line="$(head -n 1 "$stderr")"
  if [ "$code" = 1 ] && [ "$(wc -l <"$stderr")" = 1 ] &&
    [[ "$line" =~ ^[0-9]{4}/[0-9]{2}/[0-9]{2}\ [0-9:]{8}\ qrpayout:\ ([1-5][0-9][0-9])\  ]]; then
    echo "${BASH_REMATCH[1]}"
    return
  fi
  echo "exit $code, stderr: $(head -c 200 "$stderr")"
}

samples_run_go() {
  local dir="$1" failed=0 op code status out
  mkdir -p "$dir/answers"
  for op in $(samples_operations "$dir"); do
    out="$dir/answers/$op.go"
    code=0
    "$dir/go-bin/$op" >"$out.stdout" 2>"$out.stderr" || code=$?
    status="$(samples_go_status "$code" "$out.stderr")"
    samples_check "$dir" go "$op" "$status" || { samples_show go "$op" "$out".{stdout,stderr}; failed=1; }
  done
  return "$failed"
}
