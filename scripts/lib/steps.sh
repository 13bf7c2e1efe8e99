# Steps and lanes for scripts/test.sh (sourced, not run).
#
#   step NAME CMD [ARG]...   runs CMD (a command or a shell function) as one named step: prints "== NAME", its
#                            output, then "-- NAME: ok|FAILED (wall, CPU)"; records the times for the table.
#   lane NAME FUNCTION       runs FUNCTION in the background; each line it prints is prefixed with [NAME].
#                            A failed step ends its lane; the other lanes go on, so one run reports every lane.
#   wait_lanes               waits for every lane; non-zero when one failed.
#   step_table               the table of every step's wall and CPU time (make test prints it at the end).
#
# CPU is user + system time of the step's processes (bash's `times` for waited-for children), so a step that
# waits (browser tests) shows wall > CPU, and one that compiles on both cores shows CPU > wall.

steps_dir=$(mktemp -d)
steps_lane=main
steps_t0=$EPOCHREALTIME

# cpu_now: sets cpu_total to the user + system seconds of this shell's finished children so far. It must run in
# this shell (not in a pipe or $(…), which fork): `times` in a fork sees no children.
cpu_now() {
  local file=$steps_dir/times.$BASHPID t # one file a shell: lanes run side by side
  times >"$file"
  t=$(tail -n 1 "$file") # "1m2.500s 0m3.250s": children's user and system
  cpu_total=$(awk -v t="$t" 'BEGIN {
    n = split(t, f, " "); s = 0
    for (i = 1; i <= n; i++) { split(f[i], p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
    printf "%.1f", s
  }')
}

# elapsed START: seconds since START (an $EPOCHREALTIME), one decimal.
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

step() {
  local name=$1
  shift
  printf '\n== %s\n' "$name"
  local t0=$EPOCHREALTIME c0 rc=0 status=ok
  local start
  start=$(elapsed "$steps_t0")
  cpu_now
  c0=$cpu_total
  # A subshell started apart and then waited for: `set -e` inside it then stops the step at its first failing
  # command (bash ignores -e in anything run as the left side of ||, functions and subshells included).
  (set -e; "$@") &
  wait $! || rc=$?
  local wall cpu
  wall=$(elapsed "$t0")
  cpu_now
  cpu=$(awk -v a="$c0" -v b="$cpu_total" 'BEGIN { printf "%.1f", b - a }')
  [ "$rc" -eq 0 ] || status=FAILED
  printf -- '-- %s: %s (%s s, CPU %s s)\n' "$name" "$status" "$wall" "$cpu"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$steps_lane" "$start" "$wall" "$cpu" "$status" "$name" >>"$steps_dir/steps.tsv"
  return "$rc"
}

steps_pids=()
lane() {
  local name=$1 fn=$2
  (
    steps_lane=$name
    set -o pipefail
    # FUNCTION runs apart and is waited for, not as the left side of ||, where bash would ignore its set -e.
    run() { "$fn" & if wait $!; then return 0; fi; echo "lane $name FAILED"; return 1; }
    run 2>&1 | sed -u "s/^/[$name] /"
  ) &
  steps_pids+=($!)
}

wait_lanes() {
  local rc=0 pid
  for pid in "${steps_pids[@]}"; do wait "$pid" || rc=1; done
  steps_pids=()
  return "$rc"
}

step_table() {
  [ -s "$steps_dir/steps.tsv" ] || return 0
  printf '\n== time by step (wall: this step from start to end; CPU: user + system of its processes)\n'
  printf '%-6s %7s %7s %7s  %-6s %s\n' lane start wall CPU status step
  sort -t $'\t' -k2,2n "$steps_dir/steps.tsv" |
    awk -F '\t' '{ printf "%-6s %7s %7s %7s  %-6s %s\n", $1, $2, $3, $4, $5, $6 }'
  printf 'total: %s s wall\n' "$(elapsed "$steps_t0")"
}
