#!/usr/bin/env bash
# kgen codegen script.
#   ./build.sh [--backend=llvm-cpu|vulkan|cuda] [--jobs=N]   set up, generate mlir/, compile build/<backend>/, check, summarise
#   ./build.sh test [PYTEST ARGS...]                           set up, then run the test suite
#   ./build.sh bench [reorder|conv|call] [KGEN BENCH ARGS...]  set up with PyTorch, then run a benchmark (default: reorder)
#   ./build.sh tune [KGEN TUNE ARGS...]                        set up, then measure and store --alg=auto's choices
# Set-up is idempotent: .venv is created once and re-installed only when pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
VENV=$ROOT/.venv
PY=$VENV/bin/python
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
export KGEN_CACHE_DIR=${KGEN_CACHE_DIR:-$ROOT/build/cache}

log() { printf '[build.sh] %s\n' "$*" >&2; }

setup_venv() {
  local extras=$1 stamp="$VENV/.kgen-installed-$1"
  if [ ! -x "$PY" ]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
  fi
  local want
  want=$(sha256sum pyproject.toml | cut -c1-16)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing kgen[$extras] into .venv (first run takes a few minutes)"
    "$PY" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
    if ! "$PY" -m pip install --disable-pip-version-check -e ".[$extras]" >"$VENV/install.log" 2>&1 \
        || ! "$PY" -c "import generator, iree.compiler, iree.runtime"; then
      tail -n 30 "$VENV/install.log" >&2
      log "installation failed (full log: $VENV/install.log)"
      exit 1
    fi
    echo "$want" > "$stamp"
  fi
}

setup_vulkan() {
  # Mesa's lavapipe: a Vulkan driver that runs on the CPU, so Vulkan kernels run on any machine.
  if ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing Mesa lavapipe (mesa-vulkan-drivers, libvulkan1)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mesa-vulkan-drivers libvulkan1) >/dev/null 2>&1 \
      || log "could not install lavapipe: Vulkan tests will be skipped"
  else
    log "lavapipe is missing and apt-get is unavailable (not root): Vulkan tests will be skipped"
  fi
}

cmd=${1:-build}
case "$cmd" in
  test)
    shift
    setup_venv test
    setup_vulkan
    # two workers on two cores; compiled artifacts are shared through the content-addressed cache
    exec "$PY" -m pytest -n "${KGEN_TEST_JOBS:-2}" -q "$@"
    ;;
  bench)
    shift
    setup_venv "test,bench"
    what=reorder
    case "${1:-}" in reorder|conv|call) what=$1; shift ;; esac
    exec "$VENV/bin/kgen" bench "$what" "$@"
    ;;
  tune)
    # the tuned catalog: kgen tune's choices land in $KGEN_CACHE_DIR/tuned.json, their kernels in the cache
    shift
    setup_venv "test,bench"
    exec "$VENV/bin/kgen" tune "$@"
    ;;
  -h|--help|help)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    ;;
  build|--*)
    [ "$cmd" = build ] && shift || true
    setup_venv test
    setup_vulkan
    exec "$VENV/bin/kgen" catalog build "$@"
    ;;
  *)
    log "unknown command '$cmd' (use: ./build.sh [build] [--backend=...], ./build.sh test, ./build.sh bench [reorder|conv|call], ./build.sh tune)"
    exit 2
    ;;
esac
