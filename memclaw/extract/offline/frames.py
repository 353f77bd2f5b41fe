"""General sentence frames of the offline extractor: shapes, not particular verbs.

The rules in :mod:`memclaw.extract.offline.rules` know particular verbs; these
frames know the shapes people use whatever the words: "we're on X", "my go-to X
is Y", "I don't Y", "<system> is <Product>", "<thing> starts <date>", a norm
followed by "from now on". Each frame asks for a strong signal (a product name,
a number, a date, a norm word), so that a loose shape does not turn chatter
into memory.
"""

from __future__ import annotations

import re

from memclaw.extract.offline.people import Fact
from memclaw.extract.offline.text import WEEKDAY, dated, finish, third_person

I_ = re.IGNORECASE

# --- vocabulary -----------------------------------------------------------------------------

# Parts of a software system or of the user's kit: "<part> is <Product>" is a stack fact.
SYSTEM = (
    r"gateway|api gateway|warehouse|data warehouse|database|db|queue|message queue|broker|cache|"
    r"cluster|backend|back-end|frontend|front-end|api|apps?|services?|site|website|monorepo|repo|"
    r"codebase|infra|infrastructure|ci|cd|ci/cd|pipeline|orchestrator|editor|ide|shell|terminal|"
    r"os|laptop|desktop|machine|server|servers|cloud|host|hosting|cdn|dns|proxy|load balancer|"
    r"search|search engine|storage|object storage|auth|login|sso|identity provider|monitoring|"
    r"logging|tracing|metrics|alerting|observability|scheduler|runtime|framework|orm|language|"
    r"registry|vpn|firewall|email provider|mail server|package manager|build tool|bundler|"
    r"linter|formatter|test runner|issue tracker|wiki|chat|crm|erp|payments?|billing|analytics|"
    r"feature flags|secrets manager|job queue|workers?|mobile apps?"
)
# Parts whose numbers are settings: "<part> runs every 6 hours", "<part> have 16 GB".
SETTING = (
    SYSTEM + r"|backups?|backup jobs?|jobs?|cron(?: ?jobs?)?|runners?|ci runners?|nodes?|pods?|"
    r"replicas?|instances?|vms?|agents?|bots?|logs?|snapshots?|retention|quota|limit|timeout|"
    r"rate limit|heartbeat|sync|deploys?|builds?|reports?|alerts?|disks?|volumes?|buckets?|"
    r"pools?|worker pool|connection pool|threads?|connections?|queues?|limits?|exports?|imports?"
)
_TECH_WORDS = (
    r"python|rust|go|golang|java|kotlin|swift|typescript|javascript|node|deno|bun|ruby|php|"
    r"elixir|haskell|scala|clojure|c\+\+|c#|sql|postgres|postgresql|mysql|sqlite|redis|kafka|"
    r"docker|kubernetes|k8s|react|vue|svelte|angular|django|flask|fastapi|rails|spring|linux|"
    r"terraform|ansible|nix|aws|gcp|azure|pnpm|npm|yarn|turborepo|bazel|vim|neovim|emacs"
)
# A product or technology name: capitalised (not a plain English word) or well known.
TECH = rf"(?:(?-i:[A-Z][\w.+#/-]*[\w+#])|(?:{_TECH_WORDS})\b)"
_NOT_TECH = re.compile(
    r"^(?:I|The|A|An|It|This|That|My|Our|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|"
    r"Sunday|January|February|March|April|May|June|July|August|September|October|November|"
    r"December|English|Swedish|German|Spanish)\b"
)
_DATE = (
    r"(?:\d{4}-\d{2}-\d{2}|(?:on\s+|by\s+|in\s+|from\s+|until\s+|before\s+|after\s+)?(?-i:"
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\s+"
    r"\d{1,2})|\b\d{1,2}(?:st|nd|rd|th)?\s+(?-i:(?:January|February|March|April|May|June|July|"
    r"August|September|October|November|December))|(?:this|next|on|by)\s+"
    rf"{WEEKDAY}|{WEEKDAY}\b|tomorrow|next (?:week|month|year)|end of (?:the )?(?:week|month|"
    r"quarter|year)|in (?:\d+|two|three|four|a few) (?:days|weeks|months))"
)
_TIME = r"(?:\d{1,2}:\d{2}|\d{1,2}\s?(?:am|pm)|noon|midnight)"


def _is_tech(phrase: str) -> bool:
    head = phrase.strip()
    return bool(re.match(TECH, head, I_)) and not _NOT_TECH.match(head)


# --- rules: standing instructions -----------------------------------------------------------

_STANDING_HEAD = re.compile(
    r"^(?:please\s+)?(from now on|going forward|from today(?: on)?|starting (?:today|now|"
    r"tomorrow|next week|on \w+|\w+day)|as of today|effective (?:today|immediately)|"
    r"in (?:the )?future)\b,?\s+(.+)$",
    I_,
)
_STANDING_TAIL = re.compile(
    r"^(?:please\s+)?(.+?),?\s+(from now on|going forward|from today on|starting (?:today|now|"
    r"tomorrow|next week)|(?:every time|whenever|each time) [^,]+)\s*[.!]?$",
    I_,
)
# A norm: something that must, must not, or may only happen.
NORM = re.compile(
    r"\b(?:must|should|shall|has to|have to|needs? to|need|needs|requires?|are required|"
    r"is required|not allowed|no longer|only|always|never|no more|nobody|no one|don't|do not|"
    r"can't|cannot)\b",
    I_,
)
_BAN = re.compile(r"^(?:no|zero|only)\s+\w", I_)
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:use|answer|reply|respond|write|keep|put|ask|send|call|sign|add|avoid|"
    r"stop|start|include|mention|format|show|give|say|list|spell|measure|address|cc|tag|"
    r"label|check|run|double-check|skip|prefer|speak|talk|assume|treat)\b",
    I_,
)


def standing_rule(sentence: str, day: str) -> Fact | None:
    """A norm or an instruction that holds from now on: "X need Y from now on"."""
    head = _STANDING_HEAD.match(sentence)
    tail = None if head else _STANDING_TAIL.match(sentence)
    body = head.group(2) if head else tail.group(1) if tail else ""
    if not body or not (NORM.search(body) or _IMPERATIVE.match(body) or _BAN.match(body)):
        return None
    marker = head.group(1) if head else tail.group(2) if tail else ""
    when = "" if marker.lower() in {"from now on", "going forward"} else f" ({marker})"
    if re.match(r"(?:every|each) time|whenever", marker, I_):
        body, when = f"{body} {marker}", ""  # the condition is part of the rule
    text = third_person(body[0].lower() + body[1:]).rstrip(".")
    return Fact("rule", finish(f"User rule{when}: {text}"))


_NORM_SUBJECT = re.compile(
    r"^(?:(?:all|every|each|any|no)\s+)([\w/-]+(?:\s+[\w/-]+){0,3}?)\s+(?:must|should|has to|"
    r"have to|needs? (?:to\s+)?|requires?|get|go through|are required to|is required to)\b",
    I_,
)


def norm_rule(sentence: str, day: str) -> Fact | None:
    """ "All PRs need a linked issue", "no deploys go out without two approvals"."""
    if not _NORM_SUBJECT.match(sentence):
        return None
    return Fact("rule", finish("User rule: " + third_person(sentence[0].lower() + sentence[1:])))


# --- technical --------------------------------------------------------------------------------

_ON_TECH = re.compile(
    r"^(I'm|I am|we're|we are|I've been|we've been|I have been|we have been|everything is|"
    r"everything's|all (?:our )?services are|the team is)"
    r"\s+(?:now\s+|still\s+|all\s+|currently\s+|already\s+|fully\s+)?(on|running|using|built on)\s+"
    r"(.+)$",
    I_,
)
_DECIDED_BARE = re.compile(
    r"^(?:decided|decision made|final decision|agreed|we agreed)\s*(?:to|on|that|:|,)\s*(.+)$", I_
)


def decided(sentence: str, day: str) -> Fact | None:
    """A decision told without a subject: "Decided to drop the iOS widget for v1"."""
    if match := _DECIDED_BARE.match(sentence):
        return Fact("decision", finish(dated(f"decision: {third_person(match.group(1))}", day)))
    return None


_NOT_ON = re.compile(
    r"^(?:it|board|track|call|leave|vacation|holiday|my way|the same page|top of|the fence)\b|"
    r"^\S+\s+(?:time|timezone|hours|leave|team|call)\b",
    I_,
)


def on_tech(sentence: str, day: str) -> Fact | None:
    """ "We're on Python 3.12", "I'm running Arch", "we're using pnpm"."""
    match = _ON_TECH.match(sentence)
    if not match or _NOT_ON.match(match.group(3)) or not _is_tech(match.group(3)):
        return None
    return Fact("technical", finish(third_person(sentence)), match.group(3).split()[0])


_SYSTEM_IS = re.compile(
    rf"^(?:all\s+(?:of\s+)?)?(?:the|our|my)\s+((?:[\w.-]+\s+){{0,3}}?(?:{SYSTEM}))\s+"
    r"(?:is on|are on|is running|are running|lives on|sits on|is hosted on|are hosted on|is|are|"
    r"runs|run|uses|use)\s+"
    r"(?:still\s+|now\s+|all\s+|just\s+|mostly\s+|basically\s+)?(.+)$",
    I_,
)
_PRODUCT_IS = re.compile(rf"^(?-i:([A-Z][\w.+-]*))\s+is\s+(?:our|the|my)\s+(?:{SYSTEM})\b", I_)


def system_copula(sentence: str, day: str) -> Fact | None:
    """ "The API gateway is Kong", "my laptop runs Arch", "Kong is our gateway"."""
    match = _SYSTEM_IS.match(sentence)
    if match and _is_tech(match.group(2)) and not re.match(r"\d", match.group(2)):
        return Fact("technical", finish(third_person(sentence)), match.group(1))
    product = _PRODUCT_IS.match(sentence)
    if product and not _NOT_TECH.match(product.group(1)):
        return Fact("technical", finish(third_person(sentence)), product.group(1))
    return None


_SKILL = re.compile(
    r"^I(?:'ve| have)\s+(?:been\s+)?(?:done|doing|used|using|written|writing|coded|coding|"
    r"worked|working|programmed|programming)\s+(?:in\s+|with\s+)?(?:mostly\s+|mainly\s+|"
    r"nothing but\s+|only\s+)?(.+?)\s+for\s+(?:the\s+(?:last|past)\s+)?(?:\w+\s+)?"
    r"(?:years?|decades?|months?|a decade|a while|ages)\b|^I have\s+\w+\s+years?\s+of\s+(.+?)"
    r"(?:\s+experience)?\b",
    I_,
)
_WRITE_IN = re.compile(
    r"^(?:I|we)\s+(?:mostly\s+|mainly\s+|only\s+)?(?:write|code|build|do|program|develop)\s+"
    r"(?:everything\s+|it all\s+|all of it\s+|most things\s+|all (?:our|the|my) [\w-]+\s+|"
    r"(?:our|my) [\w-]+\s+|mostly\s+|mainly\s+|only\s+)?in\s+(.+)$",
    I_,
)


def skill(sentence: str, day: str) -> Fact | None:
    """ "I've done mostly Haskell for a decade", "we write everything in Kotlin"."""
    match = _SKILL.match(sentence)
    if match and _is_tech(match.group(1) or match.group(2) or ""):
        return Fact("technical", finish(dated(third_person(sentence), day)))
    write = _WRITE_IN.match(sentence)
    if write and _is_tech(write.group(1)):
        return Fact("technical", finish(third_person(sentence)))
    return None


# --- preferences ----------------------------------------------------------------------------

_FAVOURITE = re.compile(
    r"^(?:my|our)\s+(?:absolute\s+|all-time\s+|current\s+)?(favou?rite|fave|fav|go-to|goto|"
    r"preferred|usual|weapon of choice)\s+([\w -]{1,30}?)\s+(?:is|are|has been|remains|"
    r"would be)\s+(.+)$",
    I_,
)
# "I don't drink coffee", "I never work weekends": a habit. Not "I don't know/think/care".
_HABIT = re.compile(
    r"^I\s+(?:really\s+|just\s+|generally\s+|usually\s+|basically\s+)?(don't|do not|never|"
    r"no longer|rarely|only|mostly|usually)\s+([a-z]+)\b(.*)$",
    I_,
)
_NOT_HABIT = frozenset(
    """
    know think care mind remember understand get see want need have feel agree believe mean
    expect recall trust wonder guess suppose understand hear follow like love hate mean say
    tell ask worry bother forget recognise recognize follow doubt blame
    """.split()  # noqa: SIM905
)
_SOFT = frozenset(["just", "really", "still", "even", "also", "kind", "sort"])
_RATHER = re.compile(
    r"^(?:I'd|I would)\s+(?:much\s+)?rather\s+\w+|^(?:I'm\s+)?(?:not|never been)\s+(?:a|much of a)"
    r"\s+(?:big\s+|huge\s+)?fan\s+of\s+\S|^I'm\s+an?\s+(?:big|huge|massive)\s+fan\s+of\s+\S",
    I_,
)
_SORT = re.compile(
    r"^I'm\s+(?:(?:more|much more|definitely|very much|totally|kind of)\s+)?(?:of\s+)?an?\s+"
    r"([\w-]+(?:\s+[\w-]+)?)\s+(person|guy|girl|type|kind of person)\b|"
    r"^I'm\s+(?:a\s+)?(?:strict\s+)?(vegetarian|vegan|pescatarian|teetotal|teetotaller|"
    r"gluten-free|lactose intolerant|coeliac|celiac|allergic to [\w -]+|a night owl|"
    r"an early bird|a morning person|left-handed|colou?r-?blind)\b",
    I_,
)


def favourite(sentence: str, day: str) -> Fact | None:
    """ "My go-to editor is Zed", "my favourite database is SQLite"."""
    if fav := _FAVOURITE.match(sentence):
        return Fact("preference", finish(third_person(sentence)), fav.group(2).strip())
    return None


def habit(sentence: str, day: str) -> Fact | None:
    """Tastes stated as habits or kinds of person: "I don't drink coffee", "I'm vegetarian"."""
    match = _HABIT.match(sentence)
    if match and match.group(2).lower() not in _NOT_HABIT | _SOFT and match.group(3).strip():
        rest = match.group(3).strip()
        loose = match.group(1).lower() in {"usually", "mostly", "only"} and len(rest.split()) < 2
        if not loose and not re.search(
            r"^(?:it|that|this|so|too|anything|much|either)\b|"
            r"\b(?:it|that|this|them)[.!]?$",
            rest,
            I_,
        ):
            return Fact("preference", finish(third_person(sentence)), match.group(2))
    if _SORT.match(sentence):
        return Fact("preference", finish(third_person(sentence)))
    if _RATHER.match(sentence):
        text = sentence if sentence.lower().startswith("i") else "I'm " + sentence
        return Fact("preference", finish(third_person(text)))
    return None


# --- configuration --------------------------------------------------------------------------

_SCHEDULE = re.compile(
    r"^(?:the|our|my)?\s*([\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:has\s+|was\s+|is\s+|got\s+)?"
    r"(?:moved|moves|is moving|changed|changes|shifted|rescheduled|is now|are now|now starts|"
    r"now runs|now happens)\s+(?:from\s+.+?\s+)?(?:to\s+|at\s+|on\s+)?"
    rf"({_TIME}|{WEEKDAY}s?)\b",
    I_,
)
_QUANTITY = re.compile(
    rf"^(?:the|our|my)\s+((?:[\w.-]+\s+){{0,3}}?(?:{SETTING}))\s+(?:now\s+|all\s+|each\s+)?"
    r"(?:has|have|run|runs|autoscales?|scales?|is set to|are set to|are kept|is kept|keeps?|"
    r"retains?|is capped at|are capped at|is limited to|are limited to|gets?|holds?|stores?|"
    r"allows?|expires?|times out|fires|fire|triggers?|restarts?|rotates?|go|goes)\b(.*\d.*)$",
    I_,
)


def setting(sentence: str, day: str) -> Fact | None:
    """A part of a system with a number or a time: "the CI runners now have 16 GB each"."""
    schedule = _SCHEDULE.match(sentence)
    if schedule and schedule.group(1).lower() not in {"i", "we", "it", "that", "this", "he", "she"}:
        return Fact("configuration", finish(dated(third_person(sentence), day)))
    if quantity := _QUANTITY.match(sentence):
        return Fact("configuration", finish(dated(third_person(sentence), day)), quantity.group(1))
    return None


# --- projects -------------------------------------------------------------------------------

_EVENT = re.compile(
    r"^(?!(?:I|we|you|it|this|that|they)\b)(?:(?:the|our|my)\s+)?([\w' -]{2,40}?)\s+"
    r"(?:starts?|begins?|ends?|closes?|opens?|goes out|go out|goes live|go live|launches|launch|"
    r"ships?|lands?|is due|are due|kicks? off|wraps? up|finishes|arrives?|is scheduled|"
    r"are scheduled|is planned|are planned|happens|takes place|is on|are on|is set for|"
    r"is booked for|moves? to)\b(.*)$",
    I_,
)
_AWAY = re.compile(
    r"^I(?:'ll be|'m| will be| am|'m going to be)\s+(?:on|off|away|out)\b.*?\b(?:leave|vacation|"
    r"holiday|holidays|pto|sabbatical|a trip|travel(?:ling|ing)?|offline|out of office)\b",
    I_,
)
_PROGRESS = re.compile(
    r"\b(?:halfway|half way|almost done|nearly done|about done|mostly done|in progress|"
    r"\d{1,3}\s?% (?:done|there|through|complete)|on track)\b",
    I_,
)
_WORKING = re.compile(
    r"^(?:I'm|I am|we're|we are)\s+(?:\w+\s+)?(?:migrating|moving|porting|rewriting|converting|"
    r"switching|upgrading)\s+(.+)$",
    I_,
)


def progress(sentence: str, day: str) -> Fact | None:
    """Work reported in progress ("we're migrating X, about halfway"): a project, not a choice."""
    match = _WORKING.match(sentence)
    if match and _PROGRESS.search(sentence):
        return Fact("project", finish(dated(third_person(sentence), day)), match.group(1))
    return None


def event(sentence: str, day: str) -> Fact | None:
    """Something with a date: "our Series A closes on April 15", "I'll be on leave from May 2"."""
    if _AWAY.match(sentence) and re.search(_DATE, sentence, I_):
        return Fact("project", finish(dated(third_person(sentence), day)))
    match = _EVENT.match(sentence)
    if match and re.search(_DATE, match.group(2), I_):
        return Fact("project", finish(dated(third_person(sentence), day)), match.group(1))
    return None


# Tried before the verb rules: a frame whose signal outranks a rule's verb.
FIRST = (standing_rule, norm_rule, progress)
# Tried after them: shapes for what no verb rule recognised.
LATER = (favourite, decided, on_tech, system_copula, skill, setting, event, habit)
