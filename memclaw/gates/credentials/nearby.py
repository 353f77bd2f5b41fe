"""A word that names a credential and, in the same clause, a value no word looks like.

People do not only write "the password is X". They write "8835 is the gate code", "PUK do
chip: 44910372", "Tresorcode im Hotelzimmer: 5512", "combination 19-07-33", "the one-time
code they texted me was 604 219", a list of backup codes under a heading, a table with a
"code" column. What these share is a credential word (in any of the languages the gate reads,
inside a compound and inflected too: "Huvudlösenordet", "Masterpasswort", "dørkoden",
"Ovikoodi", "API-Schlüssel") and, in the same clause, before or after it, a value that is
not a word: a number of four digits or more (grouped or not), or letters mixed with digits
or symbols, tied to the word (a copula, a colon, a dash, a list). Counts, dates, times,
amounts, sizes and ordinals are not such values, nor is a number that names a thing of
its own ("the alarm code for flat 2240").

The grammar-bound rules (:mod:`memclaw.gates.credentials.principles`) take a value of any shape,
plain words too, when a copula or a colon ties it to the word; this one asks less of the
sentence and more of the value.
"""

from __future__ import annotations

import re
import unicodedata

from memclaw.gates.credentials.principles import (
    LOCKS,
    OF_WORDS,
    QUOTE_MARKS,
    is_credential,
    names_credential,
)
from memclaw.gates.credentials.values import (
    Candidate,
    is_non_value,
    is_placeholder,
    strong_password,
)
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["credential_words", "nearby_candidates", "same_sentence_values"]

# Credential words by their roots, with a compound head before them and an inflection after
# ("huvud|lösenord|et", "master|passwort", "dør|kode|n", "API-|sleutel").
_TAILS = (
    r"passw(?:or[dt]|d)|passord|lösen(?:ord)?|kennwort|wachtwoord|salasana|senha|contraseña|"
    r"has[łl](?:o|a|em|u|e)|adgangskode|kodeord|geheimzahl|geheimnummer|(?<=mot de )passe|"
    r"kod|kode|koodi|code|codice|código|codigo|"
    r"nøgle|nyckel|schlüssel|sleutel|klucz|chiave|chave|clave|"
    r"cvv2?|cvc2?|csc|mdp|pwd|"
    r"combina(?:tion|ción|ison|zione|ção|tie)|kombina(?:tion|cja|cji)|szyfr"
)
# (Finnish cases too: "salasanaksi", "salasanalla", "koodit".)
_INFLECTION = (
    r"(?:s|e|en|et|er|ene|erna|n|a|an|na|u|y|i|in|ia|ie|o|ów|em|om|ets|ens|t|ksi|lla|lle|"
    r"lta|ssa|sta|nsa|ni|si)?"
)
_TAIL_RE = LazyPattern(rf"(?i)(?:{_TAILS}){_INFLECTION}(?![\w'’])")
# A PIN, a PUK, a key or a secret only as a word of its own ("Alpin", "monkey" are not);
# not keys or tokens in the plural, which are counted ("1200 keys in Redis", "max tokens").
# A token is one when what it grants is named ("auth token", "access token"); tokens in
# the plural are talked about ("Bearer tokens are documented in RFC 6750").
_GRANTS = "".join(
    rf"(?<={word}{sep})|" for word in ("auth", "access", "bearer", "refresh", "api") for sep in " -"
)
_OWN_WORD_RE = LazyPattern(
    r"(?i)\b(?:psk|pwd?|(?:pin|puk)(?:-?(?:kod|kode|koodi|code|nummer|number))?"
    rf"(?:s|en|et|n|a|u|y|i|in|ów)?|(?:api[ -]?)?(?:key|secret|clé|clef)|(?:{_GRANTS[:-1]})token)\b"
)
# Words that make a code, a pin or a number something public, as its head or a word beside
# it: a postcode, a bar code, a country code, an error code, a discount code, a flight's
# code; a "spin", "opcode", "unicode", "encode".
_PUBLIC = (
    r"post|postal|zip|pocztow\w*|area|bar|qr|source|quell|error|fehler|fel|status|country|land|"
    r"promo|rabatt|discount|voucher|gutschein|coupon|kupong|dress|morse|exit|language|sprach|"
    r"swift|bic|iata|product|produkt|vorwahl|riktnummer|flight|flug|flyg|vuelo|vol|volo|voo|"
    r"vlucht|lot|booking|bokning|buchung|reserva|réservation|prenotazione|tracking|"
    r"kampanj|descuento|promoción|réduction|sconto|desconto|korting|kortings|rabat|check-in|"
    r"checkout|course|kurs|kurssi|kursus|cours|corso|curso|cursus|alennus"
)
# Heads that only make another word: "encode", "decode", "avkoda", "unicode", "opcode", "spin".
_PUBLIC_HEAD_RE = LazyPattern(
    rf"(?i)(?:{_PUBLIC}|en|de|av|uni|op|short|geo|trans|pseudo|s|sp|chop|pro|mat|hair|ter|ap|cas|"
    r"bit|cap|x)-?"
)
_PUBLIC_WORD_RE = LazyPattern(rf"(?i)(?:{_PUBLIC})\b")
_NEIGHBOURS_RE = LazyPattern(r"(?:[\w'’-]+\s+){0,2}\Z")
_NEXT_WORDS_RE = LazyPattern(
    r"(?:\s+(?:of|for|de|del|do|da|di|du|dla|van|för|für)\b)?(?:\s+[\w'’-]+){1,3}"
)
# Where a clause ends: a full stop, "!" or "?" before a capital or the end (not the "!"
# of "Kesä2020! ja uusi …"), a line break.
_CLAUSE_END_RE = LazyPattern(r"[.!?](?=\s+(?-i:[A-ZÀ-Þ])|\s*\Z)|\n")
_TOKEN_RE = LazyPattern(r"[^\s,;()\[\]{}\"'«»“”|]+")
_DIGIT_GROUPS_RE = LazyPattern(
    r"(?<![\w/+-])(?<![.,:]\d)\d{1,4}(?:[ -]\d{1,4})+(?![\w/%-]|[.,:]\d)"
)
_NOT_SECRET_NUMBER_RE = LazyPattern(
    # (A date, a time stamp: "2026-12-06T11:04:43+00:00".)
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|"
    r"\d{2}-\d{2}-\d{4}|\d{1,2}[:.h]\d{2}|\d+(?:[.,]\d+)+"
    r"|\d+(?:st|nd|rd|th|e|er|ème|º|ª|:e|:a|:o|\.)"
    r"|\d+-?(?:bits?|bytes?|chars?|characters?|digits?|stellig\w*|siffrig\w*|cifr\w*|k|kb|mb|gb)"
)
# Right after the number, a unit makes it an amount or a count ("12 characters", "45 €").
_UNIT_RE = LazyPattern(
    r"(?i)\s?(?:%|€|\$|£|kr\b|sek\b|nok\b|dkk\b|eur|euro|usd|zł|pln|chf|km\b|kg\b|ms\b|"
    r"characters|chars|digits|zeichen|stellen|tecken|siffror|tegn|cifre|caracteres|dígitos|"
    r"caractères|chiffres|caratteri|cifre|tekens|cijfers|znaków|cyfr|merkkiä|numeroa|"
    r"times|tries|days|weeks|months|years|minutes|hours|seconds|requests|calls|users|items|"
    r"people|steps|entries|rows|lines|words|bits?|bytes|kb|mb|gb|tokens|pages)"
)
# "8835 is the gate code", "9047 är koden till garaget": the value opens the clause, a
# copula ties it to the word a few words on.
_FIRST_VALUE_RE = LazyPattern(
    r"(?i)\s*(?:(?:the|die|der|das|el|la|le|il|o|a|de|het|den|det)\s+)?(?P<v>\S+)\s+"
    r"(?:is|är|ist|es|est|c'est|è|é|er|on|jest|=)\s+(?:\S+\s+){0,3}\Z"
)
_PUBLIC_KEY_RE = LazyPattern(r"(?i)ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|fingerprint|sha256:|md5:")
_WORDS_AFTER = 24
# Under a heading that ends on a colon: a list item, a table row, a line of one value.
# (A line of a few values, each with a digit, is one too: recovery codes printed two to a
# line; a line of words is not.)
_LIST_ITEM_RE = LazyPattern(
    r"[ \t]*(?:[-*•]|\d+[.)]|\|)[^\n]*|[ \t]*[^\s]+[ \t]*(?=\n|\Z)"
    r"|[ \t]*\S*\d\S*(?:[ \t]+\S*\d\S*){1,5}[ \t]*(?=\n|\Z)"
)


def nearby_candidates(text: str) -> list[Candidate]:
    """Every value no word looks like that shares a clause with a credential word."""
    if not any(c.isdigit() or c in QUOTE_MARKS for c in text):
        return []  # every value this rule takes holds a digit, or is quoted
    found: list[Candidate] = []
    for start, end in credential_words(text):
        for lo, hi, how in _windows(text, start, end):
            if how == "strong":
                found.extend(_strong_values(text, lo, hi))
            else:
                found.extend(_values(text, lo, hi, start, end, item=how == "item"))
    return found


# Where a credential word may be, found with ``str.find`` (next to free on a long transcript)
# before the patterns are tried there.
_STEMS = (
    "pass", "lösen", "kennw", "wachtw", "salasan", "senha", "contrase", "hasł", "hasl", "adgangs",
    "geheim", "kod", "koodi", "code", "codi", "códi", "nøgle", "nyckel", "schlüssel",
    "sleutel", "klucz", "chiave", "chave", "clave", "cvv", "cvc", "csc", "mdp", "pwd",
    "combina", "kombina", "szyfr", "pin", "puk", "psk", "pw", "key", "secret", "clé", "clef",
    "token",
)  # fmt: skip


def credential_words(text: str) -> list[tuple[int, int]]:
    lower = text.lower()
    spans: set[tuple[int, int]] = set()
    for stem in _STEMS:
        at = lower.find(stem)
        while at != -1:
            if (own := _OWN_WORD_RE.match(text, at)) is not None:
                spans.add(own.span())
            elif (tail := _TAIL_RE.match(text, at)) is not None:
                start = at
                while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_-'’"):
                    start -= 1
                head = text[start:at]
                if not head or not _PUBLIC_HEAD_RE.fullmatch(head):
                    spans.add((start, tail.end()))
            at = lower.find(stem, at + 1)
    spans.update(_misspelt(text))
    return sorted(span for span in spans if not _public_neighbour(text, *span))


# People misspell the word too ("pasword", "Passwrot", "lösenrdet"): one letter left out,
# added, changed or swapped with the next is still that word.
# Accents are dropped first ("contrasenia" is "contraseña" with "ñ" spelt "ni").
_SPELT = (
    "password", "passwort", "passord", "losenord", "losenordet", "wachtwoord", "kennwort",
    "contrasena", "salasana", "adgangskode", "passwords", "passworter",
)  # fmt: skip
_NEAR_SPELT_RE = LazyPattern(r"(?i)\b[plwkcsa][^\W\d_]{5,10}\b")


_SPELT_BY_LETTER = {c: tuple(w for w in _SPELT if w[0] == c) for c in {w[0] for w in _SPELT}}


def _misspelt(text: str) -> list[tuple[int, int]]:
    """(The first letter is kept in a slip of the pen: "pssword", "lösenrdet".)"""
    found = []
    for m in _NEAR_SPELT_RE.finditer(text):
        word = m.group().lower()
        if not word.isascii():
            word = _unaccented(word)
        if any(_one_edit(word, spelt) for spelt in _SPELT_BY_LETTER.get(word[0], ())):
            found.append(m.span())
    return found


def _unaccented(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with one letter left out, added, changed or swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    swapped = i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i]
    return a[i + 1 :] == b[i + 1 :] or (swapped and a[i + 2 :] == b[i + 2 :])


def _public_neighbour(text: str, start: int, end: int) -> bool:
    """ "zip code", "código postal", "kod pocztowy", "código do voo": a public code."""
    before = _NEIGHBOURS_RE.search(text, max(0, start - 40), start)
    after = _NEXT_WORDS_RE.match(text, end)
    near = [*(before.group().split() if before else ()), *(after.group().split() if after else ())]
    return any(_PUBLIC_WORD_RE.fullmatch(word) for word in near)


def _windows(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """Where a credential word's value may be: the rest of its clause, a few words on; a
    value that opens the clause ("8835 is the gate code"); the list or table under a line
    that ends on it ("Recovery codes for GitHub:"), each item marked as one; the whole
    clause, for a value only a password looks like. Each reaches a bounded way, so a
    long text without a full stop costs what a short one does, per word."""
    clause = _clause_start(text, start)
    reach = min(len(text), end + _REACH)
    if "example" in text[clause : end + 80].lower() or _PUBLIC_KEY_RE.search(
        text, clause, end + 80
    ):
        return []  # documentation, or a public key and its fingerprint
    stop = _CLAUSE_END_RE.search(text, end, reach)
    if stop is not None and stop.group() == "?":
        stop = _CLAUSE_END_RE.search(text, stop.end(), reach)  # the answer follows
    clause_end = stop.start() if stop else reach
    words_after = list(re.finditer(r"\S+", text[end:clause_end]))[:_WORDS_AFTER]
    windows = [
        (end, end + words_after[-1].end() if words_after else end, "tied"),
        (clause, clause_end, "strong"),
    ]
    first = _FIRST_VALUE_RE.match(text, clause, start)
    if first is not None:
        windows.append((*first.span("v"), "tied"))
    line_end = text.find("\n", end, reach)
    if line_end != -1 and (
        text[end:line_end].rstrip().endswith((":", "|"))
        or _in_table(text, clause, start)
        or _HEADING_RE.fullmatch(text, clause, line_end)
    ):
        at = line_end + 1
        for _ in range(_LIST_ITEMS):
            item = _LIST_ITEM_RE.match(text, at, min(len(text), at + _REACH))
            if item is None:
                break
            windows.append((*item.span(), "item"))
            at = item.end() + 1
    return [(lo, hi, how) for lo, hi, how in windows if _may_hold_value(text, lo, hi)]


_REACH = 400
_LIST_ITEMS = 50
# A line of words alone, a heading even without its colon ("Recovery codes"; not a line of
# a config file, "DB_PASSWORD=${DB_PASSWORD}").
_HEADING_RE = LazyPattern(r"[ \t#*]*[^\W\d_](?:[^\W\d_]|[ \t'’-])*:?[ \t]*")


def _may_hold_value(text: str, lo: int, hi: int) -> bool:
    """Every value this rule takes holds a digit or is quoted: most clauses hold neither."""
    return any(c.isdigit() or c in QUOTE_MARKS for c in text[lo:hi])


def _clause_start(text: str, at: int) -> int:
    floor = max(0, at - _REACH)
    cut = max(text.rfind("\n", floor, at), *(text.rfind(p + " ", floor, at) for p in ".!?"))
    return cut + 1 if cut != -1 else floor


def _in_table(text: str, line_start: int, at: int) -> bool:
    return text[line_start:at].lstrip().startswith("|")


def _strong_values(text: str, lo: int, hi: int) -> list[Candidate]:
    """In a clause that names a credential, a value only a password looks like, tied or not:
    letters, digits and a symbol or an inner capital ("Stroopwafel!81", "Marzipan-Kite-77 ←
    that's the new password", "logowałem się hasłem Wisla-Gdansk#7"); not a model's code
    ("KX-2200", "SM-G991B")."""
    found: list[Candidate] = []
    for m in _TOKEN_RE.finditer(text, lo, hi):
        value = m.group().rstrip(".!?:")
        if not strong_password(value) or _PRODUCT_CODE_RE.fullmatch(value):
            continue
        if _not_a_word(value) and not _public_number(text, m.start(), value):
            found.append((m.start(), m.start() + len(value), "credential", 0))
    return found


_PRODUCT_CODE_RE = LazyPattern(r"[A-Z]{1,5}-?[A-Z]?\d{1,5}[A-Z]{0,3}|[A-Z][a-z]+-?\d{1,3}[a-z]?")


def _values(
    text: str, lo: int, hi: int, word_start: int, word_end: int, *, item: bool = False
) -> list[Candidate]:
    """The values in ``text[lo:hi]`` tied to the credential word that ends at ``word_end``:
    right after it, after a copula (a hedge between: "är typ Granris55"), a colon or a
    dash, or next in a list of them, or closing a clause that names the lock and where it
    is ("kod do sejfu w pokoju 6644"); not a number that names a thing of its own ("flat
    2240", "Storgatan 1450", "Haus 1820"). In a list under a heading of codes, a code of
    three digits is one too ("- nyckelskåp: 118")."""
    shortest = 3 if item else 4
    spans = [
        m.span()
        for m in _DIGIT_GROUPS_RE.finditer(text, lo, hi)
        if sum(c.isdigit() for c in m.group()) >= 4
    ]
    for m in _TOKEN_RE.finditer(text, lo, hi):
        value = m.group().rstrip(".!?:")
        if any(c.isdigit() for c in value) and _not_a_word(value, shortest=shortest):
            spans.append((m.start(), m.start() + len(value)))
    for m in _QUOTED_RE.finditer(text, lo, hi):
        inner = next(g for g in m.groups() if g is not None).strip()
        # A passphrase, of a word for a password ("the key message was 'ship small, ship
        # often'" is no key); a value no word looks like; a quoted word names something.
        phrase = len(inner.split()) >= 3 and _PASSWORD_RE.search(text, word_start, word_end)
        if (phrase or _not_a_word(inner)) and not is_placeholder(inner):
            at = text.index(inner, m.start())
            spans.append((at, at + len(inner)))
    found: list[Candidate] = []
    # A value given already (redacted: "password [REDACTED:password]") is the word's: what
    # follows is another's unless a list carries on from it.
    given = _GIVEN_RE.match(text, word_end)
    tied = given.end() if given else word_end
    # Only a password is said with a hedge ("lösenordet är typ Granris55"); "the key is
    # model KX-2200" names a key's model.
    hedged = bool(_PASSWORD_RE.search(text, word_start, word_end))
    for start, end in sorted(spans):
        value = text[start:end]
        if any(start < e and s < end for s, e, _, _ in found) or _public_number(text, start, value):
            continue
        # (After a value, a colon or a copula ties the next one to another label.)
        linked = tied == word_end and (
            _LINK_RE.search(text, max(lo, start - 40), start)
            or (word_end <= start and _LOCKED_RE.fullmatch(text, word_end, start))
            or (hedged and not value.isdigit() and _HEDGED_RE.search(text, lo, start))
            or _closes_named_clause(text, word_start, word_end, start, end)
            or _belongs(text, word_start, word_end, start)
        )
        # The first value after the word's colon may follow a label ("pinkoder: Dankort
        # 4021"); each further one a list's separator and its label.
        gap = _LIST_GAP_RE if tied > word_end else _LABELLED_RE
        listed = tied <= start and gap.fullmatch(text, tied, start)
        # (Nothing between: "PIN 4471"; a bracket closed: "senha do cartão (PIN) 8147".)
        if not text[lo:start].strip(" \t)") or linked or listed:
            found.append((start, end, "credential", 0))
            tied = end
    return found


# What ties a value to the word before it: a copula or a word of change ("is", "är", "ist",
# "was", "now", "neu ist"), a colon, "=", a dash, an arrow, a list marker or a table bar.
_LINK_WORDS = (
    r"is|are|was|it'?s|now|still|be|är|var|blir|nu|ist|war|lautet|"
    r"jetzt|neu|es|era|fue|ahora|est|était|c'est|maintenant|è|adesso|ora|é|foi|agora|"
    r"jest|był|teraz|er|nå|on|oli|nyt|to|till|til|naar|auf|zu|"
    # what it became: "A senha mestre ficou '...'", "blev", "wurde", "devient"
    r"became|becomes|blev|wurde|wird|quedó|queda|devient|diventa|ficou|fica|werd|wordt"
)
_GIVEN_RE = LazyPattern(rf"(?i)(?:\s+(?:{_LINK_WORDS})\b)?\W{{0,3}}\[REDACTED(?::\w+)?\]")
_LINK_RE = LazyPattern(
    rf"(?i)(?:(?<![\w'’])(?:{_LINK_WORDS})"
    r"\s+|[:=|>→–—-]\s*|(?<!\S)[-*•]\s+|(?<!\S)\d+[.)]\s+)[\"'«“„]?\s*\Z"
)
# A copula, then one small word that hedges it ("är typ", "is probably", "ist wohl").
_HEDGED_RE = LazyPattern(rf"(?i)(?<![\w'’])(?:{_LINK_WORDS})\s+[^\W\d_]{{2,8}}\s+\Z")
# Up to eight words with no digit, between a credential word and a value closing the clause.
_FEW_WORDS_RE = LazyPattern(r"(?:\s+[^\W\d_][\w'’-]*){0,8}\s+")
_CLAUSE_CLOSED_RE = LazyPattern(r"[\s.!?)]*(?:\n|\Z)")


_YEAR_RE = LazyPattern(r"(?:19|20)\d\d")
# "PIN do cartão 7712", "codici di backup Instagram 2940 …": whose credential it is, then it.
_BELONGS_RE = LazyPattern(
    rf"(?i)\s+(?:{'|'.join(sorted(OF_WORDS))})\s+(?:[^\W\d_][\w'’-]*\s+){{1,3}}"
)


def _belongs(text: str, word_start: int, word_end: int, start: int) -> bool:
    """Only after a credential by itself: after a lock's code, the number names the place
    ("Portkoden till Storgatan 1450")."""
    if word_end > start or not _BELONGS_RE.fullmatch(text, word_end, start):
        return False
    return is_credential(text[word_start:word_end])


def _closes_named_clause(text: str, word_start: int, word_end: int, start: int, end: int) -> bool:
    """ "Kluiscode in de hotelkamer 4472", "szyfr do kłódki rowerowej 8-1-5-5", "PIN del
    bancomat nuovo 40918": the value ends the clause, a few words after a credential, or a
    code whose lock is named (in the word or among those words); not a year."""
    if word_end > start or not _CLAUSE_CLOSED_RE.match(text, end):
        return False
    if not _FEW_WORDS_RE.fullmatch(text, word_end, start):
        return False
    if _YEAR_RE.fullmatch(text, start, end):
        return False  # "the PIN I have had since 2016"
    return names_credential(text[word_start:word_end], text[word_end:start])


# "codice dell'allarme 82604", "il codice del lucchetto della bici? 4-4-1-9": the value
# right after the thing the credential opens (not "del portal 2240": that names the door).
_LOCKED_RE = LazyPattern(
    r"(?i)\s*(?:(?:of|for|to|the|del|della|de|du|des|di|da|do|dla|till|för|für|fürs|zur|zum|"
    r"van|voor|w|na|la|le|el|il|der|die|das)\s+|(?:dell|dall|d|l)['’])*"
    rf"(?:{LOCKS})[\w'’-]*(?:(?:\s+[\w'’-]+){{1,2}}\s*[?:])?\s+"
)
_PASSWORD_RE = LazyPattern(
    r"(?i)pass|lösen|kennwort|wachtwoord|salasana|senha|contraseña|has[łl]|adgangskode|mdp|pwd"
)
_QUOTED_RE = LazyPattern(
    r"\"([^\"\n]{3,80})\"|'([^'\n]{3,80})'|«([^»\n]{3,80})»|[“„]([^“”\n]{3,80})[“”]"
)
_LABELLED_RE = LazyPattern(r"\s*|\s*[:=]\s*(?:[^\W\d_][\w'’.-]*\s+){0,3}?")
# Between two values of one list: a comma, a slash, an arrow or "and" ("4471 and 0932"),
# and up to four words naming the next ("Movistar Tortuga88, Netflix Tortuga88!", "ancien
# mdp Bretagne2019 → nouveau Galette!Sarrasin7", "la del candado de la bici 0312").
_LIST_GAP_RE = LazyPattern(
    r"(?i)\s*|\s*(?:[,;/→]|->|\s(?:and|och|und|y|et|e|en|i|og|ja|to|till|zu|a|à|o)\s)\s*"
    r"(?:[^\W\d_][\w'’.-]*\s+){0,4}?(?:[:=]\s*)?"
)


# Where a sentence ends, and the next line when it is a short label of its own ("Nya:").
_SENTENCE_END_RE = LazyPattern(
    r"[.!?](?=[ \t]|\Z)|[.!?]?\n(?![ \t]*[^\W\d][\w-]{0,15}[ \t]*:[ \t])|\Z"
)


_YEAR_RE = LazyPattern(r"(?:19|20)\d\d")


def same_sentence_values(text: str, start: int, end: int) -> list[Candidate]:
    """The other values of the sentence that holds the credential ``text[start:end]``,
    each no word looks like (a number of four digits or more, a strong password): the
    second of two named once ("from hunter2hunter to Gravel.Cactus.58", "1492 y la del
    candado de la bici 0312", "Gamla lösenordet: …" then "Nya: …" on the next line)."""
    lo = max(text.rfind(mark, 0, start) for mark in (". ", "! ", "? ", "\n")) + 1
    stop = _SENTENCE_END_RE.search(text, end)
    hi = stop.start() if stop else len(text)
    found = _strong_values(text, lo, hi)
    for m in _TOKEN_RE.finditer(text, lo, hi):
        value = m.group().rstrip(".!?:")
        if m.start() == start or not any(c.isdigit() for c in value) or _YEAR_RE.fullmatch(value):
            continue  # (a year beside it is when: "the PIN is 4471 since 2019")
        if _not_a_word(value) and not _public_number(text, m.start(), value):
            found.append((m.start(), m.start() + len(value), "credential", 0))
    return found


def _public_number(text: str, at: int, value: str) -> bool:
    """A date, a time, a year, an amount, a count, an ordinal, a version."""
    if _NOT_SECRET_NUMBER_RE.fullmatch(value):
        return True
    return bool(_UNIT_RE.match(text, at + len(value)))


def _not_a_word(value: str, *, shortest: int = 4) -> bool:
    """Four digits or more (``shortest``), or five characters or more mixing letters with
    digits (or symbols between them); not a placeholder, a version, an address or an
    ordinal."""
    if value.isdigit():
        return len(value) >= shortest
    if is_placeholder(value) or is_non_value(value) or "://" in value or "@" in value:
        return False
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    if not digits or not letters or len(value) < 5:
        return False
    if _LABEL_RE.search(value) or _ALGORITHM_RE.fullmatch(value) or _SHORTCUT_RE.search(value):
        return False  # "1Password", "AuthTokenProvider2" name one; "sha256", "argon2id"
    # "COVID-19", "e-Boks", "SMS-a", "IT-1": a word and a short tag, not a value.
    return not re.fullmatch(r"[A-Za-z]+-\d{1,2}|\d{1,2}-?[A-Za-z]{1,3}|[A-Z]{2,5}\d", value)


_SHORTCUT_RE = LazyPattern(r"(?i)(?:ctrl|cmd|alt|shift|option|opt|win|super|fn|strg|meta)\+")
_LABEL_RE = LazyPattern(r"(?i)passw|token|secret|key|auth")
_ALGORITHM_RE = LazyPattern(
    r"(?i)(?:sha|md|argon|pbkdf|aes|rsa|ed|blake|crc|utf|base|ipv|tls|ssl|wpa|wep|mp|secp|iso|"
    r"hmac-sha)-?\d+[a-z]{0,2}"
)
