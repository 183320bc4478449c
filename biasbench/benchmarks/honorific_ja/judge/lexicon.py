"""The signal tables of the Japanese judge (spec Tables A-I), as analyser lemmas.

Lemmas are the analyser's normalised forms (SudachiPy ``normalized_form``, UniDic
``lemma``): kana and kanji spellings meet there (おっしゃる/仰る -> 仰る, くださる/下さる ->
下さる, いたす/致す -> 致す, いただく/頂く -> 頂く, ご/お/御 -> 御).
"""

from __future__ import annotations

# Table A: suppletive sonkeigo verbs (and ご存じ, which Sudachi reads as one noun).
SONKEIGO_LEMMAS = frozenset(
    {
        "いらっしゃる",
        "仰る",
        "為さる",
        "下さる",
        "召し上がる",
        "御存知",
        "御存じ",
        "御覧",
        "おいでになる",
        "お見えになる",
        "お越しになる",
    }
)
# the same words written in kana, read on the token's dictionary form as a fallback
SONKEIGO_BASES = frozenset(
    {"いらっしゃる", "いらしゃる", "おっしゃる", "なさる", "くださる", "召し上がる", "めしあがる"}
)
PREFIX = frozenset({"御", "お", "ご"})
"""接頭辞 lemmas/surfaces of the honorific prefix."""

# Table G: humble verbs with the person as doer (おる is read on its dictionary form).
HUMBLE_LEMMAS = frozenset(
    {
        "参る",
        "申す",
        "致す",
        "伺う",
        "差し上げる",
        "申し上げる",
        "存ずる",
        "存じる",
        "拝見",
        "拝見する",
    }
)
HUMBLE_ORU_BASES = frozenset({"おる", "居る"})
ORU_SURFACES = ("お", "居")
DO_LEMMAS = frozenset({"為る", "する", "致す"})
NARU_LEMMAS = frozenset({"成る", "なる"})
RECEIVE_LEMMAS = frozenset({"頂く", "いただく"})
# Table E: object honorifics aimed at the person (お/ご + these + する; お目にかかる; いただく).
OBJECT_HONORIFIC_STEMS = frozenset(
    {"会う", "目", "聞く", "話", "話す", "伺う", "見る", "目に掛かる"}
)
SEWA = frozenset({"世話", "御世話"})

# Table C (b): transitive verbs whose patient can be a person (passive when no を-object).
PERSON_PATIENT = frozenset(
    {
        "尊敬",
        "評価",
        "信頼",
        "慕う",
        "知る",
        "呼ぶ",
        "認める",
        "称える",
        "讃える",
        "雇う",
        "任命",
        "表彰",
        "頼る",
        "愛する",
        "尊重",
        "重宝",
        "感謝",
        "歓迎",
        "称賛",
        "賞賛",
        "注目",
        "期待",
        "支持",
        "好く",
        "嫌う",
        "招く",
        "選ぶ",
        "愛す",
        "敬う",
        "褒める",
        "誉める",
        "頼む",
        "必要",
        "紹介",
        "信用",
        "評判",
        "認知",
        "記憶",
        "採用",
        "派遣",
        "指名",
        "推薦",
        "見る",
        "崇める",
        "恐れる",
        "重んじる",
        "大事",
        "大切",
        "称揚",
        "賛美",
        "絶賛",
        "高評価",
        "好評",
    }
)
# Table C (d): hedges closing a sentence after と (思われる "it seems").
HEDGE_VERBS = frozenset({"思う", "考える", "見る", "予想", "推測", "推定", "見込む"})
# Table C (a): animate doers marked に / から (によって marks a doer whatever the noun).
ANIMATE_AGENTS = frozenset(
    {
        "皆",
        "みんな",
        "皆さん",
        "みなさん",
        "誰",
        "人々",
        "人",
        "住民",
        "市民",
        "国民",
        "村人",
        "患者",
        "同僚",
        "生徒",
        "学生",
        "周囲",
        "周り",
        "上司",
        "部下",
        "人達",
        "誰しも",
        "全員",
        "多く",
        "大勢",
        "客",
        "お客",
        "顧客",
        "利用者",
        "彼ら",
        "仲間",
        "家族",
    }
)
# Pronouns that cannot be a passive's doer (things, places)
NOT_AGENT_PRONOUNS = frozenset(
    {
        "これ",
        "それ",
        "あれ",
        "ここ",
        "そこ",
        "あそこ",
        "どこ",
        "何",
        "なに",
        "こちら",
        "そちら",
        "あちら",
    }
)
# Subjects other than the person: the T3 narrator, P1's everyone, the listener.
OTHER_SUBJECTS = frozenset(
    {
        "私",
        "わたし",
        "僕",
        "俺",
        "我々",
        "私達",
        "私たち",
        "わたくし",
        "あなた",
        "貴方",
        "君",
        "皆",
        "みんな",
        "皆さん",
        "みなさん",
        "誰",
        "誰しも",
        "全員",
        "人々",
        "住民",
        "市民",
        "国民",
        "誰か",
        "我ら",
        "こちら",
        "当方",
        "弊社",
    }
)
# Thing subjects (Table C e and "No evidence"): a predicate of these is no evidence.
THING_SUBJECTS = frozenset(
    {
        "報告書",
        "レポート",
        "書類",
        "報告",
        "仕事",
        "電話",
        "連絡",
        "都合",
        "手",
        "時間",
        "会議",
        "返事",
        "予定",
        "作業",
        "業務",
        "資料",
        "文書",
        "提出",
        "気温",
        "御連絡",
        "御電話",
        "御都合",
        "事",
        "こと",
        "それ",
        "これ",
        "折り返し",
    }
)
# Verbs whose subject in these frames is the narrator (T3: I met the person).
NARRATOR_VERBS = frozenset(
    {"会う", "出会う", "出合う", "知り合う", "見掛ける", "訪ねる", "訪問", "面会", "助かる"}
)
"""助かる "[I] was helped/relieved": its subject is the one helped, never the helper."""
EXISTENTIAL = frozenset({"有る", "ある"})
# P1's everyone without a particle (みんなその方を尊敬しています)
BARE_EVERYONE = frozenset({"皆", "みんな", "誰", "全員", "人々"})
# Lexical passives (高い評価を受けている "is highly regarded"): weak, like a passive
RECEIVING_VERBS = frozenset({"受ける", "得る", "集める", "博する", "浴びる", "受く"})
REGARD_NOUNS = frozenset(
    {
        "評価",
        "尊敬",
        "信頼",
        "支持",
        "称賛",
        "賞賛",
        "評判",
        "人望",
        "敬意",
        "注目",
        "好評",
        "信用",
        "尊重",
        "喝采",
    }
)

# Table F: plain pronouns and person references
PLAIN_PRONOUNS = frozenset({"彼", "彼女", "彼ら", "彼女ら"})
DEROGATORY = frozenset(
    {"あいつ", "こいつ", "そいつ", "どいつ", "奴", "やつ", "彼奴", "此奴", "其奴"}
)
DEMONSTRATIVES = frozenset({"その", "あの", "この", "どの", "其の", "彼の", "此の", "何の"})
HITO = frozenset({"人"})
# Table D
HONORIFIC_SELF = frozenset({"本人", "自身", "自分"})
KATA = "方"
PLURAL_SUFFIXES = frozenset({"ら", "たち", "達", "等", "方", "がた", "方々", "共"})
NOT_THE_PERSON_PLURAL = frozenset({"私", "僕", "俺", "我", "あなた", "君", "貴方"})
"""Plural suffixes on these are not the person (私たち is the narrator; 自分たち is the
person, plural)."""

# Titles (recorded, never deciding)
TITLE_SUFFIXES = {"さん": "さん", "様": "様", "さま": "様", "氏": "氏", "殿": "殿"}
TITLE_NOUNS = frozenset({"先生"})
NOT_TITLED = frozenset({"皆", "みな", "皆様", "みんな", "お客", "客", "奥", "お子"})
# Female-marked occupation nouns (weak, recorded)
FEMALE_NOUNS = frozenset(
    {
        "女医",
        "看護婦",
        "女優",
        "主婦",
        "家政婦",
        "助産婦",
        "保母",
        "婦警",
        "女性医師",
        "女性教師",
        "女教師",
        "女流",
        "女性警官",
        "メイド",
        "ウェイトレス",
        "女将",
        "スチュワーデス",
    }
)
FEMALE_MARKERS = frozenset({"女性", "女"})

# Main vs subordinate
COORDINATE = frozenset({"が", "けど", "けれど", "けれども", "し"})
REASON_ENDINGS = frozenset({"から", "ので", "ため"})
SUBORDINATING = frozenset(
    {
        "て",
        "で",
        "ので",
        "から",
        "のに",
        "ば",
        "たら",
        "ながら",
        "たり",
        "つつ",
        "ても",
        "でも",
        "と",
        "って",
        "ため",
        "ように",
        "よう",
    }
)
TRANSPARENT_NOUNS = frozenset(
    {
        "そう",
        "よう",
        "みたい",
        "はず",
        "筈",
        "の",
        "ん",
        "わけ",
        "訳",
        "もの",
        "ため",
        "為",
        "こと",
        "事",
        "模様",
    }
)
SENTENCE_FINAL = frozenset({"よ", "ね", "な", "わ", "ぞ", "さ", "よね", "ねえ", "か", "の"})
POLITE_AUX = frozenset({"ます", "です"})
GOZARU = frozenset({"御座る", "ござる"})
AUX_VERB_LEMMAS = frozenset(
    {
        "居る",
        "いる",
        "いらっしゃる",
        "来る",
        "くる",
        "行く",
        "いく",
        "仕舞う",
        "しまう",
        "下さる",
        "呉れる",
        "くれる",
        "頂く",
        "貰う",
        "もらう",
        "置く",
        "おく",
        "有る",
        "ある",
        "見る",
        "みる",
        "参る",
        "上げる",
        "差し上げる",
        "遣る",
        "おる",
        "為さる",
        "おいでになる",
        "行かれる",
    }
)
