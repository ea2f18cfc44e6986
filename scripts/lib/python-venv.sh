# shellcheck shell=bash
# Sourced by scripts/sdk-python and scripts/schemathesis: Python tools from PyPI, each in a venv in the
# tools cache (tools-cache.sh) pinned whole by a requirements file that lists every package it runs
# with, dependencies included, so a fresh machine installs what the last green run used
# (docs/testing.md "Tools"). The caller sources tools-cache.sh and apt.sh and defines log and die.
#
#   venv_dir <name> <requirements>      the venv's folder: <name>-<hash of the requirements file>
#   ensure_venv <dir> <requirements>    creates it once: --no-deps, then `pip check` (an unpinned
#                                       dependency fails instead of being pulled in); a .complete
#                                       marker written last, so a broken install is redone

venv_dir() { echo "$TOOLS_CACHE/$1-$(sha256sum "$2" | cut -c1-12)"; }

ensure_venv() {
  local venv="$1" requirements="$2"
  [ -f "$venv/.complete" ] && return 0
  command -v python3 >/dev/null 2>&1 || apt_install python3
  # Debian and Ubuntu ship venv (and the ensurepip it needs) in a package of their own.
  python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv
  log "installing $(basename "$requirements") (PyPI) into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$requirements" >&2
  local broken
  broken="$("$venv/bin/python" -m pip check --disable-pip-version-check)" ||
    die "$(basename "$requirements") misses a dependency: $broken"
  touch "$venv/.complete"
}
