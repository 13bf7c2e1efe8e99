# Content-addressed stamps for the steps of make test that build or check files only (sourced, not run).
#
#   inputs_hash PATH...    a SHA-256 over the names and contents of every file under the PATHs (node_modules,
#                          build output and .git below them excluded), so a step's inputs have one name (a missing PATH counts as none)
#   stamp_ok NAME HASH     true when step NAME already passed with inputs HASH on this machine
#   stamp_set NAME HASH    records that step NAME passed with inputs HASH
#
# Stamps live outside the clone (LATCH_CACHE_DIR, default ~/.cache/latch/stamps), so a fresh clone of the same
# sources skips what this machine has already checked, as Go's build cache does; LATCH_NO_STAMPS=1 ignores them.

latch_cache_dir=${LATCH_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/latch}

inputs_hash() {
  local path
  for path in "$@"; do
    # Pruned below each PATH, not the PATH itself: a dist named as an input is hashed.
    if [ -d "$path" ]; then
      find "$path" -mindepth 1 \( -name node_modules -o -name dist -o -name .next -o -name .git \) -prune -o -type f -print0
    elif [ -f "$path" ]; then
      printf '%s\0' "$path"
    fi
  done | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16
}

stamp_ok() {
  [ "${LATCH_NO_STAMPS:-}" != 1 ] && [ -f "$latch_cache_dir/stamps/$1-$2" ]
}

stamp_set() {
  mkdir -p "$latch_cache_dir/stamps"
  touch "$latch_cache_dir/stamps/$1-$2"
}
