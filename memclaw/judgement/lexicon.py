"""The words the contradiction detector reasons with, in the languages the offline engine knows.

English, Swedish, German and Spanish (the offline extractor's languages), with
French cues for corrections. Each list is about meaning, not grammar: which
words announce a correction, deny a statement, like or dislike something,
name a diet or a choice that excludes another, or say one idea in other words.
"""

from __future__ import annotations

import re

from memclaw.clock import MONTH_NUMBER
from memclaw.clock import WEEKDAYS as WEEKDAY_NAMES

I_ = re.IGNORECASE

# "Now" in the four languages: a value said to hold now is the one in force ("numera kör
# jag", "ist mittlerweile 13", "ahora mi jefe es").
NOW = tuple("now nu numera jetzt inzwischen mittlerweile ahora ya".split())  # noqa: SIM905

# A person correcting the record: the newest statement wins over the one it corrects.
CORRECTION = re.compile(
    r"^\s*(?:correction|update|actually|in fact|to be clear|rättelse|faktiskt|egentligen|"
    r"korrektur|berichtigung|eigentlich|tatsächlich|corrección|en realidad|de hecho|"
    r"en fait|rectification)\b"
    # "actually" in every language, wherever it stands ("Unser Hund heißt eigentlich Rex")
    r"|\b(?:actually|faktiskt|egentligen|eigentlich|tatsächlich|de hecho)\b"
    # (the word itself where it names one, not a thing it qualifies: "correction factor")
    r"|\bafter all\b|\bi was wrong\b|\b(?:correction|rättelse|korrektur|corrección)\b(?!\s+\w)"
    r"|\ben realidad\b|\ben fait\b"
    r"|\bnot\s+[^,;:.]{1,40}?\s*,?\s*but\b|\binte\s+[^,;:.]{1,40}?\s+utan\b"
    r"|\bnicht\s+[^,;:.]{1,40}?\s*,?\s*sondern\b|\bno\s+[^,;:.]{1,40}?\s*,?\s*sino\b"
    r"|\bpas\s+[^,;:.]{1,40}?\s*,?\s*mais\b"
    r"|\b(?:moved|slipped|postponed|pushed|rescheduled|changed|switched|brought forward)\s+"
    r"(?:back\s+)?(?:to|till|until)\b"
    r"|\bno longer\b|\bnot any ?more\b|\binte längre\b|\bnicht mehr\b|\bya no\b|\bn'est plus\b"
    r"|\bflyttat?\s+till\b|\bflyttades\s+till\b|\bverschoben\b|\bumgezogen\b|\bumzug\b"
    r"|\bzogen?\s+nach\b"
    r"|\bse (?:movió|mudó|cambió|aplazó|trasladó)\b|\bse ha mudado\b|\ba déménagé\b|\bdéplacée?\b",
    I_,
)

# A wish, a plan or a maybe: not yet what is ("wants to learn Japanese", "might move").
INTENT = re.compile(
    # (a wish for a thing is a preference: "wants answers to be concise", "vill ha te")
    r"\b(?:(?:wants?|wanted|would like|'d like|’d like|plans?|planning|planned|hopes?|"
    r"hoping|intends?)\s+to|"
    r"might|considering|thinking (?:of|about)|vill(?!\s+ha\b)\s+\w+a|planerar|funderar på|"
    r"kanske|hoppas|skulle vilja|plant|planen|überlegt|vielleicht|hofft|würde gern|"
    r"quieren?\s+\w+(?:ar|er|ir)|planea|planean|piensa|quizás?|tal vez|le gustaría|"
    r"me gustaría)\b",
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
    # Also as the adverb of eating: "äter veganskt", "isst vegan", "eats vegan".
    "vegan": re.compile(r"\b(?:vegan|veganer(?:in)?|vegansk[at]?|vegano|vegana|végane?)\b", I_),
    "vegetarian": re.compile(
        r"\b(?:vegetarian|veggie|vegetarier(?:in)?|vegetarisk[at]?|vegetarisch|vegetariano|"
        r"vegetariana|végétarien(?:ne)?|"
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
_EAT = (
    r"eats?|ate|eating|had|has|orders?|ordered|loves?|likes?|enjoys?|cooks?|cooked|grills?|"
    r"äter|åt|käkar|isst|esse|aß|essen|come|comió|comer|mange"
)
EATS_MEAT = re.compile(rf"\b(?:{_EAT})\b[^.;]{{0,30}}?\b(?:{_MEAT})\b", I_)

# One parent, partner or grandparent, however they are called ("Dad", "my father"): the
# word says who it is, gender too. Not the Swedish "far" and "mor" (English and Spanish
# words too), nor a Spanish pair of one stem ("abuela", "abuelo"): its ending says which.
KIN_IDEAS = {
    "father": "dad daddy papa pappa vater padre papá",
    "mother": "mum mom mommy mummy mama mamma mutter madre mamá",
    "wife": "fru frun frugan hustru hustrun ehefrau",
    "husband": "maken ehemann marido",
    "grandmother": "grandma granny oma großmutter",
    "grandfather": "grandpa opa großvater",
}
KIN_NAMES = frozenset(" ".join(KIN_IDEAS.values()).split())
# Words that say one idea in a memory, whatever the phrasing, in the four languages: each
# word of a row is read as the row's idea ("is employed by" works for, "är bosatt i" bor i,
# "avoids" abstains).
SAME_IDEA = {
    **KIN_IDEAS,
    "prefer": "want wants wanted",
    "work": "works employed employ employer arbetar jobbar anställd anställt anställde "
    "arbetsgivare arbetsgivaren "
    "arbeitet tätig beschäftigt angestellt arbeitgeber trabaja empleado empleada empleador empresa",
    "live": "lives bor bosatt lever wohnt wohnhaft lebt vive",
    # One's name, however it is said ("heter", "se llama", "is called").
    "name": "named called namn namnet heter hette heißt hieß llama llaman nombre",
    "retired": "retiree pensionär pensionerad rentner rentnerin rente jubilado jubilada",
    "use": "uses utilise utilises utilize utilizes använder används nutzt nutzen genutzt "
    "eingesetzt verwendet verwenden utiliza utilizan utilizamos",
    "learn": "learns study studies studying studied lär studerar pluggar lernt studiert "
    "aprende estudia",
    "allergic": "allergy allergies allergisk allergi allergie allergisch alérgico alérgica alergia",
    "abstain": "avoid avoids avoided abstains teetotal avstår verzichtet evita",
    "intolerant": "intolerante intolerancia",
    # A language spoken, however it is said ("pratar", "talar").
    "speak": "speaks spoke talar pratar talade pratade spricht sprach sprechen beherrscht habla "
    "hablan",
    # Who leads a team or a project, however it is said ("leds av", "la responsable").
    "lead": "leads leading manages managed manage leitet leiten geleitet leiterin leiter leder "
    "projektledare projektleiter projektleiterin "
    "leds ledde ledare dirige dirigen dirigido dirigida responsable ansvarig verantwortlich",
    "teacher": "teachers teaches teach lärare lärarinna undervisar lehrer lehrerin unterrichtet "
    "profesor profesora profesores enseña",
    "child": "children kid kids kinder hijos niños",
    # Swedish kin whose forms no stemmer meets: "Brodern till Erik" is "Eriks bror".
    "bror": "brodern broder bröder bröderna",
    "dotter": "dottern döttrar döttrarna",
    "son": "sonen söner sönerna",
    # Short names engineers give the same thing: "Staging DB" is "the staging database".
    "database": "db databas databasen datenbank",
    "production": "prod produktion producción",
    "repository": "repo",
}
# What one abstains from by not doing it: "doesn't drink alcohol" is "avoids alcohol", "no
# tolera la lactosa" is "es intolerante".
# Words that end a doing: "quit smoking", "stopped playing tennis", "har slutat på
# Ericsson", "hat bei Siemens aufgehört", "dejó Telefónica". What they end is the doing
# they name (after them, or before them in a German sentence).
STOPPING = re.compile(
    r"\b(?:quit|stopped|gave up|gives up|has left|left|slutat|slutade|slutar|"
    r"gett upp|gav upp|lämnat|lämnade|aufgehört|hört auf|hörte auf|aufgegeben|"
    r"dejó|dejé|dejamos|dejado|deja de|abandonó|abandoné|renunció|renuncié|"
    # A plan or a subscription called off: what is called off is what the sentence is about.
    r"cancell?ed|called off|cancelé|canceló|cancelado|cancelada|avbokad|avbokat|"
    r"inställd|inställt|ställdes in|sade upp|sagt upp|uppsagd|uppsagt|abgesagt|gekündigt|"
    r"kündigte|"
    # A thing sold or given away is no longer had, driven or used.
    r"sold|sells|got rid of|gave away|traded in|sålde|sålt|gjorde mig av med|verkauft|"
    r"verkaufte|vendí|vendió|vendimos|vendido)\b",
    re.IGNORECASE,
)

NOT_DOING = {
    "abstain": "drink drinks eat eats smoke smokes dricker äter röker trinkt isst raucht bebe "
    "come fuma",
    "intolerant": "tolerate tolerates tål verträgt tolera",
}

# Values that replace one another: "prefers tea" and "prefers coffee" cannot both hold.
ALTERNATIVES = (
    "pip poetry uv pipenv conda pdm hatch rye",
    "npm yarn pnpm bun",
    "vim neovim nvim emacs vscode code cursor sublime intellij pycharm zed helix eclipse "
    "goland webstorm rider xcode netbeans clion rubymine phpstorm nano kate",
    "bash zsh fish nushell powershell",
    "postgres postgresql mysql mariadb sqlite mongodb cockroachdb dynamodb oracle redis "
    "cassandra clickhouse",
    "aws gcp azure hetzner digitalocean fly vercel netlify heroku",
    "datadog grafana prometheus newrelic honeycomb sentry",
    "docker podman",
    "github gitlab bitbucket gitea",
    "jenkins circleci travis buildkite teamcity",
    "jira linear asana trello shortcut clickup",
    "chrome firefox safari edge brave",
    "iphone android pixel galaxy",
    "slack teams discord",
    "macos linux windows ubuntu fedora debian arch",
    "react vue svelte angular solid",
    "django flask fastapi rails express",
    "celery procrastinate rq dramatiq sidekiq",
    "tea coffee",
    "dark light",
    "tabs spaces",
)
ALTERNATIVE_GROUP = {
    word: index for index, line in enumerate(ALTERNATIVES) for word in line.split()
}

# Month and weekday names of the four languages (``memclaw.clock`` holds them for every
# reader of dates), and the English plural weekdays of a habit ("on Mondays").
MONTHS = MONTH_NUMBER
WEEKDAYS = {
    name: number for names in WEEKDAY_NAMES.values() for number, name in enumerate(names)
} | {f"{name}s": number for number, name in enumerate(WEEKDAY_NAMES["en"])}
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
# Finite verb forms, where a statement's subject ends ("Sam's sister Ana | lives in Braga").
_ENGLISH_VERBS = """
    live work use run prefer want like love hate enjoy speak play drink eat sit start
    leave move switch change own need visit collect commute listen belong include cost
    host meet sing swim train study plan report join manage lead learn cook walk bake
    deploy store call book travel drive ride attend take make get give bring buy sell pay
    open close end begin become feel think know say tell ask show send receive check
    finish stop keep hold wear read write grow teach help fix build watch wait go look
    allow seem remain stay mean support require expect hope try skip miss hurt break
    sign assign schedule postpone delay rent sleep wake dislike adore detest avoid
    prepare review publish release ship last serve cover contain offer reach fall
    increase decrease drop double climb
"""
_IRREGULAR_VERBS = """
    is are was were has have had does did goes went gone takes took made got gave bought
    sold paid began became felt thought knew said told sent sat ran ate drank spoke wrote
    led met sang swam flew drove rode wore held kept left built grew taught fell broke
    hurt slept woke caught brought stood found lost won chose rose risen
    can can't cannot could will won't would should must may might shall
    doesn't don't didn't isn't aren't wasn't weren't hasn't haven't
"""
_SWEDISH_VERBS = """
    är var har hade bor bodde jobbar jobbade arbetar arbetade heter hette använder använde
    gillar älskar springer sprang sitter satt äter åt dricker drack talar pratar spelar
    flyttade flyttat flyttades kör körde studerar pluggar tränar åker reser äger behöver
    vill ska kan går gick kommer kom ligger låg lever levde samlar sjunger simmar besökte
    säkerhetskopieras fyller föddes startar slutar börjar möts träffas sköter leder
    ökade ökar minskade minskar steg sjönk höjdes sänktes kostar kostade betalar betalade
    hyr hyrde
"""
_GERMAN_VERBS = """
    ist sind war waren hat haben hatte wohnt wohnte lebt arbeitet arbeitete heißt heißen
    trinkt isst spricht spielt läuft lief findet fand programmiert schwimmt nutzt benutzt
    verwendet mag liebt fährt studiert trainiert möchte will kann muss geht ging sitzt
    sammelt singt besucht zog liegt beginnt endet gehört leitet wurde wird
    stieg steigt sank sinkt ernährt kostet kostete zahlt zahlen zahlte bezahlt bezahlen
    beträgt betrug
"""
_SPANISH_VERBS = """
    es son era fue está están estaba tiene tienen tenía vive viven vivía trabaja trabajan
    trabajaba usa usan utiliza juega estudia prefiere quiere come bebe habla corre canta
    nada va sale llega empieza se ha han había visitó mudó llama empezó terminó cuesta
    subió sube bajó baja aumentó aumenta disminuyó subieron bajaron aumentaron paga pagan
    pagaba cuestan costaba alquila alquilamos
"""


def _english_forms(lemma: str) -> set[str]:
    ies = lemma[:-1] + "ies" if lemma.endswith("y") and lemma[-2:-1] not in "aeiou" else ""
    es = lemma + "es" if lemma.endswith(("s", "sh", "ch", "x", "o")) else lemma + "s"
    past = lemma + "d" if lemma.endswith("e") else lemma + "ed"
    pasts = {past, lemma[:-1] + "ied"} if ies else {past}
    return {lemma, es, ies, *pasts} - {""}


# The first person where the pronoun is left out: a statement about the one speaking
# ("Uso Android", "Arbeite inzwischen auf einem MacBook Air"). Not the forms that are
# mostly nouns ("trabajo": work, "juego": game).
_FIRST_PERSON_OF = {
    "spanish": """uso utilizo vivo prefiero quiero bebo hablo corro voy salgo
        empiezo pasé cambié mudé compré pagamos pagué""",
    "german": """wohne lebe arbeite nutze benutze verwende trinke esse spreche spiele
        fahre studiere trainiere liebe mag besuche leite""",
}
FIRST_PERSON = frozenset(" ".join(_FIRST_PERSON_OF.values()).split())
_VERBS_OF = {
    "english": frozenset(form for lemma in _ENGLISH_VERBS.split() for form in _english_forms(lemma))
    | frozenset(_IRREGULAR_VERBS.split()),
    "swedish": frozenset(_SWEDISH_VERBS.split()),
    "german": frozenset((_GERMAN_VERBS + _FIRST_PERSON_OF["german"]).split()),
    "spanish": frozenset((_SPANISH_VERBS + _FIRST_PERSON_OF["spanish"]).split()),
}
VERBS = frozenset().union(*_VERBS_OF.values())


def verbs(language: str) -> frozenset[str]:
    """The finite verb forms of ``language`` ("son" is a verb in Spanish only); all of
    them for a language without a list of its own."""
    return _VERBS_OF.get(language, VERBS)


# English base forms: verbs only after a plural, a pronoun or a modal ("parents live").
BASE_FORMS = frozenset(_ENGLISH_VERBS.split()) - frozenset(_IRREGULAR_VERBS.split())

# Words naming a person by their tie to someone ("User's sister", "Annas Sohn"): a person,
# not an attribute of theirs with one value.
KIN = frozenset(
    """
    sister brother son daughter mother father mom mum dad wife husband partner girlfriend
    boyfriend friend kid child children cousin aunt uncle niece nephew grandmother
    grandfather grandma grandpa colleague coworker neighbour neighbor parents
    grandparents siblings in-laws
    syster bror dotter mamma pappa mor far fru sambo flickvän pojkvän vän barn kusin
    moster faster morbror farbror kollega granne föräldrar syskon mormor farmor morfar
    farfar
    schwester bruder sohn tochter mutter vater mama papa frau mann partnerin freundin
    freund kind kinder cousine tante onkel kollege kollegin nachbar nachbarin eltern
    geschwister großeltern oma opa
    hermana hermano hijo hija madre padre mamá papá esposa esposo marido mujer pareja
    novia novio amigo amiga primo prima tía tío colega vecino vecina padres hermanos
    abuela abuelo abuelos
    """.split()  # noqa: SIM905
)
# Ties a person has one of at a time: "Hannah is my wife" names the wife.
ONE_KIN = frozenset(
    """
    wife husband partner mother father mom mum dad fru make maka man sambo mamma pappa mor
    far frau ehefrau mann ehemann mutter vater esposa esposo marido mujer madre padre
    """.split()  # noqa: SIM905
)

# Words of little meaning of their own, beside what a statement says: verbs that carry a
# noun's meaning ("gives me an allergy", "tenemos reunión"), words of how often ("every
# Monday", "cada lunes"), "via", and the words that deny (whether a statement denies is
# read apart). (Verbs in the present only: "had" is not "have".)
LIGHT = frozenset(
    """
    have has give gives take takes get gets go goes is are am every each via not no never
    har ger tar får går kommer är varje alla inte aldrig ingen inget
    habe hat haben gibt geben gebe nimmt nehme läuft laufen kommt geht ist sind jeden jede jeder
    alle über nicht nie niemals kein keine keinen keiner keines
    tengo tiene tenemos tienen da dan doy toma tomo tomamos va van es son soy somos está están
    estoy hay todos todas cada nunca nada ningún ninguna hago hace hacen hacemos voy vamos
    per pro por
    heter hette heißt hieß called named llama llaman
    """.split()  # noqa: SIM905
)
# Past forms of be and have: a statement in them speaks of what was.
PAST = frozenset(
    """
    was were had used hade var hatte hatten war waren tenía tenían tuve tuvo era eran fue fueron
    """.split()  # noqa: SIM905
)
