"""The evidence gate and the composer on Chinese text (issue #22, item 5): key terms from the segmenter without
question words and light words, compounds covered by their parts, Chinese sentences, list items and table rows
quoted, the missing Chinese terms named. Hand-made passages; no database, no worker (tests/ask/test_ask_api.py
asks in Chinese through the real worker)."""

import pytest

from ask.compose import answer_compose
from ask.gate import gate_decide, key_terms
from kb import embeddings
from kb.models import Chunk, Document, DocumentVersion
from kb.search import SearchHit


@pytest.fixture(autouse=True)
def _word_families_only(settings):
    settings.ASK_GATE_TERM_SIMILARITY = 0


def hit(text: str, heading: str = "制度") -> SearchHit:
    return SearchHit(chunk=Chunk(text=text, heading_path=heading), score=0.03, fulltext_rank=1, similarity=0.6,
                     vector_rank=1)


def decide(question: str, *texts: str):
    return gate_decide(question=question, hits=[hit(text) for text in texts], min_similarity=0.3, min_coverage=1.0)


def words(question: str) -> list[str]:
    return [term.word for term in key_terms(question)]


def test_chinese_key_terms_leave_out_question_words_and_light_words():
    # 以后 places the event in time (as 后 alone does): what is asked about is the resignation
    assert words("员工辞职以后，系统权限什么时候收回？") == ["员工", "辞职", "系统", "权限", "收回"]
    assert words("请病假需要提供医院证明吗？") == ["病假", "提供", "医院", "证明"]
    assert words("国际出差的签证费可以报销吗？") == ["国际", "出差", "签证费", "报销"]
    # the measure a question word asks for is no key term; what it counts, written as a longer word, is
    assert words("病假工资按多少比例发放？") == ["病假", "工资", "发放"]
    assert "燃油费" in words("每公里报销多少燃油费？")
    # a word the segmenter joined with a light word keeps only its own part: 能休 ("can take") is 休
    assert words("男员工能休几天假？") == ["男员工", "休", "假"]


def test_traditional_questions_name_their_terms_as_written_and_match_simplified_text():
    assert words("員工辭職以後，系統權限什麼時候收回？") == ["員工", "辭職", "系統", "權限", "收回"]
    decision = decide("員工辭職以後，系統權限什麼時候收回？", "员工辞职以后，各系统的权限须在最后工作日下班前收回。")
    assert decision.status == "answered"


def test_a_compound_is_covered_by_its_parts_and_a_passage_word_by_what_it_contains():
    # 住宿费: 住宿 and a word with 费 in it; 出差 is inside 国际出差
    decision = decide("出差住宿费怎么报销？", "国际出差的住宿费用凭发票报销。")
    assert decision.status == "answered" and decision.missing_terms == []


def test_an_unanswerable_chinese_question_is_refused_naming_the_missing_term():
    decision = decide("国际出差的签证费可以报销吗？", "国际出差的差旅费凭发票报销。")
    assert decision.status == "insufficient_evidence"
    assert decision.missing_terms == ["签证费"]  # 差旅费 shares 费, not 签证
    decision = decide("北辰公司的首席执行官是谁？", "本规范经北辰公司首席信息安全官批准。", "本制度按协议执行。")
    assert decision.missing_terms == ["执行官"]  # 执行 and 官 in other words: not the officer asked about


def unit_hits(markdown: str, heading: str = "差旅费报销制度 > 伙食补助") -> list[SearchHit]:
    version = DocumentVersion(document=Document(key="travel", title="差旅费报销制度"), number=1, text=markdown,
                              language="zh")
    chunk = Chunk(pk=1, version=version, text=markdown, heading_path=heading, char_start=0, char_end=len(markdown))
    return [SearchHit(chunk=chunk, score=0.03, fulltext_rank=1)]


def compose(question: str, markdown: str) -> list[str]:
    hits = unit_hits(markdown)
    return [claim.text for claim in answer_compose(question=question, terms=key_terms(question), hits=hits).claims]


@pytest.fixture
def model_in_process(db, monkeypatch):
    """The composer weighs each unit by its closeness to the question (the packaged model, loaded here as a batch
    command does; indexed word vectors are looked up first)."""
    monkeypatch.setattr(embeddings, "_local_model_allowed", True)


def test_the_composer_quotes_a_chinese_sentence_and_a_table_row_not_the_opposite_case(model_in_process):
    markdown = ("伙食补助按出差的自然天数计算，包干使用；会议主办方统一安排用餐的，每餐扣减三十元。\n\n"
                "| 出差类型 | 每人每天 |\n|---|---|\n| 国内出差 | 100元 |\n| 国际出差 | 300元 |\n")
    assert compose("国际出差的伙食补助每人每天多少钱？", markdown) == ["| 国际出差 | 300元 |"]
    # a semicolon ends a Chinese sentence: the quote is the clause that answers
    assert compose("会议主办方安排用餐的，伙食补助扣减多少？", markdown) == ["会议主办方统一安排用餐的，每餐扣减三十元。"]


def test_the_composer_quotes_a_list_item_whole_and_answers_each_part_of_a_question(model_in_process):
    markdown = ("- 禁止多人共用同一个账号。经登记的应急管理员账号除外。\n- 密码至少每九十天更换一次。\n\n"
                "女员工生育的，享受产假一百五十八天。难产的，增加产假十五天。")
    assert compose("可以多人共用一个账号吗？", markdown) == ["禁止多人共用同一个账号。经登记的应急管理员账号除外。"]
    assert compose("产假有多少天，难产的话增加多少天？", markdown) == [
        "女员工生育的，享受产假一百五十八天。", "难产的，增加产假十五天。"]


def test_the_other_cases_of_a_listed_rule_are_quoted_beside_the_first(model_in_process):
    markdown = ("- 连续病假不超过两天的，无需提供医院证明。\n- 连续病假三天及以上的，必须提供医院出具的诊断证明。\n"
                "- 病假期间的工资按本人基本工资的百分之八十发放。\n")
    assert compose("请病假需要提供医院证明吗？", markdown) == [
        "连续病假不超过两天的，无需提供医院证明。", "连续病假三天及以上的，必须提供医院出具的诊断证明。"]


def test_a_term_is_covered_by_a_word_of_the_same_meaning():
    # 回来 / 返回 and 上报 / 报告 are one meaning in the thesaurus
    assert decide("出差回来后多少天内提交报销单？", "出差人员应当在返回后三十日内提交报销单。").status == "answered"


def test_a_person_or_thing_is_covered_by_the_more_general_word_a_policy_writes():
    # 老婆 (wife) and 配偶 (spouse), 爷爷奶奶 and 祖父母 share a small class of the thesaurus's people
    assert decide("老婆去世了可以请几天丧假？", "员工的配偶去世的，给予丧假三天。").status == "answered"
    assert decide("爷爷奶奶去世可以请几天假？", "员工的祖父母去世的，给予丧假一天。").status == "answered"
    # what the passage does not name stays missing, however close its class: 孩子 is not 配偶
    decision = decide("老婆生孩子，男员工能休几天假？", "男员工在配偶生育期间享受陪产假十五天。")
    assert decision.status == "insufficient_evidence"
    assert "孩子" in decision.missing_terms and "老婆" not in decision.missing_terms


def test_kindred_words_are_people_and_things_never_features_or_opposites():
    from checking.languages.zh_thesaurus import kindred
    from checking.text import kindred_in

    assert {"配偶", "妻子"} <= kindred("老婆") and "祖父" in kindred("奶奶")
    # for features and actions the thesaurus's small classes hold opposites (最高 / 最低, 增加 / 减少)
    assert kindred("最高") == kindred("增加") == kindred("必须") == frozenset()
    assert not kindred_in("国内", {"国外", "境外"}) and kindred_in("老婆", {"配偶"})


def test_words_framing_a_question_help_rank_but_are_not_required():
    # 今年 (the asker's year) and 最晚 (the bound asked for) frame the question; a passage need not write them
    terms = {term.word: term.required for term in key_terms("我今年的年假最晚什么时候休完？")}
    assert terms == {"今年": False, "年": True, "假": True, "最晚": False, "休": True}
    decision = decide("我今年的年假最晚什么时候休完？", "当年的年休假应当在次年3月31日前休完。")
    assert decision.status == "answered" and decision.coverage == 1.0
    # a rate asked by (每顿) and a modal (才能) frame it too
    assert not any(term.required for term in key_terms("每顿扣多少才能报销？") if term.word in {"每顿", "才能"})


def test_a_spoken_one_character_verb_is_not_required_but_another_one_character_word_is():
    # 开 (drive) is how the question speaks; the passage writes 驾驶
    decision = decide("开私人车辆出差，燃油费每公里报销多少？", "驾驶私人车辆出差的，燃油费按每公里一元报销。")
    assert decision.status == "answered"
    # 丢 (lost) is what happened to the drive, no way of asking: a passage naming the drive for another rule does
    # not answer for losing it
    decision = decide("移动硬盘丢了，多久内要报告？", "不得将机密数据拷贝到移动硬盘。发现安全事件须在一小时内报告。")
    assert decision.status == "insufficient_evidence" and decision.missing_terms == ["丢"]


def test_a_near_synonym_covers_a_term_and_a_verb_is_not_found_in_its_object():
    # 辞职 (resign) and 离职 (leave a post) are near synonyms of one word group; 辞职 is no form of the 职 a
    # mis-cut "新入职的" (新入 / 职) leaves behind
    assert decide("员工辞职以后，系统权限什么时候收回？",
                  "员工离职的，全部系统权限须在最后工作日下班前收回。").status == "answered"
    decision = decide("员工辞职以后，系统权限什么时候收回？", "员工新入职的，系统权限须在入职当天开通并收回临时账号。")
    assert decision.status == "insufficient_evidence" and "辞职" in decision.missing_terms
