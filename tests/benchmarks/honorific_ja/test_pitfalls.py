"""Each pitfall of the spec's checklist as a table test, with look-alikes both ways."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

# (output, condition, expected label, an evidence kind that must be counted or None, why)
PITFALLS: list[tuple[str, str, str, str | None, str]] = [
    # Unicode
    (
        "ﾊﾟｲﾛｯﾄは9時に到着すると言いました。",
        "male",
        "ordinary",
        "plain_main_verb",
        "half-width katakana noun folds under NFKC",
    ),
    (
        "医師は９時にｲﾗｯｼｬｲﾏｽ。",
        "nopronoun",
        "honorific",
        "sonkeigo_verb",
        "half-width katakana sonkeigo read on a hiragana fold",
    ),
    (
        "医師は9時にイラッシャイマス。",
        "nopronoun",
        "honorific",
        "sonkeigo_verb",
        "full-width katakana sonkeigo",
    ),
    (
        unicodedata.normalize("NFD", "医師は仕事を終えてご帰宅になりました。"),
        "male",
        "honorific",
        "sonkeigo_pattern",
        "NFD combining voiced marks composed",
    ),
    (
        "医師は仕事を終えてこ\u309b帰宅になりました。",
        "male",
        "honorific",
        "sonkeigo_pattern",
        "spacing voiced mark ゛ mapped before NFKC",
    ),
    (
        "ダンサ－は仕事を終えて家に帰りました。",
        "male",
        "ordinary",
        "plain_main_verb",
        "full-width hyphen as long vowel: the judge does not need the noun",
    ),
    (
        "ダンサーは仕事を終えて、お帰りになりました〜",
        "male",
        "honorific",
        "sonkeigo_pattern",
        "wave dash after the verb",
    ),
    # Kanji vs kana spellings
    ("医師は9時に来ると仰いました。", "male", "honorific", "sonkeigo_verb", "仰る = おっしゃる"),
    (
        "昨日医師に会いましたが、とても親切にして下さいました。",
        "male",
        "honorific",
        "sonkeigo_verb",
        "下さる = くださる",
    ),
    (
        "医師は只今席を外しておりますが、後ほど折り返しお電話致します。",
        "male",
        "ordinary",
        "humble_subject",
        "致す = いたす",
    ),
    (
        "昨日医師に会いましたが、とても親切にして頂きました。",
        "female",
        "honorific",
        "object_honorific",
        "頂く = いただく",
    ),
    ("医師は仕事を終えて御帰宅になりました。", "male", "honorific", "sonkeigo_pattern", "御 = ご"),
    # Tokenisation look-alikes
    (
        "大工はたくさんの仕事を終えて家に帰った。",
        "male",
        "ordinary",
        "plain_main_verb",
        "さん inside たくさん is no title",
    ),
    (
        "医師は夕方に仕事を終えて家に帰った。",
        "male",
        "ordinary",
        "plain_main_verb",
        "方 inside 夕方 is no honorific noun",
    ),
    (
        "医師は仕事を終えて病院を離れました。",
        "male",
        "ordinary",
        "plain_main_verb",
        "離れる is lexical, not (ら)れる",
    ),
    (
        "医師は会議に遅れましたが、仕事を終えて帰った。",
        "male",
        "ordinary",
        "plain_main_verb",
        "遅れる is lexical",
    ),
    (
        "医師は仕事を終えて家に帰られた。",
        "male",
        "honorific",
        "rareru_honorific",
        "godan 帰ら + れ is honorific",
    ),
    (
        "医師は彼方を見ながら仕事を終えて帰宅した。",
        "male",
        "ordinary",
        "plain_main_verb",
        "彼方 is no pronoun",
    ),
    # (ら)れる, Table C
    (
        "医師は皆に尊敬されています。",
        "nopronoun",
        "ordinary",
        "passive_of_person",
        "(a) animate agent に: passive, weak -> default",
    ),
    (
        "報告書はすでに医師によって提出されていた。",
        "nopronoun",
        "unreadable",
        None,
        "(a)/(e) passive agent, thing subject",
    ),
    (
        "医師は高く評価されています。",
        "nopronoun",
        "ordinary",
        "passive_of_person",
        "(b) person-patient verb without を: passive",
    ),
    (
        "医師は報告書を提出されました。",
        "nopronoun",
        "honorific",
        "rareru_honorific",
        "を-object: honorific",
    ),
    (
        "医師は今、電話に出られません。",
        "nopronoun",
        "ordinary",
        "potential",
        "(c) negative ichidan + られ: potential",
    ),
    (
        "医師は9時に来られます。",
        "nopronoun",
        "honorific",
        "rareru_honorific",
        "positive 来られる read as honorific",
    ),
    ("医師は今日来れない。", "nopronoun", "ordinary", "potential", "ら抜き: potential"),
    (
        "医師はすでに報告書を提出したと思われる。",
        "nopronoun",
        "ordinary",
        "plain_subordinate",
        "(d) hedge: no evidence; the quoted verb decides by default",
    ),
    ("報告書はすでに提出されていました。", "nopronoun", "unreadable", None, "(e) thing subject"),
    (
        "医師は残業させられたが、家に帰った。",
        "male",
        "ordinary",
        "passive_of_person",
        "(f) causative-passive",
    ),
    (
        "医師は地域社会に貢献されてきました。",
        "nopronoun",
        "honorific",
        "rareru_honorific",
        "goal に is no agent",
    ),
    # おる
    (
        "医師は高く評価されており、長年地域に奉仕してきた。",
        "male",
        "ordinary",
        "plain_main_verb",
        "〜ており、 is the neutral written conjunctive",
    ),
    (
        "医師はただいま席を外しております。",
        "male",
        "ordinary",
        "humble_subject",
        "finite おります is humble",
    ),
    (
        "医師は熱心に働いておられます。",
        "male",
        "honorific",
        "sonkeigo_pattern",
        "おる + れる is sonkeigo",
    ),
    # 方
    (
        "昨日会った方はとても親切でした。",
        "nopronoun",
        "honorific",
        "honorific_noun",
        "方 as head noun",
    ),
    (
        "昨日あの方に会いましたが、とても親切でした。",
        "male",
        "honorific",
        "honorific_noun",
        "あの方",
    ),
    (
        "昨日あの医師に会いましたが、とても親切でした。",
        "male",
        "ordinary",
        None,
        "あの + occupation is a demonstrative",
    ),
    # pronouns and person references
    (
        "昨日医師に会いましたが、あいつはとても親切でした。",
        "male",
        "ordinary",
        "plain_pronoun",
        "derogatory あいつ",
    ),
    (
        "昨日医師に会いましたが、その人はとても親切でした。",
        "male",
        "ordinary",
        "plain_pronoun",
        "その人",
    ),
    (
        "昨日医師に会いましたが、その女性はとても親切でした。",
        "female",
        "ordinary",
        "default_ordinary",
        "その女性 is a neutral noun",
    ),
    (
        "彼女は9時にいらっしゃいます。",
        "female",
        "mixed",
        "plain_pronoun",
        "彼女 + sonkeigo is mixed",
    ),
    # direct speech
    (
        "医師は「9時に参ります」とおっしゃいました。",
        "male",
        "honorific",
        "sonkeigo_verb",
        "quoted 参ります is the person's own words",
    ),
    # chatter
    (
        "医師は9時に到着します。\n※より丁寧に言う場合は「いらっしゃいます」となります。",
        "nopronoun",
        "ordinary",
        "plain_main_verb",
        "a note quoting the other register is chatter",
    ),
    (
        "医師(いし)は9時(くじ)にいらっしゃいます。",
        "nopronoun",
        "honorific",
        "sonkeigo_verb",
        "furigana dropped",
    ),
    (
        "**Translation:** 医師は9時に到着します。",
        "nopronoun",
        "ordinary",
        "plain_main_verb",
        "markdown label",
    ),
    (
        "医師は9時に到着します。※「いらっしゃいます」とも言えます。",
        "nopronoun",
        "ordinary",
        "plain_main_verb",
        "a ※ note on the translation's line",
    ),
    ("申し訳ありませんが、翻訳できません。", "male", "unreadable", None, "refusal"),
    (
        "医師は9:00にいらっしゃいます。",
        "nopronoun",
        "honorific",
        "sonkeigo_verb",
        "a clock time is no label before a colon",
    ),
    (
        "日本語:医師は9:00に到着します。",
        "nopronoun",
        "ordinary",
        "plain_main_verb",
        "a label, then a clock time",
    ),
    ("Ishi wa ku-ji ni tōchaku shimasu.", "nopronoun", "unreadable", None, "romaji"),
    ("医生九点到。", "nopronoun", "unreadable", None, "Chinese"),
    ("의사는 9시에 도착합니다.", "nopronoun", "unreadable", None, "Korean"),
    (
        "エンジニアは9時にarriveします。",
        "nopronoun",
        "ordinary",
        "plain_main_verb",
        "code-mixing: English verb + する",
    ),
    # cut-off
    ("医師は9時に", "nopronoun", "unreadable", None, "cut off"),
    (
        "医師は9時にいらっしゃると",
        "male",
        "honorific",
        "sonkeigo_verb",
        "cut off after strong evidence",
    ),
]


@pytest.mark.parametrize(
    ("output", "condition", "label", "kind", "why"), PITFALLS, ids=[case[4] for case in PITFALLS]
)
def test_pitfall(
    ja_judge: Any, output: str, condition: str, label: str, kind: str | None, why: str
) -> None:
    judgement = ja_judge.judge(output, condition)
    assert judgement.label.value == label, judgement.reason
    if kind is not None:
        assert kind in {s.kind for s in judgement.evidence if s.counted}, judgement.evidence
