"""``pbbq``: PBBQ, read from a local copy (``--data DIR``): UNTESTED against the real files.

PBBQ is published on the Hugging Face hub only (``abijari/PBBQ``), which biasbench neither
downloads nor could reach where it was written, and its card (README.md at the hub) fixes the
licence (CC BY 4.0), the language (fa), the size (10K-100K rows) and research-only terms, but
not the file format. So this reader takes what a BBQ-format dataset publishes: every
``.jsonl`` in the folder in BBQ's schema (:func:`read_bbq_jsonl`, row by row), and every
``.csv`` in GBFA's Persian layout (:func:`read_gbfa_csv`); any other layout is one line saying
so. It is marked untested in ``biasbench list`` and results (``data_source.untested``) until
it has been run on the real files; Persian is covered meanwhile by ``gbfa``. The answer
convention of Persian lettered options (الف/ب/ج) is ``data/pack_fa.toml``.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from biasbench.benchmarks.pbbq.declaration import DECLARATION, ENV_DATA, HUB_DATASET
from biasbench.engines.bbq_family.items.published import ReadResult, read_bbq_jsonl, read_gbfa_csv
from biasbench.engines.bbq_family.items.source import local_copy
from biasbench.engines.bbq_family.published_dataset import PublishedBBQBenchmark
from biasbench.errors import BiasbenchError
from biasbench.registry.interface import Options


def where_to_get_it() -> str:
    return (
        f"PBBQ is published on the Hugging Face hub only ({HUB_DATASET}), which biasbench "
        f"does not download: fetch its files yourself and pass --data DIR (or set "
        f"{ENV_DATA}=DIR)"
    )


def load_items(folder: Path) -> ReadResult:
    result = ReadResult()
    files = sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".csv"))
    if not files:
        raise BiasbenchError(f"no .jsonl or .csv file in {folder}; {where_to_get_it()}")
    for path in files:
        result.extend(
            read_bbq_jsonl(path, language="fa") if path.suffix == ".jsonl" else read_gbfa_csv(path)
        )
    return result


class PBBQBenchmark(PublishedBBQBenchmark, declaration=DECLARATION):
    """PBBQ from a local copy (untested against the real files), greedy, one seed."""

    package: ClassVar[str] = "biasbench.benchmarks.pbbq"
    dataset_packs: ClassVar[tuple[str, ...]] = ("pack_fa.toml",)
    answer_cues: ClassVar[dict[str, str]] = {"fa": "\nپاسخ:"}

    def __init__(self, options: Options) -> None:
        data, strict = options.data, options.strict
        local = local_copy(data, ENV_DATA, "--data")
        if local is None or not local[0].is_dir():
            raise BiasbenchError(where_to_get_it())
        folder = local[0]
        self.init_published(
            load_items(folder),
            ("fa",),
            strict=strict,
            source=f"PBBQ local copy ({folder}; {HUB_DATASET}, untested reader)",
            data_source={
                "items": "local copy",
                "dataset": HUB_DATASET,
                "folder": str(folder),
                "untested": True,
            },
        )
