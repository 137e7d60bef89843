# What the wrk-driven benchmark scripts (load.sh, peers.sh) share, sourced
# by them: wrk itself, installed from Debian when it is missing, and a
# process's resident memory. printf, not print: awk prints a figure past
# 2^31 in scientific notation.

# Installs wrk (Debian package) unless it is on the PATH; NAME is the
# calling script, for the error.
ensure_wrk() {
    local name=$1 sudo=sudo
    command -v wrk >/dev/null && return
    echo "== installing wrk (Debian package)"
    [[ $(id -u) == 0 ]] && sudo=""
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >/dev/null \
        || { echo "$name: cannot install the Debian package wrk" >&2; exit 1; }
}

# The resident memory (VmRSS) of process PID, in bytes.
rss_of() { awk '/^VmRSS:/ { printf "%.0f\n", $2 * 1024 }' "/proc/$1/status"; }
