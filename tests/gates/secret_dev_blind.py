# ruff: noqa: E501
"""Blind DEV (tuning) case set for the secret-redaction gate.

Written blind on 2026-12-06: the author had not seen the gate's code, its
other case files or the benchmarks when writing these cases. This is a DEV
set, meant for tuning the gate; it is not a held-out test set.

Every value is invented: card numbers merely pass the Luhn check and IBANs
merely pass the mod-97 check (plus national checks where python-stdnum has
them); base32 seeds, base64 headers and tokens are random.

Three lists:
  SECRETS     (family, text as typed by a person, (secret substrings that must be gone,))
  SPLITS      (family, consecutive chat messages, (secret values that must be gone,))
  LOOKALIKES  (family, text that holds no secret and must be left alone)

Languages: English, Swedish, German, Spanish, French, Italian, Portuguese,
Dutch, Polish, plus some Norwegian, Danish and Finnish.
"""

from __future__ import annotations

SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    # ------------------------------------------------------------------
    # credential_word: English
    # ------------------------------------------------------------------
    ("credential_word", "note to self: garage keypad code is 4471 then hit the # key", ("4471",)),
    (
        "credential_word",
        "My Netflix password is  pumpkin-Lantern-42 btw, the account is on Sara's email",
        ("pumpkin-Lantern-42",),
    ),
    (
        "credential_word",
        "8835 is the gate code for the allotment. Shed is unlocked anyway",
        ("8835",),
    ),
    ("credential_word", "remember: bank app passcode = 190377", ("190377",)),
    (
        "credential_word",
        'The master password for 1Password is "correct lantern orbit seventeen"',
        ("correct lantern orbit seventeen",),
    ),
    (
        "credential_word",
        "Recovery codes for my GitHub:\n- 3f9a1-bc22e\n- 77d0c-4ab19\n- e51f2-90c3d",
        ("3f9a1-bc22e", "77d0c-4ab19", "e51f2-90c3d"),
    ),
    (
        "credential_word",
        "hey can you save this, the PUK for my new SIM is 58201943 (PIN still 1234 but I'll change it)",
        ("58201943", "1234"),
    ),
    ("credential_word", "Locker 112 at the gym, combination 19-07-33", ("19-07-33",)),
    ("credential_word", "Gmail app password: qwvn hxlp tmse zrkb", ("qwvn hxlp tmse zrkb",)),
    ("credential_word", "safe code 29165, turn the dial left first", ("29165",)),
    (
        "credential_word",
        "the one-time code they texted me was 604 219, is that still valid?",
        ("604 219",),
    ),
    ("credential_word", "CVV on the company card is 318", ("318",)),
    (
        "credential_word",
        "school portal password: Oakwood!Elm9 (username is our family name)",
        ("Oakwood!Elm9",),
    ),
    (
        "credential_word",
        "API key for the weather thing: 7c1e0d94b25a4f3e8a61c0de5f2b9a77",
        ("7c1e0d94b25a4f3e8a61c0de5f2b9a77",),
    ),
    ("credential_word", "bike lock code: 0-4-8-2", ("0-4-8-2",)),
    ("credential_word", "Door code to mom's building changed, now its 2580B", ("2580B",)),
    (
        "credential_word",
        "passphrase for the backup drive — tangerine walrus basement glacier",
        ("tangerine walrus basement glacier",),
    ),
    (
        "credential_word",
        "webhook secret: Lk9-mmQ2-x7Tp-44aZ, keep it out of git pls",
        ("Lk9-mmQ2-x7Tp-44aZ",),
    ),
    (
        "credential_word",
        "token=a81f7d2c90e44b6f  (home assistant token, the short one)",
        ("a81f7d2c90e44b6f",),
    ),
    (
        "credential_word",
        "pw for the router admin page is admin123 lol, need to change it",
        ("admin123",),
    ),
    (
        "credential_word",
        "Q: what's the code for the key box at the airbnb? A: 1968, box is left of the door",
        ("1968",),
    ),
    ("credential_word", "my pin for the parking meter app is 0042", ("0042",)),
    ("credential_word", "my pasword for the libary site is Bookworm_55", ("Bookworm_55",)),
    (
        "credential_word",
        "| what | code |\n|---|---|\n| front door | 5190 |\n| garage | 7712 |",
        ("5190", "7712"),
    ),
    (
        "credential_word",
        "Dentist tomorrow 9:30, pick up dry cleaning, and the new alarm code for the office is 662491 — Jen says it resets monthly",
        ("662491",),
    ),
    ("credential_word", "Login:\nhunter.w\nPassword:\nMaple&Syrup_300", ("Maple&Syrup_300",)),
    (
        "credential_word",
        "export GITHUB_TOKEN=ghp_R7tKq2Wm9XzL4pVn8YbC3dFh6JsG1aE5uQ0o",
        ("ghp_R7tKq2Wm9XzL4pVn8YbC3dFh6JsG1aE5uQ0o",),
    ),
    (
        "credential_word",
        "slack bot token for the standup reminder: xoxb-2741950388-5518820467-kJ4mQw9ZtX2pL8vN7rB3yC1d",
        ("xoxb-2741950388-5518820467-kJ4mQw9ZtX2pL8vN7rB3yC1d",),
    ),
    ("credential_word", "the access code for the conference call is 739 552 18#", ("739 552 18",)),
    (
        "credential_word",
        "Backup codes (Microsoft): 1827-4410, 6093-2271, 5548-0916",
        ("1827-4410", "6093-2271", "5548-0916"),
    ),
    # ------------------------------------------------------------------
    # credential_word: Swedish
    # ------------------------------------------------------------------
    ("credential_word", "Portkoden är 1793 och lägenheten ligger på tredje våningen", ("1793",)),
    ("credential_word", "larmkoden till sommarstugan: 4481, avaktivera inom 30 sek", ("4481",)),
    ("credential_word", "Lösenordet till Netflix är Kanelbulle88!", ("Kanelbulle88!",)),
    ("credential_word", "pinkoden till nya kortet e 6620", ("6620",)),
    ("credential_word", "kom ihåg: cykellåset har koden 5-1-9-0", ("5-1-9-0",)),
    ("credential_word", "Bankdosan: engångskoden var 88412739, fungerade inte", ("88412739",)),
    (
        "credential_word",
        "Huvudlösenordet till Bitwarden: 'blåbär trampolin gurka fönster'",
        ("blåbär trampolin gurka fönster",),
    ),
    ("credential_word", "koden till förrådet (hänglåset) är 3316", ("3316",)),
    ("credential_word", "9047 är koden till garaget, porten alltså inte dörren", ("9047",)),
    ("credential_word", "Min PUK-kod står här: 77120455", ("77120455",)),
    ("credential_word", "lösen till jobbdatorn: Hösten#2026mys", ("Hösten#2026mys",)),
    (
        "credential_word",
        "Skolans app: användarnamn är klara.n och lösenordet Vitsippa_71",
        ("Vitsippa_71",),
    ),
    ("credential_word", "Kod till tvättstugan:\n7291", ("7291",)),
    (
        "credential_word",
        "backupkoderna för Google-kontot: 4829 1177, 6630 2094, 1185 7302",
        ("4829 1177", "6630 2094", "1185 7302"),
    ),
    (
        "credential_word",
        "Koder stugan:\n- larm: 6042\n- nyckelskåp: 118\n- förråd: ingen kod",
        ("6042", "118"),
    ),
    (
        "credential_word",
        "lösenrdet till elbolaget är typ Granris55 om jag minns rätt",
        ("Granris55",),
    ),
    # ------------------------------------------------------------------
    # credential_word: German
    # ------------------------------------------------------------------
    ("credential_word", "Der Türcode fürs Büro ist 2468, danach die Sterntaste", ("2468",)),
    ("credential_word", "Kennwort für das Firmen-VPN: Zugspitze!2962", ("Zugspitze!2962",)),
    (
        "credential_word",
        "Geheimzahl der EC-Karte: 3907 (bitte nirgends aufschreiben, haha)",
        ("3907",),
    ),
    (
        "credential_word",
        "Zugangsdaten fürs Elternportal: Benutzer mueller.k, Passwort Eichhörnchen7",
        ("Eichhörnchen7",),
    ),
    ("credential_word", 'Mein Passwort ist "Brezel-Sonne-Fahrrad"', ("Brezel-Sonne-Fahrrad",)),
    ("credential_word", "Die PIN vom Handy lautet 281190, falls ich's vergesse", ("281190",)),
    ("credential_word", "Tresorcode im Hotelzimmer: 5512", ("5512",)),
    ("credential_word", "Torcode für die Einfahrt wurde geändert, neu ist 7403", ("7403",)),
    ("credential_word", "Alarmanlage Code: 9 3 5 1", ("9 3 5 1",)),
    ("credential_word", "der Einmalcode aus der SMS war 447 902", ("447 902",)),
    ("credential_word", "Schließfachcode 36-12-08 im Schwimmbad", ("36-12-08",)),
    ("credential_word", "Passwort:\nKartoffelsalat_1987", ("Kartoffelsalat_1987",)),
    (
        "credential_word",
        "Das Masterpasswort ist jetzt 'Wolke Ameise Trompete Kiesel Laterne'",
        ("Wolke Ameise Trompete Kiesel Laterne",),
    ),
    (
        "credential_word",
        "API-Schlüssel für den Wetterdienst lautet 5d2a9e71c4b04f18",
        ("5d2a9e71c4b04f18",),
    ),
    ("credential_word", "Passwrot fürs Forum: Hummel4ever", ("Hummel4ever",)),
    (
        "credential_word",
        "| Dienst | Passwort |\n|---|---|\n| Telekom | Seerose#31 |\n| Stadtwerke | Kranich_Blau8 |",
        ("Seerose#31", "Kranich_Blau8"),
    ),
    # ------------------------------------------------------------------
    # credential_word: Spanish
    # ------------------------------------------------------------------
    ("credential_word", "La contraseña del banco es Girasol_4417", ("Girasol_4417",)),
    ("credential_word", "clave del portal: 8152", ("8152",)),
    ("credential_word", "el PIN de la tarjeta nueva es 7321, no se lo digas a nadie", ("7321",)),
    ("credential_word", "código de la alarma: 606019", ("606019",)),
    (
        "credential_word",
        "Apunta esto: usuario carmen.r, contraseña Mandarina#23",
        ("Mandarina#23",),
    ),
    ("credential_word", "¿La clave del candado de la bici? Es 3-3-7-1", ("3-3-7-1",)),
    (
        "credential_word",
        'contraseña maestra: "tortuga nube cuchara verano"',
        ("tortuga nube cuchara verano",),
    ),
    ("credential_word", "El código de un solo uso que me llegó es 512 884", ("512 884",)),
    (
        "credential_word",
        "clave de acceso a la banca online — Pimiento.Rojo.55",
        ("Pimiento.Rojo.55",),
    ),
    ("credential_word", "Mi PUK es 90218374 por si se bloquea el móvil", ("90218374",)),
    ("credential_word", "La caja fuerte del hotel tiene el código 4190", ("4190",)),
    ("credential_word", "token de la API de facturación: f3a9c1e7b2d8405a", ("f3a9c1e7b2d8405a",)),
    (
        "credential_word",
        "oye que la contraseña nueva del correo es Ñandu_Azul7, la cambié ayer",
        ("Ñandu_Azul7",),
    ),
    # ------------------------------------------------------------------
    # credential_word: French
    # ------------------------------------------------------------------
    ("credential_word", "Le code de la porte est 4B729, l'interphone ne marche pas", ("4B729",)),
    ("credential_word", "mot de passe de la box : Croissant-Lune-88", ("Croissant-Lune-88",)),
    ("credential_word", "Digicode de l'immeuble : A1590", ("A1590",)),
    ("credential_word", "mon code PIN est 8056, je le note ici au cas où", ("8056",)),
    ("credential_word", "le code du cadenas du vélo c'est 2-7-0-4", ("2-7-0-4",)),
    (
        "credential_word",
        "Identifiant : j.dupont / Mot de passe : Pétanque!1998",
        ("Pétanque!1998",),
    ),
    (
        "credential_word",
        "Le mot de passe maître est « girafe tambour cerise montagne »",
        ("girafe tambour cerise montagne",),
    ),
    ("credential_word", "code d'alarme de la maison = 30418", ("30418",)),
    ("credential_word", "Le code à usage unique reçu par SMS : 772 013", ("772 013",)),
    ("credential_word", "la clé API du service météo est 9e4b7a12c0d3f685", ("9e4b7a12c0d3f685",)),
    ("credential_word", "Code PUK de la carte SIM de Léa : 61730925", ("61730925",)),
    ("credential_word", "Mot de passe de l'ENT pour les enfants:\nLicorne2015", ("Licorne2015",)),
    (
        "credential_word",
        "— C'est quoi le code du portail ? — 8021, et tu appuies sur la clé après",
        ("8021",),
    ),
    # ------------------------------------------------------------------
    # credential_word: Italian
    # ------------------------------------------------------------------
    ("credential_word", "Il codice del cancello è 1357, poi spingi forte", ("1357",)),
    ("credential_word", "la password di Netflix è Pizzaiolo77!", ("Pizzaiolo77!",)),
    ("credential_word", "PIN del bancomat: 5094", ("5094",)),
    ("credential_word", "codice dell'allarme 82604, va inserito entro 20 secondi", ("82604",)),
    (
        "credential_word",
        "Credenziali del portale scuola: utente rossi.m, password Girasole_2020",
        ("Girasole_2020",),
    ),
    ("credential_word", "Il codice del lucchetto della bici? 4-4-1-9", ("4-4-1-9",)),
    (
        "credential_word",
        'password principale: "limone tartaruga nuvola sedia"',
        ("limone tartaruga nuvola sedia",),
    ),
    ("credential_word", "codice OTP ricevuto: 390 517", ("390 517",)),
    ("credential_word", "La cassaforte in camera ha codice 7708", ("7708",)),
    (
        "credential_word",
        "chiave API per le mappe: 2b7e151628aed2a6abf71588",
        ("2b7e151628aed2a6abf71588",),
    ),
    ("credential_word", "il codice del portone è cambiato, adesso è 6291", ("6291",)),
    ("credential_word", "PUK: 30571846 (scheda di papà)", ("30571846",)),
    # ------------------------------------------------------------------
    # credential_word: Portuguese
    # ------------------------------------------------------------------
    ("credential_word", "A senha do banco é Caju#2077", ("Caju#2077",)),
    ("credential_word", "código do portão: 5530", ("5530",)),
    ("credential_word", "senha do cartão (PIN) 8147", ("8147",)),
    ("credential_word", "o código do alarme é 19283, desativa logo ao entrar", ("19283",)),
    ("credential_word", "Login do portal: usuário joana.s senha Jabuticaba!9", ("Jabuticaba!9",)),
    (
        "credential_word",
        "A senha mestre ficou 'abacate janela tucano praia'",
        ("abacate janela tucano praia",),
    ),
    ("credential_word", "o código que chegou por SMS foi 661 204", ("661 204",)),
    ("credential_word", "código do cadeado do cacifo: 0913", ("0913",)),
    ("credential_word", "chave da API de pagamentos: 4c8f0e2a9b1d7365", ("4c8f0e2a9b1d7365",)),
    ("credential_word", "Minha senha do e-mail é mangaVerde2019", ("mangaVerde2019",)),
    ("credential_word", "PUK do chip: 44910372", ("44910372",)),
    ("credential_word", "Senha:\nSaudade_Lisboa_33", ("Saudade_Lisboa_33",)),
    # ------------------------------------------------------------------
    # credential_word: Dutch
    # ------------------------------------------------------------------
    ("credential_word", "Het wachtwoord van de NAS is Stroopwafel!42", ("Stroopwafel!42",)),
    ("credential_word", "pincode van mijn bankpas: 2719", ("2719",)),
    ("credential_word", "de deurcode van kantoor is 3860", ("3860",)),
    ("credential_word", "Alarmcode thuis: 125890", ("125890",)),
    ("credential_word", "code van het fietsslot is 6-0-2-8", ("6-0-2-8",)),
    (
        "credential_word",
        "Inloggegevens DigiD: gebruiker devries_p, wachtwoord Tulpenveld2021",
        ("Tulpenveld2021",),
    ),
    ("credential_word", 'hoofdwachtwoord: "molen fiets kaas regen"', ("molen fiets kaas regen",)),
    ("credential_word", "de eenmalige code was 904 311", ("904 311",)),
    ("credential_word", "Kluiscode in de hotelkamer 4472", ("4472",)),
    ("credential_word", "API-sleutel voor de weerapp: 8d3c6b1a0f9e4725", ("8d3c6b1a0f9e4725",)),
    ("credential_word", "PUK-code van de simkaart van oma: 52093816", ("52093816",)),
    (
        "credential_word",
        "wachtwoord is gewijzigd naar Hagelslag_88 (was te kort)",
        ("Hagelslag_88",),
    ),
    # ------------------------------------------------------------------
    # credential_word: Polish
    # ------------------------------------------------------------------
    ("credential_word", "Hasło do banku to Pierogi!2023", ("Pierogi!2023",)),
    ("credential_word", "kod do drzwi na klatkę: 1604", ("1604",)),
    ("credential_word", "PIN do karty: 7782", ("7782",)),
    ("credential_word", "kod do alarmu w domku to 30917", ("30917",)),
    (
        "credential_word",
        "Dane logowania do e-dziennika: login nowak.a, hasło Bocian_77",
        ("Bocian_77",),
    ),
    ("credential_word", "szyfr do kłódki rowerowej 8-1-5-5", ("8-1-5-5",)),
    (
        "credential_word",
        'hasło główne do menedżera: "jabłko rower chmura zamek"',
        ("jabłko rower chmura zamek",),
    ),
    ("credential_word", "kod jednorazowy z SMS-a: 258 604", ("258 604",)),
    ("credential_word", "kod do sejfu w pokoju 6644", ("6644",)),
    ("credential_word", "klucz API do usługi pogodowej: e7f2a0c94b1d3856", ("e7f2a0c94b1d3856",)),
    ("credential_word", "PUK do karty SIM: 81037265", ("81037265",)),
    ("credential_word", "Moje hasło do poczty: Żubrówka#5", ("Żubrówka#5",)),
    # ------------------------------------------------------------------
    # credential_word: Norwegian, Danish, Finnish
    # ------------------------------------------------------------------
    ("credential_word", "Passordet til ruteren er Fjordhest_29", ("Fjordhest_29",)),
    ("credential_word", "Koden til porten er 4826", ("4826",)),
    ("credential_word", "PIN-koden på bankkortet: 0375", ("0375",)),
    ("credential_word", 'hovedpassord: "brunost ski tunnel elg"', ("brunost ski tunnel elg",)),
    ("credential_word", "Adgangskode til e-Boks: Rugbrød!Kanal5", ("Rugbrød!Kanal5",)),
    ("credential_word", "dørkoden til opgangen er 7260", ("7260",)),
    ("credential_word", "Pinkoden til mit nye kort er 9148", ("9148",)),
    ("credential_word", "Alarmkoden i sommerhuset: 35791", ("35791",)),
    ("credential_word", "Salasana on Sauna!Järvi42", ("Sauna!Järvi42",)),
    ("credential_word", "Ovikoodi on 2791", ("2791",)),
    ("credential_word", "PIN-koodi: 6350", ("6350",)),
    (
        "credential_word",
        'pääsalasana: "karhu kuusi lumi revontuli"',
        ("karhu kuusi lumi revontuli",),
    ),
    # ------------------------------------------------------------------
    # totp_seed
    # ------------------------------------------------------------------
    ("totp_seed", "2FA setup key for Dropbox: HSLY WIK6 5KNH TIEU", ("HSLY WIK6 5KNH TIEU",)),
    (
        "totp_seed",
        "otpauth://totp/Acme:mia@example.org?secret=CCNQH2GWPBBI2OZR&issuer=Acme",
        ("CCNQH2GWPBBI2OZR",),
    ),
    (
        "totp_seed",
        "Nyckeln för Google Authenticator (om jag byter telefon): 723XRCWWRR4WLI64EY52EJW65U",
        ("723XRCWWRR4WLI64EY52EJW65U",),
    ),
    (
        "totp_seed",
        "Backup-Schlüssel für den Authenticator: QVR3 2A5L YYIC RQXV S4FE 3RYH 2LOU I6MY",
        ("QVR3 2A5L YYIC RQXV S4FE 3RYH 2LOU I6MY",),
    ),
    (
        "totp_seed",
        "clave de configuración del autenticador: xdv6ay5wzhvw2zn2",
        ("xdv6ay5wzhvw2zn2",),
    ),
    (
        "totp_seed",
        "clé secrète 2FA (à saisir manuellement) : ZWJXD5XPELQF2GAJEJ7A",
        ("ZWJXD5XPELQF2GAJEJ7A",),
    ),
    (
        "totp_seed",
        "chiave segreta per l'app di autenticazione: G5BP PLDP Y6QN UTLL QHKW FESZ",
        ("G5BP PLDP Y6QN UTLL QHKW FESZ",),
    ),
    (
        "totp_seed",
        "chave de configuração do Authenticator: RCKWRFJ345LK52XNA7NUP7M3VOZCTMW4",
        ("RCKWRFJ345LK52XNA7NUP7M3VOZCTMW4",),
    ),
    ("totp_seed", "TOTP-geheim voor de boekhouding: kp3i vz4s senl njzw", ("kp3i vz4s senl njzw",)),
    (
        "totp_seed",
        "klucz do uwierzytelniania dwuskładnikowego: ULKPZESEJAPRA662UP6XWFSYZQ",
        ("ULKPZESEJAPRA662UP6XWFSYZQ",),
    ),
    (
        "totp_seed",
        "$ oathtool --totp -b CFU6KJQFJNW4I2W7DYFZVHOCBNQLPFSU\n492817",
        ("CFU6KJQFJNW4I2W7DYFZVHOCBNQLPFSU",),
    ),
    (
        "totp_seed",
        "otpauth://totp/GitLab:ops%40corp.example?secret=RXQ6Z62HQE6P6CKP&issuer=GitLab&digits=6",
        ("RXQ6Z62HQE6P6CKP",),
    ),
    (
        "totp_seed",
        "tvåfaktor: kunde inte skanna QR-koden, skrev in AEJR XGMJ BDZD F6DI manuellt istället",
        ("AEJR XGMJ BDZD F6DI",),
    ),
    ("totp_seed", "2FA-Seed (Nextcloud): JKOEGJ5QBL5N4VSQLT2SHZO4", ("JKOEGJ5QBL5N4VSQLT2SHZO4",)),
    ("totp_seed", "Hemmelig nøkkel for tofaktor: MBQHLXUFMKSN3GFOR4NA", ("MBQHLXUFMKSN3GFOR4NA",)),
    (
        "totp_seed",
        "Nøgle til godkendelses-appen: T347 BT4B IVXK FOFX HTXU 2372 IKCU 3DCW",
        ("T347 BT4B IVXK FOFX HTXU 2372 IKCU 3DCW",),
    ),
    (
        "totp_seed",
        "Kaksivaiheisen tunnistautumisen avain: ALEWV7EUKACWBHMWUERA7IVAKU",
        ("ALEWV7EUKACWBHMWUERA7IVAKU",),
    ),
    (
        "totp_seed",
        "otpauth://totp/Banco%20Sur:lucia?secret=O5NK32S2TO2EPPD5&issuer=Banco%20Sur",
        ("O5NK32S2TO2EPPD5",),
    ),
    # ------------------------------------------------------------------
    # multi_occurrence
    # ------------------------------------------------------------------
    (
        "multi_occurrence",
        "the PIN is 5821. I typed 5821 twice at the ATM and it locked, so maybe it's not 5821 after all?",
        ("5821",),
    ),
    ("multi_occurrence", "Portkoden är 2934. Om 2934 inte funkar, ring Lisa", ("2934",)),
    (
        "multi_occurrence",
        "Passwort fürs Gäste-Laptop: Fischbrötchen22 — falls jemand fragt, Fischbrötchen22 gilt auch fürs Drucker-Menü",
        ("Fischbrötchen22",),
    ),
    (
        "multi_occurrence",
        "La clave es Sandía_91. Escribe Sandía_91 con mayúscula al principio",
        ("Sandía_91",),
    ),
    ("multi_occurrence", "Code de la porte : 7391. Je répète, 7391, le 9 colle un peu", ("7391",)),
    (
        "multi_occurrence",
        "La password di casa è Gelato!Menta5, ho scritto Gelato!Menta5 anche sul foglietto in cucina",
        ("Gelato!Menta5",),
    ),
    (
        "multi_occurrence",
        "senha: Pitanga#40\n\n(a Pitanga#40 é a mesma do portal antigo)",
        ("Pitanga#40",),
    ),
    ("multi_occurrence", "Pincode 0761. Nogmaals: 0761.", ("0761",)),
    (
        "multi_occurrence",
        "hasło: Kiełbasa_Grill9 ... a jak nie działa Kiełbasa_Grill9 to zadzwoń do mnie",
        ("Kiełbasa_Grill9",),
    ),
    (
        "multi_occurrence",
        "Hi Tom,\nThe temporary password for your account is Xr7!pLm2Q. Please log in with Xr7!pLm2Q and change it within 24 hours.\nIT Support",
        ("Xr7!pLm2Q",),
    ),
    (
        "multi_occurrence",
        "larmkod 80 51 ... nej vänta, skriv 8051 utan mellanslag",
        ("80 51", "8051"),
    ),
    (
        "multi_occurrence",
        "Tresor: 4-8-15-16. Die 4-8-15-16 ist auch die Kombination vom Koffer",
        ("4-8-15-16",),
    ),
    (
        "multi_occurrence",
        "recovery code Q7HM-2KPD-XX4R. Writing it again bc my handwriting is bad: Q7HM-2KPD-XX4R",
        ("Q7HM-2KPD-XX4R",),
    ),
    ("multi_occurrence", "PIN-koden er 3092, og 3092 er også koden til boden", ("3092",)),
    (
        "multi_occurrence",
        "Adgangskoden er Smørrebrød77 – husk at Smørrebrød77 har stort S",
        ("Smørrebrød77",),
    ),
    (
        "multi_occurrence",
        "Salasana: Kalakukko_12. Jos Kalakukko_12 ei toimi, soita minulle",
        ("Kalakukko_12",),
    ),
    (
        "multi_occurrence",
        "PIN 4403 ... le di el 4403 a mi hermano para que saque dinero",
        ("4403",),
    ),
    # ------------------------------------------------------------------
    # question_answer
    # ------------------------------------------------------------------
    (
        "question_answer",
        "security question for the bank: mother's maiden name: Lindqvist",
        ("Lindqvist",),
    ),
    (
        "question_answer",
        "security Qs for the insurance site:\n1. first pet? -> Biscuit\n2. city where parents met? -> Tromsø",
        ("Biscuit", "Tromsø"),
    ),
    ("question_answer", "Sicherheitsfrage: Name des ersten Haustiers – Strolchi", ("Strolchi",)),
    (
        "question_answer",
        "Säkerhetsfråga: Vad hette din första lärare? Svar: Gunnel Ek",
        ("Gunnel Ek",),
    ),
    (
        "question_answer",
        "Pregunta de seguridad: ¿nombre de tu primera mascota? Respuesta: Canelo",
        ("Canelo",),
    ),
    ("question_answer", "Question secrète : ville de naissance de ma mère → Quimper", ("Quimper",)),
    (
        "question_answer",
        "Domanda di sicurezza: il nome della tua scuola elementare — risposta: Collodi",
        ("Collodi",),
    ),
    (
        "question_answer",
        "Pergunta de segurança: nome do primeiro animal de estimação = Tobias",
        ("Tobias",),
    ),
    (
        "question_answer",
        "Beveiligingsvraag: wat was je eerste auto? Antwoord: Fiat Panda 1992",
        ("Fiat Panda 1992",),
    ),
    (
        "question_answer",
        "Pytanie bezpieczeństwa: nazwisko panieńskie matki – Wiśniewska",
        ("Wiśniewska",),
    ),
    (
        "question_answer",
        "for the apple id security answers I used fake ones: favourite teacher = Mr Pumpernickel, dream job = lighthouse keeper",
        ("Mr Pumpernickel", "lighthouse keeper"),
    ),
    (
        "question_answer",
        "Geheimfrage bei der Bank: Lieblingsessen? Antwort Käsespätzle",
        ("Käsespätzle",),
    ),
    (
        "question_answer",
        "säkerhetssvaret (gatan jag växte upp på) är Rönnbärsvägen",
        ("Rönnbärsvägen",),
    ),
    ("question_answer", "Sikkerhetsspørsmål: første kjæledyr – Pusur", ("Pusur",)),
    (
        "question_answer",
        "Sikkerhedsspørgsmål: Hvad hed din første skole? Svar: Lindevangskolen",
        ("Lindevangskolen",),
    ),
    ("question_answer", "Turvakysymys: äidin tyttönimi – Virtanen", ("Virtanen",)),
    (
        "question_answer",
        "réponse à la question de sécurité (nom du premier chien) : Filou",
        ("Filou",),
    ),
    # ------------------------------------------------------------------
    # wifi
    # ------------------------------------------------------------------
    ("wifi", "WIFI:S:Home;T:WPA;P:Lemon-Tree-4412;;", ("Lemon-Tree-4412",)),
    (
        "wifi",
        "the guest network is BergGuest and the password is sunflower2026",
        ("sunflower2026",),
    ),
    ("wifi", "Wifi-lösenordet hemma: Mysig!Katt7, nätverket heter Telia-8F2C", ("Mysig!Katt7",)),
    (
        "wifi",
        "WLAN-Schlüssel: 4471 8823 9910 2256 (steht hinten auf der Fritzbox)",
        ("4471 8823 9910 2256",),
    ),
    (
        "wifi",
        "la contraseña del wifi es Tortilla2024 y la red se llama MOVISTAR_5C1A",
        ("Tortilla2024",),
    ),
    ("wifi", "Clé WPA de la Livebox : 9fA3kLm7Qz2x", ("9fA3kLm7Qz2x",)),
    ("wifi", "rete: Casa_Bianchi, password wifi: Pomodoro!77", ("Pomodoro!77",)),
    ("wifi", "Wi-Fi da casa da praia: rede PraiaNet, senha conchinha123", ("conchinha123",)),
    ("wifi", "WIFI:T:WPA;S:Huize Jansen;P:Drop&Zout2020;;", ("Drop&Zout2020",)),
    ("wifi", "hasło do wifi w biurze: Kawa_Bez_Cukru_1", ("Kawa_Bez_Cukru_1",)),
    ("wifi", "network key (WPA2) for the workshop router -> r7T#kx92!Wq", ("r7T#kx92!Wq",)),
    ("wifi", "Wifi-passordet på hytta er Nordlys2030", ("Nordlys2030",)),
    (
        "wifi",
        "Netværksnøgle: hyggelig-kaffe-42 (netværket hedder Sommerhus)",
        ("hyggelig-kaffe-42",),
    ),
    ("wifi", "WLAN-salasana: Mökki_Järvi_88", ("Mökki_Järvi_88",)),
    ("wifi", 'nmcli dev wifi connect "CoffeeLab" password "beans&steam99"', ("beans&steam99",)),
    ("wifi", 'network={\n    ssid="Attic"\n    psk="dusty-rafters-31"\n}', ("dusty-rafters-31",)),
    ("wifi", "Gästnätet heter Gast_Andersson och lösenordet är välkommen2026", ("välkommen2026",)),
    # ------------------------------------------------------------------
    # card (Luhn-valid, invented)
    # ------------------------------------------------------------------
    (
        "card",
        "Card for the hotel booking: 4914 5856 3074 0774, exp 09/28, CVV 412",
        ("4914 5856 3074 0774", "412"),
    ),
    (
        "card",
        "kortnummer 4526846332142655 giltigt till 03/27, CVC 087",
        ("4526846332142655", "087"),
    ),
    (
        "card",
        "Kreditkarte: 4807-0329-4888-8342, gültig bis 11/29, Prüfnummer 663",
        ("4807-0329-4888-8342", "663"),
    ),
    ("card", "tarjeta 5376 9686 3989 2101 caduca 05/28 cvv 240", ("5376 9686 3989 2101", "240")),
    (
        "card",
        "numéro de carte 4636 9571 2735 8302 exp. 12/27 cryptogramme 918",
        ("4636 9571 2735 8302", "918"),
    ),
    (
        "card",
        "carta di credito: 4936800608798769, scadenza 07/29, CVV 355",
        ("4936800608798769", "355"),
    ),
    (
        "card",
        "cartão 4505 5548 8858 8579 validade 02/30 código de segurança 731",
        ("4505 5548 8858 8579", "731"),
    ),
    (
        "card",
        "creditcardnummer 5455 1159 1114 3837, vervaldatum 10/27, CVC 604",
        ("5455 1159 1114 3837", "604"),
    ),
    (
        "card",
        "numer karty: 4027 9025 4429 9819, ważna do 08/28, CVV 129",
        ("4027 9025 4429 9819", "129"),
    ),
    ("card", "Amex 3731 911519 14328, expires 01/29, CID 7306", ("3731 911519 14328", "7306")),
    (
        "card",
        "company card (Discover) 6011737791483705 exp 04/28, billing zip 94107",
        ("6011737791483705",),
    ),
    ("card", "meine Amex-Nummer ist 342429935021954, Ablauf 06/30", ("342429935021954",)),
    # ------------------------------------------------------------------
    # iban (mod-97 valid, invented)
    # ------------------------------------------------------------------
    (
        "iban",
        "Mitt kontonummer (IBAN): SE43 5001 5495 6015 2101 4839",
        ("SE43 5001 5495 6015 2101 4839",),
    ),
    (
        "iban",
        "IBAN: DE22 8345 3303 5593 0828 98, Kontoinhaber Jonas Weber",
        ("DE22 8345 3303 5593 0828 98",),
    ),
    (
        "iban",
        "Transfiere a ES55 1178 1551 6616 0534 4688, concepto alquiler marzo",
        ("ES55 1178 1551 6616 0534 4688",),
    ),
    (
        "iban",
        "RIB de la nounou : FR67 8163 4244 39X9 2481 5296 303",
        ("FR67 8163 4244 39X9 2481 5296 303",),
    ),
    (
        "iban",
        "IBAN per il bonifico dell'affitto: IT15X7276468574005799713011",
        ("IT15X7276468574005799713011",),
    ),
    ("iban", "NIB/IBAN: PT12 1695 9901 4593 1643 8794 1", ("PT12 1695 9901 4593 1643 8794 1",)),
    ("iban", "rekeningnummer NL22ABNA6191190549 t.n.v. Bakker", ("NL22ABNA6191190549",)),
    (
        "iban",
        "numer konta: PL98 1905 6511 2185 5353 0915 9022",
        ("PL98 1905 6511 2185 5353 0915 9022",),
    ),
    ("iban", "Kontonummer for husleie: NO24 4646 2704 534", ("NO24 4646 2704 534",)),
    ("iban", "IBAN: DK7528817743033737", ("DK7528817743033737",)),
    ("iban", "Tilinumero FI52 3373 3062 8743 84", ("FI52 3373 3062 8743 84",)),
    (
        "iban",
        "send the deposit to GB77 NWBK 6640 8776 2768 76 (ref: flat 3B)",
        ("GB77 NWBK 6640 8776 2768 76",),
    ),
    ("iban", "Unsere neue Bankverbindung: AT22 5662 1967 4934 7407", ("AT22 5662 1967 4934 7407",)),
    ("iban", "compte belge BE25 9841 7982 7182, au nom de Mme Peeters", ("BE25 9841 7982 7182",)),
    # ------------------------------------------------------------------
    # userinfo
    # ------------------------------------------------------------------
    (
        "userinfo",
        "git clone https://mkarlsson:Fikapaus2026@git.example.se/team/app.git",
        ("Fikapaus2026",),
    ),
    ("userinfo", "DATABASE_URL=postgres://app:Vx9!rTq22mn@db.internal:5432/shop", ("Vx9!rTq22mn",)),
    ("userinfo", "mount it from smb://nas-user:Kaffekopp_3@192.168.1.20/foton", ("Kaffekopp_3",)),
    ("userinfo", "ftp://upload:Sonnenblume77@ftp.beispiel.de/incoming", ("Sonnenblume77",)),
    ("userinfo", "login for the printer admin: erik.l / Skrivare#55", ("Skrivare#55",)),
    (
        "userinfo",
        "el panel del router es http://admin:Cangrejo_19@192.168.0.1 (usuario admin)",
        ("Cangrejo_19",),
    ),
    ("userinfo", "mongodb://lecteur:Baguette!42@mongo.local:27017/catalogue", ("Baguette!42",)),
    ("userinfo", "redis://:Tiramisu2025@cache.interno:6379/0", ("Tiramisu2025",)),
    ("userinfo", "mysql://root:Brigadeiro#8@localhost:3306/loja", ("Brigadeiro#8",)),
    ("userinfo", "inloggen op de router: admin / Kaaskop!2019", ("Kaaskop!2019",)),
    ("userinfo", "amqp://kolejka:Pączek77@rabbit.lokalny:5672/", ("Pączek77",)),
    (
        "userinfo",
        "pip install --index-url https://ci-bot:7hX2mQp9LkV4@pypi.corp.example/simple mypkg",
        ("7hX2mQp9LkV4",),
    ),
    ("userinfo", "inlogg till bokföringen: maria.s / Räkmacka99", ("Räkmacka99",)),
    (
        "userinfo",
        "Backup läuft über sftp://backup:Wanderweg_12@files.example.de:22/daten",
        ("Wanderweg_12",),
    ),
    # ------------------------------------------------------------------
    # auth_header
    # ------------------------------------------------------------------
    (
        "auth_header",
        'curl -H "Authorization: Basic bWlrYWVsOlZpbnRlcmJhZC03Nw==" https://api.example.com/v1/me',
        ("bWlrYWVsOlZpbnRlcmJhZC03Nw==",),
    ),
    (
        "auth_header",
        "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234",
        ("9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee1234",),
    ),
    (
        "auth_header",
        "GET /api/orders HTTP/1.1\nHost: shop.example\nAuthorization: Token 3c9d1f0b8a7e6d5c4b3a2f1e0d9c8b7a\nAccept: */*",
        ("3c9d1f0b8a7e6d5c4b3a2f1e0d9c8b7a",),
    ),
    (
        "auth_header",
        "the vendor wants this header: Authorization: ApiKey a7Q2-mZ9x-Lp4K-88rT",
        ("a7Q2-mZ9x-Lp4K-88rT",),
    ),
    (
        "auth_header",
        'Authorization: Digest username="ola", realm="cams", nonce="7a3e91c0b2d4f68e", uri="/stream", response="4b1f9e2a7c3d8e05f6a19b2c3d4e5f60"',
        ("4b1f9e2a7c3d8e05f6a19b2c3d4e5f60",),
    ),
    (
        "auth_header",
        "Fick det att funka med: curl -H 'Authorization: Basic YW5uYS5iZXJnOkZqYWxscmlwYSE5' https://intra.example.se/api",
        ("YW5uYS5iZXJnOkZqYWxscmlwYSE5",),
    ),
    (
        "auth_header",
        "Header für den Webhook: Authorization: Bearer fK3mQ9xZ2pL7vN4tR8wY",
        ("fK3mQ9xZ2pL7vN4tR8wY",),
    ),
    (
        "auth_header",
        'headers = {"Authorization": "Basic ZGVwbG95OlF4Ny1wbG9tbW9uLXJpdg=="}',
        ("ZGVwbG95OlF4Ny1wbG9tbW9uLXJpdg==",),
    ),
    (
        "auth_header",
        "en Postman pon Authorization = Bearer q8Rt5Vw2Yz7Bn4Mk1Jh6 y ya funciona",
        ("q8Rt5Vw2Yz7Bn4Mk1Jh6",),
    ),
    (
        "auth_header",
        "wget --header='Authorization: Basic YmFja3VwOnQwcm5hZG9fS2FmZmU=' https://backup.local/latest.tar",
        ("YmFja3VwOnQwcm5hZG9fS2FmZmU=",),
    ),
]

SPLITS: list[tuple[str, list[str], tuple[str, ...]]] = [
    (
        "split",
        ["hey what's the door code for your building again?", "4417, then push hard"],
        ("4417",),
    ),
    ("split", ["what's the wifi password?", "gooseberry-jam-19"], ("gooseberry-jam-19",)),
    ("split", ["vad är portkoden till mormor?", "2280"], ("2280",)),
    (
        "split",
        ["Vad var lösenordet till Viaplay nu igen?", "Tranbär!Sill5 tror jag"],
        ("Tranbär!Sill5",),
    ),
    ("split", ["Wie war nochmal das WLAN-Passwort?", "Apfelstrudel_2026"], ("Apfelstrudel_2026",)),
    ("split", ["Kannst du mir den Türcode schicken?", "klar: 6093"], ("6093",)),
    ("split", ["¿cuál es el PIN de la tarjeta de mamá?", "3826"], ("3826",)),
    ("split", ["oye, ¿la contraseña del router?", "Churros#Choco11"], ("Churros#Choco11",)),
    ("split", ["c'est quoi le code de l'alarme ?", "90417"], ("90417",)),
    (
        "split",
        ["Tu te souviens du mot de passe de la Freebox ?", "Camembert-Rouge-6, avec des tirets"],
        ("Camembert-Rouge-6",),
    ),
    ("split", ["qual è il codice del cancello?", "7154"], ("7154",)),
    ("split", ["mi ridai la password di Disney+?", "Topolino_Verde3"], ("Topolino_Verde3",)),
    ("split", ["qual é a senha do wifi da casa da vó?", "Bolinho_Chuva23"], ("Bolinho_Chuva23",)),
    ("split", ["me passa o código do portão", "0628"], ("0628",)),
    ("split", ["wat is de pincode van de gezamenlijke rekening?", "5931"], ("5931",)),
    ("split", ["Wachtwoord van de Ziggo-modem?", "Oliebol!Vuurwerk8"], ("Oliebol!Vuurwerk8",)),
    ("split", ["jaki jest kod do domofonu?", "1947"], ("1947",)),
    ("split", ["podaj mi hasło do Netflixa", "Kotlet_Schabowy4"], ("Kotlet_Schabowy4",)),
    ("split", ["Hva er koden til hytta?", "3650"], ("3650",)),
    ("split", ["Hvad er adgangskoden til printeren?", "Frikadelle22"], ("Frikadelle22",)),
    ("split", ["Mikä on wifin salasana?", "Pulla_Kahvi_77"], ("Pulla_Kahvi_77",)),
    (
        "split",
        [
            "need the alarm code for grandma's",
            "hold on",
            "8142, and the panel is behind the coat rack",
        ],
        ("8142",),
    ),
    (
        "split",
        [
            "vad är koden till cykellåset?",
            "0-3-1-7",
            "och nyckeln till förrådet ligger under krukan",
        ],
        ("0-3-1-7",),
    ),
]

LOOKALIKES: list[tuple[str, str]] = [
    # ------------------------------------------------------------------
    # password_talk
    # ------------------------------------------------------------------
    (
        "password_talk",
        "I forgot my password again, can you remind me to set up a password manager this weekend?",
    ),
    ("password_talk", "the password must be at least 12 characters and can't reuse the last five"),
    ("password_talk", "Password: (ask Maria, she has it in her manager)"),
    ("password_talk", "The password field on the signup page doesn't show the requirements"),
    ("password_talk", "Jag har glömt lösenordet till Netflix, får återställa det i kväll"),
    ("password_talk", "Lösenordet måste bytas var 90:e dag enligt IT-policyn"),
    ("password_talk", "Ich muss mein Passwort zurücksetzen, der Link kam per Mail"),
    ("password_talk", "Das Kennwort muss mindestens zehn Zeichen haben, davon eine Ziffer"),
    ("password_talk", "Olvidé la contraseña del banco y tuve que ir a la oficina"),
    ("password_talk", "J'ai changé mon mot de passe ce matin, il faut huit caractères minimum"),
    ("password_talk", "Ho dimenticato la password della mail, devo chiamare l'assistenza"),
    ("password_talk", "A senha expira a cada três meses, que chatice"),
    ("password_talk", "Mijn wachtwoord werkt niet meer sinds de update"),
    ("password_talk", "Zapomniałem hasła do e-dziennika, trzeba je zresetować"),
    ("password_talk", "Jeg har glemt passordet til banken igjen"),
    ("password_talk", "Adgangskoden skal være mindst 12 tegn lang"),
    ("password_talk", "Unohdin salasanani, pitää vaihtaa se huomenna"),
    # ------------------------------------------------------------------
    # pin_talk
    # ------------------------------------------------------------------
    ("pin_talk", "my PIN is the same as always, don't worry"),
    ("pin_talk", "the PIN has 4 digits and you get three tries"),
    ("pin_talk", "Change the PIN to something that isn't your birthday, the bank said"),
    ("pin_talk", "PIN-koden är samma som förut, jag har inte ändrat den"),
    ("pin_talk", "Jag fick en ny pinkod med posten i går"),
    ("pin_talk", "Die PIN ist vierstellig, die PUK hat acht Stellen"),
    ("pin_talk", "El PIN es el de siempre, el que usamos para todo"),
    ("pin_talk", "Le code PIN de ma carte a été bloqué après trois essais"),
    ("pin_talk", "Il PIN del telefono è quello che ti ho detto a voce"),
    ("pin_talk", "Esqueci o PIN do cartão, vou pedir um novo no banco"),
    ("pin_talk", "Mijn pincode is geblokkeerd, ik moet naar de bank"),
    ("pin_talk", "PIN do karty przyjdzie osobnym listem"),
    ("pin_talk", "Pinkoden kommer i et separat brev"),
    ("pin_talk", "PIN-koodi lukittui, tarvitsen PUK-koodin operaattorilta"),
    # ------------------------------------------------------------------
    # code_talk
    # ------------------------------------------------------------------
    ("code_talk", "the door code was changed last week, ask Erik for the gate code"),
    ("code_talk", "Door code is on the fridge note, I'm not typing it here"),
    ("code_talk", "the alarm code has six digits now instead of four"),
    ("code_talk", "Portkoden har ändrats, fråga Anna om den nya"),
    ("code_talk", "larmkoden står i pärmen i hallen"),
    ("code_talk", "Der Türcode wurde geändert, Frau Schulz hat den neuen"),
    ("code_talk", "Den Tresorcode sage ich dir lieber am Telefon"),
    ("code_talk", "Cambiaron el código del portal, pregúntale al portero"),
    ("code_talk", "Le code de la porte a changé, demande à la gardienne"),
    ("code_talk", "Il codice del cancello lo sa la signora del piano terra"),
    ("code_talk", "O código do portão mudou, pergunta ao síndico"),
    ("code_talk", "De deurcode is veranderd, vraag het even aan Pieter"),
    ("code_talk", "Kod do drzwi się zmienił, zapytaj sąsiadkę"),
    ("code_talk", "Koden til porten er endret, spør vaktmesteren"),
    # ------------------------------------------------------------------
    # numbers
    # ------------------------------------------------------------------
    ("numbers", "Order #114-3392817-5520143 should arrive on Thursday"),
    ("numbers", "Tracking number 1Z4F82W90348827716, UPS says out for delivery"),
    ("numbers", "call me at +44 20 7946 0321 after 6pm"),
    ("numbers", "Flight SK1417 leaves at 07:45 from gate 32, seat 14C"),
    ("numbers", "ISBN 978-91-7424-553-2, third edition from 1998"),
    ("numbers", "Fakturanummer 2026-0412, förfallodatum 30 december, belopp 1 249 kr"),
    ("numbers", "Postnummer 411 03 Göteborg, ring 031-740 12 38 om något"),
    ("numbers", "Bestellnummer 40281175, Lieferung zwischen 10 und 14 Uhr"),
    ("numbers", "Die Rechnung Nr. 7731-B über 89,90 € ist bezahlt"),
    ("numbers", "El vuelo IB3127 sale a las 16:20, terminal 4"),
    ("numbers", "Mi número es el 612 34 56 78, llámame después de las 8"),
    ("numbers", "Facture n° 20260311 de 142,50 €, à régler avant le 15"),
    ("numbers", "Rendez-vous le 14/03 à 9h30, salle 2.17"),
    ("numbers", "Il numero d'ordine è 7712094, arriva giovedì"),
    ("numbers", "Il treno Frecciarossa 9521 parte alle 8:15 dal binario 7"),
    ("numbers", "O número do pedido é 883201, chega em 5 dias úteis"),
    ("numbers", "O preço ficou em 49,90 € com portes incluídos"),
    ("numbers", "Ordernummer 55210983, bezorging tussen 18:00 en 21:00"),
    ("numbers", "Ik ben bereikbaar op 06-12345678 na vijf uur"),
    ("numbers", "Numer zamówienia 2026/11/0458, dostawa we wtorek"),
    ("numbers", "Faktura VAT nr FV/2026/118 na kwotę 1 230,00 zł"),
    ("numbers", "Tilausnumero 44718, toimitus perjantaina klo 12–16"),
    ("numbers", "Ordrenummer 33018, levering på fredag"),
    # ------------------------------------------------------------------
    # ids
    # ------------------------------------------------------------------
    ("ids", "fixed in commit 3f2a9c1e7b4d08a6e5f1c2b3d4e5f6a7b8c9d0e1, see INFRA-442"),
    (
        "ids",
        "image digest sha256:9c1e5a7b3d2f4e6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a, container 4b1e9f2a7c3d",
    ),
    ("ids", "request id 6f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f failed with 502"),
    ("ids", "we're on version 2.14.3-rc.1, upgrading to 3.0 next sprint"),
    ("ids", "Ärendet har nummer JIRA-2291, commit a94f7c2 fixar det"),
    ("ids", "Bitte Ticket OPS-1187 schließen, der Fix ist in 8e41d0b"),
    ("ids", "El UUID del pedido es 0b8e3c5a-7d2f-4e19-a6c4-3f5b9d1e2a70"),
    ("ids", "Le ticket SUPPORT-5530 a été fermé, version 4.2.1 déployée"),
    ("ids", "L'hash del commit è 71c3e9a, branch feature/login-redesign"),
    ("ids", "Build 1893 falhou, ver o log do job 5521-a"),
    ("ids", "Issue #4821 is opgelost in release 1.9.0"),
    ("ids", "Zgłoszenie HELP-3310, wersja aplikacji 5.2.0 (build 2207)"),
    ("ids", "Sak nummer SD-7812 er lukket"),
    ("ids", "pinned the base image to python:3.12.7-slim-bookworm, see PR #318"),
    # ------------------------------------------------------------------
    # wifi_talk
    # ------------------------------------------------------------------
    ("wifi_talk", "the wifi is slow again, the network is called Telenor-5G-Home"),
    ("wifi_talk", "connect to the guest network, it's open, no password"),
    ("wifi_talk", "the router reboots every night at 3, probably why the wifi drops"),
    ("wifi_talk", "Wifi:t i sommarstugan är segt, nätverket heter Stugan_2G"),
    ("wifi_talk", "Das WLAN im Hotel heißt Hotel-Gast und ist offen"),
    ("wifi_talk", "La wifi del bar se llama CafeteriaLuna pero no va nada bien"),
    ("wifi_talk", "Le wifi de la Livebox est tombé encore une fois"),
    ("wifi_talk", "La rete wifi si chiama Casa_Rossi_Ext, ma prende poco in camera"),
    ("wifi_talk", "O wi-fi da biblioteca pede login com o número de estudante"),
    ("wifi_talk", "Het wifi-netwerk heet Ziggo8812 maar het signaal is zwak"),
    ("wifi_talk", "Wifi w pociągu nazywa się PKP_Intercity, działa tylko czasem"),
    ("wifi_talk", "Wifi'en hedder Sommerhus_Net og er ret langsom"),
    ("wifi_talk", "Wifi-verkon nimi on Mokki-Net, yhteys pätkii"),
    # ------------------------------------------------------------------
    # prose_words
    # ------------------------------------------------------------------
    ("prose_words", "the key insight from the paper is that smaller batches help"),
    ("prose_words", "a small token of appreciation for the team"),
    ("prose_words", "the secret ingredient is cumin, trust me"),
    ("prose_words", "zip code 41103, street address is 12 Harbor Lane"),
    ("prose_words", "the login page is down, ops is looking into it"),
    ("prose_words", "she handed me a boarding pass and the code of conduct booklet"),
    ("prose_words", "hemligheten bakom kakan är brynt smör"),
    ("prose_words", "Nyckeln till framgång är att sova ordentligt"),
    ("prose_words", "Postleitzahl 10115, Hausnummer 42"),
    ("prose_words", "Der Schlüssel zum Erfolg ist Geduld"),
    ("prose_words", "la clave del éxito es la constancia"),
    ("prose_words", "el código postal es 28013"),
    ("prose_words", "Je révise le code de la route pour l'examen de samedi"),
    ("prose_words", "la clé du problème, c'est le timing"),
    ("prose_words", "la chiave di tutto è la pazienza"),
    ("prose_words", "il codice fiscale lo trovi sulla tessera sanitaria"),
    ("prose_words", "o segredo do bolo é usar manteiga gelada"),
    ("prose_words", "o código postal é 1100-148 Lisboa"),
    ("prose_words", "de sleutel tot succes is goed plannen"),
    ("prose_words", "postcode 1012 AB, huisnummer 7"),
    ("prose_words", "kluczem do sukcesu jest cierpliwość"),
    ("prose_words", "kod pocztowy 00-950 Warszawa"),
    ("prose_words", "hemmeligheten er å steke brødet lenge"),
    ("prose_words", "Postinumero on 00100 Helsinki"),
    # ------------------------------------------------------------------
    # base32_like
    # ------------------------------------------------------------------
    ("base32_like", "SKU ABCD-EFGH is out of stock, reorder QWRT-ZXCV instead"),
    ("base32_like", "route ARN CPH LHR JFK, back via AMS"),
    ("base32_like", "acronyms to explain: NATO, UNESCO, OECD, ASEAN"),
    ("base32_like", "license plate ABC 123, silver Volvo"),
    ("base32_like", "ALL CAPS HEADLINE: MARKETS RALLY AS RATES FALL"),
    ("base32_like", "Registreringsnummer KLM 45B, den blå bilen"),
    ("base32_like", "Kennzeichen B-MW 2041, steht in der Tiefgarage"),
    ("base32_like", "Artikelnummer XKRT-7741-BLAU im Katalog"),
    ("base32_like", "Matrícula 4821 KLM, aparcado en la plaza 12"),
    ("base32_like", "Référence produit ZRT-4410-NOIR, taille M"),
    ("base32_like", "Il codice prodotto è ALFA-BETA-GAMMA, colore blu"),
    ("base32_like", "Código do voo TP1347 de LIS para OPO"),
    ("base32_like", "Kenteken GHJ-21-K, de rode Fiat"),
    ("base32_like", "Numer rejestracyjny WA 12345, srebrna skoda"),
    ("base32_like", "Rekisterikilpi ABC-123, sininen Toyota"),
    # ------------------------------------------------------------------
    # qa_talk
    # ------------------------------------------------------------------
    ("qa_talk", "what was the name of your first pet is a common security question"),
    ("qa_talk", "I never answer security questions truthfully, I make stuff up"),
    ("qa_talk", "Q: what's your favourite colour? A: probably green, why do you ask?"),
    (
        "qa_talk",
        "Säkerhetsfrågan var vad min första lärare hette, men jag minns inte vad jag svarade",
    ),
    ("qa_talk", "Die Sicherheitsfrage nach dem Mädchennamen der Mutter ist total unsicher"),
    ("qa_talk", "Me pidió la respuesta a la pregunta de seguridad y no me acordaba"),
    ("qa_talk", "La question secrète, c'était le nom de mon premier animal, je crois"),
    ("qa_talk", "Le domande di sicurezza tipo 'scuola elementare' sono facili da indovinare"),
    ("qa_talk", "A pergunta de segurança era sobre a cidade onde nasci"),
    ("qa_talk", "De beveiligingsvraag ging over mijn eerste auto, geen idee wat ik had ingevuld"),
    ("qa_talk", "Pytanie bezpieczeństwa dotyczyło imienia pierwszego zwierzaka"),
    ("qa_talk", "Sikkerhetsspørsmålet handler om hvor foreldrene mine møttes"),
    ("qa_talk", "Jeg kan ikke huske svaret på sikkerhedsspørgsmålet"),
    # Added by the gate's author before running them (numbers beside a credential word
    # that are not the credential): room, flat, ticket, phone, error and HTTP codes, dates.
    ("code_numbers", "Room 1204 has a new door code, ask reception"),
    ("code_numbers", "Ticket 4521 is about the broken gate code panel"),
    ("code_numbers", "the alarm code for flat 2240 changed on 14 March"),
    ("code_numbers", "error code 80070005 when I try to change my password"),
    ("code_numbers", "the API returns status code 4031 when the token expired"),
    ("code_numbers", "Call 0701234567 if the door code doesn't work"),
    ("code_numbers", "Portkoden till Storgatan 1450 byts i april"),
    ("code_numbers", "Der Türcode für Haus 1820 wird am Montag geändert"),
    ("code_numbers", "el código de la puerta del portal 2240 lo tiene la vecina"),
    ("code_numbers", "le code de la porte du bâtiment B, appartement 3105, a changé"),
    ("code_numbers", "my password manager has 1450 entries now"),
    ("code_numbers", "I have used the same PIN since 2016, time to change it"),
    ("code_numbers", "the wifi password changed after the 3000 kr router upgrade"),
    ("code_numbers", "flight SK1415 check-in code arrives by email"),
    ("code_numbers", "Invoice 88231: new locker codes cost 150 kr each"),
    # Added by the gate's author before running them: keys that are no credential.
    ("key_numbers", "the key to room 2207 is at the front desk"),
    ("key_numbers", "Key 4 on my keyboard sticks since the coffee accident"),
    ("key_numbers", "the spare key is with Anna at Kungsgatan 12, flat 1102"),
    ("key_numbers", "the key takeaway from the Q3 review: churn fell to 2.1%"),
    ("key_numbers", "Der Schlüssel für Wohnung 1204 liegt beim Hausmeister"),
    ("key_numbers", "la llave del trastero 3301 está en el cajón"),
    ("key_numbers", "press the key combination Cmd+Shift+4 for a screenshot"),
    ("key_numbers", "the RSA key is 4096 bits and lives in the HSM"),
    ("key_numbers", "API key rotation is due on 2027-01-15, remind me"),
    ("key_numbers", "The key is model KX-2200 from Abloy, ordered a copy"),
    ("key_numbers", "nyckeln till förrådet nummer 4410 hänger i hallen"),
    ("key_numbers", "the public key fingerprint ends in 9F3A, verify it"),
    ("key_numbers", "key results for 2026: 3 launches, 1200 customers"),
    ("key_numbers", "the key fob for the garage costs 450 kr to replace"),
    ("key_numbers", "Keys: the blue one is for the shed, the red one for door 12"),
]
