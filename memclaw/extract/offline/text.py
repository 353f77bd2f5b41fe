"""Text helpers of the offline extractor: sentences, language, person, and what to skip."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memclaw.clock import WEEKDAYS
from memclaw.text.language import language_of
from memclaw.text.stem import ENGLISH

# The English weekdays, for the patterns the offline engine reads English with.
WEEKDAY = "(?:" + "|".join(WEEKDAYS["en"]) + ")"
# How often something is done: "every other Friday", "on Tuesdays", "twice a week".
HOW_OFTEN = (
    rf"(?:every|each)\s+(?:other\s+|second\s+)?(?:day|morning|evening|night|week|weekend|"
    rf"month|year|summer|winter|{WEEKDAY}s?)|on\s+(?:{WEEKDAY}s?|weekends)|daily|weekly|monthly|"
    r"(?:once|twice|three times|\d+ times) a (?:day|week|month|year)|"
    r"in the (?:mornings?|evenings?)|mornings|evenings|at night"
)

_FENCE = re.compile(r"```.*?(?:```|$)", re.S)
_INLINE_CODE_LINE = re.compile(r"^\s*(?:\$ |>>> |> |Traceback|File \"|at [\w.$]+\(|\w+Error:)")
# A sentence ends at . ! ? or a line break; "3.12", "e.g." and "v2.0" do not end one.
# Lower-case starts count too: people type "ok. we decided ...".
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-ZÅÄÖÜÉa-zåäöüé0-9])|(?<=[!?])\s+|\n+")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "approx.", "mr.", "ms.", "dr.", "no.")

GREETINGS = re.compile(
    r"^(?:hi|hey|hello|hej|hallo|hola|yo|thanks|thank you|thx|tack|danke|gracias|ok(?:ay)?|"
    r"cool|great|nice|sure|lol|haha|good (?:morning|night|evening|afternoon)|bye|cheers|"
    r"got it|sounds good|perfect|awesome|yes|no|yep|nope|right)\b",
    re.I,
)
_QUESTION_START = re.compile(
    r"^(?:what|what's|how|how's|why|when|where|who|which|whose|can(?!'t)|could|would|will|do|does|"
    r"did|is|are|was|were|should|shall|may|have you|has|any idea|quick one:)\b",
    re.I,
)
# Requests for the assistant to do something now: tool use, not a fact.
REQUEST_VERBS = (
    "run|check|show|list|open|fetch|find|search|look|deploy|restart|reboot|build|test|fix|"
    "write|draft|create|generate|summari[sz]e|translate|explain|tell|give|send|update|delete|"
    "remove|install|print|calculate|convert|read|review|refactor|rename|add|make|help|"
    "compare|analy[sz]e|debug|try|set|configure|schedule|book|remind|email|post|ping|call|"
    "clean|format|lint|commit|push|merge|pull|download|upload|copy|move|migrate|connect|enable"
)
_REQUEST = re.compile(rf"^(?:please\s+|pls\s+|can you\s+|could you\s+)?(?:{REQUEST_VERBS})\b", re.I)
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|thinking about|considering|not sure|wondering|i guess|"
    r"i wonder|if i|if we|going to|gonna|i'll try|we'll see|would like to|hypothetically)\b",
    re.I,
)


@dataclass(frozen=True)
class Sentence:
    text: str
    lang: str


def strip_code(text: str) -> str:
    """Drop fenced code and pasted terminal/log lines: tool output, not facts."""
    text = _FENCE.sub(" ", text)
    return "\n".join(line for line in text.splitlines() if not _INLINE_CODE_LINE.match(line))


def split_sentences(text: str) -> list[str]:
    protected = text
    for abbr in _ABBREVIATIONS:
        protected = re.sub(
            re.escape(abbr), lambda m: m.group(0).replace(".", "\x00"), protected, flags=re.I
        )
    parts = _SENTENCE_END.split(protected)
    return [p.replace("\x00", ".").strip(" \t-*•") for p in parts if p and p.strip(" \t-*•")]


# The languages the offline rules read, by the Snowball names ``language_of`` gives.
_CODES = {ENGLISH: "en", "swedish": "sv", "german": "de", "spanish": "es"}


def language(text: str, usual: str = "en") -> str:
    """'en', 'sv', 'de' or 'es' (``usual``, the language the person mostly speaks, wins
    ties and stands for the languages the rules do not read)."""
    names = {code: name for name, code in _CODES.items()}
    return _CODES.get(language_of(text, names[usual]), usual)


def is_question(sentence: str) -> bool:
    stripped = sentence.strip()
    return stripped.endswith("?") or bool(_QUESTION_START.match(stripped))


def is_request(sentence: str) -> bool:
    return bool(_REQUEST.match(sentence.strip()))


def is_hedged(sentence: str) -> bool:
    return bool(_HEDGE.search(sentence))


_BARE_ANSWER = frozenset({"no", "yes", "right", "sure", "ok", "okay", "nope", "yep"})


def is_small_talk(sentence: str) -> bool:
    stripped = sentence.strip(" !.,")
    match = GREETINGS.match(stripped)
    if not match or len(stripped.split()) > 4:
        return False
    # "No bebo alcohol" is not an answer "no": a bare yes/no is followed by a pause or nothing.
    rest = stripped[match.end() :]
    return match.group(0).lower() not in _BARE_ANSWER or not rest or rest[0] in ",!.;:"


# --- first person to third person ---------------------------------------------------------

_VERB_3RD = {
    "have": "has",
    "do": "does",
    "don't": "doesn't",
    "am": "is",
    "go": "goes",
    "try": "tries",
    "study": "studies",
    "was": "was",
    "can": "can",
    "can't": "can't",
    "will": "will",
    "won't": "won't",
    "would": "would",
    "should": "should",
    "must": "must",
    "just": "just",
    "really": "really",
    "never": "never",
    "always": "always",
    "usually": "usually",
    "only": "only",
    "also": "also",
    "still": "still",
    "mostly": "mostly",
    "often": "often",
}
# Words after "user" that must not get a third-person -s: adverbs, modals, past forms.
_NOT_BASE = frozenset(
    """
    also just only really never always usually still mostly often sometimes rarely recently
    already even probably definitely currently now then first too either not can could would
    should will must may might shall hurt set put cut ran went got had made took wrote built
    left lost found bought sold spent met saw told said began broke chose came did drove ate
    fell felt forgot gave grew heard kept knew led paid rode sent sat slept spoke stood taught
    thought threw understood won wore read is was has
    """.split()  # noqa: SIM905
)
_PRONOUNS = [
    (re.compile(r"\bI'm\b|\bI am\b", re.I), "user is"),
    (re.compile(r"\bI've\b", re.I), "user has"),
    (re.compile(r"\bI'd\b", re.I), "user would"),
    (re.compile(r"\bI'll\b", re.I), "user will"),
    (re.compile(r"\bwe're\b|\bwe are\b", re.I), "the team is"),
    (re.compile(r"\bwe've\b", re.I), "the team has"),
    (re.compile(r"\bwe'll\b", re.I), "the team will"),
    (re.compile(r"\bmyself\b", re.I), "\x01"),
    (re.compile(r"\bmine\b", re.I), "the user's"),
    (re.compile(r"\bours\b", re.I), "the team's"),
    (re.compile(r"\bour\b", re.I), "the team's"),
    (re.compile(r"\bus\b"), "\x02"),
    (re.compile(r"\bme\b", re.I), "\x01"),
]
_I = re.compile(r"\bI\b")
_WE = re.compile(r"\bwe\b", re.I)
_MY = re.compile(r"\bmy\b", re.I)
_ADVERB = (
    r"(?:really|just|also|always|never|usually|only|still|mostly|often|sometimes|rarely|"
    r"generally|definitely|strongly|much|actually|honestly|basically|totally|absolutely|"
    r"now|currently|already|even)"
)
# Only the subjects this function wrote get a verb conjugated ("the team offsite" stays).
_AFTER_SUBJECT = re.compile(rf"(\x03|\x04) ((?:{_ADVERB}\s+)*)([a-z']+(?:-[a-z]+)?)\b")
# Things a household shares: "our kid" is the user's, not the team's.
_OUR_HOME = re.compile(
    r"\bour\s+(?=(?:kids?|children|son|daughter|baby|dog|cat|puppy|kitten|house|flat|apartment|"
    r"home|family|wedding|car|garden|holiday|vacation)\b)",
    re.I,
)


def third_person(fragment: str) -> str:
    """Rewrite a first-person fragment as a statement about the user (English only)."""
    text = fragment
    # "my" reads as "their" when the user is already the subject of the clause.
    mentions_user = bool(_I.search(text) or re.search(r"\bI'", text))
    text = _MY.sub("their" if mentions_user else "the user's", text)
    text = _OUR_HOME.sub("the user's ", text)
    for pattern, replacement in _PRONOUNS:
        text = pattern.sub(replacement, text)
    text = _I.sub("\x04", text)
    text = _WE.sub("\x03", text)

    def conjugate(match: re.Match[str]) -> str:
        subject, verb = match.group(1) + " " + match.group(2), match.group(3)
        if verb in _VERB_3RD:
            return f"{subject}{_VERB_3RD[verb]}"
        past = verb.endswith("ed") and not verb.endswith("eed")
        if verb in _NOT_BASE or past or verb.endswith(("s", "'t", "ly")):
            return match.group(0)
        suffix = "es" if verb.endswith(("sh", "ch", "x", "o")) else "s"
        if verb.endswith("y") and verb[-2:-1] not in "aeiou":
            return f"{subject}{verb[:-1]}ies"
        return f"{subject}{verb}{suffix}"

    text = _AFTER_SUBJECT.sub(conjugate, text)
    # Objects ("me", "us") were kept out of the subject rule above by placeholders.
    text = text.replace("\x03", "the team").replace("\x04", "user")
    return text.replace("\x01", "the user").replace("\x02", "the team")


def capitalise(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text


def finish(text: str) -> str:
    """Tidy a fact: single spaces, capital first letter, one final full stop."""
    text = " ".join(text.split()).strip(" ,;:")
    text = capitalise(text)
    return text if text.endswith((".", "!", "?", ")", '"')) else text + "."


def dated(text: str, day: str, lang: str = "en") -> str:
    """Anchor a time-bound fact: "As of YYYY-MM-DD, ..." in the user's language."""
    lead = {"sv": "Per {d},", "de": "Stand {d}:", "es": "A fecha de {d},"}.get(lang, "As of {d},")
    body = text.strip()
    first = body.split(" ", 1)[0]
    if lang == "en" and first in {"User", "The", "A", "An", "User's"}:
        body = first.lower() + body[len(first) :]
    return f"{lead.format(d=day)} {body}"
