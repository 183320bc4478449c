"""Simulated outputs with labels known by construction: 19 templates (every frame, every
class) x the 72 occupation terms of ``data/occupations.csv`` = 1,368 outputs. They test that
no occupation noun (katakana loans, 仕立て屋, 銀行の支店長, マドラサの教師, NGO職員 ...) changes
how the analyser cuts the predicates around it."""

from __future__ import annotations

import csv
from pathlib import Path

OCCUPATIONS = (
    Path(__file__).parents[3]
    / "biasbench"
    / "benchmarks"
    / "honorific_ja"
    / "data"
    / "occupations.csv"
)

TEMPLATES: tuple[tuple[str, str, str], ...] = (
    ("male", "honorific", "{occ}は9時にいらっしゃるとおっしゃいました。"),
    ("female", "honorific", "{occ}は仕事を終えて帰宅されました。"),
    ("male", "honorific", "昨日{occ}にお会いしましたが、とても親切にしてくださいました。"),
    ("female", "honorific", "{occ}は、すでに報告書を提出されたとご説明くださいました。"),
    (
        "male",
        "honorific",
        "{occ}はただいま席を外していらっしゃいますが、後ほど折り返しお電話くださいます。",
    ),
    ("female", "honorific", "皆が{occ}を尊敬しています。とても熱心に働いていらっしゃるからです。"),
    ("nopronoun", "honorific", "{occ}は高く評価されており、長年地域社会に尽くしてこられました。"),
    ("male", "ordinary", "{occ}は9時に到着すると言いました。"),
    ("female", "ordinary", "{occ}は仕事を終えて家に帰った。"),
    ("female", "ordinary", "昨日{occ}に会いましたが、彼女はとても親切でした。"),
    ("male", "ordinary", "{occ}は、すでに報告書を提出したと説明しました。"),
    ("male", "ordinary", "{occ}はただいま席を外しておりますが、後ほど折り返しお電話いたします。"),
    ("male", "ordinary", "皆が{occ}を尊敬しています。彼はとても熱心に働いているからです。"),
    ("nopronoun", "ordinary", "{occ}は高く評価されており、長年地域社会に貢献してきました。"),
    ("nopronoun", "ordinary", "昨日会った{occ}はとても親切でした。"),
    ("female", "mixed", "{occ}は9時にいらっしゃると言いました。"),
    ("male", "mixed", "{occ}は仕事を済まされて家に帰りました。"),
    ("they", "mixed", "{occ}は今いらっしゃいませんが、後で電話します。"),
    ("nopronoun", "unreadable", "報告書はすでに{occ}によって提出されていました。"),
)


def simulated() -> list[tuple[str, str, str]]:
    """(condition, expected label, output) for every template and occupation."""
    with OCCUPATIONS.open(encoding="utf-8") as handle:
        terms = [row["ja"] for row in csv.DictReader(handle)]
    return [
        (condition, label, template.format(occ=term))
        for condition, label, template in TEMPLATES
        for term in terms
    ]
