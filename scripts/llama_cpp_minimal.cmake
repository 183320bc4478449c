# Read by llama.cpp's own CMake project (CMAKE_PROJECT_llama.cpp_INCLUDE, set by bootstrap.sh)
# right after its project() call: biasbench loads libllama and libggml only, so llama.cpp's
# "common" library (chat parsers, templates, an HTTP client: about half of the compile time on
# 2 cores) is not built. llama-cpp-python forces it on; this runs after that and wins.
set(LLAMA_BUILD_COMMON OFF CACHE BOOL "llama: build common utils library" FORCE)
set(LLAMA_BUILD_COMMON OFF)
