"""The words the contradiction detector reasons with, in the languages the offline engine knows.

English, Swedish, German and Spanish (the offline extractor's languages), with
French cues for corrections. Each list is about meaning, not grammar: which
words announce a correction, deny a statement, like or dislike something,
or name a diet, a drink or a relationship that excludes another.
"""

from __future__ import annotations

import re

I_ = re.IGNORECASE

# A person correcting the record: the newest statement wins over the one it corrects.
CORRECTION = re.compile(
    r"^\s*(?:correction|update|actually|in fact|to be clear|rättelse|faktiskt|egentligen|"
    r"korrektur|berichtigung|eigentlich|tatsächlich|corrección|en realidad|de hecho|"
    r"en fait|rectification)\b"
    r"|\bactually\b|\bafter all\b|\bi was wrong\b|\bcorrection\b|\brättelse\b|\bkorrektur\b"
    r"|\bcorrección\b|\ben realidad\b|\ben fait\b"
    r"|\bnot\s+[^,;:.]{1,40}?\s*,?\s*but\b|\binte\s+[^,;:.]{1,40}?\s+utan\b"
    r"|\bnicht\s+[^,;:.]{1,40}?\s*,?\s*sondern\b|\bno\s+[^,;:.]{1,40}?\s*,?\s*sino\b"
    r"|\bpas\s+[^,;:.]{1,40}?\s*,?\s*mais\b"
    r"|\b(?:moved|slipped|postponed|pushed|rescheduled|changed|switched|brought forward)\s+"
    r"(?:back\s+)?(?:to|till|until)\b"
    r"|\bno longer\b|\bnot any ?more\b|\binte längre\b|\bnicht mehr\b|\bya no\b|\bn'est plus\b"
    r"|\bflyttat?\s+till\b|\bflyttades\s+till\b|\bverschoben\b|\bumgezogen\b|\bumzug\b"
    r"|\bse (?:movió|mudó|cambió|aplazó|trasladó)\b|\bse ha mudado\b|\ba déménagé\b|\bdéplacée?\b",
    I_,
)

# Words that turn a statement into its denial.
NEGATION = re.compile(
    r"\b(?:not|no|never|don't|doesn't|didn't|isn't|aren't|wasn't|won't|can't|cannot|"
    r"dont|doesnt|isnt|no longer|nobody|none|"
    r"inte|icke|aldrig|ej|inga?|"
    r"nicht|nie|niemals|kein|keine|keinen|keinem|keiner|"
    r"nunca|jamás|tampoco|ya no|"
    r"ne|pas|jamais)\b",
    I_,
)

LIKE = re.compile(
    r"\b(?:likes?|loves?|enjoys?|adores?|is a fan of|is into|gillar|älskar|tycker om|"
    r"mag|liebt|genießt|le gusta|le encanta|disfruta|aime|adore)\b",
    I_,
)
DISLIKE = re.compile(
    r"\b(?:hates?|dislikes?|detests?|loathes?|can't stand|cannot stand|can't bear|"
    r"is not a fan of|avskyr|hatar|ogillar|tål inte|hasst|mag nicht|mag keine?n?|"
    r"odia|no le gusta|déteste|n'aime pas)\b",
    I_,
)

# Diets: a statement puts its subject in one of these; some pairs exclude each other.
DIET = {
    "vegan": re.compile(r"\b(?:vegan|veganer(?:in)?|vegano|vegana|végane?)\b", I_),
    "vegetarian": re.compile(
        r"\b(?:vegetarian|veggie|vegetarier(?:in)?|vegetariano|vegetariana|végétarien(?:ne)?|"
        r"doesn't eat meat|does not eat meat|äter inte kött|isst kein fleisch|no come carne)\b",
        I_,
    ),
    "pescatarian": re.compile(r"\b(?:pescatarian|pescetarian|pescetarier|pescetariano)\b", I_),
}
_MEAT = (
    r"meat|steak|beef|pork|bacon|ham|chicken|lamb|burgers?|sausages?|ribs|salami|turkey|veal|"
    r"kött|fläsk|kyckling|korv|biff|fleisch|schwein\w*|wurst|hähnchen|rind\w*|"
    r"carne|cerdo|pollo|jamón|chorizo|ternera|viande|poulet|boeuf|porc"
)
_FISH = (
    r"fish|salmon|tuna|sushi|shrimps?|prawns?|shellfish|fisk|lax|räkor|fisch|lachs|pescado|atún|"
    r"poisson"
)
_EAT = (
    r"eats?|ate|eating|had|has|orders?|ordered|loves?|likes?|enjoys?|cooks?|cooked|grills?|"
    r"äter|åt|käkar|isst|aß|essen|come|comió|comer|mange"
)
EATS_MEAT = re.compile(rf"\b(?:{_EAT})\b[^.;]{{0,30}}?\b(?:{_MEAT})\b", I_)
EATS_FISH = re.compile(rf"\b(?:{_EAT})\b[^.;]{{0,30}}?\b(?:{_FISH})\b", I_)
# Which eating excludes which diet.
DIET_EXCLUDES = {
    "vegan": {"meat", "fish"},
    "vegetarian": {"meat", "fish"},
    "pescatarian": {"meat"},
}

# Things people abstain from: "does not drink alcohol" is denied by "enjoys a glass of wine".
ABSTAIN = {
    "alcohol": re.compile(
        r"\b(?:alcohol|wine|beer|whisky|whiskey|vodka|gin|rum|cocktails?|champagne|cider|"
        r"alkohol|vin|öl|wein|bier|vino|cerveza|alcool|bière)\b",
        I_,
    ),
    "coffee": re.compile(r"\b(?:coffee|espresso|latte|cappuccino|kaffe|kaffee|café|cafe)\b", I_),
    "smoking": re.compile(
        r"\b(?:smokes?|smoking|cigarettes?|röker|rökare|raucht|raucher(?:in)?|rauchen|fuma|"
        r"fumar|fumeur)\b",
        I_,
    ),
}

# Relationship status: single excludes married.
MARITAL = {
    "single": re.compile(r"\b(?:single|unmarried|singel|ledig|ledig|soltero|soltera)\b", I_),
    "married": re.compile(
        r"\b(?:married|wife|husband|spouse|gift|fru|make|verheiratet|ehefrau|ehemann|"
        r"casad[oa]|esposa|esposo|marié)\b",
        I_,
    ),
}

# Values that replace one another: "prefers tea" and "prefers coffee" cannot both hold.
ALTERNATIVES = (
    "pip poetry uv pipenv conda pdm hatch rye",
    "npm yarn pnpm bun",
    "vim neovim nvim emacs vscode code cursor sublime intellij pycharm zed helix",
    "bash zsh fish nushell powershell",
    "postgres postgresql mysql mariadb sqlite mongodb cockroachdb dynamodb",
    "aws gcp azure hetzner digitalocean fly vercel netlify heroku",
    "datadog grafana prometheus newrelic honeycomb sentry",
    "docker podman",
    "github gitlab bitbucket",
    "slack teams discord",
    "macos linux windows ubuntu fedora debian arch",
    "react vue svelte angular solid",
    "django flask fastapi rails express",
    "celery procrastinate rq dramatiq sidekiq",
    "tea coffee",
    "dark light",
    "english swedish german spanish french norwegian danish finnish italian dutch japanese "
    "engelska svenska tyska spanska englisch deutsch schwedisch inglés español alemán sueco",
    "morning evening night afternoon",
    "tabs spaces",
)
ALTERNATIVE_GROUP = {
    word: index for index, line in enumerate(ALTERNATIVES) for word in line.split()
}

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "january jan januari januar enero janvier",
            "february feb februari februar febrero février",
            "march mar mars märz marzo",
            "april apr abril avril",
            "may maj mai mayo",
            "june jun juni junio juin",
            "july jul juli julio juillet",
            "august aug augusti agosto août",
            "september sep sept septiembre septembre",
            "october oct oktober octubre octobre",
            "november nov noviembre novembre",
            "december dec dezember diciembre décembre",
        ),
        start=1,
    )
    for name in names.split()
}
WEEKDAYS = {
    name: number
    for number, names in enumerate(
        (
            "monday mondays måndag montag lunes lundi",
            "tuesday tuesdays tisdag dienstag martes mardi",
            "wednesday wednesdays onsdag mittwoch miércoles mercredi",
            "thursday thursdays torsdag donnerstag jueves jeudi",
            "friday fridays fredag freitag viernes vendredi",
            "saturday saturdays lördag samstag sábado samedi",
            "sunday sundays söndag sonntag domingo dimanche",
        )
    )
    for name in names.split()
}
NUMBER_WORDS = {
    name: number
    for number, names in enumerate(
        (
            "zero noll null cero",
            "one eins uno",
            "two två zwei dos",
            "three tre drei tres",
            "four fyra vier cuatro",
            "five fem fünf cinco",
            "six sex sechs seis",
            "seven sju sieben siete",
            "eight åtta acht ocho",
            "nine nio neun nueve",
            "ten tio zehn diez",
            "eleven elva elf once",
            "twelve tolv zwölf doce",
        )
    )
    for name in names.split()
}
# Units that mean the same count, whatever the word: "2 kids" and "two children".
UNIT_SYNONYMS = {
    "kid": "child", "children": "child", "child": "child", "barn": "child", "kind": "child",
    "kinder": "child", "hijo": "child", "hijos": "child", "niño": "child", "niños": "child",
    "year": "year", "years": "year", "år": "year", "jahr": "year", "jahre": "year",
    "jahren": "year", "año": "year", "años": "year", "ans": "year",
}  # fmt: skip
