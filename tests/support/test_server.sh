# shellcheck shell=bash
# Sourced by the shell tests (tests/*/*.sh) that run hammer against tools/test_server:
#   work_dir_and_server_cleanup  sets `work` to a fresh temporary directory and traps EXIT to
#                                stop the server started below and remove the directory
#   start_test_server BINARY     starts BINARY --port 0 (its output in $work/server.out), waits
#                                for "listening on", sets server_pid and address (HOST:PORT);
#                                exits 1 with the server's output when it does not start
work_dir_and_server_cleanup() {
  work=$(mktemp -d)
  server_pid=""
  trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
}

start_test_server() {
  "$1" --port 0 > "$work/server.out" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    grep -q "listening on" "$work/server.out" && break
    sleep 0.1
  done
  address=$(sed -n 's/^listening on \([0-9.:]*\).*/\1/p' "$work/server.out")
  [ -n "$address" ] || { echo "test_server did not start"; cat "$work/server.out"; exit 1; }
}
