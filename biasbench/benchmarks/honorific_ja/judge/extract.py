"""Cutting the Japanese translation(s) out of a model output (spec "Pitfalls": chatter).

Works on the normalised text (NFKC: full-width colons and brackets are ASCII here).
Removed as chatter: code fences and a JSON wrapper, markdown (headings, bullets, numbered
items, bold, backticks), labels before a colon (翻訳:, 日本語訳:, Translation:, カジュアル:),
quotes around a whole line, kana readings in parentheses right after a kanji
(裁判官(さいばんかん)), parentheses holding only Latin (romaji, English notes), note lines
(※, 注, 補足, 解説, 備考, Note ...) and everything after a note line, lead-ins
(この文を日本語に翻訳すると ...), questions to the user and refusals, and every line that
is not Japanese (English echo, romaji, Chinese, Korean). What remains is one rendering per
line; several lines are alternatives, labelled one by one.

A line is Japanese when it has at least two hiragana and hiragana make at least 10% of its
kana and kanji (Chinese has neither particles nor inflections in hiragana).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from biasbench.benchmarks.honorific_ja.judge.normalise import is_hiragana, is_kanji, is_katakana

_FENCE = re.compile(r"^\s*```[\w-]*\s*$")
_MARKDOWN_LEAD = re.compile(r"^\s*(?:#{1,6}\s*|>\s*|[-*+•・]\s+|\(?\d{1,2}[.)]\s*|[①-⑩]\s*)")
_EMPHASIS = re.compile(r"\*\*|__|`")
# a label before a colon, not a clock time (医師は9:00に到着します)
_LABEL = re.compile(r"^\s*([^\s:。、「」]{0,15}[^\s:。、「」\d])\s*:(?!\d)\s*")
_NOTE_LEAD = re.compile(
    r"^\s*[(\[]?\s*(?:※|注|補足|解説|備考|説明|参考|Note|NB|N\.B\.|Explanation"
    r"|Notes|Romaji|Romanization|Romanisation|Reading|Literal)",
    re.I,
)
_ENGLISH_LABELS = frozenset({"english", "英語", "原文", "source", "original", "input", "英文"})
_FURIGANA = re.compile(r"(?<=[\u4e00-\u9fff々])\([\u3041-\u309f\u30a0-\u30ffー]+\)")
_LATIN_PAREN = re.compile(
    r"\s*\([^()\u3040-\u30ff\u4e00-\u9fff]*[A-Za-z][^()\u3040-\u30ff\u4e00-\u9fff]*\)"
)
_QUOTE_PAIRS = {"「": "」", "『": "』", "“": "”", '"': '"', "'": "'"}
_LEAD_IN = re.compile(
    r"(?:翻訳|訳す|訳し|訳文|訳は|日本語に(?:す|訳|直)).*(?:次|以下|:$)"
    r"|^(?:次|以下)(?:の|は|が).*(?:翻訳|訳)"
)
# a refusal speaks of the request (翻訳, 依頼, お手伝い ...): 対応できかねます alone is a
# translation of "is not available", not a refusal
_REFUSAL = re.compile(
    r"(?:申し訳|できかねます|できません|いたしかねます).*?"
    r"(?:翻訳|依頼|リクエスト|要望|お手伝い|お答え|回答|お応え)"
    r"|(?:翻訳|依頼|リクエスト|要望|お手伝い|お答え|回答|お応え).*?"
    r"(?:できかねます|できません|いたしかねます)"
    r"|I cannot|I can't|I'm sorry|I am sorry|I apologi[sz]e",
    re.I,
)
# a parenthesised note inside a line: (訳注: ...), (「来ます」の尊敬語), (直訳 ...)
_INLINE_NOTE = re.compile(
    r"\((?:[^()]*「[^()]*」[^()]*|\s*(?:訳注|注|※|直訳|意訳|読み|補足|Note)[^()]*"
    r"|[^()]*(?:尊敬語|謙譲語|丁寧語|敬語|直訳|省略)[^()]*)\)"
)
# a note after the translation on the same line: 。 - Note: ... / 。※ ... / 。注: ...
_TRAILING_NOTE = re.compile(
    r"(?<=[。!?」])\s*(?:[-–—*]\s*)?(?:Note|NB|Explanation|※|注\s*:|補足|解説)"
    r".*$",
    re.I,
)
# a translation quoted inside a Japanese lead-in: 「...」を日本語に訳すと、「<translation>」となります
_QUOTED = re.compile(r"「([^「」]+)」")


@dataclass(frozen=True)
class Extraction:
    """The renderings found (cleaned lines), or why none was found."""

    renderings: tuple[str, ...]
    reason: str | None
    """None when at least one rendering was found; else ``empty``, ``refusal``,
    ``not_a_translation`` (a question or an explanation) or ``not_japanese``."""


def japanese_enough(text: str) -> bool:
    """At least two hiragana, and hiragana at least 10% of the kana and kanji."""
    hiragana = sum(1 for c in text if is_hiragana(c))
    if hiragana < 2:
        return False
    scripts = sum(1 for c in text if is_hiragana(c) or is_katakana(c) or is_kanji(c))
    return hiragana * 10 >= scripts


def _json_strings(text: str) -> str | None:
    """The translation inside a JSON wrapper, or None when the text is no JSON."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[", '"')):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            preferred = [
                v
                for k, v in node.items()
                if str(k).lower() in {"translation", "japanese", "ja", "訳", "翻訳"}
            ]
            for value in preferred or list(node.values()):
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return "\n".join(found) if found else None


def _is_lead_in(line: str) -> bool:
    """この文を日本語に翻訳すると、次のようになります。 / 以下が翻訳です: a line about the
    translation, not one."""
    return _LEAD_IN.search(line) is not None


def _strip_quotes(line: str) -> str:
    for _ in range(2):
        if len(line) >= 2 and line[0] in _QUOTE_PAIRS and line.endswith(_QUOTE_PAIRS[line[0]]):
            inner = line[1:-1]
            if line[0] not in inner and _QUOTE_PAIRS[line[0]] not in inner:
                line = inner.strip()
                continue
        break
    return line


def _clean_line(line: str) -> tuple[str, bool]:
    """The line without markdown, label, quotes, readings and romaji; and whether it was
    labelled as the English source."""
    line = _EMPHASIS.sub("", line)
    line = _MARKDOWN_LEAD.sub("", line, count=1)
    label = _LABEL.match(line)
    if label is not None:
        if label.group(1).lower().strip("*") in _ENGLISH_LABELS:
            return "", True
        line = line[label.end() :]
    line = _strip_quotes(line.strip())
    line = _FURIGANA.sub("", line)
    line = _LATIN_PAREN.sub("", line)
    line = _INLINE_NOTE.sub("", line)
    line = _TRAILING_NOTE.sub("", line)
    if "訳" in line and "「" in line:
        quoted = [q for q in _QUOTED.findall(line) if japanese_enough(q)]
        if quoted:
            line = quoted[-1]
    return line.strip(), False


def extract(text: str) -> Extraction:
    """The renderings of a normalised model output (see the module docstring)."""
    if not text.strip():
        return Extraction((), "empty")
    wrapped = _json_strings(text)
    if wrapped is not None:
        text = wrapped
    renderings: list[str] = []
    refused = questioned = False
    for raw in text.splitlines():
        if _FENCE.match(raw) or not raw.strip():
            continue
        if _NOTE_LEAD.match(raw):
            break  # a note and everything after it is chatter
        line, echo = _clean_line(raw)
        if echo or not line:
            continue
        if not japanese_enough(line):
            continue  # English echo, romaji, Chinese, Korean, a heading
        if _REFUSAL.search(line):
            refused = True
            continue
        if line.endswith(("?", "か。")) or "?" in line:
            questioned = True
            continue
        if _is_lead_in(line):
            questioned = True
            continue
        renderings.append(line)
    if renderings:
        return Extraction(tuple(renderings), None)
    if refused:
        return Extraction((), "refusal")
    if questioned:
        return Extraction((), "not_a_translation")
    return Extraction((), "not_japanese")
