"""Exit 0 when llama.cpp runs the embedded model here through biasbench's engine (a greedy
answer of a few tokens), non-zero otherwise.

Run in a child process by scripts/bootstrap.sh: a llama.cpp build with instructions this CPU (or
its sandbox) refuses kills the interpreter with SIGILL, which no Python exception can catch.
"""

import asyncio

from biasbench.models.base import GenerationParams, Prompt
from biasbench.models.llamacpp import LlamaCppBackend


async def main() -> None:
    backend = LlamaCppBackend(slots=1)
    try:
        answer = await backend.generate(Prompt((), "Hello"), GenerationParams(max_tokens=2), 0)
    finally:
        await backend.aclose()
    assert answer.info["usage"]["completion_tokens"] >= 1 or answer.info["finish_reason"]


asyncio.run(main())
