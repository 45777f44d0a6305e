"""English: the checker's own tokenizer, stemmer, sentence splitter and quantity parser, behind the interface.

The checker (``checking.text``) is English and, as it loads, takes in what every language adds to it (this one adds
nothing): so this module imports the checker when asked for it, not when loaded."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from checking.languages.base import MAX_SUBJECT_WORDS, Cues, Quantity, QuestionTerm, Word, header_unit, opening_phrase
from checking.sentences import sentence_spans

if TYPE_CHECKING:
    from checking.text import Token

_DEGREE_ASKER = "how"  # "how long", "how far": the word after it asks for a degree (English.question_term)
_DIRECTION_PAIRS = (("more", "less"), ("above", "below"), ("before", "after"), ("rose", "fell"),
                    ("increase", "decrease"), ("minimum", "maximum"), ("at least", "at most"))

_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*|\d[\d,.]*")
_AUXILIARIES = frozenset(
    {"is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would", "can", "could", "must", "may",
     "might", "should", "shall", "does", "do", "did", "cannot", "won't", "isn't", "aren't", "wasn't", "doesn't",
     "don't", "can't", "hasn't", "haven't"}
)
_COMMON_VERBS = frozenset(
    {"rose", "fell", "grew", "gets", "get", "got", "gave", "gives", "takes", "took", "made", "makes", "keeps", "kept",
     "lost", "paid", "pays", "costs", "cost", "includes", "include", "offers", "offer", "provides", "provide",
     "requires", "require", "allows", "allow", "covers", "cover", "receives", "receive", "adds", "add", "runs", "ran",
     "lasts", "starts", "ends", "began", "begins", "remains", "remain", "stays", "stay", "needs", "need", "holds",
     "held", "goes", "went", "comes", "came", "orbits", "contains", "supports", "means", "says", "shows", "uses",
     "applies", "apply", "expires", "expire", "reaches", "lies", "sits", "counts", "works", "follows", "leads",
     "sold", "sells", "set", "sets", "left", "leaves", "saw", "sees", "won", "wins", "led", "fit", "fits"}
)
# A clause opening with one of these leans on the previous one for its meaning.
_DEPENDENT_OPENERS = frozenset(
    {"it", "its", "they", "them", "their", "this", "that", "these", "those", "he", "she", "his", "her", "which",
     "who", "whom", "whose", "so", "then", "also", "both", "one", "others", "same", "such", "there", "thus"}
)
_MIN_CLAUSE_WORDS = 3
# Words of one family that neither the stemmer's suffix rules nor its irregular forms (checking.text) bring together:
# a noun made from a verb by a change inside it, and irregular verb forms it lacks. Each form with its base word.
_WORD_FORMS = {
    "growth": "grow", "loss": "lose", "sale": "sell", "gift": "give", "flight": "fly", "proof": "prove",
    "choice": "choose", "death": "die", "drove": "drive", "driven": "drive", "flew": "fly", "flown": "fly",
    "spoke": "speak", "spoken": "speak", "broke": "break", "broken": "break", "forgot": "forget",
    "forgotten": "forget", "hid": "hide", "hidden": "hide", "rode": "ride", "ridden": "ride", "wore": "wear",
    "worn": "wear", "stole": "steal", "stolen": "steal", "froze": "freeze", "frozen": "freeze", "threw": "throw",
    "thrown": "throw", "drew": "draw", "drawn": "draw", "ate": "eat", "eaten": "eat", "fought": "fight",
    "taught": "teach", "caught": "catch", "felt": "feel", "meant": "mean", "slept": "sleep", "stood": "stand",
    "understood": "understand", "dealt": "deal", "sought": "seek", "lent": "lend", "fed": "feed",
}
_COMPOUND_PART = 3  # letters at least in each part of a closed compound ("health" + "care" of "healthcare")

# British and American spellings of one word ("colour" / "color", "organise" / "organize", "centre" / "center",
# "travelled" / "traveled"): a UK policy and a US-written answer state the same thing. Each British form is brought to
# the American one before stemming, on both sides of every comparison, so a rule over a form that has no American
# twin ("advertise" -> "advertize") only renames it.
_OUR_ROOTS = ("colour", "behaviour", "favour", "flavour", "honour", "labour", "neighbour", "humour", "harbour",
              "rumour", "vapour", "odour", "armour", "savour", "endeavour", "tumour", "valour", "vigour", "rigour",
              "parlour", "splendour", "fervour", "clamour")
_DOUBLED_L_ROOTS = ("travel", "cancel", "label", "model", "fuel", "signal", "counsel", "level", "total", "channel",
                    "dial", "equal", "jewel", "marvel", "quarrel", "tunnel", "panel", "funnel", "shovel", "rival",
                    "pedal", "libel", "refuel", "initial", "enamel")
_AMERICAN_WORDS = {
    "grey": "gray", "greys": "grays", "tyre": "tire", "tyres": "tires", "cheque": "check", "cheques": "checks",
    "programme": "program", "programmes": "programs", "aluminium": "aluminum", "kerb": "curb", "plough": "plow",
    "mould": "mold", "mouldy": "moldy", "storey": "story", "storeys": "stories", "draught": "draft",
    "pyjamas": "pajamas", "licence": "license", "licences": "licenses", "defence": "defense", "offence": "offense",
    "offences": "offenses", "pretence": "pretense", "catalogue": "catalog", "catalogues": "catalogs",
    "dialogue": "dialog", "analogue": "analog", "manoeuvre": "maneuver", "manoeuvres": "maneuvers",
    "enrol": "enroll", "enrols": "enrolls", "enrolment": "enrollment", "fulfil": "fulfill", "fulfils": "fulfills",
    "fulfilment": "fulfillment", "instalment": "installment", "instalments": "installments", "skilful": "skillful",
    "judgement": "judgment", "ageing": "aging", "whilst": "while", "amongst": "among", "jewellery": "jewelry",
    "sceptical": "skeptical", "practise": "practice", "practised": "practiced", "practising": "practicing",
}
_MEDICAL_AE = ("paediatric", "anaemi", "haemo", "haema", "orthopaedic", "leukaemi", "oesophag", "oestrogen",
               "diarrhoea", "anaesthe", "faeces", "foetus", "foetal", "gynaecolog", "oedema", "caesarean")
_ISE = re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|ation|ations|er|ers)$")  # "organised" -> "organized"
_YSE = re.compile(r"(?<=[a-z]{2})ys(e|es|ed|ing|er|ers)$")  # "analysed" -> "analyzed"
_TRE = re.compile(r"(?<=[a-z]{2})([tb])re(s|d)?$")  # "centres" -> "centers", "fibre" -> "fiber"


def american_spelling(word: str) -> str:
    """``word`` (lower case) as American English spells it."""
    if word in _AMERICAN_WORDS:
        return _AMERICAN_WORDS[word]
    for root in _OUR_ROOTS:
        if word.startswith(root):
            return root[:-2] + "r" + word[len(root):]
    for root in _DOUBLED_L_ROOTS:
        if word.startswith(root + "l") and word[len(root) + 1:] in ("ed", "ing", "er", "ers"):
            return root + word[len(root) + 1:]
    if word.startswith(_MEDICAL_AE):
        return word.replace("ae", "e", 1).replace("oe", "e", 1)
    return _TRE.sub(r"\1er\2", _YSE.sub(r"yz\1", _ISE.sub(r"iz\1", word)))


# What an assistant names its sources by: "the given passages", "passage 2", "passages 1 and 3", "the context".
_SOURCES = (r"(?:(?:the |these |this |those |all |both |each of the )?(?:(?:given|provided|above|retrieved|available|"
            r"following|supplied|search|cited|three|two|first|second|third) )*(?:passages?|sources?|contexts?|"
            r"documents?|texts?|information|results?|excerpts?|snippets?|articles?)"
            r"(?: (?:number )?\d+(?: ?(?:,|and|&) ?\d+)*)?(?: (?:provided|given|above|supplied))?"
            # and what a knowledge base's documents are: "the policy", "the security handbook", "the FAQ"
            r"|(?:the |our |this |that )?(?:[\w'’-]+ ){0,2}?(?:policy|policies|handbook|faq|guide|guidelines|manual|"
            r"rules|regulations|procedures?|terms))")
_CLOSING_SOURCE = rf"\((?:see |from |in |according to |as (?:stated|mentioned) in )?{_SOURCES}\)"
FRAMING = re.compile(
    r"(?:(?:so|therefore|thus|overall|in summary|in conclusion|in short|in general|additionally|also|however|"
    r"moreover|furthermore|finally|lastly|first|second|third|next|then) ?, ?)?(?:"
    # "Based on the given passages, (we can see that) ..."
    r"(?:based (?:on|upon)|according to|as (?:stated|mentioned|described|noted|explained|shown|indicated|outlined) "
    rf"in|from|per|in|judging (?:by|from)|going by) {_SOURCES} ?(?:\([^)]{{0,40}}\) ?)?, ?"
    r"(?:(?:we can (?:see|infer|conclude|tell)|it (?:appears|seems|is (?:clear|evident|stated|mentioned))|"
    r"i can (?:tell you|say|see)|one can see) (?:that )?)?"
    # "Passage 2 states that ...", "The passages mention that ..."
    rf"|{_SOURCES} (?:states?|says?|mentions?|indicates?|suggests?|explains?|notes?|describes?|shows?|confirms?|"
    r"reports?|claims?|specif(?:y|ies)|adds?|points? out|tells? us|reveals?|agree|emphasi[sz]es?|highlights?|"
    r"stress(?:es)?|recommends?|advises?|warns?|concludes?|discuss(?:es)?|clarif(?:y|ies)|imply|implies) that "
    # "Passage 1 provides instructions on how to floss", "The passages are focused on X": what a source covers is
    # the rest, checked as any claim is ("that" clauses are the alternative before); not when the sentence goes on
    # to what it lacks ("…, but does not mention Y": ABSENCE reads the whole)
    rf"|(?![^.;]*\b(?:not|n't|never|no|none|neither)\b){_SOURCES} (?:(?:only|also|mainly|primarily|mostly|largely) )?"
    r"(?:describes?|discuss(?:es)?|explains?|covers?|outlines?|talks? about|focus(?:es)? on|deals? with|"
    r"(?:is|are) (?:(?:mainly|primarily|mostly|largely|all) )?(?:(?:focused|centered|centred) on|about)|"
    r"(?:provides?|gives?|offers?) (?:(?:some|detailed|general|specific|more|step-by-step) )?"
    r"(?:information|instructions?|details|steps|tips|examples|guidance|an overview|a description|a list)"
    r"(?: (?:on|about|for|of|regarding))?) "
    rf"|it is (?:stated|mentioned|noted|said|explained|suggested) in {_SOURCES} that "
    # "It's important to note that ...": the speaker's emphasis, not a fact of the sources
    r"|(?:note|it(?:'s| is) (?:important|worth) (?:to note|noting|mentioning)|it should be noted|keep in mind|"
    r"please note|be aware) that "
    # "Therefore, the answer to the question is: ...", "Passage 1: ...": a label for what follows
    rf"|(?:the )?answer(?: to (?:the|your|this) question)?(?: \"[^\"]{{0,200}}\")?(?: based on {_SOURCES})? is:?\s*"
    rf"|{_SOURCES} ?: "
    # an attribution that closed the sentence before, split off with its full stop: "… is £220. (Passage 1) The …"
    rf"|{_CLOSING_SOURCE} ?)",
    re.IGNORECASE,
)
# An attribution closing the statement: ", as mentioned in passage 3.", "(Passage 2)".
FRAMING_AFTER = re.compile(
    r"(?:,? (?:as (?:stated|mentioned|described|noted|explained|shown|indicated|outlined|suggested|seen|listed) in|"
    rf"according to|per|from) {_SOURCES}| ?{_CLOSING_SOURCE})(?=[.!]?$)",
    re.IGNORECASE,
)
# What a statement about the sources says they lack: the rest of the sentence (a full stop inside "U.S." stays in).
_STATED = r"(?P<stated>(?:[^.;]|\.(?=\S)){3,}\w)"
ABSENCE = re.compile(
    r"(?:(?:however|but|unfortunately|also|note that|additionally),? )?(?:"
    # "Passage 3 (only) provides a chart for …, but it does not cover X": what a passage has, then what it lacks
    rf"{_SOURCES}(?: (?:only |also |mainly |primarily )?(?:provides?|mentions?|gives?|contains?|includes?|"
    rf"discuss(?:es)?|describes?|explains?|lists?|talks? about|focus(?:es)? on)[^,;]{{0,160}},? (?:and|but)"
    r"(?: (?:it|they))?)? "
    r"(?:(?:do|does|did) not|don't|doesn't|didn't|never|fail to) "
    r"|none of (?:the |these |those )?(?:given |provided |three )?(?:passages|sources|documents) "
    # "there is no mention of X", never "there is no data cap": the noun names what a text says, and a preposition
    # leads to what it lacks
    r"|there (?:is|are) no (?:specific |explicit |direct |further |clear |definitive |straightforward )?"
    rf"(?:mention|information|details?|reference|indication|answer)s?(?: in {_SOURCES})? "
    r"(?=(?:about|on|of|regarding|related to|for|as to|concerning) ))"
    r"(?:(?:explicitly|specifically|directly|clearly) )?(?:(?:mention|contain|provide|include|say|specify|state|"
    r"discuss|address|give|offer|describe|cover|list|explain|indicate|mention)s? )?(?:any(?:thing)? )?"
    r"(?:(?:specific|explicit|further|additional|direct|clear) )?(?:(?:information|details?|mention|data|"
    r"instructions?|guidance)s? )?(?:(?:about|on|of|regarding|related to|for|as to|concerning|in the passages "
    r"about) )?" + _STATED,
    re.IGNORECASE,
)
# "X is not explicitly stated (in the passages)": only a text states, mentions or specifies; "provided" or "given"
# only with the text named ("Meals are not provided on short flights" is a rule). What is lacked is the shortest
# opening before that verb.
_ABSENCE_PASSIVE = re.compile(
    r"(?:(?:however|but|unfortunately|also),? )?" + _STATED.replace("{3,}", "{3,}?") + " (?:is|are|was|were) not "
    r"(?:(?:explicitly|specifically|directly|clearly|actually) )?(?:(?:stated|mentioned|specified|indicated|listed)"
    rf"(?: in {_SOURCES})?|(?:provided|given|discussed|addressed|covered) in {_SOURCES})\W*$",
    re.IGNORECASE,
)
# "It is unclear how X", "it is not clear whether X": the answer says the sources do not settle X.
_ABSENCE_UNCLEAR = re.compile(
    r"(?:(?:however|but|unfortunately|therefore|so|thus),? )?it (?:is|was|remains) (?:not (?:entirely |completely "
    rf"|immediately )?clear|unclear)(?: from {_SOURCES})? (?=(?:what|how|whether|if|when|where|why|which|who) )"
    + _STATED,
    re.IGNORECASE,
)
# "They do not mention X" after a sentence about the passages: mention, specify and information are a text's.
_ABSENCE_LEANING = re.compile(
    r"(?:(?:however|but|unfortunately|also|additionally),? )?(?:they|it) (?:do|does|did)(?: not|n't) "
    r"(?:(?:explicitly|specifically|directly|clearly) )?(?:(?:mention|specify|state)s? (?:anything )?"
    r"(?:(?:about|on|regarding) )?|(?:provide|contain|give|offer|include)s? (?:any )?(?:(?:specific|explicit|further|"
    r"additional|clear) )?(?:information|details?|mention|instructions?|guidance) (?:about|on|of|regarding|related to"
    r"|for|as to|concerning) )" + _STATED,
    re.IGNORECASE,
)
# A negated verb written without its apostrophe, as web text often has it ("you didnt allow resize"): a negation
# like "didn't" (checking.analysis), and no word a source must state.
UNMARKED_CONTRACTIONS = frozenset("""dont didnt doesnt isnt arent wasnt werent cant couldnt shouldnt wouldnt havent
    hasnt hadnt wont mustnt neednt""".split())  # noqa: SIM905
# The speaker's attitude states nothing a source could confirm: no content word, and with "not" a reply
# ("Unfortunately not.").
ATTITUDE_ADVERBS = frozenset({"unfortunately", "fortunately", "sadly", "luckily", "regrettably", "thankfully"})
COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "being", "isn't", "aren't", "wasn't", "weren't",
                     "isn’t", "aren’t", "wasn’t", "weren’t"})
CLAUSE_JOINERS = frozenset({"and", "also"})
# Verbs that move a value: "went up", "edged up to 60.4" (checking.text's MOVES and VERBISH_BEFORE_UP); any other
# verb before "up to" caps it ("reimbursed up to $40").
MOVE_VERBS = "go|goes|went|move|moves|trend|trends|tick|ticks|edge|edges|jump|jumps|shot|shoot|crept|creep|step|" \
             "steps|ramp|ramps|came|come|comes"
MOVED_VERBS = r"(?:edg|tick|mov|inch|creep|jump|climb|trend|shoot|step|ramp|surg|soar|spik|rall|drift|bump|revis|" \
              r"round|push|rebound|recover|ris|fall|sank|sink|slipp?|slid|dropp?|declin)(?:e|es|ed|ing|s|ied|ies|y)?" \
              r"|crept|shot|rose|fell"
BACK_REFERENCES = frozenset({"this", "these", "that", "those", "it", "its", "they", "their", "them", "such", "he",
                             "she", "his", "her"})
DEMONSTRATIVES = frozenset({"this", "these", "that", "those", "such"})
# Words opening a relative clause: a statement's subject ends before one ("The card number for people who retire
# is …": "who retire" says which, its verb is not the statement's).
_RELATIVE_WORDS = frozenset({"who", "whom", "whose", "which", "that", "where", "when"})
META = re.compile(
    r"\W*(?:(?:so|therefore|thus|however|unfortunately|sorry|in summary|overall|in conclusion) ?,? ?)?(?:"
    r"unable to (?:answer|provide|find|determine)"
    r"|i (?:cannot|can't|can not|am unable to|'m unable to|am not able to|was unable to|could not|couldn't|must|"
    r"will|would|do not have|don't have|apologi[sz]e)\b"
    r"|here(?:'s| is| are) (?:my|the|a) (?:answer|response|summary)\b"
    # the courtesy that closes an answer: "If you have any further questions, feel free to ask.", "Hope this helps"
    r"|(?:if you (?:have|need) any (?:other |further |more |additional )?(?:questions?|information|help)[^,.]{0,40},? )?"
    r"(?:please )?(?:let me know|feel free to ask|(?:do not|don't) hesitate to ask)\b"
    r"|(?:i )?hope (?:this|that|it|my answer|the (?:above )?information) (?:helps|is helpful)\b"
    # what the question asks, said back to the user ("The question is asking for …"), unless a "but" adds a claim
    r"|(?:the|your|this) question (?:is asking|asks|is about)\b(?![^.]*\bbut\b))",
    re.IGNORECASE,
)


def _looks_finite(word: str) -> bool:
    return word in _AUXILIARIES or word in _COMMON_VERBS or (word.endswith("ed") and len(word) > 4)


class English:
    code = "en"
    locale = "en"  # the console's language (LANGUAGES) its reasons are written in
    direction_pairs = {**dict(_DIRECTION_PAIRS), **{b: a for a, b in _DIRECTION_PAIRS}}

    @property
    def negation_cues(self) -> frozenset[str]:
        from checking.analysis import NEGATION_CUES

        return NEGATION_CUES

    @property
    def question_words(self) -> frozenset[str]:
        from checking.text import QUESTION_WORDS

        return QUESTION_WORDS

    @property
    def antonyms(self) -> dict[str, frozenset[str]]:  # by stem
        from checking.text import ANTONYMS

        return ANTONYMS

    def sentences(self, text: str) -> list[tuple[int, int]]:
        return sentence_spans(text, 0, len(text))

    def _tokens(self, text: str) -> list[Token]:
        from checking.text import tokenize

        return tokenize(text, 0, len(text), table=False)

    def words(self, text: str) -> list[Word]:
        return [Word(text=t.text, start=t.start, end=t.end, key=t.stem) for t in self._tokens(text)
                if t.kind in ("word", "num")]

    def search_words(self, text: str) -> list[str]:
        return [w.text for w in self.words(text)]

    def quantities(self, text: str) -> list[Quantity]:
        from checking.quantities import find_quantities

        return [Quantity(kind=q.kind, value=q.value, surface=q.surface, start=q.start, end=q.end)
                for q in find_quantities(text, self._tokens(text))]

    def fold(self, text: str) -> str:
        return text.lower()

    def terms_add(self, terms: Iterable[str]) -> None:
        """English needs no dictionary: words are split at spaces and punctuation."""

    def document_terms(self, markdown: str) -> list[str]:
        return []

    # Clauses cut at a comma part names that stay paired ("headquartered in San Francisco, with offices in New
    # York City and London"): English links a pair by a function word ("on"), which entities read instead.
    names_paired_by_clause = False

    def stands_alone(self, text: str) -> bool:
        """A subject-like opening and a finite verb after it."""
        words = [word.lower() for word in _WORD.findall(text)]
        if len(words) < _MIN_CLAUSE_WORDS:
            return False
        return any(_looks_finite(word) for word in words[1:]) and not _looks_finite(words[0])

    def leans_back(self, text: str) -> bool:
        words = _WORD.findall(text)
        return not words or words[0].lower() in _DEPENDENT_OPENERS

    def provisions_paired(self, left: str, right: str) -> bool:
        return False

    word_separator = " "

    def leading_subject(self, text: str) -> list[Word]:
        """The words before the first finite verb ("Morning sickness" of "Morning sickness is nausea ...") or a
        relative clause."""
        words = self.words(text)
        verb = next((k for k, word in enumerate(words[:MAX_SUBJECT_WORDS + 1])
                     if k and (_looks_finite(word.text.lower()) or word.text.lower() in _RELATIVE_WORDS)), None)
        return [] if verb is None else opening_phrase(text, words, end=verb)

    def row_sentence(self, *, label: str, cells: Sequence[tuple[str, str]]) -> str:
        parts = []
        for column, value in cells:
            name, said = header_unit(column, value)
            if name[:1].isupper() and name[1:2].islower():
                name = name[0].lower() + name[1:]  # "Nightly cap", not an acronym ("GB")
            parts.append(f"the {name} for {label} is {said}")
        sentence = "; ".join(parts)
        return sentence[:1].upper() + sentence[1:] + "."

    # What the checker's English core takes in (base.TextLanguage): English is that core, and adds only how an
    # assistant frames what it says.
    cues = Cues(framing=FRAMING, framing_after=FRAMING_AFTER, meta=META,
                absence=(ABSENCE, _ABSENCE_PASSIVE, _ABSENCE_UNCLEAR, _ABSENCE_LEANING),
                back_references=BACK_REFERENCES, demonstratives=DEMONSTRATIVES,
                stop_words=UNMARKED_CONTRACTIONS | ATTITUDE_ADVERBS, reply_words=ATTITUDE_ADVERBS | {"not"},
                copulas=COPULAS, clause_joiners=CLAUSE_JOINERS)
    ideograph = None

    def tokens(self, text: str, start: int, end: int, *, table: bool) -> list[Token] | None:
        return None

    def asks(self, word: str) -> bool:
        return False

    def one_word_family(self, a: str, b: str) -> bool:
        """Stems of the forms ``_WORD_FORMS`` pairs ("growth" / "grow", "drov" / "driv")."""
        return b in _families().get(a, ())

    def family_member_in(self, stem: str, stems: set[str] | frozenset[str]) -> bool:
        return not _families().get(stem, frozenset()).isdisjoint(stems)

    def synonyms(self, word: str) -> frozenset[str]:
        return frozenset()  # its stems fold synonyms together (checking.text)

    def kindred(self, word: str) -> frozenset[str]:
        return frozenset()

    def question_term(self, word: str, previous: str) -> QuestionTerm | None:
        """The whole word (checking.text's question words and light words have left those out already), but the
        word after "how" ("how long", "how quickly"): it asks for a degree and names nothing to look up."""
        return None if previous == _DEGREE_ASKER else QuestionTerm(0, len(word))

    def function_word(self, word: str) -> bool:
        return False  # the English core's stopwords (checking.text.function_word)

    def spoken_light(self, word: str) -> bool:
        return False

    def found_by_parts(self, stem: str, words: Collection[str], *, covers: Callable[[str], bool]) -> bool:
        """A closed compound of the question found where a passage writes its parts apart ("healthcare" by "health"
        and "care"): a cut of its stem into two content words, each ``covers`` finds."""
        from checking.text import LIGHT_STEMS, function_word, stem_of

        for cut in range(_COMPOUND_PART, len(stem) - _COMPOUND_PART + 1):
            head, tail = stem[:cut], stem[cut:]
            parts = (stem_of(head), tail)
            if not any(function_word(part) or part in LIGHT_STEMS for part in (head, *parts)) \
                    and all(covers(part) for part in parts):
                return True
        return False

    def asked_measure(self, word: str) -> str:
        return ""  # "how many days": the measure is the next word (checking.quantity_cues.unit_at)

    def word_parts(self, word: str) -> tuple[str, ...]:
        return ()

    def written_dates(self, text: str, start: int, end: int) -> list[Quantity]:
        return []

    def fraction(self, word: str) -> float | None:
        return None  # English fractions are two words ("two thirds"): checking.quantities reads them

    def ordinal(self, word: str) -> int | None:
        return None


@lru_cache(maxsize=1)
def _families() -> dict[str, frozenset[str]]:
    """Each stem of ``_WORD_FORMS`` with the stems of its family's other forms (stemmed as checking.text does)."""
    from checking.text import stem_of

    bases: dict[str, set[str]] = {}
    for form, base in _WORD_FORMS.items():
        bases.setdefault(stem_of(base), set()).add(stem_of(form))
    families: dict[str, set[str]] = {}
    for base, forms in bases.items():
        members = {base, *forms}
        for member in members:
            families.setdefault(member, set()).update(members - {member})
    return {stem: frozenset(others) for stem, others in families.items()}


ENGLISH = English()
