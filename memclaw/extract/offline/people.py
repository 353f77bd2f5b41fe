"""Who the user is and who they work with: identity and relationship rules (English).

Identity is collected over a whole message, so that "I'm Sarah, I work at
Cloudflare" becomes one memory about one person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memclaw.extract.offline.dates import event_when
from memclaw.extract.offline.text import dated, finish, third_person

I_ = re.IGNORECASE
NAME = r"(?-i:[A-ZÅÄÖÜÉ][a-zåäöüéèáíóú]+(?:[ -][A-ZÅÄÖÜÉ][a-zåäöüéèáíóú]+)?)"
_ORG_WORD = r"[A-Z][\w&-]*(?:\.[A-Za-z0-9][\w&-]*)*"
ORG = rf"(?-i:{_ORG_WORD}(?:\s+(?!I\b){_ORG_WORD}){{0,3}})"
NOT_A_NAME = frozenset(
    """
    The This That It We I Our My He She They There Then Also And But So Not Just Really
    Still Sure Sorry Happy Glad Back Here Done Fine Good Ok Okay Going Working Looking
    Trying Using Building Planning New On In At From Based Yesterday Today Tomorrow Monday
    Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June
    July August September October November December Docker Kubernetes Postgres PostgreSQL
    Python Redis Celery GitHub Github GitLab Jenkins Terraform Slack Jira Linux Windows Mac
    Team Everyone Nobody Someone Each Every Project Service Backend Frontend Cron Heartbeat
    User Assistant Agent Nothing English Swedish German Spanish French American British
    Canadian Excited Tired Busy Ready Interested Afraid Hey Hi Hello Thanks Please Let Never
    Always Don't
    """.split()  # noqa: SIM905
)
ROLE_WORDS = (
    r"engineer|developer|dev|programmer|designer|manager|scientist|analyst|architect|founder|co-founder|"
    r"cofounder|cto|ceo|cfo|coo|vp|director|lead|consultant|contractor|freelancer|student|"
    r"researcher|teacher|professor|writer|nurse|doctor|lawyer|accountant|admin|administrator|"
    r"sre|devops|ops|sysadmin|qa|tester|pm|product owner|marketer|recruiter|intern|owner|"
    r"editor|artist|photographer|"
    r"boss|colleague|teammate|mentor|coach|assistant|head of [a-z]+"
)
PERSONAL_ROLES = (
    r"manager|boss|lead|team lead|tech lead|wife|husband|partner|girlfriend|boyfriend|friend|"
    r"colleague|cofounder|co-founder|dog|cat|sister|brother|mother|father|mom|dad|son|daughter|"
    r"mentor|doctor|dentist|accountant|landlord|neighbou?r|assistant|cto|ceo"
)


@dataclass(frozen=True)
class Fact:
    category: str
    text: str
    entity: str = ""  # what the fact is about, so a follow-up "It ..." can join it
    section: str = ""  # a finer target section, e.g. "Work" for an employer


# --- identity, collected over the whole message -------------------------------------------

_NAME_RE = re.compile(rf"(?i:\b(?:my name is|my name's|call me|i'm|i am))\s+({NAME})\b")
_HERE_RE = re.compile(rf"^(?i:(?:hi|hey|hello)[,!]?\s+)?(?i:(?:it's|this is)\s+)?({NAME}) here\b")
_TITLE = rf"(?i:(?:[a-z][\w/-]*\s){{0,4}}?(?:{ROLE_WORDS}))"
# After "promoted to" any short title counts: "staff", "principal engineer", "head of data".
# A title ends where the sentence says when: "promoted to staff engineer two weeks ago".
_WHEN_WORDS = (
    r"yesterday\b|today\b|tomorrow\b|tonight\b|last\b|next\b|this\b|on\b|in\b"
    r"|(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of)"
    r"\s+(?:days?|weeks?|months?)\b"
)
_TITLE_ANY = (
    rf"(?i:[a-z][\w/-]*(?:\s+(?!at\b|for\b|with\b|and\b|but\b|so\b|{_WHEN_WORDS})"
    r"[a-z][\w/-]*){0,3})"
)
_ROLE_RE = re.compile(
    rf"\b(?i:i'm|i am|i work as)\s+(?i:a|an|the)\s+({_TITLE})"
    rf"(?:\s+(?i:at|for|with|in)\s+({ORG}))?"
)
_NAMED_ROLE_RE = re.compile(
    rf"{NAME},\s+(?i:an?\s+|the\s+)?({_TITLE})\s+(?i:at|for|with)\s+({ORG})"
)
# "I'm a freelance translator": a job noun by its ending, when no listed role word fits.
_AGENT_NOUN = re.compile(
    r"\b(?i:i'm|i am|i work as)\s+(?i:an?)\s+((?i:[a-z-]+\s+){0,2}?"
    r"(?!(?i:beginner|learner|user|member|lover|believer|fan|number|winner|loser|player|"
    r"dreamer|thinker|worrier|talker|newcomer|outsider|foreigner|other|stranger)\b)"
    r"(?i:[a-z]+(?:er|or|ist|ian|ant|ent)))\b(?=\s*(?:[.,;!]|$|\s+(?:at|for|in|with|and)\b))"
)
# "I just joined Spotify as a staff engineer", "I started at Klarna in May".
_JOINED_RE = re.compile(
    r"\b(?i:i)\s+(?i:(?:just\s+|recently\s+|finally\s+)?(?:joined|started (?:a new job )?at|"
    rf"started working (?:at|for)|got a job at))\s+({ORG})(?:\s+(?i:as)\s+(?i:an?\s+)?"
    rf"({_TITLE_ANY}))?"
)
_EMPLOYER_RE = re.compile(
    r"\b(?i:i\s+(?:currently\s+|now\s+|actually\s+)?work\s+(?:at|for)|i'm\s+(?:at|with)|i\s+am\s+(?:at|with))\s+"
    rf"({ORG})"
)
_TZ = r"(?:UTC|GMT)[+-]\d{1,2}(?::\d\d)?|[A-Z][a-z]+/[A-Z][A-Za-z_]+|[A-Z]{2,4}"
_TZ_RE = re.compile(
    rf"\b(?i:time ?zone|tz)\s*(?i:is|:)?\s*({_TZ})\b|\b({_TZ})\s+(?i:time ?zone|time)\b"
)
_PLACE_RE = re.compile(
    r"\b(?i:i\s+live\s+in|i'm\s+living\s+in|i(?:'m|\s+am)\s+(?:based|located)\s+in|"
    r"i(?:'m|\s+am)\s+from|(?<!\bis )(?<!'s )(?<!are )(?<!was )based\s+in|"
    r"i\s+(?:just\s+|recently\s+)?moved\s+to|"
    r"i(?:'ve|\s+have)\s+(?:just\s+)?moved\s+to)\s+"
    r"([A-Z][\w'-]*(?:,?\s+[A-Z][\w'-]*){0,3}|(?!(?:a|an|the|my|our|here|there|town|"
    r"the city|another|this|that|it)\b)[a-zåäöüé][\w'-]{2,}(?=[\s,.!;]|$))"
)
# A change of job: "I just got promoted to engineering manager", "I joined Acme as a PM".
_CHANGE_RE = re.compile(
    r"(?:^|\b(?i:i)\s+)(?i:(?:just\s+|finally\s+|recently\s+|officially\s+)?(?:got|was|"
    r"have been|'ve been|am being|'m being)\s+promoted\s+to|(?:just\s+|recently\s+)?"
    rf"(?:became|got hired as|started as))\s+(?i:an?\s+|the\s+)?({_TITLE_ANY})"
    rf"(?:\s+(?i:at|for|with)\s+({ORG}))?"
)
_TEAM_RE = re.compile(
    r"\b(?i:i'm|i\s+am|i\s+work|i\s+(?:run|lead|manage|head))\s+(?i:(?:on|in)\s+)?(?i:the)\s+"
    r"((?i:[\w-]+\s+){1,3}?)((?i:team|squad|group|department))\b"
    rf"(?:\s+(?i:at|for)\s+({ORG}))?"
)
_LANGS_RE = re.compile(r"\b(?i:i speak)\s+([A-Z][a-z]+(?:(?:,\s*|\s+and\s+)[A-Z][a-z]+)*)")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _join(clauses: list[str]) -> str:
    return clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + " and " + clauses[-1]


_BOUNDARY = re.compile(r"[.!?;]|,\s|\s(?:and|but|then)\s", I_)


def _when(message: str, match: re.Match[str] | None, day: str) -> str | None:
    """The day of the event ``match`` tells ("on 2026-10-04"), from its own clause.

    The day said after the event wins ("I moved to Lisbon yesterday and start at X
    today"), else the one said before it in the clause ("Yesterday I moved to Lisbon").
    """
    if match is None or not day:
        return None
    end = _BOUNDARY.search(message, match.end())
    if when := event_when(message[match.start() : end.start() if end else None], day):
        return when
    start = max((b.end() for b in _BOUNDARY.finditer(message, 0, match.start())), default=0)
    return event_when(message[start : match.start()], day)


def identity_fact(message: str, day: str = "") -> Fact | None:
    """One identity fact from everything a message says about who the user is."""
    name = None
    for regex in (_NAME_RE, _HERE_RE):
        for match in regex.finditer(message):
            if match.group(1).split()[0] not in NOT_A_NAME:
                name = match.group(1)
                break
        if name:
            break
    role = _ROLE_RE.search(message) or _NAMED_ROLE_RE.search(message)
    employer = _EMPLOYER_RE.search(message)
    tz_match = _TZ_RE.search(message)
    place = _PLACE_RE.search(message)
    langs = _LANGS_RE.search(message)
    change = _CHANGE_RE.search(message)
    joined = _JOINED_RE.search(message)
    if joined and joined.group(1).split()[0] in NOT_A_NAME:
        joined = None
    noun = None if (role or change) else _AGENT_NOUN.search(message)
    team = _TEAM_RE.search(message)
    timezone = tz_match and (tz_match.group(1) or tz_match.group(2))
    location = place and place.group(1)
    if location and timezone and location.split()[0] == timezone:
        location = None  # "based in EST timezone" is a timezone, not a place
    # A change told with its day ("moved to Lisbon yesterday") keeps the event and the day:
    # read months later, "is based in Lisbon" would lose both.
    moved = place and "moved" in place.group(0).lower()
    moved_on = _when(message, place, day) if moved else None
    event_on = _when(message, change or joined, day)
    clauses = []
    if name:
        clauses.append(f"is {name}")
    org = (role and role.group(2)) or (employer and employer.group(1))
    team_org = team and not org and team.group(3)
    if role:
        title = role.group(1).strip()
        clauses.append(f"is {_article(title)} {title}" + (f" at {org}" if org else ""))
    elif org:
        clauses.append(f"works at {org}")
    if noun and not joined:
        title = noun.group(1).strip()
        clauses.append(f"is {_article(title)} {title}" + (f" at {org}" if org else ""))
    if joined and not role:
        clauses.append(f"joined {joined.group(1)}")
        if joined.group(2):
            clauses[-1] += f" as {_article(joined.group(2))} {joined.group(2).strip()}"
        if event_on and not change:
            clauses[-1] += f" {event_on}"
    if change and not role:
        org = org or change.group(2)
        clauses.append(
            f"was promoted to {change.group(1)}"
            if "promot" in change.group(0).lower()
            else f"became {_article(change.group(1))} {change.group(1)}"
        )
        if org:
            clauses[-1] += f" at {org}"
        if event_on:
            clauses[-1] += f" {event_on}"
    if team:
        verb = team.group(0).split()[1].lower()
        kind = team.group(2).lower()
        doing = f"{verb}s the" if verb in {"run", "lead", "manage", "head"} else "is on the"
        clauses.append(f"{doing} {team.group(1).strip()} {kind}")
        if team_org:
            clauses[-1] += f" at {team_org}"
    if location:
        location = location[:1].upper() + location[1:]
        clauses.append(f"moved to {location} {moved_on}" if moved_on else f"is based in {location}")
    if timezone:
        clauses.append(f"is in the {timezone} timezone")
    if langs:
        clauses.append(f"speaks {langs.group(1)}")
    if not clauses:
        return None
    section = "Identity" if name or location or timezone or langs else "Work"
    if name:
        # "Dana Okafor is a data engineer at X, based in Lisbon": the name is the subject.
        rest = clauses[1:]
        lead = "is "
        if rest and rest[0].startswith(lead):
            rest = [rest[0]] + [c[len(lead) :] if c.startswith(lead) else c for c in rest[1:]]
        text = name + (" " + _join(rest) if rest else "")
        if not rest:
            text = f"User is {name}"
    else:
        text = "User " + _join(clauses)
    if (change or joined) and day and not event_on:
        text = dated(text, day)  # a promotion is news on the day it is told
    return Fact("identity", finish(text), name or "user", section)


_OWNS = re.compile(
    rf"\b({NAME})(?:\s+(?i:from|on|in)\s+(?i:the\s+)?[a-z][\w-]*(?:\s+(?i:team|squad))?)?\s+"
    r"(?:(?:now|also|still)\s+)?(?:owns|leads|manages|handles|maintains|is responsible for|"
    r"is in charge of|reports to|heads|looks after|takes care of|signs off on|approves|"
    r"runs|reviews|does all)\s+\S"
)
_IS_ROLE = re.compile(
    rf"\b({NAME})\s+is\s+(?:now\s+|also\s+|still\s+|officially\s+)?(our|my|the)\s+(new\s+)?((?i:(?:[\w-]+\s+){{0,3}}?(?:{ROLE_WORDS})))\b(.*)$"
)
_MY_ROLE = re.compile(
    rf"\b(?i:my)\s+(?i:new\s+)?((?i:{PERSONAL_ROLES}))(?:'s name is|\s+is\s+called|\s+is\s+named|"
    rf"\s+is|,)?\s+(?:(?:Dr|Prof|Mr|Mrs|Ms)\.?\s+)?({NAME})\b(.*)$"
)
_REPORT = re.compile(rf"\b(?i:i\s+(?:report to|work under))\s+({NAME})\b(.*)$")
_HAVE_PET = re.compile(
    rf"\b(?i:i have an?)\s+((?i:(?:\w+\s+){{0,2}}?(?:dog|cat|puppy|kitten|horse|parrot|rabbit|son|"
    rf"daughter|brother|sister|kid|child)))\s+(?i:named|called)\s+({NAME})(.*)$"
)
_JOINS = re.compile(
    rf"^({NAME})\s+(?:starts|joins|joined|is joining|is starting|started|left|is leaving)\b"
)


def _person(name: str) -> bool:
    return name.split()[0] not in NOT_A_NAME and name.split()[-1] not in NOT_A_NAME


def relationship(sentence: str, day: str) -> Fact | None:
    owns = _OWNS.search(sentence)
    if owns and _person(owns.group(1)):
        return Fact("relationship", finish(third_person(sentence[owns.start(1) :])), owns.group(1))
    role = _IS_ROLE.search(sentence)
    if role and _person(role.group(1)):
        whose = {"our": "the team's", "my": "the user's"}.get(role.group(2).lower(), "the")
        text = f"{role.group(1)} is {whose} {role.group(3) or ''}{role.group(4)}{role.group(5)}"
        return Fact("relationship", finish(third_person(text)), role.group(1))
    mine = _MY_ROLE.search(sentence)
    if mine and _person(mine.group(2)):
        rest = mine.group(3)
        # "My sister Lina lives in Utrecht": what follows the name is hers to do.
        joined = " and" if re.match(r"\s+(?!and\b|who\b|which\b)[a-z]", rest) else ""
        text = f"{mine.group(2)} is the user's {mine.group(1).lower()}{joined}{rest}"
        return Fact("relationship", finish(third_person(text)), mine.group(2))
    report = _REPORT.search(sentence)
    if report and _person(report.group(1)):
        text = f"User reports to {report.group(1)}{report.group(2)}"
        return Fact("relationship", finish(third_person(text)), report.group(1))
    pet = _HAVE_PET.search(sentence)
    if pet and _person(pet.group(2)):
        text = (
            f"User has {_article(pet.group(1))} {pet.group(1)} named {pet.group(2)}{pet.group(3)}"
        )
        return Fact("relationship", finish(third_person(text)), pet.group(2))
    joins = _JOINS.match(sentence)
    if joins and _person(joins.group(1)) and " " in joins.group(1):
        return Fact("relationship", finish(dated(third_person(sentence), day)), joins.group(1))
    return None


_OPENS_NAMED = re.compile(rf"^({NAME})\s+(?-i:[a-z])")
# What a person the user speaks of has one of: where they live, who employs them, their
# role and manager (the judgement's single-valued attributes of a person).
_DURABLE = frozenset({"place", "employer", "role", "manager"})


def named_attribute(sentence: str, day: str) -> Fact | None:
    """ "Sam lives in Lisbon with his cat Miso", "Priya works at Spotify", said by the user:
    where a person they name lives, who employs them, what they are (someone the user knows:
    a remembered line of this shape may be the person's own, so only extraction asks this).
    The judgement reads the attribute and whose it is, so a later "Sam moved to Porto"
    updates it."""
    from memclaw.judgement import read

    named = _OPENS_NAMED.match(sentence)
    if named is None or not _person(named.group(1)):
        return None
    claim = read(sentence, "english")
    name = {w.key for w in claim.words if w.end <= named.end(1)}
    if not any(f.attribute in _DURABLE and f.owner and f.owner <= name for f in claim.frames):
        return None
    return Fact("relationship", finish(dated(third_person(sentence), day)), named.group(1))
