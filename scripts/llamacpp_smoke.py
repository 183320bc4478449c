"""Exit 0 when llama.cpp runs the embedded model here (one generated token), non-zero otherwise.

Run in a child process by scripts/bootstrap.sh: a llama.cpp build with instructions this CPU (or
its sandbox) refuses kills the interpreter with SIGILL, which no Python exception can catch.
"""

import llama_cpp

from biasbench.models.llamacpp import embedded_model_path

llama_cpp.Llama(str(embedded_model_path()), n_ctx=64, verbose=False)("Hi", max_tokens=1)
