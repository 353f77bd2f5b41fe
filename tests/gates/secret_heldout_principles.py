"""Held-out cases for the secret gate, organised by principle rather than by pattern.

This set was written blind, before the gate's principle-based rewrite, by someone who had
not read the gate's code or its other case files; it has never been used to tune the gate
and must not be. Each case is text as a person would type it to an AI assistant: chat
messages, notes, config snippets, shell lines, pasted emails, in English, Swedish, German,
Spanish, French, Italian, Portuguese, Dutch and Polish, with a few in Norwegian, Danish and
Finnish. Comments inside the lists name the language of the cases that follow.

Every credential here is made up: passwords, PINs, card numbers (Luhn-valid but invented),
IBANs (mod-97-valid but invented), seed phrases, TOTP seeds and tokens. Vendor-shaped tokens
are assembled from pieces so this file does not trip push-protection scanners.

Scoring is in ``secret_score.py``: a secret case is caught when every listed value is gone
after redaction, a split case when every listed value is gone from every message, and a
look-alike is a false positive when anything in it is flagged.
"""

from __future__ import annotations

# Vendor-shaped tokens, built by concatenation; every body is random and made up.
_GHP_A = "gh" + "p_" + "ufxNKp1js3AUI6jTvilZSMP5sb9ZRSVLJtN9"
_GHP_B = "gh" + "p_" + "jNkWfw0xEnVKrhC0pRExGjKO34xUTCzCKGJ6"
_GH_PAT_A = (
    "github" + "_pat_" + "mWRdKIiwDTa3UaXMrMxgWV_"
    "oiwS4sMFWcge7Rcut0BRJ6OqjWsvMZRvxuzCx4rarODhz395kMuf7z65fma"
)
_GH_PAT_B = (
    "github" + "_pat_" + "lHjV6Yi6A6fzMdOCK34Khi_"
    "3UmtM6L2jCDKwbXRRcRybDKk3BYyyuCkiCKalJPiy7Le32M18QaL3cwMEtz"
)
_OPENAI_A = "s" + "k-proj-" + "BYf1zlFSH09xitbfPQvuO3W6Jv9fgSuxSGT6NGEIU75faojt"
_OPENAI_B = "s" + "k-" + "RYqlljtbFwfOnEWIig0bW5cZokAXIaBxjBJr36Xn6oTVrBf6"
_OPENAI_HEAD = "s" + "k-proj-" + "T4vXw9LqZr2mHc8Ne1Bd"
_OPENAI_TAIL = "Kp6Yf3Gs0Ja7Ui5Ro2Wt9Ex4Cz1Vb8Ln6Mh3"
_SLACK_BOT = "xo" + "xb-" + "350036635085-8108458268334-ecGWDPdQvxCcD2F4Sj6YJ9D1"
_SLACK_USER = (
    "xo" + "xp-" + "063326862592-374101839189-4059372205627-18188d87b44489a39fc882cec24b770f"
)
_AWS_ID_A = "AK" + "IA" + "UNUJYD3H2ESF5BR4"
_AWS_SECRET_A = "fABlIYb30n7ug1SSL6ka" + "7d13l2FK+d3LZREmJEGs"
_AWS_ID_B = "AK" + "IA" + "OGD4ZO3OU2JPVZE2"
_AWS_SECRET_B = "eTWP4QIAA3Vg4iPcZbIh" + "LOc+6SERRiyzfxxmtjRp"
_STRIPE_A = (
    "sk" + "_live_" + "P5BmGzVFE5bSKysOHbboAaXaPoXtJlGfMEj8KxhJ4CxP0kZ3T495cjfCn1mB0VAK9jPEjZakB4"
    "a2yqSDSfq8DzeMWVrRcz3pXEW"
)
_STRIPE_B = "rk" + "_live_" + "VkrdTXpmnXDGHNlofPyDqJK3"
_GOOGLE_A = "AI" + "za" + "wU5yPzxameLqt8ydEOJBwDMGEuFN7VR63mA"
_GOOGLE_B = "AI" + "za" + "YhzIvGLTf8GnH1xIyQpXGlPwxLiDhyVbW6w"
_GITLAB = "gl" + "pat-" + "iwZQB9vf2K08cUmhLk27"
_NPM = "np" + "m_" + "QHrTLBRZXLhQqgpI3WurRgwpj4C9X9e0QTzV"
_ANTHROPIC = (
    "sk" + "-ant-api03-" + "vQsYRcOIWN1dvqd4EJdT6ex1pMe25qFVBc3lzkh6nJgBb7dXVfNyB4j9W4X4JG10BF3e5d"
    "-Qm6V3vBuK9cvHYrHMJhOMNAA"
)
_JWT_HEAD = "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
_JWT_A = (
    _JWT_HEAD + ".ey" + "JzdWIiOiJ1XzQ4MjEzIiwibmFtZSI6Ik1hamEgTGluZCIsInJvbGUiOiJhZG1pbiIsImlhdCI6"
    "MTczMTQwMDAwMCwiZXhwIjoxNzMxNDg2NDAwfQ" + ".GPzEyoL8EsaJd_wyXxQPplH8ACyjkz4jmBQlm7knI4p"
)
_JWT_B = (
    _JWT_HEAD + ".ey" + "JzdWIiOiI5ZjFjMmUiLCJzY29wZSI6Im9yZGVyczp3cml0ZSIsImlhdCI6MTczMzkwMDAwMH0"
    ".ShZFC8ZrXbeg_fT3pG-h8msMlc-T1ah9sdbEl7oX8nr"
)
_JWT_C = (
    _JWT_HEAD + ".ey" + "J1aWQiOiJha183NzMxIiwidGVuYW50Ijoibm9yZHZpayIsImV4cCI6MTc0MDAwMDAwMH0"
    ".EHAluvtdgDW1-In81LJK6yc-jecsblnAk2vnXK6-Zy2"
)

PRINCIPLE_SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    # (family, text as a person would type it to an AI assistant, values that must ALL be gone
    # after redaction)
    #
    # ---------------------------------------------------------------- credential_word
    # English
    (
        "credential_word",
        "the gate code at the lake house is 7316, you punch it in and then press the bell symbol",
        ("7316",),
    ),
    ("credential_word", "Note to self: garage door keypad code 40912", ("40912",)),
    ("credential_word", "My bank PIN is 6057, please remind me if I ask you later", ("6057",)),
    (
        "credential_word",
        "alarm disarm code for the studio is 1-9-8-4, the panel is behind the coat rack",
        ("1-9-8-4",),
    ),
    (
        "credential_word",
        "The passphrase for my KeePass vault is violet otter dances at noon",
        ("violet otter dances at noon",),
    ),
    ("credential_word", "password for the shared Netflix account: LemonCurd77", ("LemonCurd77",)),
    (
        "credential_word",
        "login for the router admin page is admin / Chanterelle-19",
        ("Chanterelle-19",),
    ),
    (
        "credential_word",
        "Locker at the climbing gym, combination 31-07-22, top row on the left",
        ("31-07-22",),
    ),
    ("credential_word", "bike lock code is 0833 if you borrow it tomorrow", ("0833",)),
    (
        "credential_word",
        "Hotel room safe: I set the code to 271828 so I'd remember it",
        ("271828",),
    ),
    (
        "credential_word",
        "The unlock pattern on my old Android is an L shape, 1-4-7-8-9, in case we need the "
        "photos off it",
        ("1-4-7-8-9",),
    ),
    (
        "credential_word",
        "The CVV on the back is 482, can you fill that into the form for me?",
        ("482",),
    ),
    (
        "credential_word",
        "security code for the Amazon gift card my aunt sent: 7GQK-M2XP-44RD",
        ("7GQK-M2XP-44RD",),
    ),
    ("credential_word", "my iPhone passcode is 190375, write that in my notes file", ("190375",)),
    (
        "credential_word",
        "Recovery code for my Proton account: hollow-mint-ferry-acorn-1177",
        ("hollow-mint-ferry-acorn-1177",),
    ),
    (
        "credential_word",
        "Google backup code, the one I haven't used yet: 8824 1973",
        ("8824 1973",),
    ),
    (
        "credential_word",
        "The secret answer to the 'first pet' question is Biscuit McGee",
        ("Biscuit McGee",),
    ),
    (
        "credential_word",
        "heads up, the front door code changed, it's now 5590 followed by the star key",
        ("5590",),
    ),
    ("credential_word", "pw: hunter-of-Orion-1988", ("hunter-of-Orion-1988",)),
    ("credential_word", "Passcode for the Zoom board meeting on Thursday is 8841207", ("8841207",)),
    (
        "credential_word",
        "my MetaMask password is Ferngully_Tundra#8 (not the seed, just the unlock password)",
        ("Ferngully_Tundra#8",),
    ),
    (
        "credential_word",
        "Lockbox at the rental on Birch Lane, code 2046, the keys are inside",
        ("2046",),
    ),
    (
        "credential_word",
        "SSH key passphrase: blue kettle under the stairs",
        ("blue kettle under the stairs",),
    ),
    (
        "credential_word",
        "Office alarm: disarm with 3349 and then press OFF within 30 seconds",
        ("3349",),
    ),
    (
        "credential_word",
        "the master password to my 1Password is Quilted-Harbor-Sunrise-61, don't lose it",
        ("Quilted-Harbor-Sunrise-61",),
    ),
    ("credential_word", "PIN for the parcel locker downstairs is 774120", ("774120",)),
    ("credential_word", "access code for the client's SharePoint: KD93-PLQ7", ("KD93-PLQ7",)),
    ("credential_word", "token for the school's parent portal is 6HPX2QM9", ("6HPX2QM9",)),
    (
        "credential_word",
        "From: IT Service Desk\nSubject: your temporary password\nHi Sam, your temporary "
        "password is Wx7!rTq2mPz. Please change it at first login.",
        ("Wx7!rTq2mPz",),
    ),
    (
        "credential_word",
        "login: mkowalski_admin  pass: Rhubarb&Custard2025",
        ("Rhubarb&Custard2025",),
    ),
    # Swedish
    (
        "credential_word",
        "Portkoden till Kungsgatan är 1947, tryck på nyckelsymbolen först",
        ("1947",),
    ),
    ("credential_word", "Mitt lösenord till Blocket är Kanelbulle!88", ("Kanelbulle!88",)),
    ("credential_word", "Pinkoden till mitt Visakort är 4410", ("4410",)),
    (
        "credential_word",
        "koden till cykellåset är 715, lånar du den så lås fast den vid stolpen",
        ("715",),
    ),
    (
        "credential_word",
        "Larmkoden på landet är 2468, stäng av larmet innan du öppnar altandörren",
        ("2468",),
    ),
    ("credential_word", "Kod till förrådet i källaren: 0902", ("0902",)),
    (
        "credential_word",
        "Återställningskoden för Microsoft-kontot är 7KQ9-XB42-MT6P",
        ("7KQ9-XB42-MT6P",),
    ),
    ("credential_word", "säkerhetskoden till BankID på min gamla telefon var 592031", ("592031",)),
    (
        "credential_word",
        "Lösenfrasen till den krypterade disken är röd katt sover på taket",
        ("röd katt sover på taket",),
    ),
    ("credential_word", "Kodlåset på garaget: 3391, byt den efter sommaren", ("3391",)),
    # German
    (
        "credential_word",
        "Die Geheimzahl meiner Girocard lautet 5830, nur falls ich sie wieder vergesse",
        ("5830",),
    ),
    (
        "credential_word",
        "Passwort fürs Firmen-VPN: Zwetschgen-Kuchen-17",
        ("Zwetschgen-Kuchen-17",),
    ),
    ("credential_word", "Der Türcode vom Hinterhof ist 8264", ("8264",)),
    (
        "credential_word",
        "Tresor im Büro, Kombination 44-12-90, bitte niemandem weitersagen",
        ("44-12-90",),
    ),
    (
        "credential_word",
        "Das Kennwort für die Router-Oberfläche lautet Elbsandstein!2024",
        ("Elbsandstein!2024",),
    ),
    ("credential_word", "Alarmanlage scharf und unscharf schalten mit dem Code 1357", ("1357",)),
    (
        "credential_word",
        "Mein Login bei der Sparkasse: Anmeldename kratzer77, PIN 60318",
        ("60318",),
    ),
    ("credential_word", "Der Freigabecode für die pushTAN-App ist 48291", ("48291",)),
    ("credential_word", "Zugangscode für das Schließfach am Hauptbahnhof: 907341", ("907341",)),
    ("credential_word", "Kennwort der ELSTER-Zertifikatsdatei: Wanderdüne_88", ("Wanderdüne_88",)),
    # Spanish
    (
        "credential_word",
        "la contraseña del correo del trabajo es Girasol-Plata-31",
        ("Girasol-Plata-31",),
    ),
    ("credential_word", "El PIN de la tarjeta nueva es 2209, apúntalo en mis notas", ("2209",)),
    ("credential_word", "código de la alarma de casa: 6180", ("6180",)),
    (
        "credential_word",
        "La clave del portal de la comunidad es 4572 y luego la almohadilla",
        ("4572",),
    ),
    ("credential_word", "Código de desbloqueo del móvil de mi madre: 081193", ("081193",)),
    (
        "credential_word",
        "la clave del certificado digital de Hacienda es Tortilla_Pardo_9",
        ("Tortilla_Pardo_9",),
    ),
    (
        "credential_word",
        "mi usuario es jgarcia y la contraseña Mar-de-Alborán77",
        ("Mar-de-Alborán77",),
    ),
    ("credential_word", "el código del candado de la taquilla del gimnasio es 3-8-1", ("3-8-1",)),
    (
        "credential_word",
        "Frase de contraseña del disco cifrado: las nubes comen naranjas",
        ("las nubes comen naranjas",),
    ),
    # French
    (
        "credential_word",
        "Le code de la porte d'entrée est 4B792, puis deuxième étage à gauche",
        ("4B792",),
    ),
    (
        "credential_word",
        "mot de passe de l'espace client EDF : Lavande#Provence19",
        ("Lavande#Provence19",),
    ),
    ("credential_word", "Code PIN de ma carte bancaire : 3804", ("3804",)),
    (
        "credential_word",
        "Le code de l'alarme, c'est 9173, tu as 30 secondes pour le taper",
        ("9173",),
    ),
    ("credential_word", "code du cadenas du vélo : 2561", ("2561",)),
    (
        "credential_word",
        "identifiant : m.dubois, mot de passe : Tournesol_2719",
        ("Tournesol_2719",),
    ),
    (
        "credential_word",
        "Code de secours pour la double authentification : 6402-1187",
        ("6402-1187",),
    ),
    (
        "credential_word",
        "La phrase secrète de ma clé GPG est le chat dort sous la pluie",
        ("le chat dort sous la pluie",),
    ),
    ("credential_word", "code du coffre-fort de la chambre : 0719", ("0719",)),
    # Italian
    ("credential_word", "Il codice del cancello della casa al mare è 3378", ("3378",)),
    ("credential_word", "La password della PEC è Limoncello!Amalfi4", ("Limoncello!Amalfi4",)),
    ("credential_word", "PIN del bancomat: 5026", ("5026",)),
    (
        "credential_word",
        "codice dell'allarme 7410, si disattiva dal tastierino in corridoio",
        ("7410",),
    ),
    ("credential_word", "Il codice del lucchetto della bici è 846", ("846",)),
    ("credential_word", "Codice di sblocco del telefono della nonna: 120344", ("120344",)),
    (
        "credential_word",
        "Credenziali SPID: utente r.bianchi, password Gnocchi-Verdi-27",
        ("Gnocchi-Verdi-27",),
    ),
    (
        "credential_word",
        "parola d'ordine per il wiki interno: TorreDiPisa_1173",
        ("TorreDiPisa_1173",),
    ),
    ("credential_word", "codice di sicurezza della carta (CVV): 915", ("915",)),
    # Portuguese
    ("credential_word", "O PIN do cartão do Nubank é 7741", ("7741",)),
    ("credential_word", "A senha do internet banking é Caju-Azul-2031", ("Caju-Azul-2031",)),
    ("credential_word", "código do portão da garagem: 5098", ("5098",)),
    ("credential_word", "A senha do alarme do escritório é 3162", ("3162",)),
    ("credential_word", "senha do cadeado da mala: 407", ("407",)),
    ("credential_word", "Minha senha do gov.br é Saudade#Lisboa90", ("Saudade#Lisboa90",)),
    ("credential_word", "código de recuperação da conta: QX7R-2LMK-9FTD", ("QX7R-2LMK-9FTD",)),
    (
        "credential_word",
        "palavra-passe do gestor de senhas: o gato azul come pastel",
        ("o gato azul come pastel",),
    ),
    ("credential_word", "código de acesso ao condomínio: 93517", ("93517",)),
    # Dutch
    ("credential_word", "De pincode van de kluis in de slaapkamer is 0412", ("0412",)),
    ("credential_word", "Wachtwoord voor DigiD: Stroopwafel-Regen-64", ("Stroopwafel-Regen-64",)),
    ("credential_word", "De code van het hek bij de achteringang is 2771", ("2771",)),
    ("credential_word", "Alarmcode winkel: 6093, niet doorgeven aan de schoonmaker", ("6093",)),
    ("credential_word", "Mijn pincode van de bankpas is 3186", ("3186",)),
    ("credential_word", "fietsslot code 962", ("962",)),
    ("credential_word", "Toegangscode voor het portaal van de huisarts: 51-88-07", ("51-88-07",)),
    (
        "credential_word",
        "wachtzin van mijn SSH-sleutel: de molen draait in de mist",
        ("de molen draait in de mist",),
    ),
    # Polish
    ("credential_word", "Kod do alarmu w domku to 8830", ("8830",)),
    (
        "credential_word",
        "Hasło do bankowości internetowej: Pierogi-Wisła-39",
        ("Pierogi-Wisła-39",),
    ),
    ("credential_word", "PIN do karty: 6620", ("6620",)),
    ("credential_word", "Kod do furtki to 1504, wejście od podwórka", ("1504",)),
    ("credential_word", "hasło do poczty firmowej to Kasztan_Jesień77", ("Kasztan_Jesień77",)),
    ("credential_word", "kod do skrytki pocztowej: 298461", ("298461",)),
    ("credential_word", "Kod odblokowania telefonu: 060588", ("060588",)),
    ("credential_word", "kod do szafki w szatni: 473", ("473",)),
    # Norwegian
    ("credential_word", "Koden til garasjeporten er 3860", ("3860",)),
    ("credential_word", "Passordet til nettbanken er Fjordhest-72", ("Fjordhest-72",)),
    # Danish
    ("credential_word", "Adgangskoden til e-Boks er Rødgrød_Med_Fløde4", ("Rødgrød_Med_Fløde4",)),
    # Finnish
    ("credential_word", "Mökin ovikoodi on 6734", ("6734",)),
    #
    # ---------------------------------------------------------------- card
    # English
    ("card", "Company Visa 4539 0443 4874 3998 exp 09/27 CVV 318", ("4539 0443 4874 3998", "318")),
    (
        "card",
        "book the flights on my Mastercard 5425-9865-8209-6596, expires 11/28, security code 604",
        ("5425-9865-8209-6596", "604"),
    ),
    ("card", "Amex 3714 847494 45448 exp 03/29 CID 7215", ("3714 847494 45448", "7215")),
    ("card", "card no 4916175389400529 exp 0126 cvc 883", ("4916175389400529", "883")),
    (
        "card",
        "billing:\n  card: 5292778246221722\n  exp: 07/27\n  cvv: 559",
        ("5292778246221722", "559"),
    ),
    ("card", "AMEX 378292913748825 exp 10/26, it's the corporate one", ("378292913748825",)),
    (
        "card",
        "Could you fill in the checkout form? 4263 1808 8452 1604, 03/30, 541, name Dana Whitlock",
        ("4263 1808 8452 1604", "541"),
    ),
    # Swedish
    (
        "card",
        "Kortnummer 4024 8020 0641 4638, giltigt till 05/28, CVC 247",
        ("4024 8020 0641 4638", "247"),
    ),
    # German
    (
        "card",
        "Kreditkarte: 5168 8081 3770 9625, gültig bis 10/27, Prüfnummer 391",
        ("5168 8081 3770 9625", "391"),
    ),
    ("card", "Bitte die Amex 3400-417340-15749 für das Hotel nehmen", ("3400-417340-15749",)),
    # Spanish
    (
        "card",
        "Número de tarjeta 4485 1611 2237 8603, caducidad 02/29, CVV 726",
        ("4485 1611 2237 8603", "726"),
    ),
    ("card", "MC 5105322879049857 cad 09/26 cvc 062", ("5105322879049857", "062")),
    # French
    (
        "card",
        "Carte bleue n° 4716 4128 2098 0153 expire 08/27 cryptogramme 165",
        ("4716 4128 2098 0153", "165"),
    ),
    # Italian
    (
        "card",
        "carta di credito 2221 6919 7035 0695 scadenza 12/28 CVV 930",
        ("2221 6919 7035 0695", "930"),
    ),
    # Portuguese
    (
        "card",
        "Número do cartão: 5555 0172 7795 3982, validade 04/27, CVV 812",
        ("5555 0172 7795 3982", "812"),
    ),
    # Dutch
    (
        "card",
        "Creditcardnummer 4929-9175-9094-0610, geldig tot 06/29, CVC 477",
        ("4929-9175-9094-0610", "477"),
    ),
    # Polish
    (
        "card",
        "Numer karty 2720 5574 1090 7756, ważna do 01/28, kod CVV 358",
        ("2720 5574 1090 7756", "358"),
    ),
    #
    # ---------------------------------------------------------------- iban
    # English
    (
        "iban",
        "Wire the deposit to GB21 NWBK 2469 0103 0882 62 before Friday please",
        ("GB21 NWBK 2469 0103 0882 62",),
    ),
    (
        "iban",
        "Payroll change: new IBAN BE37285872429568, online banking PIN 662904",
        ("BE37285872429568", "662904"),
    ),
    # Swedish
    (
        "iban",
        "Mitt IBAN är SE72 4916 6648 6614 2444 7807 och internetbankens PIN-kod är 51938",
        ("SE72 4916 6648 6614 2444 7807", "51938"),
    ),
    (
        "iban",
        "Skicka pengarna till SE98 1967 4622 0750 4949 9529 så fort du kan",
        ("SE98 1967 4622 0750 4949 9529",),
    ),
    # German
    (
        "iban",
        "Bitte überweise die Miete auf DE50 0093 8668 5058 5299 12 (Kontoinhaber J. Brandt)",
        ("DE50 0093 8668 5058 5299 12",),
    ),
    (
        "iban",
        "AT06 6985 5586 5453 9522 ist das österreichische Konto, die Telebanking-PIN ist 31770",
        ("AT06 6985 5586 5453 9522", "31770"),
    ),
    # Spanish
    ("iban", "IBAN para la fianza: ES9053434867896558383175", ("ES9053434867896558383175",)),
    (
        "iban",
        "Transferencia a ES93 6280 7377 6776 3817 0184, clave de la banca online 884215",
        ("ES93 6280 7377 6776 3817 0184", "884215"),
    ),
    # French
    (
        "iban",
        "RIB : FR92 7738 2598 9864 5701 6677 326, merci de virer avant le 5",
        ("FR92 7738 2598 9864 5701 6677 326",),
    ),
    ("iban", "Mon IBAN suisse : CH69 2497 3321 3771 3393 2", ("CH69 2497 3321 3771 3393 2",)),
    # Italian
    (
        "iban",
        "IBAN del conto cointestato: IT04 X766 6588 6418 9127 6399 897",
        ("IT04 X766 6588 6418 9127 6399 897",),
    ),
    (
        "iban",
        "IBAN IT09K6530677723569578939700 intestato a Lucia Ferri",
        ("IT09K6530677723569578939700",),
    ),
    # Portuguese
    (
        "iban",
        "O meu IBAN é PT17 9034 6295 3822 5370 8220 2, podes transferir já",
        ("PT17 9034 6295 3822 5370 8220 2",),
    ),
    # Dutch
    (
        "iban",
        "Maak het over naar NL75 RABO 7554 4459 08 onder vermelding van de huur",
        ("NL75 RABO 7554 4459 08",),
    ),
    (
        "iban",
        "IBAN NL38INGB3519733188 t.n.v. fam. de Vries, pincode internetbankieren 40716",
        ("NL38INGB3519733188", "40716"),
    ),
    # Polish
    (
        "iban",
        "Numer konta do przelewu: PL95 3683 2268 7756 8761 2198 6398",
        ("PL95 3683 2268 7756 8761 2198 6398",),
    ),
    # Norwegian
    ("iban", "Kontonummer med IBAN: NO30 6683 6880 082", ("NO30 6683 6880 082",)),
    # Danish
    ("iban", "Min IBAN er DK18 4567 3905 1246 45", ("DK18 4567 3905 1246 45",)),
    # Finnish
    (
        "iban",
        "Tilinumero FI86 1162 2097 7302 61, maksa vuokra ennen viidettä päivää",
        ("FI86 1162 2097 7302 61",),
    ),
    #
    # ---------------------------------------------------------------- seed_phrase
    # English
    (
        "seed_phrase",
        "My Ledger recovery phrase, keep it safe: company slender lawn board inquiry drastic "
        "rotate element earth item raw female",
        ("slender", "inquiry", "drastic"),
    ),
    (
        "seed_phrase",
        "seed words for the MetaMask wallet: visual roast update deliver lunch dune report "
        "fringe vital donate labor drive",
        ("roast", "fringe", "donate"),
    ),
    (
        "seed_phrase",
        "1. symbol 2. hello 3. trouble 4. pool 5. urban 6. bid 7. token 8. auction 9. inner 10. "
        "excite 11. tragic 12. pyramid",
        ("trouble", "excite", "pyramid"),
    ),
    (
        "seed_phrase",
        "backup of the cold wallet seed (24 words): response stock original sea artist produce "
        "toddler two swim satoshi bridge arena vapor lesson breeze jealous deputy insect educate "
        "win turtle okay cost panther",
        ("toddler", "satoshi", "panther"),
    ),
    (
        "seed_phrase",
        "electrum seed: comic citizen elephant educate cousin fork boss quit end super picture "
        "tunnel advice lemon name champion mystery museum bonus bottom property void cluster "
        "awesome",
        ("citizen", "elephant", "champion"),
    ),
    # Swedish
    (
        "seed_phrase",
        "Återställningsfrasen till plånboken: plate problem pen patch inform learn barely "
        "neutral dash bind day dash",
        ("inform", "barely", "neutral"),
    ),
    (
        "seed_phrase",
        "Här är mina 24 ord för hårdvaruplånboken: lounge excuse ghost rural unveil worry add "
        "federal august supreme bring shadow coffee daughter child rhythm film feel cargo firm "
        "curious soul point behave",
        ("unveil", "rhythm", "curious"),
    ),
    # German
    (
        "seed_phrase",
        "Seed-Phrase meiner Trezor: slot amused sword odor cable again twist off across tube "
        "lunar orbit",
        ("amused", "sword", "lunar"),
    ),
    (
        "seed_phrase",
        "Hier die 24 Wörter vom BitBox-Backup: plunge second buddy axis hat afraid heart vague "
        "couch hard album toward train rice bring verify hundred region merit warrior business "
        "pitch vicious tired",
        ("buddy", "vague", "vicious"),
    ),
    # Spanish
    (
        "seed_phrase",
        "frase semilla de la cartera: original effort embrace shove gate riot olive predict fan "
        "march above emotion",
        ("embrace", "shove", "predict"),
    ),
    # French
    (
        "seed_phrase",
        "phrase de récupération du portefeuille : then this disease tuna damage jump ready idle "
        "salt jaguar cup glare",
        ("disease", "jaguar", "glare"),
    ),
    # Italian
    (
        "seed_phrase",
        "frase di recupero del wallet: possible tackle actor whale agree hurt camp remember "
        "combine august evoke oval",
        ("tackle", "whale", "evoke"),
    ),
    # Portuguese
    (
        "seed_phrase",
        "frase de recuperação da carteira: jar plug inmate erosion profit stairs ethics siren "
        "success trophy call cute",
        ("inmate", "erosion", "trophy"),
    ),
    # Dutch
    (
        "seed_phrase",
        "herstelzin van mijn wallet: tag fee that donkey lens saddle rocket diagram gate snow "
        "beef total",
        ("donkey", "saddle", "diagram"),
    ),
    # Polish
    (
        "seed_phrase",
        "fraza odzyskiwania portfela: pave razor okay bubble cruise unique edit pupil quality "
        "salad random connect",
        ("razor", "cruise", "pupil"),
    ),
    #
    # ---------------------------------------------------------------- userinfo
    # English
    (
        "userinfo",
        "psql postgresql://reporter:Quince%2142Lark@db-prod.internal:5432/finance",
        ("Quince%2142Lark",),
    ),
    (
        "userinfo",
        "DATABASE_URL=mysql://shop_rw:Velvet-Pike-207@mysql.lan:3306/shop",
        ("Velvet-Pike-207",),
    ),
    (
        "userinfo",
        "the analytics job reads from "
        "mongodb+srv://analytics:nZ7qLpW3vKd9@cluster0.ab12c.mongodb.net/events",
        ("nZ7qLpW3vKd9",),
    ),
    ("userinfo", "CACHE_URL=redis://:Cobalt!Fennel55@cache-01:6379/0", ("Cobalt!Fennel55",)),
    (
        "userinfo",
        "~/.pgpass line: warehouse.acme.internal:5432:metrics:grafana:Otter-Lantern-9",
        ("Otter-Lantern-9",),
    ),
    (
        "userinfo",
        "git clone https://jdoe:Marmalade2Skies@git.example-corp.net/infra/terraform.git",
        ("Marmalade2Skies",),
    ),
    ("userinfo", "smtp login alerts@bakery-lund.se / Saffron!Bun2026", ("Saffron!Bun2026",)),
    (
        "userinfo",
        ".netrc: machine api.heroku.com login ops@acme.io password Kestrel-Fog-71",
        ("Kestrel-Fog-71",),
    ),
    # Swedish
    (
        "userinfo",
        "Anslut med ftp://lagret:Hallon-Kaka-31@ftp.lagret.se/uppladdning",
        ("Hallon-Kaka-31",),
    ),
    # German
    (
        "userinfo",
        "Der Broker läuft unter amqp://rabbit:Kartoffel-Salat-8@mq.intern:5672/prod",
        ("Kartoffel-Salat-8",),
    ),
    (
        "userinfo",
        "Archiv-Freigabe: smb://buchhaltung:Apfelstrudel_5@fileserver/archiv",
        ("Apfelstrudel_5",),
    ),
    # Spanish
    (
        "userinfo",
        "cadena de conexión: postgres://app_user:Churro-Luna-66@10.20.0.5/ventas",
        ("Churro-Luna-66",),
    ),
    # French
    (
        "userinfo",
        "Accès SFTP : sftp://compta:Baguette-Nuit-43@files.cabinet-martin.fr",
        ("Baguette-Nuit-43",),
    ),
    # Italian
    (
        "userinfo",
        "URL del proxy: http://mrossi:Pistacchio!72@proxy.azienda.local:3128",
        ("Pistacchio!72",),
    ),
    # Portuguese
    (
        "userinfo",
        "string do banco: mssql://sa:Feijoada#2027@sqlserver01:1433/erp",
        ("Feijoada#2027",),
    ),
    # Dutch
    (
        "userinfo",
        "Ingelogd via https://beheer:Tulpenveld-88@nas.thuis.local:5001 om de backups te checken",
        ("Tulpenveld-88",),
    ),
    # Polish
    (
        "userinfo",
        "Połącz się: mysql://raporty:Bigos-Zima-14@192.168.10.40/sklep",
        ("Bigos-Zima-14",),
    ),
    #
    # ---------------------------------------------------------------- totp_seed
    # English
    ("totp_seed", "TOTP seed for the admin panel 2FA: S7WWVGGMFHVC5KBW", ("S7WWVGGMFHVC5KBW",)),
    (
        "totp_seed",
        "otpauth://totp/Acme:lena@acme.io?secret=W74FC6YJRQXR5BQKVJALCH3RKB27BNTD&issuer=Acme&digits=6",
        ("W74FC6YJRQXR5BQKVJALCH3RKB27BNTD",),
    ),
    (
        "totp_seed",
        "mfa:\n  type: totp\n  secret: ZIRQ34DQ7SIT5EODBJRI5O27LMHKAFO3",
        ("ZIRQ34DQ7SIT5EODBJRI5O27LMHKAFO3",),
    ),
    (
        "totp_seed",
        "Google Authenticator setup key for the shared finance account is HGQU ETJG GEMG RVWV",
        ("HGQU", "ETJG", "GEMG", "RVWV"),
    ),
    (
        "totp_seed",
        "oathtool --totp -b B6PKP77O445FOSXQROGLD2LSMYJXQUJQ",
        ("B6PKP77O445FOSXQROGLD2LSMYJXQUJQ",),
    ),
    # Swedish
    (
        "totp_seed",
        "Tvåfaktorsnyckeln (jag kunde inte skanna QR-koden): VBNT FVYL OZYJ 6JLJ",
        ("VBNT", "FVYL", "OZYJ", "6JLJ"),
    ),
    # German
    (
        "totp_seed",
        "2FA-Geheimschlüssel fürs Hosting-Panel: 3V6FCZQBJ6H5ZNEJVCUXYTIAY7",
        ("3V6FCZQBJ6H5ZNEJVCUXYTIAY7",),
    ),
    (
        "totp_seed",
        "otpauth://totp/Nextcloud:kbauer?secret=EZKFCWANKAZ4KATT&issuer=Nextcloud",
        ("EZKFCWANKAZ4KATT",),
    ),
    # Spanish
    (
        "totp_seed",
        "semilla TOTP de la cuenta root de AWS: M4XAFA3HBE2H5UZGNDIBLRMOUGXZZQVN",
        ("M4XAFA3HBE2H5UZGNDIBLRMOUGXZZQVN",),
    ),
    # French
    (
        "totp_seed",
        "clé secrète 2FA (saisie manuelle) : 4cwk ipj5 hmcl myze",
        ("4cwk", "ipj5", "hmcl", "myze"),
    ),
    # Italian
    (
        "totp_seed",
        "chiave segreta per l'app di autenticazione: JHCEZE7G64YXSVHMIBUWIQAJYNNFHXBX",
        ("JHCEZE7G64YXSVHMIBUWIQAJYNNFHXBX",),
    ),
    # Portuguese
    (
        "totp_seed",
        "segredo do autenticador (2FA) do GitHub: CP2WQGBEFF2S4ISC",
        ("CP2WQGBEFF2S4ISC",),
    ),
    # Dutch
    (
        "totp_seed",
        "TOTP-geheim voor de VPN: VWPTXDQZYUEETSWK4VIQXW3KMNYFPHQTTWKXSXI25TQGBGDGLFMU",
        ("VWPTXDQZYUEETSWK4VIQXW3KMNYFPHQTTWKXSXI25TQGBGDGLFMU",),
    ),
    # Polish
    ("totp_seed", "klucz do aplikacji uwierzytelniającej: ZDK3O4TULZMXDMX7", ("ZDK3O4TULZMXDMX7",)),
    #
    # ---------------------------------------------------------------- auth_header
    # English
    (
        "auth_header",
        "curl -H 'Authorization: Bearer jUnq_G57Bs5GVWvejRcw6RRXArMYjOyOFkbQkwovDi_' "
        "https://api.example-pay.com/v1/payouts",
        ("jUnq_G57Bs5GVWvejRcw6RRXArMYjOyOFkbQkwovDi_",),
    ),
    (
        "auth_header",
        "Authorization: Basic ZGVwbG95Okdpbmdrby1SYWluLTQy",
        ("ZGVwbG95Okdpbmdrby1SYWluLTQy",),
    ),
    (
        "auth_header",
        "Okta calls need Authorization: SSWS 00ijLyFrjGm1q4iy9zMYerJRGiy6CXsOY3B-UYVLw-",
        ("00ijLyFrjGm1q4iy9zMYerJRGiy6CXsOY3B-UYVLw-",),
    ),
    (
        "auth_header",
        "Authorization: Token 2c6d576438346173963e7757c3866ff6f415a344",
        ("2c6d576438346173963e7757c3866ff6f415a344",),
    ),
    (
        "auth_header",
        "headers = {'Authorization': 'ApiKey DyQpEeVykHA4RSZWry80Q1UQ1ZJs2yFxcU3m0a8O'}",
        ("DyQpEeVykHA4RSZWry80Q1UQ1ZJs2yFxcU3m0a8O",),
    ),
    (
        "auth_header",
        'Authorization: Digest username="ops", realm="cams", nonce="6f1a0b9e2c7d4835a1e0", '
        'uri="/snapshot.jpg", response="044a3a6f291fff5d2bf25d3299ce9edb"',
        ("044a3a6f291fff5d2bf25d3299ce9edb",),
    ),
    (
        "auth_header",
        'proxy_set_header Authorization "Basic Z3JhZmFuYTpIZXJvbi1RdWF5LTYz";',
        ("Z3JhZmFuYTpIZXJvbi1RdWF5LTYz",),
    ),
    (
        "auth_header",
        "X-API-Key: e5790d5c41609d71ea0feaf0e23f41ff",
        ("e5790d5c41609d71ea0feaf0e23f41ff",),
    ),
    # Swedish
    (
        "auth_header",
        f"Lägg till headern Authorization: Bearer {_JWT_A} när du anropar API:et",
        (_JWT_A,),
    ),
    # German
    (
        "auth_header",
        "Im Postman-Request steht Authorization: Basic YXBpLXJlYWRlcjpaZXBoeXJfTWFuZ29fMTk=",
        ("YXBpLXJlYWRlcjpaZXBoeXJfTWFuZ29fMTk=",),
    ),
    # Spanish
    (
        "auth_header",
        "La cabecera que uso es Authorization: Bearer Dzk-m7Ol-VZflyjLg9slFNNaAKj5NubNAQLQ7g0E",
        ("Dzk-m7Ol-VZflyjLg9slFNNaAKj5NubNAQLQ7g0E",),
    ),
    # French
    (
        "auth_header",
        "En-tête : « Authorization: Token eaeaad3ca3c54e60489f4acbe79209ce00053b0d »",
        ("eaeaad3ca3c54e60489f4acbe79209ce00053b0d",),
    ),
    # Italian
    (
        "auth_header",
        "header di autenticazione: Authorization: ApiKey k7Rw2PzQn4Yt8LmX1bVc6HdJ3sFg9KaE",
        ("k7Rw2PzQn4Yt8LmX1bVc6HdJ3sFg9KaE",),
    ),
    # Portuguese
    (
        "auth_header",
        "O cabeçalho é Authorization: Basic bW9uaXRvcjpTYXVuYS1MYXBsYW5kLTc=",
        ("bW9uaXRvcjpTYXVuYS1MYXBsYW5kLTc=",),
    ),
    # Dutch
    ("auth_header", f"zet dit in de request: Authorization: Bearer {_JWT_C}", (_JWT_C,)),
    # Polish
    (
        "auth_header",
        "Nagłówek: Authorization: Bearer Xq8vN2mK5tR9wB3yH7jL4pD6fG1sZ0cA-uE_oI",
        ("Xq8vN2mK5tR9wB3yH7jL4pD6fG1sZ0cA-uE_oI",),
    ),
    #
    # ---------------------------------------------------------------- vendor_token
    # English
    ("vendor_token", f"export GITHUB_TOKEN={_GHP_A}", (_GHP_A,)),
    ("vendor_token", f"fine-grained PAT for the release bot: {_GH_PAT_A}", (_GH_PAT_A,)),
    ("vendor_token", f"OPENAI_API_KEY={_OPENAI_A}", (_OPENAI_A,)),
    ("vendor_token", f"SLACK_BOT_TOKEN={_SLACK_BOT}", (_SLACK_BOT,)),
    (
        "vendor_token",
        f"[default]\naws_access_key_id = {_AWS_ID_A}\naws_secret_access_key = {_AWS_SECRET_A}",
        (_AWS_ID_A, _AWS_SECRET_A),
    ),
    ("vendor_token", f"STRIPE_SECRET_KEY={_STRIPE_A}", (_STRIPE_A,)),
    ("vendor_token", f"Here's the JWT the app got back after login: {_JWT_B}", (_JWT_B,)),
    ("vendor_token", f"//registry.npmjs.org/:_authToken={_NPM}", (_NPM,)),
    ("vendor_token", f"my Claude key for the side project is {_ANTHROPIC}", (_ANTHROPIC,)),
    # Swedish
    ("vendor_token", f"Här är min GitHub-token om du behöver pusha: {_GHP_B}", (_GHP_B,)),
    # German
    (
        "vendor_token",
        f"Neuer Fine-grained Token fürs CI: {_GH_PAT_B} (läuft in 90 Tagen ab)",
        (_GH_PAT_B,),
    ),
    ("vendor_token", f"GitLab-Token für den Runner: {_GITLAB}", (_GITLAB,)),
    # Spanish
    ("vendor_token", f"mi clave de la API de OpenAI es {_OPENAI_B}", (_OPENAI_B,)),
    # French
    ("vendor_token", f"jeton utilisateur Slack : {_SLACK_USER}", (_SLACK_USER,)),
    # Italian
    (
        "vendor_token",
        f"Chiavi AWS del progetto: access key {_AWS_ID_B}, secret {_AWS_SECRET_B}",
        (_AWS_ID_B, _AWS_SECRET_B),
    ),
    # Portuguese
    ("vendor_token", f"chave restrita do Stripe para os relatórios: {_STRIPE_B}", (_STRIPE_B,)),
    # Dutch
    ("vendor_token", f"mijn Google Maps API-sleutel is {_GOOGLE_A}", (_GOOGLE_A,)),
    # Polish
    ("vendor_token", f"klucz API Google do arkuszy: {_GOOGLE_B}", (_GOOGLE_B,)),
    #
    # ---------------------------------------------------------------- multi_occurrence
    # English
    (
        "multi_occurrence",
        "Backup codes for my Google account: 8301 4476, 2290 5817, 6655 0931, 1748 3362, 9024 7718",
        ("8301 4476", "2290 5817", "6655 0931", "1748 3362", "9024 7718"),
    ),
    (
        "multi_occurrence",
        "The password is Ember-Vale-18. Again, Ember-Vale-18, capital E and capital V.",
        ("Ember-Vale-18",),
    ),
    (
        "multi_occurrence",
        ".env\nDB_PASSWORD=Parsnip-Quarry-4\nREDIS_PASSWORD=Gull-Ledge-93\nJWT_SECRET=c3b1f0e9a2d84b67",
        ("Parsnip-Quarry-4", "Gull-Ledge-93", "c3b1f0e9a2d84b67"),
    ),
    (
        "multi_occurrence",
        "mysql -u root -pSorrel-Tide-28 -e 'show databases'; echo 'Sorrel-Tide-28' > ~/.mysqlpw",
        ("Sorrel-Tide-28",),
    ),
    (
        "multi_occurrence",
        "config.yaml:\n  api_key: DCzN1lRerZLeqH8zkSCfN2MNT1xH1GA8\n  api_secret: "
        "LdTXligIKOgqkZ7fAX0jWjABS457HYvUzMLoIKgbFuopHo8b",
        ("DCzN1lRerZLeqH8zkSCfN2MNT1xH1GA8", "LdTXligIKOgqkZ7fAX0jWjABS457HYvUzMLoIKgbFuopHo8b"),
    ),
    (
        "multi_occurrence",
        "bitwarden export excerpt: gmail, Quartz-Meadow-5; paypal, Saltmarsh!Wren41; twitter, "
        "Okapi-Dune-808",
        ("Quartz-Meadow-5", "Saltmarsh!Wren41", "Okapi-Dune-808"),
    ),
    # Swedish
    (
        "multi_occurrence",
        "Portkod 3317, lägenhetsdörren har kodlås 8842 och larmkoden är 6105",
        ("3317", "8842", "6105"),
    ),
    (
        "multi_occurrence",
        "Reservkoder för Bitwarden: 9WQ2-HF6K-LM3T-RZ8P och 4H7X-DC2N-WB5Q-TK9V",
        ("9WQ2-HF6K-LM3T-RZ8P", "4H7X-DC2N-WB5Q-TK9V"),
    ),
    # German
    (
        "multi_occurrence",
        "GitHub-Wiederherstellungscodes: 5d2c1-8a9f0 e71b3-44c6d 0f9e2-b7a15 9c3d8-126ee "
        "6ab40-f2d97 b18e5-03c4a",
        ("5d2c1-8a9f0", "e71b3-44c6d", "0f9e2-b7a15", "9c3d8-126ee", "6ab40-f2d97", "b18e5-03c4a"),
    ),
    (
        "multi_occurrence",
        "FRITZ!Box: WLAN-Schlüssel 4417-2290-1183-6650, Kennwort der Benutzeroberfläche "
        "Bergwerk_77",
        ("4417-2290-1183-6650", "Bergwerk_77"),
    ),
    # Spanish
    (
        "multi_occurrence",
        "Usuario: lmartin. Contraseña: Paella-Norte-52. Sí, Paella-Norte-52, la misma que en el "
        "correo. PIN de la tarjeta: 8167",
        ("Paella-Norte-52", "8167"),
    ),
    # French
    (
        "multi_occurrence",
        "Codes de secours Proton : KX4Q-7TM2, PL9R-3WD8, ZB6N-1HC5, QJ2V-8YF4",
        ("KX4Q-7TM2", "PL9R-3WD8", "ZB6N-1HC5", "QJ2V-8YF4"),
    ),
    (
        "multi_occurrence",
        "Le digicode c'est 38B41, ensuite l'interphone 2047, et le cadenas de la boîte aux "
        "lettres 615",
        ("38B41", "2047", "615"),
    ),
    # Italian
    (
        "multi_occurrence",
        "La password del NAS è Orzo-Fumo-38 e quella dell'utente backup è Nebbia!Padana7",
        ("Orzo-Fumo-38", "Nebbia!Padana7"),
    ),
    # Portuguese
    (
        "multi_occurrence",
        "Senha do e-mail: Goiaba-Sol-61; senha do banco: 90817; senha do cartão: 2758",
        ("Goiaba-Sol-61", "90817", "2758"),
    ),
    # Dutch
    (
        "multi_occurrence",
        "Wachtwoord Ziggo-account: Dijk-Storm-12, en de pincode van de decoder is 4409. Dus "
        "Dijk-Storm-12 en 4409.",
        ("Dijk-Storm-12", "4409"),
    ),
    # Polish
    (
        "multi_occurrence",
        "Kody zapasowe do konta: 71829304 56473821 90817263 34251607 88120945",
        ("71829304", "56473821", "90817263", "34251607", "88120945"),
    ),
    #
    # ---------------------------------------------------------------- wifi
    # English
    (
        "wifi",
        "WPA2 key for the guest network: sprocket-juniper-cloud-4",
        ("sprocket-juniper-cloud-4",),
    ),
    (
        "wifi",
        "the QR code on the fridge encodes WIFI:T:WPA;S:Harbor_Guest;P:Lagoon!Tern-22;;",
        ("Lagoon!Tern-22",),
    ),
    ("wifi", "nmcli dev wifi connect OfficeNet password Pelican-Harbor-77", ("Pelican-Harbor-77",)),
    (
        "wifi",
        'network={\n    ssid="Attic"\n    psk="mossy-stone-lantern"\n}',
        ("mossy-stone-lantern",),
    ),
    (
        "wifi",
        "hostapd.conf:\nssid=BackyardAP\nwpa=2\nwpa_passphrase=Rainfall_Over_Tarn_9",
        ("Rainfall_Over_Tarn_9",),
    ),
    # Swedish
    ("wifi", "Wifi-lösenordet hemma är Sommarstuga-Lupin-8", ("Sommarstuga-Lupin-8",)),
    # German
    (
        "wifi",
        "WLAN-Schlüssel der FRITZ!Box im Keller: 4471 9920 3385 1204 6678",
        ("4471 9920 3385 1204 6678",),
    ),
    ("wifi", "Gäste-WLAN heißt Praxis-Gast, Passwort: Holunder-Blüte-41", ("Holunder-Blüte-41",)),
    # Spanish
    ("wifi", "La clave del wifi del piso es Bocadillo-Azul-45", ("Bocadillo-Azul-45",)),
    # French
    ("wifi", "code wifi : Madeleine-Orage-23", ("Madeleine-Orage-23",)),
    # Italian
    ("wifi", "la password del wifi dell'ufficio è Basilico&Mare2026", ("Basilico&Mare2026",)),
    # Portuguese
    ("wifi", "senha do wi-fi da casa de praia: coqueiro-verde-81", ("coqueiro-verde-81",)),
    # Dutch
    ("wifi", "het wifi-wachtwoord van de camping is Duinroos-2719", ("Duinroos-2719",)),
    # Polish
    ("wifi", "Hasło do Wi-Fi w biurze: Żubrówka-Mgła-11", ("Żubrówka-Mgła-11",)),
    # Norwegian
    ("wifi", "Wifi-passordet på hytta er Multebær-Fjell-5", ("Multebær-Fjell-5",)),
    # Danish
    ("wifi", "Koden til wifi'en i sommerhuset er Smørrebrød_Havn_3", ("Smørrebrød_Havn_3",)),
    # Finnish
    ("wifi", "WLAN-salasana: Revontuli-Järvi-60", ("Revontuli-Järvi-60",)),
]

PRINCIPLE_SPLIT: list[tuple[str, list[str], tuple[str, ...]]] = [
    # (family, consecutive user messages of one chat, values that must be gone from every message)
    # English
    (
        "question_answer",
        [
            "What's the alarm code at my parents' cabin, do you remember what I told you?",
            "never mind, found it: 6291",
        ],
        ("6291",),
    ),
    (
        "question_answer",
        ["Remind me what my Steam password was?", "Hmm, I remember now: it's Pumpernickel-Sky-3"],
        ("Pumpernickel-Sky-3",),
    ),
    (
        "question_answer",
        ["what's the passphrase for the backup drive", "tangerine walrus juggles twelve lanterns"],
        ("tangerine walrus juggles twelve lanterns",),
    ),
    (
        "question_answer",
        [
            f"Here's the first half of the API key, my clipboard cut it off: {_OPENAI_HEAD}",
            f"and the rest is {_OPENAI_TAIL}",
        ],
        (_OPENAI_HEAD, _OPENAI_TAIL),
    ),
    (
        "question_answer",
        [
            "The BitLocker recovery key is long so I'll paste it in two parts: "
            "318204-559671-027483-661092-",
            "804517-293348-170625-448901",
        ],
        ("318204-559671-027483-661092", "804517-293348-170625-448901"),
    ),
    # Swedish
    ("question_answer", ["Vad var koden till förrådet nu igen?", "aha, den är 7730"], ("7730",)),
    (
        "question_answer",
        ["Vilket lösenord hade vi på routern i sommarstugan?", "Jag tror det var Granskog-Älg-74"],
        ("Granskog-Älg-74",),
    ),
    # German
    (
        "question_answer",
        [
            "Wie war nochmal das WLAN-Passwort im Ferienhaus?",
            "Ah doch, jetzt weiß ich es wieder: Möwe-Sandburg-29",
        ],
        ("Möwe-Sandburg-29",),
    ),
    (
        "question_answer",
        ["Der Token fürs Deployment, Teil 1: 9lTwr1xef15ugHXDSgwA", "Teil 2: 4fTpwOBLb5LAxJ8nuZOh"],
        ("9lTwr1xef15ugHXDSgwA", "4fTpwOBLb5LAxJ8nuZOh"),
    ),
    # Spanish
    (
        "question_answer",
        ["¿Cuál era el PIN de la tarjeta de empresa?", "ya me acordé, 5317"],
        ("5317",),
    ),
    # French
    (
        "question_answer",
        ["C'est quoi déjà le digicode de chez Marion ?", "trouvé : 72A19"],
        ("72A19",),
    ),
    # Italian
    (
        "question_answer",
        ["Qual era la password del router di casa?", "Ecco: Ciabatta-Vento-14"],
        ("Ciabatta-Vento-14",),
    ),
    # Portuguese
    (
        "question_answer",
        ["Qual é a senha do cofre do quarto do hotel?", "lembrei, 861204"],
        ("861204",),
    ),
    # Dutch
    (
        "question_answer",
        ["Wat was de pincode van de gedeelde creditcard ook alweer?", "Oh ja: 2954"],
        ("2954",),
    ),
    # Polish
    ("question_answer", ["Jaki był kod do bramy garażowej?", "już wiem: 4186"], ("4186",)),
    (
        "question_answer",
        ["Hasło do routera jest długie, wyślę w dwóch częściach: Sosnowy-Las-", "Bursztyn-2031"],
        ("Sosnowy-Las-", "Bursztyn-2031"),
    ),
]

PRINCIPLE_LOOKALIKES: list[tuple[str, str]] = [
    # (family, ordinary text that must NOT be flagged as a secret at all)
    #
    # ---------------------------------------------------------------- policy
    # English
    (
        "policy",
        "Per the new IT policy, passwords must be at least 14 characters and rotated every 180 "
        "days.",
    ),
    ("policy", "Never share your PIN with anyone, not even bank staff."),
    ("policy", "Our password manager rollout starts Monday; everyone gets an invite by email."),
    (
        "policy",
        "After three wrong PIN attempts the card is blocked and you need to visit a branch.",
    ),
    ("policy", "Reminder: MFA is mandatory for all admin accounts from 1 March."),
    # Swedish
    ("policy", "Lösenordet måste bytas var 90:e dag enligt IT-avdelningen."),
    ("policy", "Dela aldrig din pinkod med någon, inte ens med banken."),
    # German
    ("policy", "Das Passwort muss mindestens 12 Zeichen lang sein und eine Ziffer enthalten."),
    ("policy", "Bitte die Geheimzahl niemals zusammen mit der Karte aufbewahren."),
    # Spanish
    ("policy", "La contraseña debe tener al menos 10 caracteres, una mayúscula y un símbolo."),
    # French
    ("policy", "Le mot de passe doit comporter 12 caractères minimum, dont un chiffre."),
    # Italian
    ("policy", "Per motivi di sicurezza la password scade ogni 60 giorni."),
    # Portuguese
    ("policy", "A senha deve ter entre 8 e 64 caracteres e não pode repetir as últimas 5."),
    # Dutch
    ("policy", "Je wachtwoord moet minimaal 12 tekens bevatten; hergebruik is niet toegestaan."),
    # Polish
    ("policy", "Hasło musi mieć co najmniej 12 znaków i nie może zawierać imienia."),
    #
    # ---------------------------------------------------------------- code_talk
    # English
    ("code_talk", "Can you do a code review of my pull request before 3pm?"),
    ("code_talk", "The zip code for the Brooklyn office is 11201."),
    ("code_talk", "HTTP 429 means we hit the rate limit; the code retries after 30 seconds."),
    ("code_talk", "Dress code for the gala is black tie."),
    (
        "code_talk",
        "Use discount code SPRING25 at checkout for 25% off, it's on the newsletter banner.",
    ),
    ("code_talk", "Error code 0xC000021A usually means a critical system process died."),
    ("code_talk", "Country code for Sweden is +46 and the ISO code is SE."),
    # Swedish
    ("code_talk", "Postnumret till kontoret är 411 06 Göteborg."),
    # German
    (
        "code_talk",
        "Fehlercode E13 an der Spülmaschine bedeutet, dass der Wasserzulauf blockiert ist.",
    ),
    ("code_talk", "Die Postleitzahl von Freiburg-Wiehre ist 79100."),
    # Spanish
    ("code_talk", "El código postal de mi barrio es 28014."),
    ("code_talk", "El código está en GitHub, en la rama main."),
    # French
    ("code_talk", "Le code source est disponible sur GitLab sous licence MIT."),
    ("code_talk", "Indicatif téléphonique de la Belgique : +32."),
    # Italian
    ("code_talk", "Il codice di errore 0x80070005 indica un accesso negato in Windows Update."),
    ("code_talk", "Il CAP di Bologna centro è 40121."),
    # Portuguese
    ("code_talk", "O código de barras do produto está na etiqueta de trás."),
    ("code_talk", "O código promocional VERAO10 está no anúncio do Instagram da loja."),
    # Dutch
    ("code_talk", "De postcode is 1012 AB in Amsterdam."),
    ("code_talk", "De kledingcode voor de bruiloft is smart casual."),
    # Polish
    ("code_talk", "Kod pocztowy Starego Miasta w Krakowie to 31-001."),
    ("code_talk", "Kod kraju dla Polski to PL, a numer kierunkowy +48."),
    #
    # ---------------------------------------------------------------- key_talk
    # English
    ("key_talk", "The key insight from the paper is that sparse attention scales linearly."),
    ("key_talk", "Keynote starts at 9:30 in Hall B."),
    ("key_talk", "Key dates: submission March 3, reviews April 14, camera-ready May 2."),
    ("key_talk", "My keyboard's spacebar is sticking again."),
    ("key_talk", "API key rotation is scheduled for the first Monday of each quarter."),
    ("key_talk", "The song is in the key of D minor, capo on the second fret."),
    # Swedish
    ("key_talk", "Nyckeltalen för kvartalet ser bra ut, rörelsemarginalen steg till 14 procent."),
    # German
    ("key_talk", "Ich habe meinen Schlüsselbund im Büro vergessen."),
    # Spanish
    ("key_talk", "La clave del éxito es la constancia."),
    ("key_talk", "Necesito una llave inglesa del 13 para el grifo."),
    # French
    ("key_talk", "La clé USB est dans le tiroir du bureau."),
    ("key_talk", "Les chiffres clés du rapport annuel sont en page 4."),
    # Italian
    ("key_talk", "La chiave di volta del progetto è la collaborazione tra i team."),
    # Portuguese
    ("key_talk", "A palavra-chave do anúncio é 'tênis de corrida'."),
    # Dutch
    ("key_talk", "Sleutelwoorden voor de vacature: Python, SQL, Kubernetes."),
    # Polish
    ("key_talk", "Kluczowy wniosek z badania: klienci wolą krótsze formularze."),
    #
    # ---------------------------------------------------------------- digest
    # English
    (
        "digest",
        "Pin the base image to "
        "python@sha256:cc7b4fe287c4a9d75c59fc705069baf8ae461e626f335fe2ae84c0dfedf24bd1 so "
        "builds are reproducible.",
    ),
    (
        "digest",
        "Fixed in commit d4e3fcbc2ede913bf6e180d239872a0c96e254be, cherry-picked to release/2.4.",
    ),
    (
        "digest",
        "SHA-256 of the installer is "
        "adc8d11802e0f68c42178348f1da0a4d49cf88043857fe507f36a1e528062343, verify it before "
        "running.",
    ),
    (
        "digest",
        "Request ID 7f3c9a2e-4b1d-4e8a-9c6f-2d5b8e1a7f04 failed with a 502, can you check the "
        "logs?",
    ),
    ("digest", "Trace id 4bf92f3577b34da6a3ce929d0e0e4736 shows the slow span is the DB call."),
    ("digest", "git log shows HEAD at e83c516 (bump version to 3.1.0)."),
    # Swedish
    ("digest", "Felet dök upp i commit 3a9f1c2, den som ändrade datumformatet."),
    # German
    ("digest", "Die MD5-Prüfsumme der ISO-Datei lautet 9e107d9d372bb6826bd81d3542a419d6."),
    # Spanish
    ("digest", "El UUID del pedido es 93d142f2-7c6b-4c64-b09c-9b1e3aca1137, búscalo en el panel."),
    # French
    ("digest", "Le hash du dernier commit est 4be1a0c, merci de rebaser dessus."),
    # Italian
    (
        "digest",
        "Digest dell'immagine Docker: "
        "sha256:892aa68bfcc8c928344b16103485a1c292be01e4fc2d031c41885221c25f6aaf",
    ),
    # Portuguese
    ("digest", "ID da transação no log: 0b7e6f2a-91c4-4d3e-8a5b-c2f1e9d04a76"),
    # Dutch
    ("digest", "Controleer de SHA-1 van de download: dc6c369aad6b68b75b48e99f73f289509dddc3eb"),
    # Polish
    (
        "digest",
        "Identyfikator zgłoszenia w logach to 5f0c2d1e-8b47-4a9e-b3c6-71d2e4f9a058, dopisz go do "
        "ticketu.",
    ),
    #
    # ---------------------------------------------------------------- numbers
    # English
    ("numbers", "Call me at +46 70 123 45 67 after lunch."),
    ("numbers", "Order #112-4459302-8830147 shipped today."),
    ("numbers", "Invoice INV-2024-00817 is due on 30 June, total 1,240.00 EUR."),
    ("numbers", "Tracking number 1Z999AA10123456784 says it's in Malmö."),
    ("numbers", "ISBN 978-0-13-468599-1 is the second edition."),
    ("numbers", "Customer number 4532 7788 1290 3346, quote it when you call support."),
    ("numbers", "Meeting room 4.12, Thursday at 14:30."),
    ("numbers", "Version 2.17.3 fixes the memory leak."),
    (
        "numbers",
        "The test fixture uses GB00 WEST 1234 5698 7654 32 precisely because its check digits "
        "are invalid.",
    ),
    # Swedish
    ("numbers", "Ordernummer 5566 1234 9087 4410, kolla med kundtjänst om leveransen."),
    ("numbers", "Ring mig på 08-123 456 78 efter klockan fem."),
    # German
    ("numbers", "Rechnungsnummer 2024-1187, fällig am 15.07., Betrag 349,90 Euro."),
    (
        "numbers",
        "Das Formular akzeptiert DE00 1234 5678 9012 3456 78, obwohl die Prüfziffer falsch ist.",
    ),
    # Spanish
    ("numbers", "Mi vuelo es el IB3166, sale a las 07:45 de la T4."),
    ("numbers", "Referencia del envío: ES00 9999 0000 1111 2222 3333"),
    # French
    ("numbers", "Numéro de commande 4970 1010 2233 4455, livraison prévue mardi."),
    ("numbers", "Le train part à 18h42 du quai 7, voiture 14, place 63."),
    # Italian
    ("numbers", "Numero di telefono del ristorante: 02 8736 4410."),
    ("numbers", "Il preventivo è di 1.850 euro IVA inclusa."),
    # Portuguese
    ("numbers", "Número do pedido: 5023 8871 6640 9912"),
    ("numbers", "A reunião foi remarcada para 14/03/2025 às 10h."),
    # Dutch
    ("numbers", "Factuurnummer 2025-0412, te betalen voor 1 mei."),
    ("numbers", "Het pakket heeft trackingnummer 3SABCD123456789."),
    # Polish
    ("numbers", "Numer zamówienia 3742 1180 9934 5512, status: wysłane."),
    ("numbers", "Faktura nr FV/2025/03/118 na kwotę 2 460,00 zł."),
    #
    # ---------------------------------------------------------------- seed_talk
    # English
    ("seed_talk", "We closed our seed round at 3.2 million, led by a Nordic fund."),
    ("seed_talk", "Run make seed to seed the database with demo users."),
    ("seed_talk", "My sourdough seed starter needs feeding twice a day."),
    (
        "seed_talk",
        "Shopping list: apple, banana, bread, butter, cheese, coffee, garden, honey, lemon, "
        "milk, orange, sugar.",
    ),
    ("seed_talk", "Set random seed 42 for reproducibility in the training script."),
    ("seed_talk", "numpy.random.seed(1234) is discouraged in favour of default_rng."),
    # Swedish
    ("seed_talk", "Vi sådde tomatfröna i början av mars."),
    # German
    ("seed_talk", "Die Seed-Finanzierungsrunde ist abgeschlossen, jetzt geht es an die Series A."),
    # Spanish
    ("seed_talk", "Hay que sembrar las semillas de pimiento en el semillero en febrero."),
    # French
    ("seed_talk", "Le fichier seed.sql initialise la base avec trois clients fictifs."),
    # Italian
    ("seed_talk", "Abbiamo chiuso il round seed con tre business angel."),
    # Portuguese
    ("seed_talk", "Coloque as sementes de chia de molho por 20 minutos."),
    # Dutch
    ("seed_talk", "Met rails db:seed vul je de database met testdata."),
    # Polish
    ("seed_talk", "Zasiałem nasiona rzodkiewki w doniczce na balkonie."),
    #
    # ---------------------------------------------------------------- token_talk
    # English
    ("token_talk", "The model has a token budget of 200k, so trim the context."),
    ("token_talk", "Our tokenizer splits 'unhappiness' into three tokens."),
    ("token_talk", "I traded two Pokemon tokens for a rare card."),
    (
        "token_talk",
        "The access token expires after one hour; the client refreshes it automatically.",
    ),
    ("token_talk", "Flowers for the team lead as a small token of appreciation."),
    # Swedish
    ("token_talk", "Tokeniseraren hanterar svenska sammansättningar dåligt."),
    # German
    ("token_talk", "Die Token-Anzahl pro Anfrage ist auf 4096 begrenzt."),
    # Spanish
    ("token_talk", "Cada ficha del juego de mesa vale diez puntos."),
    # French
    ("token_talk", "Le jeton d'accès expire au bout de 15 minutes, il faut le rafraîchir."),
    # Italian
    ("token_talk", "Il limite è di 8.000 token per richiesta."),
    # Portuguese
    ("token_talk", "As fichas do fliperama custam um real cada."),
    # Dutch
    ("token_talk", "Het aantal tokens per minuut is verhoogd naar 90.000."),
    # Polish
    ("token_talk", "Tokenizacja tekstu zajmuje większość czasu w potoku."),
    #
    # ---------------------------------------------------------------- pin_talk
    # English
    ("pin_talk", "Can you pin this message in the channel?"),
    ("pin_talk", "Pin the tab so it doesn't get closed."),
    ("pin_talk", "Pin the dependency to requests==2.31.0 until the bug is fixed."),
    ("pin_talk", "Forgot your PIN? You can request a new one in the app."),
    ("pin_talk", "The pinned message has the schedule for the offsite."),
    ("pin_talk", "The 2.54 mm pin header on the board is soldered upside down."),
    # Swedish
    ("pin_talk", "Fäst meddelandet högst upp i kanalen så att alla ser det."),
    # German
    ("pin_talk", "PIN-Code vergessen? Neuen anfordern unter Einstellungen > Karte."),
    # Spanish
    ("pin_talk", "¿Has olvidado el PIN? Solicita uno nuevo desde la app."),
    # French
    ("pin_talk", "Épingle ce message pour que tout le monde le voie."),
    # Italian
    ("pin_talk", "Hai dimenticato il PIN? Puoi reimpostarlo dall'app della banca."),
    # Portuguese
    ("pin_talk", "Fixe a mensagem no grupo, por favor."),
    # Dutch
    ("pin_talk", "Kan ik hier pinnen of alleen contant betalen?"),
    # Polish
    ("pin_talk", "Przypnij tę wiadomość na górze czatu."),
    #
    # ---------------------------------------------------------------- login_talk
    # English
    ("login_talk", "Log in with SSO, not with a local account."),
    ("login_talk", "The login page is really slow since yesterday's deploy."),
    ("login_talk", "My username on the forum is quietbadger."),
    ("login_talk", "Send the invoice to billing@northwind-example.com."),
    ("login_talk", "Failed login attempts are logged to /var/log/auth.log."),
    ("login_talk", "ssh deploy@build-03.internal works now, the key was added."),
    # Swedish
    ("login_talk", "Inloggningen via BankID fungerar inte i appen just nu."),
    # German
    ("login_talk", "Bitte melde dich mit deinem Firmenkonto an, nicht mit dem privaten."),
    # Spanish
    ("login_talk", "Mi usuario de GitHub es lucia-dev, búscame ahí."),
    # French
    ("login_talk", "La page de connexion affiche une erreur 500 depuis ce matin."),
    # Italian
    ("login_talk", "Il login con Google è stato disattivato per gli account aziendali."),
    # Portuguese
    ("login_talk", "Meu e-mail de trabalho é joao.pereira@empresa-exemplo.com.br."),
    # Dutch
    ("login_talk", "Inloggen met DigiD lukt niet, de app geeft een foutmelding."),
    # Polish
    ("login_talk", "Zaloguj się przez firmowe SSO, a nie zwykłe konto."),
    #
    # ---------------------------------------------------------------- recovery_talk
    # English
    ("recovery_talk", "Recovery time objective is 4 hours, recovery point objective 15 minutes."),
    ("recovery_talk", "Disaster recovery drill on Friday at 10."),
    ("recovery_talk", "Knee surgery recovery takes about six weeks."),
    ("recovery_talk", "The recovery partition takes 20 GB on the laptop."),
    (
        "recovery_talk",
        "Store your recovery codes somewhere safe; you'll need them if you lose your phone.",
    ),
    ("recovery_talk", "Account recovery is done via the help desk after an ID check."),
    # Swedish
    ("recovery_talk", "Återhämtningen efter maran tog två veckor."),
    # German
    ("recovery_talk", "Die Wiederherstellung aus dem Backup hat drei Stunden gedauert."),
    # Spanish
    ("recovery_talk", "La recuperación económica será lenta, según el informe."),
    # French
    ("recovery_talk", "Le plan de reprise d'activité sera testé en novembre."),
    # Italian
    ("recovery_talk", "Il ripristino del database è stato completato senza errori."),
    # Portuguese
    ("recovery_talk", "O tempo de recuperação da cirurgia é de um mês."),
    # Dutch
    ("recovery_talk", "Het herstelplan na de storing wordt volgende week besproken."),
    # Polish
    ("recovery_talk", "Odzyskiwanie danych z dysku trwało całą noc."),
]
