"""The vocabulary (kb/vocabulary.py and its page): candidates counted once per confirmed claim with their examples,
accepted, dismissed, added and removed by curators and approvers only, each audited; the auto-accept setting;
pairs and examples above a person's clearance out of sight; and an accepted pair counting in the checker at once."""

import pytest
from django.test import Client

from console.models import AuditEvent
from kb import vocabulary
from kb.models import Synonym, SynonymConfirmation
from checking.vocabulary import vocabulary_refresh
from review.pipeline import answer_check

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("vocabulary_forgotten")]

TAXI = "Staff on business trips may take a taxi to the airport."
CAB = "Staff on business trips may take a cab to the airport."


def learn(reviewer, *, claim_id: int, pairs=(("cab", "taxi"),), level: str = "internal", language: str = "en",
          claim_text: str = CAB, evidence_text: str = TAXI) -> list[Synonym]:
    return vocabulary.synonym_candidates_record(
        language=language, pairs=pairs, reviewer=reviewer, answer_id=1000 + claim_id, claim_id=claim_id,
        claim_text=claim_text, evidence_text=evidence_text, security_level=level)


def audit_verbs(synonym: Synonym) -> list[str]:
    return list(AuditEvent.objects.filter(object_type="kb.synonym", object_id=str(synonym.pk))
                .order_by("created_at", "pk").values_list("verb", flat=True))


def verdict_of(claim: str, evidence: str) -> str:
    report = answer_check(question="", answer_text=claim, clearance="internal", contexts=[evidence], retrieve=False,
                          language="en", reviewed_facts=False)
    return report.claims[0].verdict


# Candidates


def test_a_confirmed_claim_counts_once_with_its_example(reviewer, second_reviewer):
    [synonym] = learn(reviewer, claim_id=1)
    learn(reviewer, claim_id=1)  # the same claim again (a decision recorded twice) counts once
    learn(second_reviewer, claim_id=2, pairs=[("Cabs", "Taxi")], claim_text="Cabs are fine.",
          evidence_text="Taxis are fine.")  # inflected, other case: the same pair
    learn(reviewer, claim_id=3, pairs=[("taxi", "cab")])  # the other way round: the same pair

    synonym.refresh_from_db()
    assert (synonym.words, synonym.other_words, synonym.state, synonym.source) == ("cab", "taxi", "candidate", "review")
    assert Synonym.objects.count() == 1 and synonym.confirmations.count() == 3
    [candidate], [] = vocabulary.vocabulary_lists(user=reviewer)
    assert candidate.count == 3 and sorted(candidate.reviewer_names) == ["rita", "rob"]
    assert [e.claim_text for e in candidate.examples] == [CAB, "Cabs are fine.", CAB]
    assert candidate.examples[1].evidence_text == "Taxis are fine."
    assert audit_verbs(synonym) == []  # a candidate is no decision yet


def test_no_candidate_from_words_that_are_the_same_or_say_nothing(reviewer):
    assert learn(reviewer, claim_id=1, pairs=[("refunds", "Refund"), ("the", "taxi"), ("", "taxi"),
                                                ("staff", "employee"), ("two three four five six", "taxi")]) == []
    assert not Synonym.objects.exists()


def test_a_pair_learned_from_a_confidential_text_is_for_those_cleared_for_it(reviewer, curator, approver):
    [synonym] = learn(reviewer, claim_id=1, level="confidential")
    learn(reviewer, claim_id=2, level="internal")

    synonym.refresh_from_db()
    assert synonym.security_level == "confidential"  # the highest of its texts
    assert vocabulary.vocabulary_lists(user=curator)[0].count() == 0  # internal clearance
    [seen], _ = vocabulary.vocabulary_lists(user=approver)  # confidential clearance
    assert len(seen.examples) == 2


# Decisions


def test_accept_dismiss_and_remove_are_audited_and_change_only_what_they_may(reviewer, curator):
    [cab] = learn(reviewer, claim_id=1)
    [cheap] = learn(reviewer, claim_id=2, pairs=[("cheap", "free")])

    vocabulary.synonym_accept(synonym=cab, curator=curator)
    vocabulary.synonym_accept(synonym=cab, curator=curator)  # a second click: nothing new
    vocabulary.synonym_dismiss(synonym=cheap, curator=curator)
    with pytest.raises(vocabulary.VocabularyError, match="remove it instead"):
        vocabulary.synonym_dismiss(synonym=cab, curator=curator)
    with pytest.raises(vocabulary.VocabularyError, match="not accepted"):
        vocabulary.synonym_remove(synonym=cheap, curator=curator)
    vocabulary.synonym_remove(synonym=cab, curator=curator)

    cab.refresh_from_db()
    cheap.refresh_from_db()
    assert (cab.state, cheap.state, cab.decided_by) == ("dismissed", "dismissed", curator)
    assert audit_verbs(cab) == ["synonym.accept", "synonym.remove"] and audit_verbs(cheap) == ["synonym.dismiss"]
    accept = AuditEvent.objects.get(verb="synonym.accept")
    assert (accept.actor, accept.before, accept.after, accept.security_level) == (
        curator, {"state": "candidate"}, {"state": "accepted"}, "internal")


def test_a_curator_adds_a_pair_and_a_known_one_is_accepted_as_it_stands(reviewer, curator):
    added = vocabulary.synonym_add(language="en", words="  jobless   rate ", other_words="unemployment rate",
                                   curator=curator)
    [cab] = learn(reviewer, claim_id=1)
    again = vocabulary.synonym_add(language="en", words="Taxi", other_words="cabs", curator=curator)

    assert (added.words, added.state, added.source, added.security_level) == ("jobless rate", "accepted", "curator",
                                                                             "public")
    assert again.pk == cab.pk and (again.state, again.source, again.confirmations.count()) == (
        "accepted", "review", 1)
    assert audit_verbs(added) == ["synonym.add"] and audit_verbs(cab) == ["synonym.add"]
    with pytest.raises(vocabulary.VocabularyError, match="accepted already"):
        vocabulary.synonym_add(language="en", words="cab", other_words="taxi", curator=curator)


@pytest.mark.parametrize(("words", "other_words", "field", "says"), [
    ("", "taxi", "words", "Write a word"),
    ("the", "taxi", "words", "no word the checker reads"),
    ("cab", "cabs", "other_words", "same words"),
    ("cab\x07", "taxi", "words", "control character"),
    ("cheap fast red small cars", "taxi", "words", "at most 4 words"),
    ("x" * 101, "taxi", "words", "at most 100 characters"),
])
def test_a_pair_the_vocabulary_cannot_take_says_why(words, other_words, field, says):
    problems = vocabulary.synonym_pair_problems(language="en", words=words, other_words=other_words)
    assert list(problems) == [field] and says in problems[field]


# Auto-accept


def test_candidates_wait_for_a_curator_by_default(reviewer, second_reviewer, settings):
    assert settings.KB_SYNONYM_AUTO_ACCEPT == 0
    for claim_id, who in enumerate([reviewer, second_reviewer] * 5):
        learn(who, claim_id=claim_id)
    assert Synonym.objects.get().state == "candidate"


def test_enough_confirmations_by_two_reviewers_accept_a_candidate_by_itself(reviewer, second_reviewer, curator,
                                                                             settings):
    settings.KB_SYNONYM_AUTO_ACCEPT = 3
    for claim_id in range(4):
        learn(reviewer, claim_id=claim_id)  # one reviewer alone, however often, is not enough
    [dismissed] = learn(reviewer, claim_id=10, pairs=[("cheap", "free")])
    vocabulary.synonym_dismiss(synonym=dismissed, curator=curator)
    assert Synonym.objects.get(words="cab").state == "candidate"

    [synonym] = learn(second_reviewer, claim_id=5)
    for claim_id in range(11, 15):
        learn(second_reviewer, claim_id=claim_id, pairs=[("cheap", "free")])

    synonym.refresh_from_db()
    dismissed.refresh_from_db()
    assert (synonym.state, synonym.decided_by, dismissed.state) == ("accepted", None, "dismissed")
    event = AuditEvent.objects.get(verb="synonym.auto_accept")
    assert (event.actor, event.actor_label, event.note) == (None, "vocabulary auto-accept",
                                                            "5 confirmations by 2 reviewers")


def test_an_undone_decision_takes_its_confirmations_back(reviewer):
    learn(reviewer, claim_id=1)
    learn(reviewer, claim_id=2)

    assert vocabulary.synonym_confirmations_withdraw(answer_id=1001) == 1
    assert list(SynonymConfirmation.objects.values_list("claim_id", flat=True)) == [2]


# The checker


def test_an_accepted_pair_counts_in_the_next_check_and_a_removed_one_stops(reviewer, curator, celery_worker_session):
    claim, evidence = "Bring a sick note after three days off.", "Bring a medical certificate after three days off."
    assert verdict_of(claim, evidence) == "contradicted"  # "sick note" in the place of "medical certificate"
    [synonym] = learn(reviewer, claim_id=1, pairs=[("sick note", "medical certificate")])
    assert verdict_of(claim, evidence) == "contradicted"  # a candidate counts for nothing

    vocabulary.synonym_accept(synonym=synonym, curator=curator)
    assert verdict_of(claim, evidence) == "supported"

    vocabulary.synonym_remove(synonym=synonym, curator=curator)
    assert verdict_of(claim, evidence) == "contradicted"


def test_a_check_asks_one_cheap_question_while_nothing_changed(django_assert_num_queries, curator):
    vocabulary.synonym_add(language="en", words="cab", other_words="taxi", curator=curator)
    with django_assert_num_queries(2):  # changed: the question, then the pairs
        vocabulary_refresh()
    with django_assert_num_queries(1):
        vocabulary_refresh()


# The page


def post(client, path: str, data: dict | None = None, *, htmx: bool = False):
    return client.post(path, data or {}, headers={"HX-Request": "true"} if htmx else {})


def test_the_page_lists_candidates_with_examples_and_accepted_pairs(client, reviewer, curator):
    learn(reviewer, claim_id=1)
    vocabulary.synonym_add(language="zh", words="打车", other_words="出租车", curator=curator)
    client.force_login(curator)

    page = client.get("/kb/vocabulary/").content.decode()

    candidates, accepted = page.split('id="vocabulary-candidates"')[1].split('id="vocabulary-accepted"')
    assert "cab" in candidates and "Confirmed once, by rita" in candidates and CAB in candidates and TAXI in candidates
    assert "打车" in accepted and "Added by hand" in accepted and "accepted by cora" in accepted
    assert "打车" not in client.get("/kb/vocabulary/?language=en").content.decode()


def test_empty_lists_say_what_fills_them(client, curator):
    client.force_login(curator)
    page = client.get("/kb/vocabulary/").content.decode()
    assert "No candidates." in page and "No accepted pairs yet" in page


def test_accept_and_dismiss_swap_the_lists_with_htmx_and_redirect_without(client, reviewer, curator):
    [cab] = learn(reviewer, claim_id=1)
    [cheap] = learn(reviewer, claim_id=2, pairs=[("cheap", "free")])
    client.force_login(curator)

    partial = post(client, f"/kb/vocabulary/{cab.pk}/accept/", {"shown": "en"}, htmx=True)
    plain = post(client, f"/kb/vocabulary/{cheap.pk}/dismiss/", {"shown": "en"})

    body = partial.content.decode()
    assert partial.status_code == 200 and body.startswith('<div id="vocabulary"') and "<html" not in body
    assert "Accepted “cab ↔ taxi”" in body and body.count('id="synonym-') == 2  # one candidate left, one accepted
    assert (plain.status_code, plain["Location"]) == (302, "/kb/vocabulary/?language=en")
    assert set(Synonym.objects.values_list("state", flat=True)) == {"accepted", "dismissed"}


def test_a_refused_change_says_why(client, reviewer, curator):
    [cab] = learn(reviewer, claim_id=1)
    client.force_login(curator)

    response = post(client, f"/kb/vocabulary/{cab.pk}/remove/", htmx=True)

    assert response.status_code == 409 and "is not accepted" in response.content.decode()


def test_adding_a_pair_keeps_what_was_typed_when_it_is_refused(client, curator):
    client.force_login(curator)

    refused = post(client, "/kb/vocabulary/add/", {"language": "en", "words": "the", "other_words": "unemployment"})
    refused_htmx = post(client, "/kb/vocabulary/add/", {"language": "en", "words": "jobless", "other_words": ""},
                        htmx=True)
    added = post(client, "/kb/vocabulary/add/", {"language": "en", "words": "jobless", "other_words": "unemployment"},
                 htmx=True)

    assert refused.status_code == 400 and "no word the checker reads" in refused.content.decode()
    assert 'value="unemployment"' in refused.content.decode() and "<html" in refused.content.decode()
    assert refused_htmx.status_code == 400 and 'value="jobless"' in refused_htmx.content.decode()
    assert added.status_code == 200 and "Added “jobless ↔ unemployment”" in added.content.decode()
    assert Synonym.objects.get().state == "accepted"


@pytest.mark.parametrize("who", ["curator", "approver", "admin_user"])
def test_curators_approvers_and_admins_keep_the_vocabulary(client, request, reviewer, who):
    [cab] = learn(reviewer, claim_id=1)
    client.force_login(request.getfixturevalue(who))

    assert client.get("/kb/vocabulary/").status_code == 200
    assert post(client, f"/kb/vocabulary/{cab.pk}/accept/").status_code == 302


@pytest.mark.parametrize("who", ["reviewer", "viewer_user", "outsider"])
def test_nobody_else_sees_or_changes_it(client, request, reviewer, who):
    [cab] = learn(reviewer, claim_id=1)
    client.force_login(request.getfixturevalue(who))

    assert client.get("/kb/vocabulary/").status_code == 403
    assert post(client, f"/kb/vocabulary/{cab.pk}/accept/").status_code == 403
    assert post(client, "/kb/vocabulary/add/", {"language": "en", "words": "a1", "other_words": "b1"}).status_code == 403
    assert Synonym.objects.get().state == "candidate"


def test_a_pair_above_the_curators_clearance_cannot_be_changed(client, reviewer, curator):
    [secret] = learn(reviewer, claim_id=1, level="restricted")
    client.force_login(curator)

    assert post(client, f"/kb/vocabulary/{secret.pk}/accept/").status_code == 404
    assert f'id="synonym-{secret.pk}"' not in client.get("/kb/vocabulary/").content.decode()


def test_changes_need_the_csrf_token(reviewer, curator):
    [cab] = learn(reviewer, claim_id=1)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(curator)

    assert strict.post(f"/kb/vocabulary/{cab.pk}/accept/").status_code == 403
    assert strict.post("/kb/vocabulary/add/", {"language": "en", "words": "a1", "other_words": "b1"}).status_code == 403
    page = strict.get("/kb/vocabulary/").content.decode()
    assert page.count('name="csrfmiddlewaretoken"') >= 3  # accept, dismiss and add forms
    assert Synonym.objects.get().state == "candidate"


def test_a_get_changes_nothing(client, reviewer, curator):
    [cab] = learn(reviewer, claim_id=1)
    client.force_login(curator)
    assert client.get(f"/kb/vocabulary/{cab.pk}/accept/").status_code == 405
