"""English rules of the offline extractor: one user sentence in, at most one fact out.

Each rule recognises a way people state a durable fact (an identity, a
preference, a rule, a decision, a configuration, a stack, a relationship, a
project) and rewrites it in the third person, dated when it can change.
Identity and relationships live in :mod:`memclaw.extract.offline.people`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memclaw.extract.offline.frames import FIRST, LATER
from memclaw.extract.offline.people import (
    NAME,
    Fact,
    identity_fact,
    relationship,
)
from memclaw.extract.offline.text import HOW_OFTEN, WEEKDAY, dated, finish, third_person
from memclaw.gates import addresses_agent

I_ = re.IGNORECASE
_LEAD = r"^(?:(?:and|also|but|so|oh|ok|okay|btw|honestly|personally|anyway|fyi|note),?\s+)*"

# --- sentence rules --------------------------------------------------------------------------

_PRONOUN_START = re.compile(r"^(?:it|this|that|these|those|them|you|your|so|too|to be)\b", I_)
_REASON_SPLIT = re.compile(
    r"^(.*?)(?:,?\s+(?:because|since|cause|cuz|as)\s+|\s+[-–—]\s+|,\s+(?=(?:it|that|this|they)\b)|"
    r";\s*|\.\s+)(.+)$",
    I_,
)
_OBJECT_HEAD = re.compile(
    r"^(?:(?:the|a|an|our|my|your)\s+)?(.+?)(?=\s+(?:for|on|with|to|in|at|from|by|as|and|but|"
    r"every|each|,)\b|,|$)",
    I_,
)


def object_head(phrase: str) -> str:
    match = _OBJECT_HEAD.match(phrase.strip())
    return match.group(1).strip() if match else phrase.strip()


def _entity(phrase: str) -> str:
    """The noun phrase a fact is about, with its article: 'the research agent'."""
    phrase = phrase.strip()
    head = object_head(phrase)
    article = re.match(r"^(the|our|my)\s+", phrase, I_)
    prefix = {"our": "the team's ", "my": "the user's "}.get(
        article.group(1).lower() if article else "", "the " if article else ""
    )
    return prefix + head


_PREF = re.compile(
    _LEAD + r"(i|we)\s+(?:really\s+|much\s+|strongly\s+|generally\s+|usually\s+|definitely\s+|"
    r"also\s+|still\s+|absolutely\s+|do\s+)?(prefer|like|love|enjoy|hate|dislike|can't stand|"
    r"cannot stand|don't like|do not like|always use|never use|always|never)\s+(.+)$",
    I_,
)
_STYLE = re.compile(
    r"^(?:please\s+)?(?:keep|make)\s+(?:your\s+|the\s+|all\s+)?(answers?|responses?|replies|"
    r"explanations?|messages?|summaries|code|commit messages)\s+(.+)$|"
    r"^(?:no|without)\s+(?:more\s+)?(emojis?|summaries|recaps?|trailing summaries|small talk|"
    r"preambles?|fluff|recap paragraphs)\b(.*)$",
    I_,
)
_PREF_LABEL = re.compile(r"^(?:(?:and|also)\s+)?(?:a|one)\s+preference\s*:\s*(.+)$", I_)
_WHEN = re.compile(r"^when\s+(?:i|we)\s+(.+?),\s*(?:please\s+)?(.+)$", I_)
_FEELING = re.compile(r"\b(?:best|worst|favou?rite)\s+(?:part|thing)\s+of\s+(?:my|our)\b", I_)


def preference(sentence: str, day: str) -> Fact | None:
    if label := _PREF_LABEL.match(sentence):
        return Fact("preference", finish("User preference: " + third_person(label.group(1))))
    when = _WHEN.match(sentence)
    if when and not re.match(r"^(?:i|we)\b", when.group(2), I_):
        rule = third_person(f"when I {when.group(1)}, {when.group(2)}")
        return Fact("preference", finish("User preference: " + rule))
    if _STYLE.match(sentence):
        return Fact("preference", finish("User preference: " + third_person(sentence)))
    match = _PREF.match(sentence)
    if match and not _PRONOUN_START.match(match.group(3)):
        clause = sentence[match.start(1) :]
        return Fact("preference", finish(third_person(clause)), object_head(match.group(3)))
    if _FEELING.search(sentence):
        return Fact("preference", finish(f'User says: "{sentence.strip().rstrip(".")}"'))
    return None


_RULE = re.compile(
    _LEAD + r"(?:please\s+)?(?:from now on,?\s+|going forward,?\s+|in (?:the )?future,?\s+)?"
    r"(never|always|don't ever|do not ever|don't|do not|make sure (?:to|you)|avoid)\s+(.+)$",
    I_,
)
_NOT_RULE = re.compile(
    r"^(?:worry|know|think|mind|care|forget|get me wrong|bother|remember|have|want|need|like|"
    r"see|a\b|the\b|an\b|so\b|too\b|again)",
    I_,
)
_EACH_RULE = re.compile(
    r"^(?:each|every|all|any)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:must|should|has to|have to|needs? to)\s",
    I_,
)
_YOU_RULE = re.compile(r"^you\s+(?:must|should|need to|have to)\s+(?:always|never|not)\s", I_)
_FROM_NOW = re.compile(r"^(?:from now on|going forward),?\s+(.+)$", I_)
_RULE_LABEL = re.compile(r"^(?:my|our|the)?\s*(?:rule|policy)\s*(?:is|:)\s*(.+)$", I_)


def _with_reason(directive: str) -> str:
    split = _REASON_SPLIT.match(directive)
    if not split:
        return finish("User rule: " + third_person(directive))
    head, reason = split.group(1), split.group(2)
    subject = re.search(
        r"\b(?:use|run|touch|call|install|create|enable|buy|open)\s+(\S+)", head, I_
    )
    reason = re.sub(r"^(?:it|that|this)(?:'s|\s+is)\s+", "", reason, flags=I_)
    if subject:
        reason = re.sub(r"^(?:it|that|this)\b", subject.group(1), reason, flags=I_)
    return finish(f"User rule: {third_person(head).rstrip('.')}. Reason: {third_person(reason)}")


def rule(sentence: str, day: str) -> Fact | None:
    if label := _RULE_LABEL.match(sentence):
        return Fact("rule", _with_reason(label.group(1)))
    match = _RULE.match(sentence)
    if match and not _NOT_RULE.match(match.group(2)) and len(match.group(2).split()) >= 2:
        directive = sentence[match.start(1) :]
        return Fact("rule", _with_reason(directive[0].lower() + directive[1:]))
    if _EACH_RULE.match(sentence) or _YOU_RULE.match(sentence):
        return Fact("rule", _with_reason(sentence[0].lower() + sentence[1:]))
    if now := _FROM_NOW.match(sentence):
        return Fact("rule", _with_reason(now.group(1)))
    return None


_ADVERBS = r"(?:(?:have|'ve|just|finally|also|already|officially|now)\s+)*"
_DECIDED = re.compile(
    rf"\b(i|we)\s+{_ADVERBS}(decided|chose|chosen|picked|agreed|settled on|went with|gone with|"
    r"went for|gone for|landed on|opted for|opted to|ended up (?:with|picking|choosing|going with|"
    r"using|on|switching to|moving to)|switched|moved|migrated)\s+(.+)$",
    I_,
)
_DECIDING = re.compile(
    r"\b(i'm|i am|we're|we are)\s+(?:now\s+|officially\s+)?(going with|switching|moving|"
    r"migrating|dropping|replacing|ditching|sticking with|standardi[sz]ing on)\s+(.+)$",
    I_,
)
_LETS = re.compile(r"^let's\s+(go with|use|stick with|switch to|pick|move to)\s+(.+)$", I_)
_DECISION_LABEL = re.compile(r"\b(?:the\s+)?decision\s*(?:is|was|:)\s*:?\s*(.+)$", I_)
_FILLER = re.compile(r"\b(?:just|finally|officially|already)\s+", I_)


def decision(sentence: str, day: str) -> Fact | None:
    match = _DECIDED.search(sentence) or _DECIDING.search(sentence)
    if match:
        verb = match.group(2).lower()
        if verb in {"switched", "moved", "migrated"} and not re.search(r"\bto\b", match.group(3)):
            return None
        if verb == "moved" and re.match(r"to\s", match.group(3), I_):
            return None  # "I moved to Oslo" is a relocation: identity says it
        clause = _FILLER.sub("", sentence[match.start(1) :])
        return Fact(
            "decision", finish(dated(third_person(clause), day)), object_head(match.group(3))
        )
    if lets := _LETS.match(sentence):
        text = f"user chose to {lets.group(1).lower()} {third_person(lets.group(2))}"
        return Fact("decision", finish(dated(text, day)))
    if label := _DECISION_LABEL.search(sentence):
        return Fact("decision", finish(dated("decision: " + third_person(label.group(1)), day)))
    return None


_CONF_VERB = re.compile(
    rf"\b(i|we)\s+{_ADVERBS}(set up|setup|configured|installed|deployed|connected|enabled|"
    r"disabled|added|upgraded|removed|uninstalled|created|scheduled|hooked up|integrated|"
    r"linked|registered|provisioned|updated|changed|set|bumped|raised|lowered|increased|"
    r"decreased|reduced|pointed|capped|limited|pinned|rotated|turned on|turned off|"
    r"switched on|switched off|renamed)\s+(.+)$",
    I_,
)
_CONF_STATE = re.compile(
    r"^(?:(?:the|our|my)\s+)?([\w#@.'/-]+(?:\s+[\w#@.'/-]+){0,5}?)\s+(runs on|is running on|"
    r"runs every|runs at|runs daily|runs nightly|runs hourly|is hosted on|is deployed (?:on|to)|"
    r"is configured|is set to|is scheduled|lives at|is installed|is connected to|posts to|"
    r"syncs to|backs up to)\s+(.+)$",
    I_,
)
_CRON = re.compile(
    r"\b(?:cron|heartbeat|crontab)\b.*\b(?:every|at|daily|hourly|nightly|\d+\s*(?:-?min|minutes?|"
    r"h|hours?))\b",
    I_,
)
_IDENT = re.compile(
    r"\b[\w-]+\s+(?:id|ip|ip address|path|url|channel|endpoint|port)\s*(?:is|=|:)\s*\S+", I_
)
_MACHINE = re.compile(
    r"\bmy\s+(?:mac\w*|laptop|machine|server|desktop|pc|box|workstation|homelab)\b.*"
    r"\b(?:has|have|with|runs)\b\s+\S*\d",
    I_,
)


def configuration(sentence: str, day: str) -> Fact | None:
    match = _CONF_VERB.search(sentence)
    if match and not _PRONOUN_START.match(match.group(3)):
        clause = _FILLER.sub("", sentence[match.start(1) :])
        text = finish(dated(third_person(clause), day))
        return Fact("configuration", text, _entity(match.group(3)))
    state = _CONF_STATE.match(sentence)
    if state and not _PRONOUN_START.match(sentence):
        return Fact(
            "configuration", finish(dated(third_person(sentence), day)), _entity(state.group(1))
        )
    if _CRON.search(sentence) or _IDENT.search(sentence) or _MACHINE.search(sentence):
        return Fact("configuration", finish(dated(third_person(sentence), day)))
    return None


_STACK = re.compile(
    _LEAD + r"(our|my)\s+(?:tech\s+|tech-|software\s+)?stack\s*(?:is|:|=|consists of|includes)\s*"
    r"(.+)$",
    I_,
)
_WE_USE = re.compile(
    _LEAD + r"(i|we)\s+(?:mainly\s+|mostly\s+|primarily\s+|currently\s+|now\s+|also\s+)?"
    r"(use|are using|'re using|am using|'m using|code in|work with|program in|develop in|"
    r"build with|build on|deploy (?:on|to)|host on|run)\s+(.+)$",
    I_,
)
_PART = re.compile(
    r"^(?:the|our|my)\s+(backend|frontend|front-end|back-end|api|app|application|database|db|"
    r"infra|infrastructure|website|site|mobile app|cluster|ci|pipeline|monorepo|codebase)\s+"
    r"(?:is|runs on|uses|is on|is in|is written in|is built (?:with|on|in)|lives on|"
    r"is hosted on)\s+(.+)$",
    I_,
)
_BUILT = re.compile(
    r"\b(?:is|are)\s+(?:built|written|implemented|developed)\s+(?:with|in|using)\s", I_
)
_SKILL = re.compile(
    r"^i(?:'ve| have) been (?:writing|using|coding in|working with|programming in)\s+.+?\s+for\s|"
    r"^i(?:'m| am)\s+(?:new to|learning|a beginner (?:in|at|with)|an expert in|fluent in|"
    r"proficient in|comfortable with|rusty (?:in|with))\s",
    I_,
)
_TECHY = re.compile(
    r"(?-i:[A-Z][\w.+#-]*)|\b(?:python|rust|go|java|typescript|javascript|sql|"
    r"postgres|mysql|redis|docker|kubernetes|react|vue|django|flask|rails)\b",
    I_,
)


_NOT_STACK = re.compile(r"\b(?:team|squad|group|department|company|business|meetings?|show)\b", I_)


def technical(sentence: str, day: str) -> Fact | None:
    if (stack := _STACK.match(sentence)) and _TECHY.search(stack.group(2)):
        owner = "User's" if stack.group(1).lower() == "my" else "The team's"
        return Fact("technical", finish(f"{owner} stack: {third_person(stack.group(2))}"))
    part = _PART.match(sentence)
    if (part and _TECHY.search(part.group(2))) or _BUILT.search(sentence):
        return Fact("technical", finish(third_person(sentence)))
    if _SKILL.match(sentence):
        return Fact("technical", finish(dated(third_person(sentence), day)))
    use = _WE_USE.match(sentence)
    if use and _NOT_STACK.search(use.group(3)):
        return None  # "I run the platform team": a role, not a tool
    if use and not _PRONOUN_START.match(use.group(3)) and _TECHY.search(use.group(3)):
        text = finish(third_person(sentence[use.start(1) :]))
        return Fact("technical", text, object_head(use.group(3)))
    return None


_DOING = re.compile(
    r"\b(i'm|i am|we're|we are)\s+(?:currently\s+|still\s+|now\s+|actively\s+|busy\s+)?"
    r"(working on|building|developing|launching|preparing|organi[sz]ing|planning|training for|"
    r"rewriting|shipping|designing|prototyping|studying for|renovating|writing a|writing an|"
    r"writing the)\s+(.+)$",
    I_,
)
_DONE = re.compile(
    rf"\b(i|we)\s+{_ADVERBS}(launched|shipped|released|finished|completed|delivered|published|"
    r"closed|signed|hit|reached|passed|won)\s+(.+)$",
    I_,
)
_DEADLINE = re.compile(
    r"\b(?:deadline|due date|launch|release|cutover|go-live|demo)\b(?:\s+for\s+.+?)?\s+"
    r"(?:is|was|has been|got)?\s*(?:now\s+)?(?:on|moved to|set for|planned for|scheduled for|"
    r"moved|due|is)\s+\S",
    I_,
)
_DUE = re.compile(
    r"^(.+?)\s+(?:is|are)\s+due\s+\S|^(.+?)\s+(?:is|went|goes)\s+(?:now\s+)?live\b", I_
)
_BUDGET = re.compile(r"\bbudget\s+(?:for\s+)?(?:the\s+|our\s+)?(.+?)\s+is\s+\S", I_)
_REQUIRES = re.compile(
    r"^(?:(the|our)\s+)?([\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:requires|must have)\s+(.+)$", I_
)
_PAUSED = re.compile(
    r"^(?:(.+?),\s*)?(?:so\s+)?(?:i\s+)?(?:can't|cannot|can not|won't be able to)\s+([a-z]+)\s*"
    r"((?:for a while|for now|until\b|for (?:a few|some|\d+|two|three) (?:days|weeks|months)|"
    r"this (?:week|month|season)).*)$",
    I_,
)
_TRIP = re.compile(
    r"\bthe\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)\s+(trip|vacation|holiday|offsite|conference|"
    r"wedding|move)\b.*?\b(?:want|plan|hope)s?\s+to\s+(.+)$"
)


# A deadline needs a when: a date, a weekday, a month, a relative day or a number.
_WHEN_WORD = re.compile(
    r"\d|\b(?:today|tomorrow|tonight|yesterday|next|this|end of|mid-?\w*|early|late|"
    rf"{WEEKDAY}|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|q[1-4]|spring|summer|autumn|fall|winter)\b",
    I_,
)


def project(sentence: str, day: str) -> Fact | None:
    if paused := _PAUSED.match(sentence):
        cause = paused.group(1)
        text = f"user temporarily can't {paused.group(2)} {third_person(paused.group(3))}".strip()
        if cause:
            text += f" because {third_person(cause)}"
        return Fact("project", finish(dated(text, day)), paused.group(2))
    doing = _DOING.search(sentence)
    if doing and not _PRONOUN_START.match(doing.group(3)):
        clause = sentence[doing.start(1) :]
        return Fact("project", finish(dated(third_person(clause), day)), _entity(doing.group(3)))
    done = _DONE.search(sentence)
    if done and not _PRONOUN_START.match(done.group(3)):
        clause = _FILLER.sub("", sentence[done.start(1) :])
        return Fact("project", finish(dated(third_person(clause), day)), _entity(done.group(3)))
    if trip := _TRIP.search(sentence):
        subject = f"for the {trip.group(1)} {trip.group(2)}, user wants to {trip.group(3)}"
        return Fact("project", finish(dated(third_person(subject), day)), trip.group(1))
    if budget := _BUDGET.search(sentence):
        return Fact("project", finish(dated(third_person(sentence), day)), budget.group(1))
    if (_DEADLINE.search(sentence) or _DUE.match(sentence)) and _WHEN_WORD.search(sentence):
        return Fact("project", finish(dated(third_person(sentence), day)))
    needs = _REQUIRES.match(sentence)
    if (
        needs
        and not _PRONOUN_START.match(needs.group(2))
        and needs.group(2).lower() not in {"i", "we", "he", "she", "they", "everyone"}
    ):
        return Fact("project", finish(dated(third_person(sentence), day)), needs.group(2))
    return None


# What the person does again and again: "On Tuesdays I play the cello", "I go running with
# Lina every Sunday", "I play tennis". A verb of doing something for its own sake, with a
# time that recurs ("play" needs none: what one plays is a habit by itself).
_RECURRING_RE = re.compile(rf"\b(?:{HOW_OFTEN})\b", I_)
_HABIT = re.compile(
    _LEAD + rf"(?:(?P<when>{HOW_OFTEN}),?\s+)?i\s+(?:usually\s+|often\s+|also\s+|still\s+)?"
    r"(?P<verb>play|go|run|swim|train|practi[cs]e|walk|cycle|bike|ride|sing|paint|dance|"
    r"climb|volunteer|teach|study|attend|take|cook|bake|knit|meditate|hike|surf|ski|row|"
    r"have|meet|call|visit|work)\b"
    r"(?P<rest>.*)$",
    I_,
)


def habit(sentence: str, day: str) -> Fact | None:
    match = _HABIT.match(sentence)
    if match is None:
        return None
    when, rest = match.group("when"), match.group("rest").rstrip(" .!")
    if not (when or _RECURRING_RE.search(rest) or match.group("verb").lower() == "play"):
        return None  # "I go to the store": once, not a habit
    # (The time moves to the end: "on Tuesdays", its day keeps its capital.)
    later = f" {when[0].lower()}{when[1:]}" if when else ""
    clause = f"I {match.group('verb').lower()}{rest}{later}"
    return Fact("identity", finish(third_person(clause)), section="Habits")


Rule = Callable[[str, str], Fact | None]
# Order matters: the first rule that recognises a sentence decides its category.
RULES: tuple[Rule, ...] = (
    rule,
    decision,
    relationship,
    technical,
    configuration,
    project,
    preference,
    habit,
)


def classify_sentence(sentence: str, day: str) -> Fact | None:
    if addresses_agent(sentence):
        return None  # words aimed at the agent stay in the transcript; they are no rule
    for candidate in (*FIRST, *RULES, *LATER):
        fact = candidate(sentence, day)
        if fact is not None:
            return fact
    return None


__all__ = ["NAME", "RULES", "Fact", "classify_sentence", "identity_fact", "object_head"]
