"""The one interface every benchmark implements (an abstract base class).

A benchmark owns everything that is its own: its name, version, languages and paper (data, not
report code), its items and requests (with ``--limit`` and seeds), the options it takes
(declared once as :class:`OptionSpec`; the CLI turns them into ``biasbench run`` options), its
decoding defaults, its signature, how it adapts a backend (default: not at all), evaluation
into results with labels, tables and figures, its summary lines, and its part of the HTML report
with the drill-down rows. The pipeline, the CLI and the report only ever talk to this interface,
through the registry (:mod:`biasbench.registry`); none of them names a benchmark.

It lives below the engines and the benchmarks (``biasbench/registry/``), so an engine and a
benchmark both import it downward; :mod:`biasbench.registry.interface` re-exports it for code
written against the old place.

Layers point one way: a benchmark may use :mod:`biasbench.tables`, :mod:`biasbench.display`,
:mod:`biasbench.figures` and :mod:`biasbench.runfolder` (reading and grouping run folders among
its modules); it never imports :mod:`biasbench.report`, :mod:`biasbench.pipeline` or
:mod:`biasbench.cli`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeAlias

from biasbench.registry.options import Options, OptionSpec, checked_value

__all__ = [
    "SCORE_COLUMNS",
    "Benchmark",
    "BenchmarkInfo",
    "Command",
    "Declaration",
    "OptionSpec",
    "Options",
    "Paper",
    "Results",
    "checked_value",
    "tidy_scores",
]

if TYPE_CHECKING:
    # Names for annotations only: this module is read by `biasbench list` and `--help`, which
    # must load no pandas, and the report's building blocks are needed only by a report.
    import pandas as pd

    from biasbench.display import Section
    from biasbench.models.base import GenerationParams, ModelBackend
    from biasbench.runfolder.grouping import RunGroup
    from biasbench.runner.runner import Request
    from biasbench.signature import Signature

Results: TypeAlias = dict[str, Any]
"""A results.json document: ``schema_version``, ``benchmark``, ``signature``, ``models`` (each
benchmark validates its ``models`` with its own pydantic schema) and benchmark-specific keys.
It is written once, by the caller (the pipeline or ``biasbench score``), never by the
benchmark."""


@dataclass(frozen=True)
class Command:
    """A command a benchmark adds to ``biasbench`` (:meth:`Benchmark.commands`).

    ``function`` is a typer command (its parameters annotated with ``typer.Option``/``Argument``;
    user errors raised as :class:`~biasbench.errors.BiasbenchError`, which the CLI prints as one
    line). It becomes ``biasbench NAME``, or ``biasbench GROUP NAME`` when ``group`` is given
    (``group_help`` describes the group the first time it is created).
    """

    name: str
    function: Callable[..., None]
    group: str | None = None
    group_help: str = ""


@dataclass(frozen=True)
class Paper:
    """The publication a benchmark reproduces."""

    title: str
    citation: str
    url: str = ""


@dataclass(frozen=True)
class Declaration:
    """What the CLI and ``biasbench list`` know of a benchmark before loading it.

    Each benchmark package declares it in its light ``declaration.py`` (importing no pandas,
    scipy, matplotlib or model code), so ``biasbench --help``, ``list`` and ``run NAME --help``
    read it without importing the benchmark; the class takes every field from it
    (``class NameBenchmark(Benchmark, declaration=DECLARATION)``), so each is written once.
    """

    name: str
    """Registry name (``biasbench run NAME``)."""
    languages: tuple[str, ...]
    """BCP 47 codes of the languages of its items and expected outputs."""
    paper: Paper
    """The publication it reproduces."""
    items_summary: str
    """How many items it defines, in words (no data is loaded)."""
    output_language: str | None = None
    """The language of the model outputs when it is not the page's English (HTML ``lang``)."""
    licence: str = ""
    """The licence of its data as its authors publish it, with whose it is ("none stated" when
    they publish none, "unknown" when it could not be checked); empty: not recorded."""
    terms: str = ""
    """Conditions of use beyond the licence, as the authors state them ("request-only; no
    redistribution", "evaluation only, not for training"); empty: none stated."""
    docs_page: str = ""
    """Its page in the repository's docs (``docs/benchmarks/NAME.md``), linked from the README's
    table of benchmarks; empty: none."""
    options: tuple[OptionSpec, ...] = ()
    """Its own ``biasbench run`` (and ``score``) options."""
    data_options: tuple[OptionSpec, ...] = ()
    """The options of ``biasbench data NAME`` besides ``--out``."""
    data_help: str = ""
    """The help of ``biasbench data NAME``; empty: it has no such command (its class does not
    override ``generate_items``)."""
    limit_help: str = "the first N in published order"
    """Which items ``--limit N`` picks (the ``run NAME --help`` text)."""
    responses_help: str = "JSONL of responses produced elsewhere."
    """What ``biasbench score NAME --responses FILE`` reads (its help text)."""
    commands: tuple[Command, ...] = ()
    """Commands of its own that the CLI adds (``biasbench classify``...)."""
    harness_logs: tuple[str, ...] = ()
    """Other harnesses whose logs ``biasbench score NAME --from HARNESS`` reads (the BBQ
    engine's: ``lm-eval``, ``inspect``); empty: no ``--from`` option."""
    harness_help: str = ""
    """The help of ``--from`` (what each harness's log is, where to find it)."""
    benchmark: str = ""
    """Its :class:`Benchmark` class as ``"module:Class"``, imported only when it is used; a
    module starting with ``.`` is relative to the package of the declaring module
    (``".benchmark:FilBBQBenchmark"``), so a folder names its own class and no list outside it
    does."""
    item_readers: Mapping[str, str] = field(default_factory=dict, hash=False)
    """Namespace (the part of ``NS/LANG=FILE`` before the first ``/``) -> ``"module:function"``
    (relative as :attr:`benchmark`): the dataset's own reader of an item file, ``function(path,
    namespace)`` returning its items, for files whose rows need rules of their own (MBBQ's
    target_loc), so ``score bbq --items mbbq/es=FILE`` reads them as ``score mbbq`` does."""
    language_rules: tuple[Any, ...] = ()
    """Languages new to its engine that its data is in, as that engine's rule objects (the BBQ
    engine's ``LanguageRules``, defined in the benchmark's light folder): the engine adds them
    to its language table from the declaration, so they are known before the class is
    imported (``score bbq --items NS/LANG=FILE``)."""

    @property
    def generates_items(self) -> bool:
        """Whether it has ``biasbench data NAME``."""
        return bool(self.data_help)


_DECLARED = (
    "name",
    "languages",
    "paper",
    "items_summary",
    "output_language",
    "licence",
    "terms",
    "options",
    "data_options",
    "limit_help",
    "responses_help",
)
"""The :class:`Declaration` fields a benchmark class takes as its class attributes."""


class Benchmark(ABC):
    """A benchmark: items -> requests -> judged labels -> statistics -> tables and report."""

    declaration: ClassVar[Declaration | None] = None
    """What the CLI reads without importing the class (see :class:`Declaration`)."""

    def __init_subclass__(cls, declaration: Declaration | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if declaration is None:
            return
        cls.declaration = declaration
        for declared in _DECLARED:
            setattr(cls, declared, getattr(declaration, declared))
        if cls.generates_items() != declaration.generates_items:
            raise TypeError(
                f"{cls.__name__}: its declaration (data_help) says generates_items="
                f"{declaration.generates_items}, its class does not agree"
            )

    name: ClassVar[str]
    """Registry name (``biasbench run NAME``)."""
    languages: ClassVar[tuple[str, ...]]
    """BCP 47 codes of the languages of its items and expected outputs (the report marks text
    in these languages with ``lang``)."""
    output_language: ClassVar[str | None] = None
    """The language of the model outputs when it is not the page's English (HTML ``lang``)."""
    paper: ClassVar[Paper]
    items_summary: ClassVar[str]
    """How many items it defines, in words (``biasbench list``; no data is loaded)."""
    licence: ClassVar[str] = ""
    """The licence of its data, with whose it is (``biasbench list``; see
    :attr:`Declaration.licence`)."""
    terms: ClassVar[str] = ""
    """Conditions of use beyond the licence (``biasbench list``); empty: none stated."""
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    """Its own ``biasbench run`` options."""
    data_options: ClassVar[tuple[OptionSpec, ...]] = ()
    """The options of ``biasbench data NAME`` besides ``--out`` (see :meth:`generate_items`)."""
    judge_version: ClassVar[str]
    limit_help: ClassVar[str] = "the first N in published order"
    """Which items ``--limit N`` picks (the ``run --help`` text)."""
    responses_help: ClassVar[str] = "JSONL of responses produced elsewhere."
    """What ``biasbench score NAME --responses FILE`` reads (its help text)."""

    items: Sequence[Any]
    """The items the benchmark defines."""
    configured_options: ClassVar[tuple[str, ...]] = ()
    """Options an engine declares for all its benchmarks (the BBQ engine's ``--vary``): given
    to :meth:`configure` after construction, not to each benchmark's constructor."""

    @classmethod
    def from_options(cls, options: Options) -> Self:
        """The benchmark built from its checked :class:`Options` (the registry's one way in,
        for the CLI and the API): the constructor receives the options object (every declared
        option, given or at its declared default) and reads its dataset's own; those of
        :attr:`configured_options` (an engine's, for all its benchmarks) go to
        :meth:`configure`."""
        bench = cls(options)
        bench.option_values = options
        configured = {k: v for k, v in options.given().items() if k in cls.configured_options}
        if configured:
            bench.configure(**configured)
        return bench

    @classmethod
    def with_options(cls, **given: Any) -> Self:
        """The benchmark built from ``given`` options, checked against its declaration as the
        registry checks them (Python code holding the class: ``FilBBQBenchmark.with_options(
        templates=path)``; by name: ``get_benchmark``)."""
        return cls.from_options(Options(cls.options, given, benchmark=cls.name))

    def __init__(self, options: Options) -> None:
        """Build the benchmark from its options (every declared one has its value); each
        benchmark reads its own from them (``options.data``)."""
        self.option_values = options

    option_values: Options
    """The options it was built from (set by :meth:`from_options`)."""

    def configure(self, **options: Any) -> None:
        """Apply :attr:`configured_options` (none by default)."""
        if options:
            raise TypeError(f"{self.name} takes no option {sorted(options)[0]!r}")

    # -- identity ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def version(self) -> str:
        """Version of the benchmark definition (part of every signature)."""

    # -- requests ------------------------------------------------------------------------------
    @abstractmethod
    def params_for(
        self,
        backend: ModelBackend,
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> GenerationParams:
        """The decoding of a run: the benchmark's defaults unless the caller sets them."""

    @abstractmethod
    def requests(
        self, *, limit: int | None = None, seeds: Sequence[int] | None = None
    ) -> list[Request]:
        """Every request of a run (``limit`` items, under every seed)."""

    def default_seeds(self, seeds: Sequence[int] | None) -> list[int] | None:
        """The seeds a run uses when none are given (default: unseeded)."""
        return list(seeds) if seeds else None

    @abstractmethod
    def signature(
        self,
        model: dict[str, Any],
        params: GenerationParams | None,
        seeds: Sequence[int] | None,
        limit: int | None = None,
    ) -> Signature:
        """What makes two results comparable (sacrebleu-style)."""

    def adapt_backend(self, backend: ModelBackend) -> ModelBackend:
        """The backend the requests go to; by default the one given."""
        return backend

    # -- scoring -------------------------------------------------------------------------------
    @abstractmethod
    def evaluate(
        self, responses: pd.DataFrame, out_dir: Path, signatures: dict[str, Signature]
    ) -> Results:
        """Judge and score ``responses`` (columns model, item_id, seed, output, ...); write
        labels, tables and figures into ``out_dir``; return the results document."""

    @classmethod
    @abstractmethod
    def summary(cls, results: Results) -> list[str]:
        """The lines printed after a run or a score (from the results alone)."""

    @abstractmethod
    def read_responses(self, path: Path) -> pd.DataFrame:
        """Responses produced elsewhere (JSONL), checked line by line (``biasbench score``)."""

    def score(self, responses: pd.DataFrame, out_dir: Path, *, source: str) -> Results:
        """Evaluate responses produced elsewhere (from :meth:`read_responses`; ``source`` names
        where they came from): each model's signature says ``kind: external``, and the output
        health is added (truncation unknown: outputs produced elsewhere carry no finish reason).
        The caller writes results.json (``biasbench score NAME``)."""
        from biasbench.output_health import output_health

        seeds = (
            sorted({int(s) for s in responses["seed"].dropna()})
            if "seed" in responses.columns
            else []
        )
        signatures = {
            str(m): self.signature(
                {"kind": "external", "model": str(m), "source": source}, None, seeds or None
            )
            for m in responses["model"].unique()
        }
        results = self.evaluate(responses, out_dir, signatures)
        # An answer given as an option index (BBQ's pred) has no text whose health to count.
        texts = responses[responses["output"].notna()] if "pred" in responses.columns else responses
        results["output_health"] = output_health(texts)
        return results

    # -- the data lint (``biasbench lint NAME``) ------------------------------------------------
    def data_lint(self) -> Any:
        """What in this benchmark's items skews or shrinks its scores (a report with
        ``lines()``, ``to_dict()``, ``findings``); a benchmark without a lint says so."""
        from biasbench.errors import BiasbenchError

        raise BiasbenchError(f"{self.name} has no data lint (it reads no BBQ-format items)")

    @classmethod
    def lint_files(cls, paths: Sequence[str | Path]) -> Any:
        """The data lint of item files in any format this benchmark's engine reads."""
        from biasbench.errors import BiasbenchError

        raise BiasbenchError(f"{cls.name} has no data lint (it reads no BBQ-format items)")

    # -- other harnesses' logs (``score NAME --from HARNESS``) --------------------------------
    def read_harness_log(self, harness: str, path: Path) -> Any:
        """Another harness's log at ``path`` (its declaration's ``harness_logs``), read and
        mapped to the items before any folder is touched: bad input is one
        :class:`~biasbench.errors.InputError`. A benchmark that declares none reads none."""
        from biasbench.errors import BiasbenchError

        raise BiasbenchError(f"{self.name} reads no other harness's log")

    def score_harness_log(self, log: Any, out_dir: Path, *, source: str) -> Results:
        """The answers of a log from :meth:`read_harness_log`, scored as :meth:`score` scores
        responses produced elsewhere, with the harness's own metrics set beside them."""
        from biasbench.errors import BiasbenchError

        raise BiasbenchError(f"{self.name} reads no other harness's log")

    @classmethod
    def harness_summary(cls, results: Results) -> list[str]:
        """The lines that compare the harness's metrics with the benchmark's, printed after
        :meth:`summary` and the output health (results of :meth:`score_harness_log`)."""
        return []

    # -- command line --------------------------------------------------------------------------
    @classmethod
    def commands(cls) -> Sequence[Command]:
        """Commands of its own that the CLI adds (``biasbench classify``...): its declaration's,
        default none. Benchmarks sharing an engine may return the same commands: each is added
        once."""
        return cls.declaration.commands if cls.declaration else ()

    @classmethod
    def score_rows(cls, results: Results, labels: pd.DataFrame | None = None) -> pd.DataFrame:
        """The statistics of ``results`` as tidy rows (``biasbench export``, the Python API):
        columns :data:`SCORE_COLUMNS`. The default walks ``results["models"]`` (see
        :func:`tidy_scores`); a benchmark whose intervals are computed from its ``labels``
        (the run's labels.jsonl, when there is one) overrides it to fill them in."""
        return tidy_scores(results)

    # -- items on disk -------------------------------------------------------------------------
    @classmethod
    def generate_items(cls, out: Path, **options: Any) -> list[str]:
        """Write the benchmark's items into ``out`` (``biasbench data NAME --out DIR`` with the
        :attr:`data_options` that were given) and return the lines to print. A benchmark that
        does not override it has no ``data`` command."""
        raise NotImplementedError(f"{cls.name} does not generate items")

    @classmethod
    def generates_items(cls) -> bool:
        """Whether the benchmark overrides :meth:`generate_items`."""
        return cls.generate_items.__func__ is not Benchmark.generate_items.__func__  # type: ignore[attr-defined]

    # -- report --------------------------------------------------------------------------------
    @classmethod
    def report_section(cls, group: RunGroup, out: Path, section: Section) -> None:
        """Fill the report's section of one comparison (runs of this benchmark with comparable
        signatures): tables, figures and drill-down. Class-level: a report never rebuilds the
        benchmark's items. The default says there is no layout."""
        from biasbench.display import esc

        section.add(
            f'<p class="note">No report layout for benchmark {esc(cls.name)}; see '
            "results.json in the run folders.</p>"
        )


@dataclass(frozen=True)
class BenchmarkInfo:
    """What ``biasbench list`` shows of a registered benchmark."""

    name: str
    items: str
    languages: tuple[str, ...]
    paper: Paper
    licence: str = ""
    terms: str = ""

    @classmethod
    def of(cls, benchmark: type[Benchmark] | Declaration) -> BenchmarkInfo:
        return cls(
            benchmark.name,
            benchmark.items_summary,
            benchmark.languages,
            benchmark.paper,
            benchmark.licence,
            benchmark.terms,
        )


SCORE_COLUMNS = ("model", "group", "statistic", "value", "ci_low", "ci_high", "n", "ci_status")
"""One score per row: the model, where in the model's results it sits (``group``: the keys
above it joined by ``/``, e.g. a BBQ category), its name, value, interval and sample size."""


def tidy_scores(results: Results) -> pd.DataFrame:
    """Every number under ``results["models"]`` and ``results["dataset_scores"]["models"]``
    (a dataset's own metrics, the group prefixed by their ``name``), one row each.

    A dict with a ``mean`` and ``ci_low``/``ci_high`` is one statistic with its interval (``n``
    from its ``n_seeds`` or ``n``); every other number (not a flag) is a statistic without an
    interval. Text and lists (caveats, per-seed lists) are not scores and are left out.
    """
    import pandas as pd

    rows: list[dict[str, Any]] = []

    def walk(model: str, path: tuple[str, ...], node: Any) -> None:
        if isinstance(node, dict):
            if "mean" in node and ("ci_low" in node or "ci_high" in node):
                rows.append(
                    {
                        "model": model,
                        "group": "/".join(path[:-1]),
                        "statistic": path[-1] if path else "mean",
                        "value": node.get("mean"),
                        "ci_low": node.get("ci_low"),
                        "ci_high": node.get("ci_high"),
                        "n": node.get("n_seeds", node.get("n")),
                        "ci_status": node.get("ci_status"),
                    }
                )
                return
            for key, value in node.items():
                walk(model, (*path, str(key)), value)
        elif isinstance(node, int | float) and not isinstance(node, bool) and path:
            rows.append(
                {
                    "model": model,
                    "group": "/".join(path[:-1]),
                    "statistic": path[-1],
                    "value": node,
                    "ci_low": None,
                    "ci_high": None,
                    "n": None,
                    "ci_status": None,
                }
            )

    for model, node in (results.get("models") or {}).items():
        walk(str(model), (), node)
    # A dataset's own metrics beside the benchmark's (BBQ family: bbq_family/scoring/dataset_scores.py), their
    # group prefixed by the dataset's name for them.
    own = results.get("dataset_scores") or {}
    for model, node in (own.get("models") or {}).items():
        walk(str(model), (str(own.get("name") or "dataset_scores"),), node)
    frame = pd.DataFrame(rows, columns=list(SCORE_COLUMNS))
    for column in ("value", "ci_low", "ci_high"):
        frame[column] = frame[column].astype(float)
    frame["n"] = frame["n"].astype("Int64")
    return frame
