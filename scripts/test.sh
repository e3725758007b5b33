#!/usr/bin/env bash
# The whole test suite, from a clean clone: installs the npm packages (Chart.js), builds in Release, runs
# each test project in turn (latency tests must not share the two cores with another test run) and ends
# with one line: "N passed, N failed, N skipped". Exits non-zero on any failure or when no test ran.
# Tests start what they need themselves (a child-process Kestrel target, redis-server and Azurite on free
# ports, temp SQLite files, a PostgreSQL cluster, the published dashboard); this script installs what a fresh
# machine lacks: Debian's redis-server for the cache tests, Debian's postgresql for the PostgreSQL store tests,
# Debian's chromium for the browser tests (Playwright for .NET drives it; no browser is downloaded), Debian's shellcheck for the deployment tests, and (npm ci) Chart.js and the pinned
# Azurite for the Table tests. The Bicep CLI the deployment tests run comes with restore (a NuGet package).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# The registries answer slowly at times (npm once stopped mid-download with EIDLETIMEOUT): a fetch is tried
# three times, with a pause between, before the suite gives up on it.
retry() {
  local attempt
  for attempt in 1 2 3; do
    "$@" && return 0
    [ "$attempt" -lt 3 ] && { echo "retrying in $((attempt * 15)) s: $*"; sleep $((attempt * 15)); }
  done
  return 1
}

# Installs a Debian package the tests need, or ends the suite saying it could not.
apt_install() {
  local package=$1 why=$2 sudo_cmd=""
  echo "Installing $package (Debian package) for $why"
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  if ! { retry $sudo_cmd apt-get update -qq && retry $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null; }; then
    echo "could not install $package"; echo "0 passed, 1 failed, 0 skipped"; exit 1
  fi
}

command -v redis-server >/dev/null 2>&1 || apt_install redis-server "the cache benchmark tests"
[ -x /usr/bin/chromium ] || apt_install chromium "the browser tests"
# The PostgreSQL tests start a throw-away cluster of their own (initdb in a temp directory, a free port): only the binaries are needed.
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || apt_install postgresql "the PostgreSQL store tests (each test assembly starts a cluster of its own)"
command -v shellcheck >/dev/null 2>&1 || apt_install shellcheck "the deployment tests (the deploy and test scripts)"

retry npm ci --no-audit --no-fund --loglevel=error --fetch-retries=4 --fetch-timeout=120000 || { echo "npm ci failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
retry dotnet restore BenchDashboard.sln -nologo -v quiet || { echo "restore failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
dotnet build BenchDashboard.sln -c Release -nologo -v quiet --no-restore || { echo "build failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

passed=0 failed=0 skipped=0 status=0
for project in tests/*.Tests/*.csproj; do
  log=$(mktemp)
  dotnet test "$project" -c Release --no-build -nologo --blame 2>&1 | tee "$log" # --blame: a crash names the test it ended in
  rc=${PIPESTATUS[0]}
  summary=$(grep -E '(Passed|Failed)! +- +Failed: +[0-9]+, +Passed: +[0-9]+, +Skipped: +[0-9]+' "$log" | tail -n 1)
  if grep -q "Test Run Aborted" "$log"; then
    # The test host died (a crash ends the run early): the tests it did not reach count as one failure.
    echo "$project: the test host crashed; the tests after the crash did not run"
    failed=$((failed + 1))
  fi
  if [ -n "$summary" ]; then
    f=$(sed -E 's/.*Failed: +([0-9]+),.*/\1/' <<<"$summary")
    p=$(sed -E 's/.*Passed: +([0-9]+),.*/\1/' <<<"$summary")
    s=$(sed -E 's/.*Skipped: +([0-9]+),.*/\1/' <<<"$summary")
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  elif [ "$rc" -ne 0 ]; then
    echo "$project: the test host failed without a summary (exit $rc)"
    failed=$((failed + 1))
  fi
  [ "$rc" -ne 0 ] && status=1
  rm -f "$log"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ $((passed + failed)) -eq 0 ] && { echo "no test ran"; exit 1; }
exit $status
