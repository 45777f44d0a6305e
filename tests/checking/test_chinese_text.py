"""Simplified Chinese through the language layer: words, numerals with their units, Traditional folded, sentences."""

import pytest

from checking.languages import detect_language, language_for
from checking.text import words_as_written

CHINESE = language_for("zh")


def _quantities(text: str) -> list[tuple[str, object, str]]:
    return [(q.kind, q.value, text[q.start:q.end]) for q in CHINESE.quantities(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("报销时限为三天", ("duration:s", 3 * 86400, "三天")),
    ("伙食补助每天两千元", ("money:CNY", 2000, "两千元")),
    ("上浮百分之五", ("percent", 5, "百分之五")),
    ("上浮5%", ("percent", 5, "5%")),
    ("年度预算1.5万元", ("money:CNY", 15000, "1.5万元")),
    ("住宿标准三千五百元", ("money:CNY", 3500, "三千五百元")),
    ("审批需要两周", ("duration:s", 14 * 86400, "两周")),
    ("项目总额2.5亿元", ("money:CNY", 250_000_000, "2.5亿元")),
    ("每晚500元", ("money:CNY", 500, "500元")),
    ("试用期三个月", ("duration:mo", 3, "三个月")),
    ("密码至少12个字符", ("count:个字符", 12, "12个字符")),
    ("年假十五天", ("duration:s", 15 * 86400, "十五天")),
    ("每月报销2,000元", ("money:CNY", 2000, "2,000元")),
    ("按基本工资的百分之百发放", ("percent", 100, "百分之百")),
])
def test_numerals_are_read_with_their_unit_and_span(text, expected):
    assert expected in _quantities(text)


def test_the_same_value_written_two_ways_is_the_same_quantity():
    [written_out] = CHINESE.quantities("一万五千元")
    [digits] = CHINESE.quantities("15000元")
    [in_wan] = CHINESE.quantities("1.5万元")
    assert written_out.same_as(digits) and digits.same_as(in_wan)
    [days] = CHINESE.quantities("十四天")
    [weeks] = CHINESE.quantities("两周")
    assert days.same_as(weeks)  # both are seconds
    assert not days.same_as(CHINESE.quantities("十四个工作日")[0])  # working days are not days


def test_dates_are_read_as_dates_and_a_year_is_no_duration():
    assert ("date", (2025, 1, 1), "2025年1月1日") in _quantities("本制度自2025年1月1日起施行")
    assert ("date", (2025, 3, None), "二〇二五年三月") in _quantities("二〇二五年三月修订")
    assert _quantities("2024年起") == [("date", (2024, None, None), "2024年")]
    assert ("duration:mo", 36, "3年") in _quantities("工龄满3年")


def test_words_that_contain_a_numeral_character_are_no_numbers():
    assert _quantities("员工应一起参加培训，一般情况下不得延期") == []


def test_words_come_from_the_segmenter_with_offsets_into_the_text_as_written():
    text = "员工出差住宿标准为每晚五百元，超过标准需部门经理审批。"
    words = CHINESE.words(text)
    assert [w.text for w in words][:4] == ["员工", "出差", "住宿", "标准"]
    assert all(text[w.start:w.end] == w.text for w in words)
    assert "部门经理" in {w.text for w in words}
    assert "，" not in {w.text for w in words}


def test_the_knowledge_bases_own_terms_are_never_cut_apart():
    text = "请通过南山智汇报销通提交申请"
    assert "南山智汇报销通" not in {w.text for w in CHINESE.words(text)}

    CHINESE.terms_add(["南山智汇报销通"])

    assert "南山智汇报销通" in {w.text for w in CHINESE.words(text)}


def test_traditional_characters_match_their_simplified_forms_at_the_same_offsets():
    traditional = "員工出差報銷須經審批"
    assert CHINESE.fold(traditional) == "员工出差报销须经审批"
    keys = {w.key for w in CHINESE.words(traditional)}
    assert {"员工", "报销"} <= keys
    assert all(traditional[w.start:w.end] == w.text for w in CHINESE.words(traditional))


def test_sentences_end_at_full_stops_question_marks_and_semicolons():
    text = "年假为十天。病假需提供证明；婚假为三天！是否可以调休？可以"
    spans = CHINESE.sentences(text)
    assert [text[s:e] for s, e in spans] == ["年假为十天。", "病假需提供证明；", "婚假为三天！", "是否可以调休？", "可以"]


def test_the_cue_words_the_rules_read():
    assert {"不得", "禁止", "无需", "没有"} <= CHINESE.negation_cues
    assert CHINESE.direction_pairs["上调"] == "下调" and CHINESE.direction_pairs["不超过"] == "不少于"
    assert "审批人" in CHINESE.antonyms["申请人"] and "国际" in CHINESE.antonyms["国内"]


@pytest.mark.parametrize(("text", "language"), [
    ("员工出差住宿标准为每晚五百元。", "zh"),
    ("The nightly hotel cap is $220 in London.", "en"),
    ("请使用 VPN 连接公司内网，密码至少 12 位。", "zh"),
    ("Our office in 北京 opens at 9 a.m. on weekdays and closes at 6 p.m.", "en"),
    ("", "en"),
])
def test_the_language_of_a_text_is_detected(text, language):
    assert detect_language(text) == language


def test_english_behind_the_same_interface():
    english = language_for("en")
    text = "The hotel cap is $220 per night. How much is it?"
    assert [text[s:e] for s, e in english.sentences(text)] == ["The hotel cap is $220 per night.", "How much is it?"]
    assert ("money:USD", 220.0) in {(q.kind, q.value) for q in english.quantities(text)}
    # the word after "how" asks for a degree; a content word is a term whole
    assert english.question_term("long", "how") is None and english.question_term("hotel", "the").end == 5


def test_a_documents_own_terms_are_its_bold_text_quoted_names_and_short_table_cells():
    markdown = ("# 差旅制度\n\n出差须通过**北辰云差旅平台**预订，并遵守《差旅费管理办法》。\n\n"
                "| 城市类别 | 住宿标准 |\n|---|---|\n| 一线城市 | 500元 |\n| 其他城市 | 350元 |\n")

    terms = CHINESE.document_terms(markdown)

    assert {"北辰云差旅平台", "差旅费管理办法", "城市类别", "住宿标准", "一线城市", "其他城市"} <= set(terms)
    assert "500元" not in terms and "---" not in terms


def test_a_one_character_word_and_the_word_it_heads_are_one_family():
    from checking.languages.zh import one_word_family

    assert one_word_family("坐", "乘坐") and one_word_family("必须", "须") and one_word_family("买", "购买")
    # cue words keep their own meaning: 不 is no form of 并不, 前 none of 提前, nor 次 (a counter) of 每次
    assert not one_word_family("不", "并不") and not one_word_family("前", "提前") and not one_word_family("次", "每次")
    assert not one_word_family("年", "每年") and not one_word_family("天", "每天")
    assert not one_word_family("坐", "坐下来") and not one_word_family("sit", "sitting")
    # a verb ending in its object is another word than the object: 辞职 "resign" is no form of 职 "post"
    assert not one_word_family("职", "辞职")


def test_words_of_one_meaning_come_from_the_thesaurus():
    from checking.languages.zh_thesaurus import synonyms
    from checking.text import synonym_in

    assert "返回" in synonyms("回来") and "报告" in synonyms("上报") and "子女" in synonyms("孩子")
    assert synonym_in("上报", {"必须", "报告", "服务台"}) and not synonym_in("上报", {"必须", "服务台"})
    # a word of several meanings is a synonym of each (报告 the verb 上报, and the noun 呈文), not one form
    assert {"上报", "呈文"} <= synonyms("报告") and "呈文" not in synonyms("上报")
    # only related ("#": 同姓, 同乡, 同行), single characters (过, 超), roles and question words take no part
    assert "同乡" not in synonyms("同行") and synonyms("偷") == frozenset() and "超" not in synonyms("超出")
    assert synonyms("经理") == frozenset() and synonyms("多少") == frozenset()
    assert not synonym_in("申请", {"审批"}) and not synonym_in("白天", {"夜间", "列车"})


def test_near_synonyms_of_one_word_group_are_synonyms():
    """The thesaurus's fifth level parts 辞职 (resign) from 离职 (leave a post); its fourth-level group joins them,
    as a question and a policy use them. Groups of another class stay apart (入职 is joining)."""
    from checking.languages.zh_thesaurus import synonyms

    assert "离职" in synonyms("辞职") and "辞职" in synonyms("离职") and "入职" not in synonyms("辞职")


@pytest.mark.parametrize(("word", "place"), [("第一季度", 1), ("第二季度", 2), ("三季度", 3), ("第三天", 3), ("第12条", 12),
                                              ("季度", None), ("统一", None)])
def test_an_ordinal_names_its_place(word, place):
    from checking.languages.zh_numbers import ordinal_value

    assert ordinal_value(word) == place


def test_a_quarter_without_a_counter_is_a_place_and_with_one_a_duration():
    from checking.analysis import analyze_candidate

    def read(text):
        return [(q.kind, q.value) for unit in analyze_candidate(text).units for q in unit.quantities]

    assert ("ordinal", 1) in read("从2025年一季度开始执行。")
    assert ("duration:mo", 9.0) in read("三个季度内完成。")


def test_a_count_is_shown_with_its_counter():
    """Reasons name a Chinese count as it is written, 十二位 rather than 十二, as an English one names what it counts
    ("10 failed sign-in attempts"); the value compared is the number."""
    from checking.quantities import find_quantities
    from checking.text import tokenize

    def read(text):
        return [(q.kind, q.value, q.surface) for q in find_quantities(text, tokenize(text, 0, len(text), table=False))]

    assert read("密码长度至少要十二位，并且必须包含三类字符。") == [("count", 12.0, "十二位")]
    assert read("连续输错密码五次") == [("count", 5.0, "五次")]
    assert read("每晚不超过五百元") == [("money:CNY", 500.0, "五百元")]


@pytest.mark.parametrize(("words", "shown"), [
    (["must", "include"], "must include"),
    (["必须", "包含"], "必须包含"),
    (["Mac", "电脑", "使用", "BitLocker"], "Mac电脑使用BitLocker"),
    (["VPN", "and", "Wi-Fi"], "VPN and Wi-Fi"),
])
def test_words_are_shown_with_spaces_only_where_their_script_writes_them(words, shown):
    assert words_as_written(words) == shown
