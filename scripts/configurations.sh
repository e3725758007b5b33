#!/usr/bin/env bash
# App Service configurations on one machine (issue 43): a local dashboard on SQLite and N configuration processes
# cfg0..cfgN-1 of the published site, each on a free loopback port with its own environment (WEBSITE_DYNAMIC_CACHE
# 0/1/2 in turn, its slot's name, its own HOME and TMPDIR), serving /target/* and linked to the dashboard as the
# agent of its name with a key of its own: what deploy/ makes with a slot per configuration, without Azure.
#
#   scripts/configurations.sh [N] [DIR] [--detach]   start (N 2..8, default 3; DIR default a new temp folder);
#                                                     Ctrl-C stops everything it started; --detach leaves it running
#   scripts/configurations.sh stop DIR                stop what was started in DIR (its pid files), nothing else
#
# The site is published to DIR/site once and reused; BENCHDASH_PUBLISH=FOLDER uses a publish made elsewhere.
# tests/Web.Tests/Agents/LocalConfigurations.cs starts the same processes with the same environment for the tests.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

usage() {
  sed -n '7,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# Whether pid file $1 names a live process of ours (a published BenchDashboard.Web.dll), not a reused pid.
ours() {
  local pid
  pid="$(cat "$1" 2>/dev/null)" || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && ps -o args= -p "$pid" 2>/dev/null | grep -q 'BenchDashboard.Web.dll'
}

# Stops the processes DIR's pid files name (configurations first, the dashboard last), and only those.
stop_dir() {
  local dir=$1 file pid waited
  [ -d "$dir/pids" ] || { echo "nothing started in $dir (no $dir/pids)"; return 0; }
  for file in "$dir"/pids/cfg*.pid "$dir"/pids/dashboard.pid; do
    [ -e "$file" ] || continue
    if ours "$file"; then
      pid="$(cat "$file")"
      kill -TERM "$pid" 2>/dev/null || true
      # A graceful stop ends the dashboard's child runner with it; 15 s, then it is killed.
      for ((waited = 0; waited < 150; waited++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
      echo "stopped $(basename "$file" .pid) (pid $pid)"
    fi
    rm -f "$file"
  done
}

# A loopback port nothing listens on and this run has not handed out yet.
taken=" "
free_port() {
  local port
  while true; do
    port=$((20000 + RANDOM % 40000))
    [[ "$taken" == *" $port "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      taken+="$port "
      echo "$port"
      return
    fi
  done
}

new_key() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }

# Waits until $1 answers /healthz, or says why not (the process ended, or 60 s) with the end of its log $3.
until_up() {
  local url=$1 pid_file=$2 log=$3 tries
  for ((tries = 0; tries < 300; tries++)); do
    curl -fsS -o /dev/null --max-time 2 "$url/healthz" 2>/dev/null && return 0
    ours "$pid_file" || { echo "it stopped; the end of $log:" >&2; tail -n 20 "$log" >&2; return 1; }
    sleep 0.2
  done
  echo "$url did not answer /healthz within 60 s; the end of $log:" >&2
  tail -n 20 "$log" >&2
  return 1
}

if [ "${1:-}" = "stop" ]; then
  [ $# -eq 2 ] || usage
  stop_dir "$2"
  exit 0
fi

count="" dir="" detach=false
for arg in "$@"; do
  case "$arg" in
    --detach) detach=true ;;
    -h | --help) usage ;;
    *)
      if [[ "$arg" =~ ^[0-9]+$ ]] && [ -z "$count" ] && [ -z "$dir" ]; then count=$arg
      elif [ -z "$dir" ]; then dir=$arg
      else usage
      fi ;;
  esac
done
count=${count:-3}
if ((count < 2 || count > 8)); then
  echo "N must be 2 to 8 (an on-each run names 2 to 8 agents); got $count" >&2
  exit 2
fi
if [ -z "$dir" ]; then dir="$(mktemp -d "${TMPDIR:-/tmp}/benchdash-configurations.XXXXXX")"; fi
mkdir -p "$dir/pids"
dir="$(cd "$dir" && pwd)"
for file in "$dir"/pids/*.pid; do
  if [ -e "$file" ] && ours "$file"; then
    echo "$dir is in use by a running setup; stop it first: $0 stop $dir" >&2
    exit 1
  fi
done

site="${BENCHDASH_PUBLISH:-$dir/site}"
if [ ! -f "$site/BenchDashboard.Web.dll" ]; then
  echo "publishing the site to $site (once; later starts reuse it)"
  dotnet publish "$repo/src/Web" -c Release -o "$site" -nologo -v quiet
fi

# From here on, an interruption stops what was started.
if ! $detach; then trap 'echo; stop_dir "$dir"; exit 130' INT TERM; fi
# A start that fails half-way stops what it had started.
on_exit() {
  local status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 130 ]; then stop_dir "$dir"; fi
}
trap on_exit EXIT

dashboard_port="$(free_port)"
dashboard="http://127.0.0.1:$dashboard_port"
declare -a names ports keys
for ((i = 0; i < count; i++)); do
  names[i]="cfg$i"
  ports[i]="$(free_port)"
  keys[i]="$(new_key)"
done

# The dashboard: SQLite in its own folder, its runner as its child, on loopback, a key per configuration. As any
# published dashboard it asks for an administrator to start runs: a generated key (the API's X-Api-Key, and the
# password of its sign-in page), kept in DIR/dashboard/admin-key. Agents__AllowInsecure: its agents dial plain http.
mkdir -p "$dir/dashboard"
admin_key="$(new_key)"
(umask 077 && echo "$admin_key" >"$dir/dashboard/admin-key")
dashboard_env=(
  "ASPNETCORE_URLS=$dashboard" "ASPNETCORE_ENVIRONMENT=Production" "HOME=$dir/dashboard"
  "Database__Path=$dir/dashboard/benchdashboard.db" "Demo__Seed=false" "Agents__AllowInsecure=true" "Targets__AllowLoopback=true"
  "Auth__ApiKey=$admin_key" "Auth__AdminPassword=$admin_key"
)
for ((i = 0; i < count; i++)); do dashboard_env+=("Agents__Keys__${names[i]}=${keys[i]}"); done
(cd "$site" && exec env -u PORT "${dashboard_env[@]}" dotnet BenchDashboard.Web.dll >"$dir/dashboard/log" 2>&1) &
echo $! >"$dir/pids/dashboard.pid"
until_up "$dashboard" "$dir/pids/dashboard.pid" "$dir/dashboard/log"

# The configurations: the web host with Runner__Mode=agent (targets and agent in one process, no database). Slots on
# one plan share instances, so WEBSITE_INSTANCE_ID is the same for all; each has its own HOME (the file-system kind's
# "home" root, /home on App Service), TMPDIR ("temp") and content root ("content", and the files /target/files
# reads), as each slot has its own site folder; the binaries are the one publish.
for ((i = 0; i < count; i++)); do
  name=${names[i]} port=${ports[i]} content="$dir/${names[i]}/content"
  mkdir -p "$dir/$name/home" "$dir/$name/tmp" "$content/wwwroot"
  cp "$site/appsettings.json" "$content/"
  rm -rf "$content/wwwroot/target" && cp -R "$site/wwwroot/target" "$content/wwwroot/"
  (cd "$content" && exec env -u PORT \
    "ASPNETCORE_URLS=http://127.0.0.1:$port" "ASPNETCORE_ENVIRONMENT=Production" \
    "Runner__Mode=agent" "Runner__Coordinator=$dashboard" "Runner__AgentName=$name" "Runner__AgentKey=${keys[i]}" \
    "Runner__PublicUrl=http://127.0.0.1:$port" \
    "WEBSITE_DYNAMIC_CACHE=$((i % 3))" "WEBSITE_LOCAL_CACHE_OPTION=Never" "BENCHDASHBOARD_SLOT=$name" "WEBSITE_INSTANCE_ID=local" \
    "HOME=$dir/$name/home" "TMPDIR=$dir/$name/tmp" \
    dotnet "$site/BenchDashboard.Web.dll" --contentRoot "$content" >"$dir/$name/log" 2>&1) &
  echo $! >"$dir/pids/$name.pid"
done
for ((i = 0; i < count; i++)); do
  until_up "http://127.0.0.1:${ports[i]}" "$dir/pids/${names[i]}.pid" "$dir/${names[i]}/log"
done

# Linked: each configuration's health says so once the dashboard has welcomed its agent.
for ((i = 0; i < count; i++)); do
  for ((tries = 0; tries < 300; tries++)); do
    curl -fsS --max-time 2 "http://127.0.0.1:${ports[i]}/healthz" 2>/dev/null | grep -q '"linked":true' && break
    sleep 0.2
  done
  ((tries < 300)) || { echo "${names[i]} did not link to $dashboard within 60 s; see $dir/${names[i]}/log" >&2; exit 1; }
done

list=$(printf '"%s",' "${names[@]}")
echo
echo "Dashboard:       $dashboard   (agents: $dashboard/agents; sign in with the key in $dir/dashboard/admin-key)"
printf '%-6s %-24s %-8s %-22s %s\n' "name" "site" "pid" "WEBSITE_DYNAMIC_CACHE" "home"
for ((i = 0; i < count; i++)); do
  printf '%-6s %-24s %-8s %-22s %s\n' "${names[i]}" "http://127.0.0.1:${ports[i]}" "$(cat "$dir/pids/${names[i]}.pid")" "$((i % 3))" "$dir/${names[i]}/home"
done
echo
echo "Each configuration's own site, measured from inside it, in one run:"
echo "  curl -s -X POST $dashboard/api/runs -H \"X-Api-Key: \$(cat $dir/dashboard/admin-key)\" -H 'Content-Type: application/json' \\"
echo "    -d '{\"kind\":\"http\",\"url\":\"{{self}}/target/files?count=64\",\"requests\":200,\"onEach\":[${list%,}]}'"
echo "Each configuration's own disks (its TMPDIR and content folder; \"home\" is App Service's /home), in turns:"
echo "  the same with -d '{\"kind\":\"fileSystem\",\"directories\":[\"temp\",\"content\"],\"onEach\":[${list%,}]}'"
echo "Logs and pid files: $dir"
if $detach; then
  echo "Left running; stop it with: $0 stop $dir"
  trap - EXIT
  exit 0
fi
echo "Ctrl-C stops them all."
wait
