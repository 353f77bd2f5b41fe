"""The secret gate's principles: what a secret is, not one pattern per sighting."""

from __future__ import annotations

import pytest

from memclaw.gates import contains_secret, redact, redact_adjacent
from memclaw.gates.credentials.split import answered_secrets

from .secret_red_team import RED_LOOKALIKES, RED_SECRETS, RED_SPLIT
from .secret_score import score


def gone(text: str, *values: str) -> bool:
    redacted = redact(text)
    return not any(value in redacted for value in values)


def test_the_red_teams_set_is_caught_and_its_benign_lines_pass() -> None:
    result = score(RED_SECRETS, RED_SPLIT, RED_LOOKALIKES)
    assert (result.missed, result.false_positives) == ([], [])


@pytest.mark.parametrize(
    ("number", "secret"),
    [
        ("4539 1488 0343 6467", True),  # passes Luhn: a card, with no word saying so
        ("4539-1488-0343-6467", True),
        ("378282246310005", True),  # Amex
        ("4539.1488.0343.6467", True),
        ("4539 1488 0343 6468", False),  # one digit off: an order number
        ("1234 5678 9012 3456", False),
    ],
)
def test_a_card_number_is_known_by_its_checksum(number: str, secret: bool) -> None:
    assert contains_secret(f"paid with {number} yesterday") is secret
    # Named as something else, a number is that: one in ten passes the check by chance.
    assert not contains_secret(f"our ticket number for the outage is {number}")


@pytest.mark.parametrize(
    ("iban", "secret"),
    [
        ("GB82 WEST 1234 5698 7654 32", True),
        ("SE4550000000058398257466", True),
        ("GB82-WEST-1234-5698-7654-32", True),
        ("se45 5000 0000 0583 9825 7466", True),
        ("GB82 WEST 1234 5698 7654 33", False),  # the mod-97 check fails
    ],
)
def test_an_iban_is_known_by_its_checksum(iban: str, secret: bool) -> None:
    assert contains_secret(f"pay to {iban} by Friday") is secret


def test_twelve_seed_words_are_a_seed_twelve_words_of_prose_are_not() -> None:
    seed = "ribbon salmon forest ladder quantum velvet harbor mimic ozone tribe cactus unveil"
    assert gone(f"backup: {seed}", "ribbon", "unveil")
    assert gone(f"1. {seed.replace(' ', ' 2. ', 1)}", "ribbon")
    prose = "We walked along the harbor at dawn and saw twelve boats leaving for the open sea"
    assert not contains_secret(prose)
    assert not contains_secret("alpha " * 40)  # list words, but one said over and over


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("2FA setup key: JBSW Y3DP EHPK 3PXP", True),
        ("authenticator secret JBSWY3DPEHPK3PXPJBSWY3DP", True),
        ("Backup key for Google Authenticator is mfzw 63dp ojsw 4zlt", True),
        ("Der Einrichtungsschlüssel für die Authenticator-App: GEZD GNBV GY3T QOJQ", True),
        ("save this, I need it on the new phone: KVKF 2RCP NZQ4 YML6", True),
        ("meet in room 4567 with anna from sales team", False),  # words in fours
        ("THE QUICK BROWN FOXES JUMP OVER LAZY DOGS", False),
        ("NATO STANAG 4586 AND STANAG 4609 WERE SIGNED", False),
        ("pulled sha256:3f9a2c1b4d5e6f708192a3b4c5d6e7f8091a2b3c", False),  # hex: 0, 1, 8, 9
        # Hex that happens to avoid 0, 1, 8 and 9: a line's key in memclaw's own records.
        ('{"ec3b37df5ac6ed7d36e5": {"by": "dream"}}', False),
    ],
)
def test_an_authenticator_seed_is_known_by_its_alphabet(text: str, secret: bool) -> None:
    assert contains_secret(text) is secret


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("connect with admin:Pa55w0rd!@10.0.3.17:5432/orders", "Pa55w0rd!"),
        ("db.acme.internal:5432:orders:report:Quokka-Lime-3", "Quokka-Lime-3"),
        ("smtp login noreply@acme.io / Mistletoe!2026", "Mistletoe!2026"),
        ("Authorization: ApiKey 7f3a9Qx2LmW8pZ", "7f3a9Qx2LmW8pZ"),
    ],
)
def test_credentials_in_an_address_or_a_header(text: str, value: str) -> None:
    assert gone(text, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Portkoden är 1947", "1947"),
        ("Meine Geheimzahl für die EC-Karte ist 5830", "5830"),
        ("il codice del cancello è 3378", "3378"),
        ("el código de la alarma es 7781", "7781"),
        ("le code de la porte est 4B21", "4B21"),
        ("de pincode van de kluis is 0412", "0412"),
        ("kod do alarmu to 8830", "8830"),
        ("passphrase for the backup disk: violet otter dances at noon", "violet otter dances"),
        ("security code 774", "774"),
        ("Zugangscode lautet 4711", "4711"),
        ("PIN-koden till kortet är 8124", "8124"),
        ("la clave del wifi es Naranja-77", "Naranja-77"),
        ("mot de passe : Chouette!88", "Chouette!88"),
        ("a senha do wifi é Caju-2024", "Caju-2024"),
        ("het wachtwoord van de router is Tulp-4411", "Tulp-4411"),
        ("hasło do wifi to Sosna-55", "Sosna-55"),
        ("the safe combination is 12-34-56", "12-34-56"),
        ("garage door opener code: 9021", "9021"),
        ("authenticator setup key JBSWY3DPEHPK3PXPZQ4TMNOP", "JBSWY3DPEHPK3PXPZQ4TMNOP"),
        ("MFA-Schlüssel für das VPN: ONSWG4TFOQ2HK3DFMVZWK5DU", "ONSWG4TFOQ2HK3DFMVZWK5DU"),
        ("wifi: Tulip-Harbor-44", "Tulip-Harbor-44"),
        ("WLAN Router: Kaaskop!2019", "Kaaskop!2019"),  # (after a colon: its value)
    ],
)
def test_a_credential_word_announces_a_value_of_any_shape(text: str, value: str) -> None:
    assert gone(text, value)


@pytest.mark.parametrize(
    "text",
    [
        "your PIN is 4 digits",
        "the token budget is 4000",
        "Passwords must have 12 characters",
        "Das Passwort ist zu kurz.",
        "password manager: Bitwarden",
        "the password is case-sensitive",
        "our zip code is 90210",
        "the code review is at 15:00",
        "Lösenordet måste bytas var 90:e dag",
        "hash the password sha256 style",
        "Enable 2FA for every admin account by Friday",
        "the authenticator app is on my phone",
        "PIN-koden skickas med posten",
        "la clave es la paciencia",
        "the safe combination is in the drawer",
        "Remember: tokens expire after 3600 seconds.",
        "My password manager is 1Password",  # the noun qualifies another: a product
        "the password policy is ISO-27001",
        # A device said to be something: the router, not its password (a merged memory
        # line "User's home Wi-Fi router is TP-Link Deco X50" had been refused).
        "User's home Wi-Fi router is TP-Link Deco X50.",
        "Our WLAN router is a Fritz!Box 7530",
    ],
)
def test_words_about_a_credential_are_not_one(text: str) -> None:
    assert not contains_secret(text)


def test_every_occurrence_goes_not_only_the_announced_one() -> None:
    redacted = redact("the alarm code is 4471; at the panel type 4471 and then #")
    assert "4471" not in redacted and redacted.count("[REDACTED") == 2
    codes = "recovery codes: 4f2a9-c1b7d 3e0a8-f1b6c 5e2d9-a0f3c 7b8e1-d4c6a"
    assert gone(codes, "4f2a9-c1b7d", "3e0a8-f1b6c", "5e2d9-a0f3c", "7b8e1-d4c6a")
    assert gone("PINs: debit card 4471, credit card 8812", "4471", "8812")
    assert gone("backup codes 1234-5678, 2345-6789, 3456-7890", "1234-5678", "3456-7890")


def test_the_answer_to_a_question_about_a_credential_is_one() -> None:
    assert answered_secrets("What is the alarm code at the cabin?", "2580") == {
        "2580": "answered_credential"
    }
    said = ["What's the wifi password again?", "oh right: Tulip-Harbor-44"]
    assert "Tulip-Harbor-44" not in " ".join(redact_adjacent(said))
    # Not every answer gives something away, nor every question asks for a credential.
    assert "1947" in answered_secrets("Hur var koden till porten nu igen?", "1947")
    assert "8830" in answered_secrets("Wie lautet der Code für die Alarmanlage?", "Ich glaube 8830")
    assert answered_secrets("What's the door code?", "no idea, ask Ana") == {}
    assert answered_secrets("What time is the standup?", "0930") == {}


def test_the_blind_held_out_set_does_not_fall_back() -> None:
    from . import secret_heldout_principles as blind

    # A guard against regressions, set after its first scoring (recall 0.680, look-alikes
    # flagged 0.019; the gate before the principles: 0.368). Its cases are never read to
    # tune the gate: raise the floors only when the figure rose without looking.
    # Raised to 0.84 on 2026-12-06 when the nearby-value, seed and security-answer rules
    # took it to 0.857 (fitted on secret_dev_blind.py; only this figure was read).
    result = score(blind.PRINCIPLE_SECRETS, blind.PRINCIPLE_SPLIT, blind.PRINCIPLE_LOOKALIKES)
    assert result.recall >= 0.84
    assert result.fpr <= 0.02


def test_the_second_blind_dev_set_does_not_fall_back() -> None:
    from . import secret_dev_blind2 as dev

    # Fitted on (0.790 and 15 look-alikes flagged when first scored): a floor, not a goal.
    result = score(dev.SECRETS, dev.SPLITS, dev.LOOKALIKES)
    assert result.recall >= 0.94
    assert result.flagged <= 2


def test_the_blind_dev_set_holds_its_figures() -> None:
    from . import secret_dev_blind as dev

    result = score(dev.SECRETS, dev.SPLITS, dev.LOOKALIKES)
    assert result.missed == []
    assert result.false_positives == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("8835 is the gate code for the allotment", "8835"),  # the value first
        ("PUK do chip: 44910372", "44910372"),
        ("Tresorcode im Hotelzimmer: 5512", "5512"),  # a compound, words between
        ("Locker 112 at the gym, combination 19-07-33", "19-07-33"),
        ("the one-time code they texted me was 604 219, is that still valid?", "604 219"),
        ("Backup codes (Microsoft): 1827-4410, 6093-2271", "6093-2271"),  # a list
        ("Kod till tvättstugan:\n7291", "7291"),  # the line below
        ("| what | code |\n|---|---|\n| front door | 5190 |", "5190"),  # a table column
        ("codice dell'allarme 82604, va inserito entro 20 secondi", "82604"),
        ("Huvudlösenordet till Bitwarden: 'blåbär trampolin gurka fönster'", "trampolin"),
        ("Il codice del lucchetto della bici? 4-4-1-9", "4-4-1-9"),  # the answer
    ],
)
def test_a_value_beside_a_credential_word_is_one(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "the alarm code for flat 2240 changed on 14 March",  # a number naming a flat
        "Room 1204 has a new door code, ask reception",
        "zip code 11453, street address is 12 Harbor Lane",
        "el código postal es 28013",
        "the password must be at least 12 characters",
        "the RSA key is 4096 bits and lives in the HSM",
        "press the key combination Cmd+Shift+4 for a screenshot",
        "nyckeln till förrådet nummer 4410 hänger i hallen",
        "el código de la puerta del portal 2240 lo tiene la vecina",
        "I have used the same PIN since 2016, time to change it",
    ],
)
def test_a_number_beside_a_credential_word_is_not_always_one(text: str) -> None:
    assert not contains_secret(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a value closing the clause, a few words after a code whose lock is named
        ("Tresorcode im Ferienhaus 7702", "7702"),
        ("código del candado de la taquilla 3-9-1-4", "3-9-1-4"),
        ("codice della cassaforte in camera 5531", "5531"),
        # a password said with a hedge
        ("the wifi password is probably Tulip77x if they did not change it", "Tulip77x"),
        # a generated code in groups, after a colon
        ("Apple app-specific password: wxyz-abqe-kmnt-prsv", "wxyz-abqe-kmnt-prsv"),
        # a quoted value after a word that qualifies the credential
        ("La contraseña maestra es «tigre nube limón»", "tigre nube limón"),
        # a list under a heading of codes: short codes too
        ("Koder:\n- garage: 482\n- förråd: 1190", "482"),
        # a password with a "#" in an address
        ("postgres://app:Kn#ght42@db.internal:5432/shop", "Kn#ght42"),
        # a label naming whose it is, before a colon; each of two
        ("wifi home: Otter-Lake-77, wifi office: Quiet-Fern-42", "Quiet-Fern-42"),
        ("PIN bank: 4471", "4471"),
        # values on the lines under a heading without its colon
        ("GitHub recovery codes\n3f9a2-8b1c4\n7d0e5-1a9f2", "7d0e5-1a9f2"),
        # a string only a generator writes, with no word before it
        ("try Xk29fjQ0pL3mZ8vB7wTq on the test box", "Xk29fjQ0pL3mZ8vB7wTq"),
        # a list that runs on past its labels
        ("koder: bod 4471, Visa 8830", "8830"),
        ("old pw Linden2019 → new Maple!Creek4", "Maple!Creek4"),
        # a value only a password looks like, anywhere in the clause
        ("Quokka#Lime-9 is what I set as the wifi password", "Quokka#Lime-9"),
        # inflected and misspelt credential words
        ("zalogowałam się hasłem Kasza!Gryka8", "Kasza!Gryka8"),
        ("pasword for the NAS: Otter.Bay.77", "Otter.Bay.77"),
        # a password named in another language's word order, as an environment variable
        ("WACHTWOORD_MAIL=Drop!Kaas22", "Drop!Kaas22"),
        # a generated string with symbols, with no word before it
        ("keep this safe: Qx7#mVz2!pL9@wR4t", "Qx7#mVz2!pL9@wR4t"),
        # a card as typed, its code two lines below
        ("card:\n4539  1488-03436467\n09/27\n321", "321"),
        # a credential closing its clause, words after it
        ("PIN della carta nuova 5817", "5817"),
        # codes printed two to a line under their heading
        ("Recovery codes:\n7f3a1-92bd4   0e5c8-a1f72\n3b9d0-6c2e8   d81f4-5a0b3", "d81f4-5a0b3"),
        # whose PIN or PUK it is, then it
        ("PUK do telemóvel 48201937 e PIN 7712", "48201937"),
        # a network's name and password as a pair
        ("guest network: Gast_Net / quiet-otter-lake", "quiet-otter-lake"),
        # a header whose scheme takes parameters
        ('Authorization: OAuth oauth_token="ab12cd34ef", oauth_signature="Zx9%2Fq"', "Zx9%2Fq"),
    ],
)
def test_principles_that_reach_further(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "Password: (ask Maria, she keeps it)",  # a remark in brackets
        "The password manager is '1Password' now",  # the value names the manager
        "The key is model KX-2200 from Abloy",  # a key's model, not its code
        "password: what does that mean",  # words of one length that are words
        "I changed the alarm code in the spring of 2019",  # a year closing the clause
        "the code for my order 44718 never arrived",  # no lock named
        "token limit: 4000",  # tokens are counted
        "the doc is docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
        "pinned QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco on IPFS",  # a content address
        "AuthTokenProviderFactory2 is the class to mock",  # words glued, not shattered
        "wifi name: HomeNet5G",  # the network's name is no secret
        "## Passwords\nI hate them\n2024 was rough",  # a heading, then no value
        "send it to mailto:billing@example.com",  # an address, not user:password
        "Use code SPRING25 at checkout",  # a public discount code
        "PASSWORD_MIN_LENGTH=12\nTOKEN_SCOPE=read-all",  # names of other things
        "api_key: !ENV ${WEATHER_API_KEY}",  # a YAML tag
        "customer cus_tE12nyyUtJqZH5 in Stripe",  # a typed id
        "I have had the same PIN since 2016",  # a year
    ],
)
def test_the_further_principles_leave_these_alone(text: str) -> None:
    assert not contains_secret(text)


def test_an_answer_may_come_after_an_aside_or_a_request() -> None:
    assert redact_adjacent(["what's the alarm code at the cabin?", "hold on", "2580 I think"])[
        2
    ] == ("[REDACTED:answered_credential] I think")
    # two messages of looking it up before the answer
    asked = ["remind me what the garage code was", "wait", "let me check the fridge", "3917"]
    assert "3917" not in redact_adjacent(asked)[3]
    # a request with no question mark, and a reply that opens with the value
    assert "Kotlet9" not in redact_adjacent(["podaj hasło do wifi", "Kotlet9 chyba"])[1]
    # a message that names a credential and gives none, then an unrelated one
    assert redact_adjacent(["I changed my wifi password", "ok cool"])[1] == "ok cool"
    assert redact_adjacent(["I changed my password", "call me at 5"])[1] == "call me at 5"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # An aside between a credential's name and its value is read past; the aside stays.
        ("Thunderbird app password (Google made me create one): qwhz mkpt rvbn lsoe", ["qwhz"]),
        ("Router admin login (the one on the sticker is wrong): admin / Kestrel#208", ["Kestrel"]),
        (
            "Bitwarden master key, since the hint is useless: Fi4DhgjKFaFElYeH67s/Cecparqck",
            ["Fi4D"],
        ),
        # A recovery key in the languages the gate reads, in one word or apart.
        ("Bitlocker-Wiederherstellungsschlüssel vom Laptop: 418902-553187-226041", ["418902"]),
        ("återställningsnyckel: 418902-553187-226041-001122", ["418902"]),
        ("clé de récupération : 418902-553187-226041-001122", ["418902"]),
        ("klucz odzyskiwania: 418902-553187-226041-001122", ["418902"]),
        # A token named by what it grants, with words before its value.
        ("Twilio auth token for the main account 0e6cf2d9f7f490884dc63860b684bb23", ["0e6c"]),
        # The second credential of a sentence, or of the label on the next line.
        (
            "I changed the wifi password from hunter2hunter to Gravel.Cactus.58",
            ["hunter2", "Gravel"],
        ),
        ("la clave del trastero es 1492 y la del candado de la bici 0312", ["1492", "0312"]),
        ("Gamla lösenordet: Sommar2021!\nNya: Blåbär-Myr-77", ["Sommar2021", "Blåbär"]),
    ],
)
def test_a_credential_after_an_aside_or_beside_another_is_one(text: str, values: list[str]) -> None:
    assert gone(text, *values), redact(text)


def test_what_only_stands_beside_a_credential_stays() -> None:
    # The aside is kept, and so are a year, the next sentence and a plain line after it.
    assert redact(
        "Thunderbird app password (Google made me create one): qwhz mkpt rvbn"
    ).startswith("Thunderbird app password (Google made me create one): [REDACTED")
    said = redact("The PIN is 4471, my flat is 12 and I moved in 2019. Meeting at 1400.\nSee you")
    assert "2019" in said and "1400" in said and "4471" not in said
    for text in (
        "Bearer tokens are documented in RFC 6750.",
        "The recovery key is stored in the safe",
        "recovery time: 4 hours",
        "Meeting notes (week 12): budget approved, see the password policy",
        # A key of JSON after a comma is no aside.
        '{"content": "a note", "note": "say \\"hi\\""}',
        # An id with a credential word after its hyphen is no compound of one.
        "## m-seed\nEdits: e000 e001 e002 e003 e004 e005 e006 e007 e008 e009 e010 END",
    ):
        assert not contains_secret(text), text
