# shellcheck shell=bash
# Sourced by every script that installs a tool: where tools live, outside the clone, by version.
#
# Tools built from source (helm, kubectl-validate, helm-unittest, the fault proxy), the ServiceMonitor
# CRD taken from a Go module, fetched jars (Kafka), Node 24 and the Schemathesis venv are kept in $QR_PAYOUT_TOOLS (default
# ~/.cache/qr-payout-tools), each under a directory named by its version: a fresh clone, a second
# clone beside this one and CI's next run all find them there and build nothing again
# (docs/testing.md "Tools"). This file is the one owner of where that is: it exports the folder as
# QR_PAYOUT_TOOLS, and programs started through scripts/node24 (the sandbox's initdb cache) read
# that variable instead of working the default out again.
export QR_PAYOUT_TOOLS="${QR_PAYOUT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/qr-payout-tools}"
TOOLS_CACHE="$QR_PAYOUT_TOOLS"
mkdir -p "$TOOLS_CACHE"
