# ruff: noqa: E501
"""Blind HELD-OUT case set for the secret gate, written 2026-12-06 before that round's changes.

The author saw neither the gate's code nor any other case set while writing this file.
Every value (password, PIN, card, IBAN, seed phrase, token, key, host, name) is invented:
card numbers were generated to pass Luhn, IBANs to pass mod-97, seed phrases are freshly
generated valid BIP-39 mnemonics, tokens and key bodies are random characters in the
vendors' public shapes.

Languages: English, Swedish, German, Spanish, French, Italian, Portuguese, Dutch, Polish,
Norwegian, Danish, Finnish.
"""

from __future__ import annotations

SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    # ------------------------------------------------------------------ credential_word
    ("credential_word", "my bank password is Tulip$Garage41 pls remember it", ("Tulip$Garage41",)),
    ("credential_word", "note to self - garage door code 7316# (hold the # for 2 sec)", ("7316",)),
    (
        "credential_word",
        "Mum's alarm code changed, it's now 0482. you have 30s to disarm after opening the door",
        ("0482",),
    ),
    (
        "credential_word",
        "passphrase for the external backup drive: lantern-violet-pickle-railway-93",
        ("lantern-violet-pickle-railway-93",),
    ),
    (
        "credential_word",
        "security answer for barclays (mothers maiden name) is Featherstonhaugh lol nobody can spell that",
        ("Featherstonhaugh",),
    ),
    ("credential_word", "kindle parental pin = 5590", ("5590",)),
    ("credential_word", "netflix login jo.harper@fastmail.com / Ringo2Starr!!", ("Ringo2Starr!!",)),
    (
        "credential_word",
        "Zx9!mQ4r is the new pw for the school portal, dont let me forget it again",
        ("Zx9!mQ4r",),
    ),
    (
        "credential_word",
        "Can you remember this for me: the recovery code for my Proton account is 7HQK-2MWX-P4RT-9ZLC",
        ("7HQK-2MWX-P4RT-9ZLC",),
    ),
    (
        "credential_word",
        "gate code at the allotment is 1-9-6-4 then press the bell icon",
        ("1-9-6-4",),
    ),
    (
        "credential_word",
        "lösenordet till banken är Hallon#Mjölk77, skriv inte ner det nån annanstans",
        ("Hallon#Mjölk77",),
    ),
    ("credential_word", "portkoden är 1947 och sen trapphus B, 3 tr", ("1947",)),
    ("credential_word", "kom ihåg att pinkoden till nya kortet e 8203", ("8203",)),
    (
        "credential_word",
        "Mitt lösen till Mina sidor på Försäkringskassan: sommarStuga_2025",
        ("sommarStuga_2025",),
    ),
    (
        "credential_word",
        "larmkoden hos farmor är 6631, stäng av larmet innan du går in i hallen",
        ("6631",),
    ),
    (
        "credential_word",
        "Mein Passwort für ELSTER ist Kiefer.Brot.88 – bitte merken",
        ("Kiefer.Brot.88",),
    ),
    ("credential_word", "Torcode Tiefgarage: 4419, Einfahrt links neben dem Bäcker", ("4419",)),
    ("credential_word", "die pin von meiner girocard ist 7702", ("7702",)),
    ("credential_word", "Kennwort fürs Firmen-VPN lautet ab heute Wolke7!Berg", ("Wolke7!Berg",)),
    ("credential_word", "Zugangscode für den Schlüsseltresor am Ferienhaus: 2580", ("2580",)),
    (
        "credential_word",
        "mi contraseña del correo es Pimiento_Rojo19 guárdala porfa",
        ("Pimiento_Rojo19",),
    ),
    (
        "credential_word",
        "el código del portal es 3B7741, el del ascensor no hace falta",
        ("3B7741",),
    ),
    (
        "credential_word",
        "el PIN de la tarjeta nueva es 6148 no se lo digas a nadie jaja",
        ("6148",),
    ),
    ("credential_word", "clave de acceso a la banca online: Girasol2024$$", ("Girasol2024$$",)),
    (
        "credential_word",
        "pregunta de seguridad: nombre de mi primera mascota -> Chispitas",
        ("Chispitas",),
    ),
    ("credential_word", "mon mot de passe Ameli c'est Baguette!Lune42", ("Baguette!Lune42",)),
    ("credential_word", "digicode de l'immeuble : 48A91, interphone au nom de Morel", ("48A91",)),
    ("credential_word", "code pin de la carte bleue 3957 (l'ancien était différent)", ("3957",)),
    ("credential_word", "mdp du compte free = chaton-orange-1987", ("chaton-orange-1987",)),
    ("credential_word", "Le code de l'alarme chez papi c'est 2266 puis la touche ON", ("2266",)),
    ("credential_word", "la password di Poste è Gelato_Pistacchio9", ("Gelato_Pistacchio9",)),
    ("credential_word", "codice del cancello: 7790 poi asterisco", ("7790",)),
    ("credential_word", "il pin del bancomat è 0315, non perderlo stavolta", ("0315",)),
    ("credential_word", "combinazione della cassaforte in ufficio: 36-12-58", ("36-12-58",)),
    ("credential_word", "Ro$sini_88 <- questa è la password dello SPID", ("Ro$sini_88",)),
    ("credential_word", "o código do multibanco é 2741", ("2741",)),
    ("credential_word", "senha do email: Saudade#Lisboa3", ("Saudade#Lisboa3",)),
    (
        "credential_word",
        "código do portão da garagem 5108, carrega no botão verde depois",
        ("5108",),
    ),
    ("credential_word", "minha senha do Nubank é caju.verde.2209 anota aí", ("caju.verde.2209",)),
    (
        "credential_word",
        "palavra-passe do portal das finanças: Bacalhau&Nata61",
        ("Bacalhau&Nata61",),
    ),
    ("credential_word", "wachtwoord van mijn DigiD: Tulpen&Fiets55", ("Tulpen&Fiets55",)),
    ("credential_word", "pincode van mijn bankpas is 9064", ("9064",)),
    ("credential_word", "de code van het sleutelkastje bij het huisje is 3318", ("3318",)),
    ("credential_word", "toegangscode fietsenstalling: 6072 #", ("6072",)),
    ("credential_word", "ww voor de NAS: Drop&Kaas2019", ("Drop&Kaas2019",)),
    ("credential_word", "hasło do banku: Pierogi!Kraków12", ("Pierogi!Kraków12",)),
    ("credential_word", "kod do domofonu 1739 i klucz", ("1739",)),
    ("credential_word", "pin do nowej karty to 4826, zapamiętaj", ("4826",)),
    ("credential_word", "moje hasło do ePUAP to Bursztyn_2023", ("Bursztyn_2023",)),
    ("credential_word", "kod do alarmu w biurze: 5512, wyłącz przed 7:00", ("5512",)),
    ("credential_word", "passordet til nettbanken er Fjellbekk!92", ("Fjellbekk!92",)),
    ("credential_word", "adgangskoden til netbank er Rugbrød_Sol4", ("Rugbrød_Sol4",)),
    ("credential_word", "salasana verkkopankkiin: Sauna-Kuusi-71", ("Sauna-Kuusi-71",)),
    ("credential_word", "ovikoodi on 5823, rappu C", ("5823",)),
    # ------------------------------------------------------------------ card
    (
        "card",
        "card for the hotel deposit: 4914 5856 3074 0774 exp 09/28 cvv 417",
        ("4914 5856 3074 0774", "417"),
    ),
    ("card", "mitt visakort 4526846332142655 går ut 03/27", ("4526846332142655",)),
    (
        "card",
        "Kreditkarte: 4807-0329-4888-8342, gültig bis 06/29, Prüfnummer 552",
        ("4807-0329-4888-8342", "552"),
    ),
    ("card", "número de tarjeta 5181 3718 1161 4762 caduca 11/29", ("5181 3718 1161 4762",)),
    ("card", "ma CB : 5376200290043174 exp 02/28 cryptogramme 083", ("5376200290043174", "083")),
    (
        "card",
        "carta di credito 5557 1510 2019 2073 scad. 07/27 CVV 644 intestata a me",
        ("5557 1510 2019 2073", "644"),
    ),
    ("card", "o número do cartão é 2221 7326 3695 7125, validade 08/28", ("2221 7326 3695 7125",)),
    ("card", "creditcardnummer 3473 583037 69685 (amex), vervalt 10/26", ("3473 583037 69685",)),
    (
        "card",
        "numer karty 376398921093682 ważna do 05/28 kod CID 7391",
        ("376398921093682", "7391"),
    ),
    (
        "card",
        "use my discover 6011 0060 8798 7658 for the flights, billing zip 30307",
        ("6011 0060 8798 7658",),
    ),
    ("card", "kortnummer 4055 5488 8588 5776 utløp 12/27", ("4055 5488 8588 5776",)),
    ("card", "mit kort: 5297189260888765 – husk at det er firmakortet", ("5297189260888765",)),
    ("card", "kortin numero 3631 911519 1431, voimassa 01/28", ("3631 911519 1431",)),
    ("card", "JCB card 3522429935021950 exp 04/30 (the japanese one)", ("3522429935021950",)),
    (
        "card",
        "bitte die Karte 4737 7914 8370 0270 bei Amazon hinterlegen, nicht die alte",
        ("4737 7914 8370 0270",),
    ),
    ("card", "tarjeta de empresa 5490-2544-2998-1458 cvc 902", ("5490-2544-2998-1458", "902")),
    # ------------------------------------------------------------------ iban
    (
        "iban",
        "mitt kontonummer för lönen: SE72 5115 9111 4383 1549 5601",
        ("SE72 5115 9111 4383 1549 5601",),
    ),
    (
        "iban",
        "swisha inte, för över till SE1652101483983453303559 istället tack",
        ("SE1652101483983453303559",),
    ),
    (
        "iban",
        "Meine IBAN: DE07 3082 8988 8008 1312 45, PIN fürs Online-Banking 60815",
        ("DE07 3082 8988 8008 1312 45", "60815"),
    ),
    (
        "iban",
        "überweis mir die 40€ einfach auf DE28968878312816342443 danke dir",
        ("DE28968878312816342443",),
    ),
    (
        "iban",
        "mi IBAN es ES18 7862 0547 0534 7670 9133 para lo de la cena",
        ("ES18 7862 0547 0534 7670 9133",),
    ),
    (
        "iban",
        "RIB pour le loyer : FR69 8028 5392 2385 2690 8141 435",
        ("FR69 8028 5392 2385 2690 8141 435",),
    ),
    (
        "iban",
        "IBAN per il bonifico dell'affitto: IT86C9982665581148969524246",
        ("IT86C9982665581148969524246",),
    ),
    ("iban", "o meu IBAN é PT02 0186 1834 7750 0394 3165 9", ("PT02 0186 1834 7750 0394 3165 9",)),
    ("iban", "rekeningnummer voor de tikkie: NL53 SRIW 5399 1821 02", ("NL53 SRIW 5399 1821 02",)),
    (
        "iban",
        "numer konta PL30 7751 3976 7239 9410 7574 8009 – przelew za mieszkanie",
        ("PL30 7751 3976 7239 9410 7574 8009",),
    ),
    ("iban", "kontonummer til fellesutgiftene: NO25 2306 0355 797", ("NO25 2306 0355 797",)),
    ("iban", "DK3530513208026837 er min konto hvis du vil overføre", ("DK3530513208026837",)),
    ("iban", "tilinumero FI92 6703 0269 0294 02, viitteeksi vuokra", ("FI92 6703 0269 0294 02",)),
    (
        "iban",
        "UK account for the refund: GB85 CJSX 5617 1661 2648 47 (name: Priya Nair)",
        ("GB85 CJSX 5617 1661 2648 47",),
    ),
    ("iban", "mijn Belgische rekening: BE52 1982 1208 0409", ("BE52 1982 1208 0409",)),
    ("iban", "Konto in Wien: AT33 2923 5078 9919 2503", ("AT33 2923 5078 9919 2503",)),
    (
        "iban",
        "compte suisse CH46 5163 6809 3787 6774 2, au nom de Julien",
        ("CH46 5163 6809 3787 6774 2",),
    ),
    (
        "iban",
        "the joint account is NL63FWKV6673791318, netbanking pin 402913",
        ("NL63FWKV6673791318", "402913"),
    ),
    (
        "iban",
        "moje drugie konto: PL19 1754 1761 1798 8463 0313 4144",
        ("PL19 1754 1761 1798 8463 0313 4144",),
    ),
    # ------------------------------------------------------------------ seed_phrase
    (
        "seed_phrase",
        "my metamask seed, keep it safe: view abandon tip viable brush drum unable diamond gather mass tray hold",
        ("view abandon tip viable brush drum unable diamond gather mass tray hold",),
    ),
    (
        "seed_phrase",
        "återställningsfrasen till plånboken: group ethics disorder indicate eager sausage potato waste culture anxiety afraid window",
        (
            "group ethics disorder indicate eager sausage potato waste culture anxiety afraid window",
        ),
    ),
    (
        "seed_phrase",
        "Ledger Wiederherstellungsphrase (12 Wörter): train object spice enroll regret grunt height always occur category exclude hamster",
        ("train object spice enroll regret grunt height always occur category exclude hamster",),
    ),
    (
        "seed_phrase",
        "frase semilla de la wallet -> truck neck priority ritual twice scare idea foster cheese mask since chase",
        ("truck neck priority ritual twice scare idea foster cheese mask since chase",),
    ),
    (
        "seed_phrase",
        "phrase de récupération trust wallet :\nadapt flavor violin fiscal\nelectric bright mother clip\ncensus tired run essence",
        ("adapt flavor violin fiscal\nelectric bright mother clip\ncensus tired run essence",),
    ),
    (
        "seed_phrase",
        "le 12 parole del portafoglio: merge tip movie wrestle refuse term clog school vast mention artefact legend",
        ("merge tip movie wrestle refuse term clog school vast mention artefact legend",),
    ),
    (
        "seed_phrase",
        "frase de recuperação da carteira: wish belt reveal aspect rice head tenant valve oppose enter bus fee",
        ("wish belt reveal aspect rice head tenant valve oppose enter bus fee",),
    ),
    (
        "seed_phrase",
        "herstelzin van mijn wallet false bracket silk whale tray draft unfold jazz talent bargain abandon napkin niet kwijtraken!!",
        ("false bracket silk whale tray draft unfold jazz talent bargain abandon napkin",),
    ),
    (
        "seed_phrase",
        "fraza odzyskiwania (24 słowa): laptop armed album pelican diary doctor describe famous kit swear sound switch crush cruel ritual people head rent above home sausage mistake seed giraffe",
        (
            "laptop armed album pelican diary doctor describe famous kit swear sound switch crush cruel ritual people head rent above home sausage mistake seed giraffe",
        ),
    ),
    (
        "seed_phrase",
        "24-word seed for the cold wallet, written on the steel plate too:\ndemise confirm grape tide again gun slam antique brush chuckle genuine pioneer cruise lumber sea autumn side maximum prepare art fashion mad quality teach",
        (
            "demise confirm grape tide again gun slam antique brush chuckle genuine pioneer cruise lumber sea autumn side maximum prepare art fashion mad quality teach",
        ),
    ),
    (
        "seed_phrase",
        "gjenopprettingsfrase for lommeboka: medal gym two farm coral section pond few toy fancy control also retreat olive key gallery junior category spatial exact kiwi couple member mean",
        (
            "medal gym two farm coral section pond few toy fancy control also retreat olive key gallery junior category spatial exact kiwi couple member mean",
        ),
    ),
    (
        "seed_phrase",
        "reject puppy language boy spirit grace awkward pyramid stomach cycle kite special frost humble spider junior solar noble author side tragic health because dentist er min gendannelsessætning, gem den",
        (
            "reject puppy language boy spirit grace awkward pyramid stomach cycle kite special frost humble spider junior solar noble author side tragic health because dentist",
        ),
    ),
    # ------------------------------------------------------------------ totp_seed
    (
        "totp_seed",
        "2FA setup key for the bank: 4Y6FEDT4RLYVIBPDH3YCHJKA4V",
        ("4Y6FEDT4RLYVIBPDH3YCHJKA4V",),
    ),
    (
        "totp_seed",
        "otpauth://totp/GitHub:lena.holm?secret=JR5FGAKZZKBUIUP7WNIJQINEI5UGWBML&issuer=GitHub",
        ("JR5FGAKZZKBUIUP7WNIJQINEI5UGWBML",),
    ),
    (
        "totp_seed",
        "hemlig nyckel för tvåfaktor (om jag tappar mobilen): qkup 7ckt fr3z xdds",
        ("qkup 7ckt fr3z xdds",),
    ),
    (
        "totp_seed",
        "TOTP-Geheimnis fürs Nextcloud: 4Q2U6H3YSVNSNFBJGTUZKFVGNW",
        ("4Q2U6H3YSVNSNFBJGTUZKFVGNW",),
    ),
    (
        "totp_seed",
        "clave de configuración del autenticador: EAJN U5YS T3XM LERU",
        ("EAJN U5YS T3XM LERU",),
    ),
    ("totp_seed", "clé secrète 2FA du compte OVH : J7RWVHD5YSA25NUA", ("J7RWVHD5YSA25NUA",)),
    (
        "totp_seed",
        "chiave segreta per Google Authenticator UEAPKOOSQJ3D2NCL (se cambio telefono)",
        ("UEAPKOOSQJ3D2NCL",),
    ),
    ("totp_seed", "chave 2FA da Binance: 3SDY2OAT5GWMAQTR", ("3SDY2OAT5GWMAQTR",)),
    (
        "totp_seed",
        "tweestapsverificatie geheime sleutel: clrc 2mu4 6mdn qzc4",
        ("clrc 2mu4 6mdn qzc4",),
    ),
    (
        "totp_seed",
        "klucz 2FA do konta w GitLabie YYTHFWEX2NQTD26IIQ7RKYLSKMHLIESZ",
        ("YYTHFWEX2NQTD26IIQ7RKYLSKMHLIESZ",),
    ),
    ("totp_seed", "kaksivaiheisen tunnistautumisen avain: 5PTYJSB3YI6BX6JR", ("5PTYJSB3YI6BX6JR",)),
    (
        "totp_seed",
        "authenticator seed for aws root Y5KG3GQU6J6L7R7R - store offline",
        ("Y5KG3GQU6J6L7R7R",),
    ),
    # ------------------------------------------------------------------ userinfo
    (
        "userinfo",
        "prod db is postgres://app_user:Hv8-qLm2xPz@db.internal.example.com:5432/orders",
        ("Hv8-qLm2xPz",),
    ),
    (
        "userinfo",
        "mysql://root:Plåtburk99@10.0.4.12/wordpress funkar från jobbdatorn",
        ("Plåtburk99",),
    ),
    (
        "userinfo",
        "my ~/.pgpass line: db.prod.example.net:5432:billing:billing_rw:rT7#uu2Lq9",
        ("rT7#uu2Lq9",),
    ),
    (
        "userinfo",
        "in die .netrc: machine api.example.de login nils password Schnee_Eule_4",
        ("Schnee_Eule_4",),
    ),
    (
        "userinfo",
        "ftp://kasia:Malina2024@ftp.example.pl/upload – tam wrzucaj zdjęcia",
        ("Malina2024",),
    ),
    (
        "userinfo",
        "connection string: mongodb+srv://admin:Zq4pX8vR2m@cluster0.ab12c.mongodb.net/test?retryWrites=true",
        ("Zq4pX8vR2m",),
    ),
    ("userinfo", "redis://:S3cr3tRedis_99@cache.local:6379/0", ("S3cr3tRedis_99",)),
    ("userinfo", "la cola: amqp://colas:Conejo77@rabbit.interno:5672/vhost", ("Conejo77",)),
    (
        "userinfo",
        "git remote set-url origin https://deploy:Xk29fLmQp7@git.example.org/team/site.git",
        ("Xk29fLmQp7",),
    ),
    ("userinfo", "nas'en: ola:Sno2Fjell@nas.local, samba share /foto", ("Sno2Fjell",)),
    (
        "userinfo",
        "smtp://noreply%40example.fr:Mistral%2355@smtp.example.fr:587 pour l'envoi des factures",
        ("Mistral%2355",),
    ),
    ("userinfo", "sftp://backup:Ww8uYt3kRx@storage.example.dk/nightly", ("Ww8uYt3kRx",)),
    (
        "userinfo",
        "router: http://admin:Fiesole1234@192.168.0.1 (cambiata la password di default)",
        ("Fiesole1234",),
    ),
    (
        "userinfo",
        "*:*:*:postgres:Aurora_Borealis_5 <- linha do pgpass do servidor",
        ("Aurora_Borealis_5",),
    ),
    (
        "userinfo",
        "mssql+pyodbc://sa:Kolibri!2026@sqlsrv01/inventory?driver=ODBC+Driver+18+for+SQL+Server",
        ("Kolibri!2026",),
    ),
    (
        "userinfo",
        "proxy instellen: http://jan:Stroopwafel8@proxy.corp.example.nl:3128",
        ("Stroopwafel8",),
    ),
    (
        "userinfo",
        "do ~/.netrc: machine smtp.gmail.com login kowalski.piotr@gmail.com password hjkt vwqp rmzd xsuy",
        ("hjkt vwqp rmzd xsuy",),
    ),
    ("userinfo", "ssh root:Talvi#Yö88@10.20.0.7 jos vpn ei toimi", ("Talvi#Yö88",)),
    (
        "userinfo",
        "jdbc:postgresql://pg01:5432/crm?user=crm_app&password=Ciabatta!73",
        ("Ciabatta!73",),
    ),
    # ------------------------------------------------------------------ auth_header
    (
        "auth_header",
        "curl -H 'Authorization: Bearer eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAidXNlcl84ODEyIiwgIm5hbWUiOiAiTGVuYSBIb2xtIiwgImlhdCI6IDE3OTgwOTg2NTV9.zIcE-S029cRq3j9y2k4s0vDQeDPVL3K2TpTA6cD87vQ' https://api.example.com/v1/me",
        (
            "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAidXNlcl84ODEyIiwgIm5hbWUiOiAiTGVuYSBIb2xtIiwgImlhdCI6IDE3OTgwOTg2NTV9.zIcE-S029cRq3j9y2k4s0vDQeDPVL3K2TpTA6cD87vQ",
        ),
    ),
    (
        "auth_header",
        "nagłówek do API faktur: Authorization: Basic bWFydGE6S3dpYXRlayEyMDI1",
        ("bWFydGE6S3dpYXRlayEyMDI1",),
    ),
    (
        "auth_header",
        "för webhooken behöver du Authorization: Basic ZGVwbG95OlZpbnRlcmJhZF82MQ==",
        ("ZGVwbG95OlZpbnRlcmJhZF82MQ==",),
    ),
    (
        "auth_header",
        '-H "Authorization: token ghp_2wxilBCx24XYM0shZFdM4HEiu8TWQXCZEOwx"',
        ("ghp_2wxilBCx24XYM0shZFdM4HEiu8TWQXCZEOwx",),
    ),
    (
        "auth_header",
        "X-API-Key: ed829af48d9d59ce6ca6b0b9658d7dbc (das ist der vom Wetterdienst)",
        ("ed829af48d9d59ce6ca6b0b9658d7dbc",),
    ),
    (
        "auth_header",
        'curl https://api.anthropic.com/v1/messages -H "x-api-key: sk-ant-api03-tdJAPt4mRLUA9l3MjOvIXNdQVcfTm-o7uGU_mbkEYtG9WyNBiCGKCux5BR-yhM8gullMQ3o3ZOCma7uMUUHKo49WihBGzAA" -H "anthropic-version: 2023-06-01"',
        (
            "sk-ant-api03-tdJAPt4mRLUA9l3MjOvIXNdQVcfTm-o7uGU_mbkEYtG9WyNBiCGKCux5BR-yhM8gullMQ3o3ZOCma7uMUUHKo49WihBGzAA",
        ),
    ),
    (
        "auth_header",
        "PRIVATE-TOKEN: glpat-0U5nbSbyUF2OzrjVdLc7 – es el header para la API de gitlab",
        ("glpat-0U5nbSbyUF2OzrjVdLc7",),
    ),
    (
        "auth_header",
        "en-tête pour l'API Azure : Ocp-Apim-Subscription-Key: 036095e68de96039211d9b963cc58ea4",
        ("036095e68de96039211d9b963cc58ea4",),
    ),
    (
        "auth_header",
        "Authorization: SSWS 002kWzw4z9wQXnXfERl7F7AUf2Ltv9mV-rXKbZ0cU4 per chiamare le API di Okta",
        ("002kWzw4z9wQXnXfERl7F7AUf2Ltv9mV-rXKbZ0cU4",),
    ),
    (
        "auth_header",
        "curl -u api:Kx7pQ2mW9zLr https://api.example.pt/v2/faturas",
        ("Kx7pQ2mW9zLr",),
    ),
    (
        "auth_header",
        'headers = {"Authorization": "Bearer pnCQCHbMVqeXyhVbsFW85ZTCBY7WuGpMSI733g6szXneL7rD"}',
        ("pnCQCHbMVqeXyhVbsFW85ZTCBY7WuGpMSI733g6szXneL7rD",),
    ),
    (
        "auth_header",
        "Cookie: sessionid=bw8u4ypIjXebblnovNqW8ePaBhQBfS2UxFBJ4yXJ5PquTwZhrHpe7coruNgr4tNN; theme=dark",
        ("bw8u4ypIjXebblnovNqW8ePaBhQBfS2UxFBJ4yXJ5PquTwZhrHpe7coruNgr4tNN",),
    ),
    (
        "auth_header",
        "fetch(url, { headers: { 'X-Auth-Token': 'R0g2YF8TRxi0bsGVfkhERIpUsYxg' } })",
        ("R0g2YF8TRxi0bsGVfkhERIpUsYxg",),
    ),
    (
        "auth_header",
        "Authorization: Basic anBlZXRlcnM6RnJpZXRrb3QjODg= werkt voor de staging api",
        ("anBlZXRlcnM6RnJpZXRrb3QjODg=",),
    ),
    (
        "auth_header",
        "token do panelu, ważny 24h: Authorization: Bearer eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAiNDQ3MSIsICJuYW1lIjogIkpha3ViIFdyXHUwMGYzYmVsIiwgImlhdCI6IDE3OTc2Nzk5NDJ9.i86JVSZLUm8smBejcqstPgddOGy_qP2mo0L8dMW5z0k",
        (
            "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAiNDQ3MSIsICJuYW1lIjogIkpha3ViIFdyXHUwMGYzYmVsIiwgImlhdCI6IDE3OTc2Nzk5NDJ9.i86JVSZLUm8smBejcqstPgddOGy_qP2mo0L8dMW5z0k",
        ),
    ),
    # ------------------------------------------------------------------ vendor_token
    (
        "vendor_token",
        "aws keys for the side project: AKIAO22XRV8C29YSHHEV / naRKInANq1eSsjJ+m5vb4GBXlWw9iYONymwpea8H",
        ("AKIAO22XRV8C29YSHHEV", "naRKInANq1eSsjJ+m5vb4GBXlWw9iYONymwpea8H"),
    ),
    (
        "vendor_token",
        "åtkomstnyckel AKIARAKH5YH5Z1Z2V9W8 och hemlig nyckel ggVK3tK/YbJ/T9urPkKIM2u4vl7jRmXzqnL73Wfb till S3-bucketen",
        ("AKIARAKH5YH5Z1Z2V9W8", "ggVK3tK/YbJ/T9urPkKIM2u4vl7jRmXzqnL73Wfb"),
    ),
    (
        "vendor_token",
        "temporäre Credentials aus dem SSO: ASIAMWJK15XRD04QEVDR dqilw/NyK+hPA6FXBeIWG8XL2BscbFu9ZYi49SbI",
        ("ASIAMWJK15XRD04QEVDR", "dqilw/NyK+hPA6FXBeIWG8XL2BscbFu9ZYi49SbI"),
    ),
    (
        "vendor_token",
        "github token ghp_mJAF1CXISADWcGNkO7rsVT7zvwX1uklYeZuK expires in 30 days",
        ("ghp_mJAF1CXISADWcGNkO7rsVT7zvwX1uklYeZuK",),
    ),
    (
        "vendor_token",
        "mi token de github (fine-grained): 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",
        (
            "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",
        ),
    ),
    (
        "vendor_token",
        "token gitlab pour la CI : glpat-BCtQpy8IWGx-jjSKEuyt",
        ("glpat-BCtQpy8IWGx-jjSKEuyt",),
    ),
    (
        "vendor_token",
        "il bot di slack usa xoxb-069946705611-6835172566517-zecW8iLNSJNrpyCVxlGeL844",
        ("xoxb-069946705611-6835172566517-zecW8iLNSJNrpyCVxlGeL844",),
    ),
    (
        "vendor_token",
        "chave da stripe em produção: 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",
        (
            "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",
        ),
    ),
    (
        "vendor_token",
        "OpenAI key voor het hobbyproject: 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",
        (
            "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",
        ),
    ),
    (
        "vendor_token",
        "klucz do Google Maps AIzaUqsAKz5Eq9RBC-7dByK_gj3DjktpeMFaidD",
        ("AIzaUqsAKz5Eq9RBC-7dByK_gj3DjktpeMFaidD",),
    ),
    (
        "vendor_token",
        "twilio: account ACa67a8ac2c593a3567d05f41d0144a0e1, auth token 6c8beb695793c52856f0ef8d8fa9dba2",
        ("6c8beb695793c52856f0ef8d8fa9dba2",),
    ),
    (
        "vendor_token",
        "SendGrid-nyckeln för nyhetsbrevet: 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",
        ("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",),
    ),
    (
        "vendor_token",
        "npm publish token npm_h2Qzvfbo8KGe3RpfGUYROet0sbWmT1XQobRM, läuft nie ab",
        ("npm_h2Qzvfbo8KGe3RpfGUYROet0sbWmT1XQobRM",),
    ),
    (
        "vendor_token",
        "token de pypi para subir el paquete: pypi-AgEIcHlwaS5vcmc1ieKirbrpYpVgC9hev0qK4fSiSZl68LJ88LGsrgFG_fn2HysFhCkSj9gwqutDUtAaRepAcMFu9sWBhepXpzh8GsHFdoAooi091lPlM6O9OVsr60yRUGrSOuX20OEygZWo7",
        (
            "pypi-AgEIcHlwaS5vcmc1ieKirbrpYpVgC9hev0qK4fSiSZl68LJ88LGsrgFG_fn2HysFhCkSj9gwqutDUtAaRepAcMFu9sWBhepXpzh8GsHFdoAooi091lPlM6O9OVsr60yRUGrSOuX20OEygZWo7",
        ),
    ),
    (
        "vendor_token",
        "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 c'est mon token hugging face (read)",
        ("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",),
    ),
    (
        "vendor_token",
        "API token di Okta: 00YZAKKeWyVFBxXyuSp_1f4R-rF17zmuAzoP_5wNn-",
        ("00YZAKKeWyVFBxXyuSp_1f4R-rF17zmuAzoP_5wNn-",),
    ),
    (
        "vendor_token",
        "token do bot do telegram 8983737438:AAbasOekmv1BayiaKEc07kvldhaBE_DcQ69",
        ("8983737438:AAbasOekmv1BayiaKEc07kvldhaBE_DcQ69",),
    ),
    (
        "vendor_token",
        "Shopify admin token voor de webshop 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",
        ("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",),
    ),
    (
        "vendor_token",
        "token DigitalOcean: dop_v1_65c94d2daa2a8431d33b17fa8083c9ff7d3f5e41f117f08f51c47e4b59010d58",
        ("dop_v1_65c94d2daa2a8431d33b17fa8083c9ff7d3f5e41f117f08f51c47e4b59010d58",),
    ),
    (
        "vendor_token",
        "discord-boten bruker MTzEWFTduJP1KiFOUEA5gFxR.ReDALY.pfoaTlnIDPHQdybKQ7Gql2dW28Sfs4rD0HraGF",
        ("MTzEWFTduJP1KiFOUEA5gFxR.ReDALY.pfoaTlnIDPHQdybKQ7Gql2dW28Sfs4rD0HraGF",),
    ),
    (
        "vendor_token",
        "mailgun nøgle key-3606a0204e42ecbfa237a0172fa0f7db til kontaktformularen",
        ("key-3606a0204e42ecbfa237a0172fa0f7db",),
    ),
    (
        "vendor_token",
        "Grafanan service account token: glsa_6gp8nL6TrzpAHLcv4AEIC3TF3teqOwfc_1820846a",
        ("glsa_6gp8nL6TrzpAHLcv4AEIC3TF3teqOwfc_1820846a",),
    ),
    (
        "vendor_token",
        "slack webhook for alerts https://hooks.slack.com/services/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",
        ("X8R1yeippOWXWgBR6wpRpJVz",),
    ),
    (
        "vendor_token",
        "Stripe Webhook-Signatur: whsec_YctVMRxHyviFImsskqS6Ye1zpcwKNuzx",
        ("whsec_YctVMRxHyviFImsskqS6Ye1zpcwKNuzx",),
    ),
    (
        "vendor_token",
        "api key de linear lin_api_w3bIe1nZH9TDeGrlepbxfHJsFtcNQKAkfGkH9tfU para el script de tickets",
        ("lin_api_w3bIe1nZH9TDeGrlepbxfHJsFtcNQKAkfGkH9tfU",),
    ),
    (
        "vendor_token",
        "jeton d'intégration Notion : ntn_dCl7N085bu8wN1nGYF9ktNJsIafLq5VwuJvxp4QoDYsO23",
        ("ntn_dCl7N085bu8wN1nGYF9ktNJsIafLq5VwuJvxp4QoDYsO23",),
    ),
    (
        "vendor_token",
        "gho_7LOyUvjO9Cx7rBYXKpTLxSJ8DN3PUajkbpTV (token oauth di github, non scade)",
        ("gho_7LOyUvjO9Cx7rBYXKpTLxSJ8DN3PUajkbpTV",),
    ),
    (
        "vendor_token",
        "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAic3ZjLWJpbGxpbmciLCAibmFtZSI6ICIiLCAiaWF0IjogMTc5NjYzNDIxOX0.iuPRNbp1nMouO7hQTMdqoLmEHHAXONrDn4qKk9okwKy <- service token for billing, don't paste it anywhere",
        (
            "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAic3ZjLWJpbGxpbmciLCAibmFtZSI6ICIiLCAiaWF0IjogMTc5NjYzNDIxOX0.iuPRNbp1nMouO7hQTMdqoLmEHHAXONrDn4qKk9okwKy",
        ),
    ),
    (
        "vendor_token",
        "restricted key för Stripe-rapporterna: 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",
        (
            "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",
        ),
    ),
    (
        "vendor_token",
        "chave da API Twilio SKc2e26c2deb2b6b8a65b8915a4287f44e com o segredo XQoV1AqpzrFw4jvyrh2R9GGE1Hl84YxK",
        ("XQoV1AqpzrFw4jvyrh2R9GGE1Hl84YxK",),
    ),
    (
        "vendor_token",
        "Azure opslag: DefaultEndpointsProtocol=https;AccountName=fotoarchief;AccountKey=F/+0Ys1W5u4kRVfnk7gUbUEAl5B7HWpYy3Ir9KlkHLWuaVyISYgs/zEQPly3OYbFp+UPkiMgxki5kR+90XlNBQ==;EndpointSuffix=core.windows.net",
        (
            "F/+0Ys1W5u4kRVfnk7gUbUEAl5B7HWpYy3Ir9KlkHLWuaVyISYgs/zEQPly3OYbFp+UPkiMgxki5kR+90XlNBQ==",
        ),
    ),
    (
        "vendor_token",
        "xoxp-234553185850-817826577541-0819689981497-247c45576e85d68272726b12d922e42b mój user token do slacka",
        ("xoxp-234553185850-817826577541-0819689981497-247c45576e85d68272726b12d922e42b",),
    ),
    (
        "vendor_token",
        "doppler service token dp.pt.rGssja7gewbdt5p8hRf6SFIRZSzs3DaSdPRmdJIp6Lt for the worker",
        ("dp.pt.rGssja7gewbdt5p8hRf6SFIRZSzs3DaSdPRmdJIp6Lt",),
    ),
    (
        "vendor_token",
        "Google API -avain: AIza7oTN3E26ojSsCecIuWzVivMNtmjSQB4TkYu",
        ("AIza7oTN3E26ojSsCecIuWzVivMNtmjSQB4TkYu",),
    ),
    # ------------------------------------------------------------------ private_key
    (
        "private_key",
        "here's the deploy key for the vps, paste it into ~/.ssh/id_rsa:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAxF/B3N4Jon4fF52z6+Olexr4Mlowswk5Ld37zUOM/P14XxVj\nq4h5yvI77J9/IG1EGWTI6Bal1jM724dcy16z3EZvWqNqLr8Ynv8I2+Q/WeaOzlI0\nDa9BlK9UL1J5mMmfCLR1ggaG0m13QLYv/EMWHS1Ty2Gw7D4fMsSWp9UtfqJasUDC\n9aF1Vx/KA60atWiwyLnws4dIvcgtaAZjkIkxua+Xr4npcbOLIc3I4S5eOE+FBaOE\n...",
        (
            "q4h5yvI77J9/IG1EGWTI6Bal1jM724dcy16z3EZvWqNqLr8Ynv8I2+Q/WeaOzlI0",
            "9aF1Vx/KA60atWiwyLnws4dIvcgtaAZjkIkxua+Xr4npcbOLIc3I4S5eOE+FBaOE",
        ),
    ),
    (
        "private_key",
        "min privata ssh-nyckel (ed25519) ifall laptopen dör:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDr9MiqB0uSE9e6fZA1Bv4Dse+kXAwgIgSLKuv7iLBXFZanUb4HQWRy7pu\nV8HiJhOiXMHOL+jkbZ2IqZYIGyKubm32yQ38w9SI7uF0kVV6ozXyVjk8zdRFhJ+UhCnFx\nsmnRs8e7gnXW4OIiQSVUw2unzGC230OstyLbMS9v7sUF067LCDnW7dcTNGMMFPk2e9MEK\nPvaa45lUtMX=\n-----END OPENSSH PRIVATE KEY-----",
        (
            "V8HiJhOiXMHOL+jkbZ2IqZYIGyKubm32yQ38w9SI7uF0kVV6ozXyVjk8zdRFhJ+UhCnFx",
            "smnRs8e7gnXW4OIiQSVUw2unzGC230OstyLbMS9v7sUF067LCDnW7dcTNGMMFPk2e9MEK",
        ),
    ),
    (
        "private_key",
        "Der Schlüssel für den Signatur-Dienst, bitte sicher aufbewahren:\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBnYjkhhH8f6jltysalIkDSjZKS6+g4nQkRt3KSpRr9+oAoGCCqGSM49\nAwEHoUQDQgAE94APCzg0D0WXiBNePF5Pw0PrVjIVn0oCXAe9OiUlObHTfs2RT6YY\nV1/YwI/ZAetw==\n-----END EC PRIVATE KEY-----",
        (
            "MHcCAQEEIBnYjkhhH8f6jltysalIkDSjZKS6+g4nQkRt3KSpRr9+oAoGCCqGSM49",
            "AwEHoUQDQgAE94APCzg0D0WXiBNePF5Pw0PrVjIVn0oCXAe9OiUlObHTfs2RT6YY",
        ),
    ),
    (
        "private_key",
        'credenciales de la cuenta de servicio: {"type": "service_account", "project_id": "tienda-prod-4411", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDuht+52V3dt5Ii\\nPBnSgwxNbRaM9heQQJ901NWXcH8wXQZgZwkLA7pRC7j+4xfML/C3vrddRwizr2gl\\nDNTvEUHYvzZa0BnBrlrxbK+MEpBB3EAQvNgulgAKa+aFiIIcnwwMH9KcE+5eA45Y\\n-----END PRIVATE KEY-----\\n", "client_email": "tienda@tienda-prod-4411.iam.gserviceaccount.com"}',
        (
            "PBnSgwxNbRaM9heQQJ901NWXcH8wXQZgZwkLA7pRC7j+4xfML/C3vrddRwizr2gl",
            "DNTvEUHYvzZa0BnBrlrxbK+MEpBB3EAQvNgulgAKa+aFiIIcnwwMH9KcE+5eA45Y",
        ),
    ),
    (
        "private_key",
        "clé privée du certificat TLS (le fichier .key) :\n-----BEGIN PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCzLkr7MNUOnhxb\n8CYMRbXuxAomMhKzA3UExLBDWnGBvWVsakyHPOyfAIoXLpiyWTC+dY1x1XMAeiV1\nJ7ApFwOaP+WgO364sIz9ae9c2ivRr3zZmq3P4U0EBH76jkEJt5McPTFQoypf7JIU\n[...]\n-----END PRIVATE KEY-----",
        (
            "8CYMRbXuxAomMhKzA3UExLBDWnGBvWVsakyHPOyfAIoXLpiyWTC+dY1x1XMAeiV1",
            "J7ApFwOaP+WgO364sIz9ae9c2ivRr3zZmq3P4U0EBH76jkEJt5McPTFQoypf7JIU",
        ),
    ),
    (
        "private_key",
        "la mia chiave PGP privata, esportata con --armor:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQVYBGdF3kEBDADFBdll8Gw55fvyk2eDJv5UfO/KURlRYZ49etv8UpC8U710WSdb\nr5ck/dNYRlwNlDheCtfgAxkp8Ul9Es3twjpzjgEOlK9DMtTHkyeirFPRP0LNB9Cp\nNzAZ3HdiJganhUPfj5EhfA7/iTBgFgcNf5tR8OcBesoXdfFNt86JPZ3YPU6cF6IJ\n=Xk3q\n-----END PGP PRIVATE KEY BLOCK-----",
        (
            "r5ck/dNYRlwNlDheCtfgAxkp8Ul9Es3twjpzjgEOlK9DMtTHkyeirFPRP0LNB9Cp",
            "NzAZ3HdiJganhUPfj5EhfA7/iTBgFgcNf5tR8OcBesoXdfFNt86JPZ3YPU6cF6IJ",
        ),
    ),
    (
        "private_key",
        "a minha chave do age para desencriptar os backups: AGE-SECRET-KEY-1ECVTW0G9SC9LV6DHCDFAT49975EZ3QMDH9AVARKGD2UTTZ8P2769M9FNQC",
        ("AGE-SECRET-KEY-1ECVTW0G9SC9LV6DHCDFAT49975EZ3QMDH9AVARKGD2UTTZ8P2769M9FNQC",),
    ),
    (
        "private_key",
        "wireguard config van de thuis-vpn:\n[Interface]\nPrivateKey = qEXPZhxs4oPOQLXzHENN0T8xPEmXWVrRSmqj/3eDPLk=\nAddress = 10.8.0.2/24\n\n[Peer]\nPublicKey = XyWTBRisbsHMrMzF1L0vXBO+zON1n3OfNqBvf8SX4Ck=\nEndpoint = vpn.example.nl:51820",
        ("qEXPZhxs4oPOQLXzHENN0T8xPEmXWVrRSmqj/3eDPLk=",),
    ),
    (
        "private_key",
        "klucz do serwera, hasło do klucza: Smok_Wawelski_1\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG9w0BBQwwDgQIGgHMaYPv1SC6jMIdk\noPOqp4GnluDIa7tc75RuzZ5MAohcWNdbFj4JDoLmyia5ILw6EWmNazHg/8KfEgeq\nBr4nEqTpIdb64xRIOMXTbVn78S6+zTtr54Bx71PnK8oGlDpP+eY+1RwY2j61YzMk\n-----END ENCRYPTED PRIVATE KEY-----",
        (
            "Smok_Wawelski_1",
            "oPOqp4GnluDIa7tc75RuzZ5MAohcWNdbFj4JDoLmyia5ILw6EWmNazHg/8KfEgeq",
            "Br4nEqTpIdb64xRIOMXTbVn78S6+zTtr54Bx71PnK8oGlDpP+eY+1RwY2j61YzMk",
        ),
    ),
    (
        "private_key",
        "PuTTY-nøkkelen min:\nPuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ed25519-key-20261130\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIHuBoMRTTMz7UFWWuuHm86SfgSDAUbMeXRtojD2E\nnwK+\nPrivate-Lines: 1\nAAAAIF5+LXDybSZllf7CSNo13qTUITT1IQaKL/4wo7OCFA62\nPrivate-MAC: 92b8ab5a3396abb4f086173046c8cd4e",
        ("AAAAIF5+LXDybSZllf7CSNo13qTUITT1IQaKL/4wo7OCFA62",),
    ),
    (
        "private_key",
        "min ssh nøgle, kopieret fra slack så linjeskiftene er væk: -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACCzwHuQdRj798jQeBZUKfsM6umI4QbBwsM94EGjZU0G68cdfzYh6liGnkrOnAuN -----END OPENSSH PRIVATE KEY-----",
        ("CCzwHuQdRj798jQeBZUKfsM6umI4QbBwsM94EGjZU0G68cdfzYh6liGnkrOnAuN",),
    ),
    # ------------------------------------------------------------------ env_assignment
    (
        "env_assignment",
        ".env for the shop:\nDB_HOST=localhost\nDB_PASSWORD=Rr7!kqLs0p\nDEBUG=false",
        ("Rr7!kqLs0p",),
    ),
    (
        "env_assignment",
        "lägg detta i .zshrc: export OPENAI_API_KEY=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",
        (
            "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",
        ),
    ),
    (
        "env_assignment",
        "so starte ich die DB lokal: docker run -d -e POSTGRES_PASSWORD=Zwetschgen_Kuchen3 -p 5432:5432 postgres:16",
        ("Zwetschgen_Kuchen3",),
    ),
    (
        "env_assignment",
        "el application.yml:\nspring:\n  datasource:\n    username: tienda\n    password: 'Mandarina#19'",
        ("Mandarina#19",),
    ),
    (
        "env_assignment",
        'config du client OIDC : {"client_id": "app-web", "client_secret": "c1tSHuX9RHl3ujIaJwa53Y4GHFv9Q5VC"}',
        ("c1tSHuX9RHl3ujIaJwa53Y4GHFv9Q5VC",),
    ),
    (
        "env_assignment",
        'nel config.toml ho messo:\n[api]\nbase_url = "https://api.example.it"\ntoken = "7WyWZBDlo2kL5Mp36Go8tPAqpUqYUB6K6Rxa"',
        ("7WyWZBDlo2kL5Mp36Go8tPAqpUqYUB6K6Rxa",),
    ),
    (
        "env_assignment",
        "settings.py de produção: SECRET_KEY = 'django-insecure-ae#Y5jvDR3q9lV#uD+!Am3zwr8FwGv^#(jEE&D1Y&_jEGP=Q@y'",
        ("django-insecure-ae#Y5jvDR3q9lV#uD+!Am3zwr8FwGv^#(jEE&D1Y&_jEGP=Q@y",),
    ),
    (
        "env_assignment",
        "k8s-hemligheten:\napiVersion: v1\nkind: Secret\nmetadata:\n  name: smtp\ndata:\n  password: SGVtbGlndCFMw7ZzZW5fNzc=",
        ("SGVtbGlndCFMw7ZzZW5fNzc=",),
    ),
    (
        "env_assignment",
        "na windowsie: set DB_PASS=Bigos#Mysliwski7 && python manage.py runserver",
        ("Bigos#Mysliwski7",),
    ),
    (
        "env_assignment",
        "i PowerShell: $env:API_KEY = 'EchaN54GjTrpne30RSzxPPeKpNKAAKF6NxcB01cH'",
        ("EchaN54GjTrpne30RSzxPPeKpNKAAKF6NxcB01cH",),
    ),
    (
        "env_assignment",
        "application.properties:\nspring.datasource.url=jdbc:mysql://db:3306/lager\nspring.datasource.password=Smørrebrød_22",
        ("Smørrebrød_22",),
    ),
    (
        "env_assignment",
        "wp-config.php: define( 'DB_PASSWORD', 'Revontuli_2024!' );",
        ("Revontuli_2024!",),
    ),
    (
        "env_assignment",
        "~/.npmrc\n//registry.npmjs.org/:_authToken=npm_844vhBkAC4GVc9tVpiEBP5lIcxC4jHiHxx0y",
        ("npm_844vhBkAC4GVc9tVpiEBP5lIcxC4jHiHxx0y",),
    ),
    (
        "env_assignment",
        "JWT_SECRET=W6GAEyLqRScvqH68I1b8sR  # für die Auth-Middleware",
        ("W6GAEyLqRScvqH68I1b8sR",),
    ),
    (
        "env_assignment",
        "en el docker-compose:\n    environment:\n      MYSQL_ROOT_PASSWORD: Sobrasada_2020\n      MYSQL_DATABASE: tienda",
        ("Sobrasada_2020",),
    ),
    ("env_assignment", 'terraform.tfvars : db_password = "Calanques!83"', ("Calanques!83",)),
    (
        "env_assignment",
        "APP_KEY=base64:MQ8T3x+hYRmVXomCBZdkujpRsMdInIVl5xwNtXZIKMI= nel .env di laravel",
        ("base64:MQ8T3x+hYRmVXomCBZdkujpRsMdInIVl5xwNtXZIKMI=",),
    ),
    (
        "env_assignment",
        "o meu ~/.pypirc:\n[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcdHKpoTUKOY5f0Y3q0jYde2uH0gnQ666KdwoWEElFuUS33UDTlU8qznHuuAuqPegICYxOwEXHzrQiIqstfwcu-YIM3t51jzKMOAc7hN2Ey5XFqWUttTRqSA2fgLnlipOE_S",
        (
            "pypi-AgEIcHlwaS5vcmcdHKpoTUKOY5f0Y3q0jYde2uH0gnQ666KdwoWEElFuUS33UDTlU8qznHuuAuqPegICYxOwEXHzrQiIqstfwcu-YIM3t51jzKMOAc7hN2Ey5XFqWUttTRqSA2fgLnlipOE_S",
        ),
    ),
    (
        "env_assignment",
        "in fish: set -x STRIPE_SECRET_KEY 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",
        (
            "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",
        ),
    ),
    (
        "env_assignment",
        "sekret w k8s (base64): data:\n  db-password: WnVwYV9PZ8Ozcmtvd2E5",
        ("WnVwYV9PZ8Ozcmtvd2E5",),
    ),
    (
        "env_assignment",
        "my ~/.my.cnf\n[client]\nuser=backup\npassword=Gooseberry-Fool-12",
        ("Gooseberry-Fool-12",),
    ),
    (
        "env_assignment",
        "HF_TOKEN=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 lagt til i .bashrc på GPU-serveren",
        ("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",),
    ),
    # ------------------------------------------------------------------ wifi
    ("wifi", "wifi password: BlueHeron_2024 (network is HeronHouse-5G)", ("BlueHeron_2024",)),
    ("wifi", "wifi-lösenordet hemma är Kanelbulle88", ("Kanelbulle88",)),
    (
        "wifi",
        "WLAN-Schlüssel von der Fritzbox: 4820 3917 5628 4019 3746",
        ("4820 3917 5628 4019 3746",),
    ),
    (
        "wifi",
        "la clave del wifi es tortilla_de_patata, la red se llama MOVISTAR_3F2A",
        ("tortilla_de_patata",),
    ),
    ("wifi", "code wifi de la maison de vacances : Chouquette2019", ("Chouquette2019",)),
    ("wifi", "la password del wifi è cornetto-al-miele 🥐", ("cornetto-al-miele",)),
    ("wifi", "senha do wi-fi da casa da praia: pastelDeNata77", ("pastelDeNata77",)),
    ("wifi", "wifi wachtwoord: Hagelslag!42", ("Hagelslag!42",)),
    ("wifi", "hasło do wifi u babci: Zubrowka_2020", ("Zubrowka_2020",)),
    ("wifi", "wifi-passord på hytta: Brunost1905", ("Brunost1905",)),
    ("wifi", "wifi koden i sommerhuset er Hygge-Lys-33", ("Hygge-Lys-33",)),
    ("wifi", "wlan-salasana mökillä: Mustikka.Metsä5", ("Mustikka.Metsä5",)),
    (
        "wifi",
        "WIFI:T:WPA;S:Gaeste_Netz;P:Qz8!rT3wLp;; (der QR vom Gästezimmer als Text)",
        ("Qz8!rT3wLp",),
    ),
    (
        "wifi",
        'wpa_supplicant på kontorets pi:\nnetwork={\n    ssid="Kontor"\n    psk="Lingonsylt#2026"\n}',
        ("Lingonsylt#2026",),
    ),
    (
        "wifi",
        "the network key for the office router is 7fK2m9QxR4, SSID ACME-Guest",
        ("7fK2m9QxR4",),
    ),
    ("wifi", "Clave WPA2 del router del piso: Xq7-Lp3-Mz9-Tw2", ("Xq7-Lp3-Mz9-Tw2",)),
    ("wifi", "chiave di rete WPA del modem: Fh83Kd92Ls01", ("Fh83Kd92Ls01",)),
    ("wifi", "Rede: Vodafone-C8D1 | Palavra-passe: m4r3j4d4!", ("m4r3j4d4!",)),
    ("wifi", "netwerksleutel van de wifi op kantoor: ZonOpZee_1999", ("ZonOpZee_1999",)),
    # ------------------------------------------------------------------ multi_occurrence
    (
        "multi_occurrence",
        "github recovery codes: 4ecd5-b868e c5ff5-27e03 af2a0-80ad8 541c1-1a795",
        ("4ecd5-b868e", "c5ff5-27e03", "af2a0-80ad8", "541c1-1a795"),
    ),
    ("multi_occurrence", "PIN 3381 och PUK 49203815 till det nya simkortet", ("3381", "49203815")),
    ("multi_occurrence", "neue SIM von der Telekom: PIN 2290, PUK 55817430", ("2290", "55817430")),
    (
        "multi_occurrence",
        "usuario del banco mgarcia88, contraseña Olivo!Sol23 y la clave de firma 4417",
        ("Olivo!Sol23", "4417"),
    ),
    (
        "multi_occurrence",
        "codes de secours Google : 1761 0529 / 5550 6493 / 8204 6683",
        ("1761 0529", "5550 6493", "8204 6683"),
    ),
    (
        "multi_occurrence",
        "password del wifi: Tramonto_77, password del router (admin): Ligure#2019",
        ("Tramonto_77", "Ligure#2019"),
    ),
    (
        "multi_occurrence",
        "senha da app do banco Amora2020! e o PIN do cartão 9183",
        ("Amora2020!", "9183"),
    ),
    (
        "multi_occurrence",
        "backupcodes voor Bitwarden: e1d76-3f588, b265b-23444, 21c5b-75a1a",
        ("e1d76-3f588", "b265b-23444", "21c5b-75a1a"),
    ),
    (
        "multi_occurrence",
        "stare hasło Kiwi!123 nowe hasło Mango#456 (gdybym zapomniał które)",
        ("Kiwi!123", "Mango#456"),
    ),
    (
        "multi_occurrence",
        "for the CI: github ghp_nG7DaRWjRVFj5opeU0KtFJQuXOLQGerUP6Ug and gitlab glpat-sWNcQKvWDLbdeVew2x1_",
        ("ghp_nG7DaRWjRVFj5opeU0KtFJQuXOLQGerUP6Ug", "glpat-sWNcQKvWDLbdeVew2x1_"),
    ),
    (
        "multi_occurrence",
        "bankkort PIN 5067, nettbank passord Nordlys_Ski8",
        ("5067", "Nordlys_Ski8"),
    ),
    (
        "multi_occurrence",
        "koden til hoveddøren er 8812 og alarmen slås fra med 4471",
        ("8812", "4471"),
    ),
    ("multi_occurrence", "salasana Kissa#Maito3 ja PIN 6604, älä hukkaa", ("Kissa#Maito3", "6604")),
    (
        "multi_occurrence",
        "mom's stuff: icloud pw Lavender.Cottage9, ipad passcode 280519, bank pin 0731",
        ("Lavender.Cottage9", "280519", "0731"),
    ),
    # ------------------------------------------------------------------ high_entropy
    ("high_entropy", "use EiWdkgn5sjg6pRYAHFCn for the staging box", ("EiWdkgn5sjg6pRYAHFCn",)),
    (
        "high_entropy",
        "den här behöver jag imorgon: fxt8NxcXt8Ih0vxDPKY4sgkE",
        ("fxt8NxcXt8Ih0vxDPKY4sgkE",),
    ),
    (
        "high_entropy",
        "für den Build-Server: TR6zpV7dmE6SdgQrVpWMJsMrYTLgkY",
        ("TR6zpV7dmE6SdgQrVpWMJsMrYTLgkY",),
    ),
    ("high_entropy", "guárdame esto porfa TF9qYPZQqeX6LmqHxj", ("TF9qYPZQqeX6LmqHxj",)),
    (
        "high_entropy",
        "à garder pour la prod : iZ4tTGSY5PpaKuUHByI3W9XSBQ",
        ("iZ4tTGSY5PpaKuUHByI3W9XSBQ",),
    ),
    (
        "high_entropy",
        "gvOLwG3bgx6mBVNlMLOP questo serve per il server di test",
        ("gvOLwG3bgx6mBVNlMLOP",),
    ),
    (
        "high_entropy",
        "para o servidor de homologação: ranoV3pChoxY2o1TNkdPtOlP",
        ("ranoV3pChoxY2o1TNkdPtOlP",),
    ),
    (
        "high_entropy",
        "wK2IRJ1w23QAglhTBTPIfqnTgHYtxP9c — die heb ik nodig voor de koppeling met de boekhouding",
        ("wK2IRJ1w23QAglhTBTPIfqnTgHYtxP9c",),
    ),
    (
        "high_entropy",
        "do integracji z kurierem: Mn56ObRpLlggKg303IlbfpkwFWCboJTVpu46",
        ("Mn56ObRpLlggKg303IlbfpkwFWCboJTVpu46",),
    ),
    (
        "high_entropy",
        "lim inn 8Gxf1WUOrFVC7p0Yul3D2PvpTTo3NOOUi52qVFul i konfigurasjonen senere",
        ("8Gxf1WUOrFVC7p0Yul3D2PvpTTo3NOOUi52qVFul",),
    ),
    (
        "high_entropy",
        "den nye til testmiljøet: KNL4cZy7BOl9j9zIn0S7nh",
        ("KNL4cZy7BOl9j9zIn0S7nh",),
    ),
    (
        "high_entropy",
        "tämä tarvitaan huomenna: OFdsci9vqTPfTboxwc583qYaQxY9W8",
        ("OFdsci9vqTPfTboxwc583qYaQxY9W8",),
    ),
    ("high_entropy", "stash this for later -> bC8E2BgHYezrlO1wjF", ("bC8E2BgHYezrlO1wjF",)),
]

SPLITS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    (
        "question_answer",
        ("What's the wifi password at the lake house?", "Otter-Dock-51 i think, capital O"),
        ("Otter-Dock-51",),
    ),
    ("question_answer", ("vad var koden till förrådet nu igen?", "2093 tror jag"), ("2093",)),
    (
        "question_answer",
        ("Wie lautet nochmal das Passwort für den Drucker-Admin?", "Toner!Stau9"),
        ("Toner!Stau9",),
    ),
    (
        "question_answer",
        ("¿cuál era la contraseña del router?", "creo que era Paella_Valencia7"),
        ("Paella_Valencia7",),
    ),
    (
        "question_answer",
        ("c'est quoi le code de la porte chez Léa ?", "B4729 je crois"),
        ("B4729",),
    ),
    (
        "question_answer",
        ("qual è il pin della carta di mamma?", "è 6290, ma non dirlo in giro"),
        ("6290",),
    ),
    (
        "question_answer",
        ("qual é a senha do wi-fi do escritório?", "Escritorio@Porto24"),
        ("Escritorio@Porto24",),
    ),
    (
        "question_answer",
        ("wat is de code van de kluis?", "eh even kijken", "71-44-09"),
        ("71-44-09",),
    ),
    (
        "question_answer",
        ("jakie jest hasło do routera?", "login admin, hasło Kielbasa_Pl99"),
        ("Kielbasa_Pl99",),
    ),
    ("question_answer", ("hva er PIN-koden til det nye kortet?", "8835"), ("8835",)),
    ("question_answer", ("hvad er koden til cykelskuret?", "det er 1649 tror jeg"), ("1649",)),
    ("question_answer", ("mikä on mökin wlan-salasana?", "Poro#Lumi44"), ("Poro#Lumi44",)),
    (
        "question_answer",
        (
            "hey do you still have the alarm code for the studio?",
            "which one, front or back?",
            "back door — it's 5-0-9-3",
        ),
        ("5-0-9-3",),
    ),
    (
        "question_answer",
        ("Tu peux me redonner ton RIB ?", "oui : FR31 9458 0730 2157 3681 9303 642"),
        ("FR31 9458 0730 2157 3681 9303 642",),
    ),
    (
        "question_answer",
        (
            "Hast du den TOTP-Schlüssel vom Admin-Konto noch?",
            "ja, hier: YKEI4IIAANNKKSUMNLMYTBX2KJQEVTAV",
        ),
        ("YKEI4IIAANNKKSUMNLMYTBX2KJQEVTAV",),
    ),
    (
        "question_answer",
        ("mi ridai la password del NAS?", "certo", "Nuraghe_Sardo5"),
        ("Nuraghe_Sardo5",),
    ),
    ("question_answer", ("Jaki był PIN do karty firmowej?", "0927"), ("0927",)),
    (
        "question_answer",
        ("What's the password for the shared google account?", "same as always: Marmalade&Toast3"),
        ("Marmalade&Toast3",),
    ),
    (
        "question_answer",
        ("vilket var lösenordet till elbolaget?", "Blåbär_Skog_8 med stort B"),
        ("Blåbär_Skog_8",),
    ),
    (
        "key_halves",
        (
            "first half of the openai key: sk-proj-a9_qdG_7uenlM3iX2Xh2MbCHlPg5jo9IneqsUPsbcyVAEzoqqfmQYlwwk8rE8_sbO7Btw9vKD4T3BlbkFJ",
            "and the rest: 4OL1XeRpwlJFvPnaP0l1kCbiVc_rc72g3ALVRx1nS8-yxnyB-uEHvH8VztTJuOcZotvbqNYr6v",
        ),
        (
            "sk-proj-a9_qdG_7uenlM3iX2Xh2MbCHlPg5jo9IneqsUPsbcyVAEzoqqfmQYlwwk8rE8_sbO7Btw9vKD4T3BlbkFJ",
            "4OL1XeRpwlJFvPnaP0l1kCbiVc_rc72g3ALVRx1nS8-yxnyB-uEHvH8VztTJuOcZotvbqNYr6v",
        ),
    ),
    (
        "key_halves",
        (
            "stripe-nyckeln del 1: sk_live_eKrrmZqGrSC8NJDWBegbV2v1jf3Wn7ZVPULvrHqLcGRQBP3p1res",
            "del 2: VnN1Qt3AZkJMSm62HkL0d4iHECflglebBhDTaIZnTdAqXo4",
        ),
        (
            "sk_live_eKrrmZqGrSC8NJDWBegbV2v1jf3Wn7ZVPULvrHqLcGRQBP3p1res",
            "VnN1Qt3AZkJMSm62HkL0d4iHECflglebBhDTaIZnTdAqXo4",
        ),
    ),
    (
        "key_halves",
        (
            "Token Teil 1 (Nachricht war zu lang): github_pat_S5hPNIl59vfB06WiWXeVPi_oYwT0Yt93nZIH1fh5",
            "Teil 2: XdGcAULxzHHiZbiSeXU5mrbCHLQ2I3SspdRJwUoTtR",
        ),
        (
            "github_pat_S5hPNIl59vfB06WiWXeVPi_oYwT0Yt93nZIH1fh5",
            "XdGcAULxzHHiZbiSeXU5mrbCHLQ2I3SspdRJwUoTtR",
        ),
    ),
    (
        "key_halves",
        (
            "las primeras 6 palabras de la semilla: globe sketch deposit soda sentence coin",
            "y las otras 6: pool frost gown basket limb lens",
        ),
        ("globe sketch deposit soda sentence coin", "pool frost gown basket limb lens"),
    ),
    (
        "key_halves",
        (
            "o token do hugging face é hf_sAFrzeCwoiVx",
            "auYDHctuadREnvnxiGiQlB (continuação, cortou)",
        ),
        ("hf_sAFrzeCwoiVx", "auYDHctuadREnvnxiGiQlB"),
    ),
    (
        "key_halves",
        (
            "slack bot token deel 1: xoxb-369113776357-5739139385713",
            "deel 2: -pHtJwth3IE7OVpQAqX4Zita0",
        ),
        ("xoxb-369113776357-5739139385713", "pHtJwth3IE7OVpQAqX4Zita0"),
    ),
    (
        "key_halves",
        (
            "fraza, część pierwsza: daring pledge grief critic lake another",
            "część druga: receive level cushion pepper lucky dad",
        ),
        ("daring pledge grief critic lake another", "receive level cushion pepper lucky dad"),
    ),
]

LOOKALIKES: list[tuple[str, str]] = [
    # ------------------------------------------------------------------ password_talk
    ("password_talk", "I changed my password yesterday so the old one won't work anymore"),
    (
        "password_talk",
        "our password manager at work is Bitwarden, at home we use the 1Password family plan",
    ),
    (
        "password_talk",
        "policy says passwords need at least 14 characters, one symbol and no reuse of the last 5",
    ),
    ("password_talk", "jag glömde mitt lösenord igen, fick återställa det via mejlen"),
    ("password_talk", "Das Passwort muss alle 90 Tage geändert werden, sagt die IT"),
    (
        "password_talk",
        "he olvidado la contraseña otra vez, menos mal que existe el botón de recuperar",
    ),
    (
        "password_talk",
        "il faut que je change mon mot de passe, il était dans une fuite de données apparemment",
    ),
    ("password_talk", "la password deve avere almeno 12 caratteri e almeno un numero"),
    ("password_talk", "esqueci a senha do email, vou pedir uma nova amanhã"),
    ("password_talk", "ik heb mijn wachtwoord gereset, het nieuwe staat in Bitwarden"),
    ("password_talk", "muszę zmienić hasło do banku, przypomnij mi w piątek"),
    ("password_talk", "passordet må ha minst 12 tegn og kan ikke inneholde navnet ditt"),
    ("password_talk", "jeg har skiftet adgangskode på alle konti efter hacket"),
    ("password_talk", "vaihdoin salasanan eilen, se on nyt salasanamanagerissa"),
    ("password_talk", "tip: a passphrase of five random words beats a short password with symbols"),
    # ------------------------------------------------------------------ pin_talk
    ("pin_talk", "pin this message so we don't lose the meeting link"),
    (
        "pin_talk",
        "the bank is mailing me a new PIN because I locked the card after three wrong tries",
    ),
    ("pin_talk", "PIN-koden spärrades efter tre felförsök, måste ringa banken imorgon"),
    ("pin_talk", "Ich muss die PIN in der Banking-App ändern, die alte war zu einfach"),
    (
        "pin_talk",
        "me he olvidado el PIN del móvil, tendré que buscar el PUK en la tarjeta de la SIM",
    ),
    ("pin_talk", "épingle ce message stp, c'est l'adresse de la soirée"),
    ("pin_talk", "il PIN nuovo arriva per posta entro cinque giorni lavorativi"),
    ("pin_talk", "o PIN tem quatro dígitos e pode ser alterado em qualquer multibanco"),
    ("pin_talk", "pinnen kan niet bij die kraam, alleen contant"),
    ("pin_talk", "zapomniałam PIN-u do karty, bank wyśle nowy listem"),
    ("pin_talk", "jeg fester innlegget øverst i kanalen så alle ser det"),
    ("pin_talk", "husk at skifte PIN-koden når du får det nye kort"),
    ("pin_talk", "PIN-koodi tulee erikseen postissa muutaman päivän päästä"),
    ("pin_talk", "she pinned three recipes on pinterest, the lasagne one looks good"),
    # ------------------------------------------------------------------ code_talk
    ("code_talk", "zip code for the new office is 94110"),
    ("code_talk", "postnumret är 114 55 Stockholm"),
    ("code_talk", "Postleitzahl 10115 Berlin-Mitte"),
    ("code_talk", "código postal 28013, Madrid"),
    ("code_talk", "code postal 75011, Paris"),
    ("code_talk", "CAP 20121 Milano, via Solferino"),
    ("code_talk", "código postal 1200-195 Lisboa"),
    ("code_talk", "postcode 1012 AB Amsterdam"),
    ("code_talk", "kod pocztowy 00-950 Warszawa"),
    ("code_talk", "the promo code SUMMER20 is printed on every flyer, anyone can use it"),
    ("code_talk", "Windows update keeps failing with error code 0x80070005"),
    ("code_talk", "kurskoden är TDA357, databaser, läsperiod 3"),
    ("code_talk", "Unser Flug ist LH2024 um 7:40 ab Frankfurt"),
    ("code_talk", "l'indicatif pour la Suède c'est le +46"),
    ("code_talk", "per la fattura serve solo il codice ATECO 62.01"),
    ("code_talk", "retningsnummeret til Bergen var 55 før i tiden"),
    ("code_talk", "błąd HTTP 503 od rana na stronie sklepu"),
    (
        "code_talk",
        "el código de descuento BLACKFRIDAY sale en la portada de la tienda, es para todo el mundo",
    ),
    ("code_talk", "foutcode E24 op de wasmachine, het filter zit verstopt"),
    ("code_talk", "postinumero on 00100 Helsinki"),
    ("code_talk", "QR-koden på menukortet virker ikke"),
    # ------------------------------------------------------------------ numbers
    ("numbers", "call me at +44 7700 900123 after 6"),
    ("numbers", "ring mig på 070-482 19 37 när du är framme"),
    ("numbers", "Bestellnummer 302-6618204-7735190, Lieferung am Dienstag"),
    ("numbers", "factura nº 2026/00418, vence el 15 de enero"),
    ("numbers", "numéro de commande 8841027, livraison prévue le 12/12"),
    ("numbers", "il numero di spedizione è 00340434161234567891"),
    ("numbers", "a versão 3.12.1 saiu ontem à noite"),
    ("numbers", "bestelnummer 5002817364 bij bol, nog niet binnen"),
    ("numbers", "numer przesyłki 6200154893722 (InPost)"),
    ("numbers", "møtet er 14.03.2027 kl 09:30 i rom 412"),
    ("numbers", "ordrenummer 77120836, ring hvis der er problemer"),
    ("numbers", "tilausnumero 3385-1172, toimitus viikolla 51"),
    ("numbers", "UPS tracking 1Z 9A4 R82 03 6618 7740"),
    ("numbers", "release v2.7.18 went out on 2026-11-30, build 48213"),
    ("numbers", "Kundennummer 1048 2276, falls die Hotline fragt"),
    ("numbers", "mi número es +34 612 48 93 07"),
    ("numbers", "ordernummer 5561-0093-2211-4478 från webbshoppen"),
    # ------------------------------------------------------------------ hashes_ids
    (
        "hashes_ids",
        "fixed in commit 223384c2792bf9de206c6313da471564f22e9df7, can you cherry-pick it",
    ),
    (
        "hashes_ids",
        "imagen nueva: ghcr.io/acme/api@sha256:3155e2fb84ac2da5c47a8fde1bec5db155b442bd7a0225e3330357a9db77d1bf",
    ),
    (
        "hashes_ids",
        "die Request-ID war 8a112c5d-f962-4854-93ca-c55d54250a36, bitte an den Support schicken",
    ),
    ("hashes_ids", "el md5 del iso es 17cdbfe526823ade59ff9c9d697c2a2b, coincide con la web"),
    ("hashes_ids", "l'UUID de la VM : 3f2c9a1e-7b4d-4e8a-9c0f-2d6b8e1a5f73"),
    (
        "hashes_ids",
        "sha256sum:\n10cda935b3932755b62b604bfaf3652cd53bf42d8cc918e9621fb91100894016  backup.tar.gz",
    ),
    ("hashes_ids", "ISBN 978-972-0-04913-1 do livro que te falei"),
    ("hashes_ids", "de build hash is 9c51dd3, draait nu op acceptatie"),
    ("hashes_ids", "identyfikator zgłoszenia: REQ-2026-118734"),
    ("hashes_ids", "trace-id 6173046c8cd4a3396abb4f08ee120a77 i loggen fra i natt"),
    ("hashes_ids", "merge ca3992f6843bee8972742ec5a9195536380db807 fik testene til at fejle"),
    ("hashes_ids", "tiedoston SHA-1 on 1d748508e2e8b14df0ef81cdba23490f417295e3"),
    ("hashes_ids", "the Jira ticket is PLAT-4821 and the PR is #1187"),
    (
        "hashes_ids",
        "docker image digest sha256:9f2b7c41e0d58a3b6c1e4f7a2d9b0c8e5f3a1d7b4e6c2a9f0b8d3e5c7a1f4b62 is the one in prod",
    ),
    # ------------------------------------------------------------------ seed_talk
    (
        "seed_talk",
        "plant the tomato seeds in april, keep the soil warm and water them every other day",
    ),
    ("seed_talk", "abandon ship! the meeting moved to room 4"),
    ("seed_talk", "set the random seed to 42 so the experiment is reproducible"),
    ("seed_talk", "run the seed script to fill the dev database with fake users"),
    (
        "seed_talk",
        "the happy dog ran across the green field to fetch a ball, then slept near the warm fire",
    ),
    ("seed_talk", "shopping list: apple banana bread butter cheese coffee egg lemon milk"),
    ("seed_talk", "sådde morotsfrön och rädisor i pallkragen idag"),
    ("seed_talk", "Die Samen für die Sonnenblumen kommen erst nach den Eisheiligen in die Erde"),
    ("seed_talk", "compré semillas de albahaca y cilantro para el balcón"),
    ("seed_talk", "j'ai semé des graines de radis, ça pousse super vite"),
    ("seed_talk", "i semi di zucca tostati sono buonissimi con un po' di sale"),
    ("seed_talk", "as sementes de girassol precisam de muito sol"),
    ("seed_talk", "de zaadjes van de tomaten moeten eerst binnen voorkiemen"),
    ("seed_talk", "kupiłam nasiona pomidorów i ogórków na działkę"),
    ("seed_talk", "seedingen av torrenten tok hele natten"),
    ("seed_talk", "kylvin tomaatin siemenet maaliskuussa"),
    (
        "seed_talk",
        "we're the 3rd seed in the tournament, so we dodge the favourites until the semis",
    ),
    # ------------------------------------------------------------------ config_benign
    ("config_benign", "PORT=8080\nDEBUG=true\nLOG_LEVEL=info"),
    ("config_benign", "password_min_length: 12\npassword_require_symbol: true"),
    ("config_benign", "TOKEN_TTL=3600\nREFRESH_TOKEN_TTL=86400"),
    ("config_benign", "auth: oauth\nprovider: keycloak\nscopes: [openid, profile]"),
    ("config_benign", "DB_PASSWORD=${DB_PASSWORD}"),
    ("config_benign", "in the workflow: api_key: ${{ secrets.STRIPE_KEY }}"),
    ("config_benign", "SECRET_KEY_FILE=/run/secrets/django_secret"),
    ("config_benign", "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']"),
    (
        "config_benign",
        "docker run -e TZ=Europe/Stockholm -e PUID=1000 -p 8096:8096 jellyfin/jellyfin",
    ),
    ("config_benign", "MAX_LOGIN_ATTEMPTS=5\nLOCKOUT_MINUTES=15"),
    ("config_benign", "token_endpoint: https://auth.example.com/oauth2/token"),
    ("config_benign", '{"auth": {"type": "oidc", "issuer": "https://login.example.com"}}'),
    ("config_benign", '[server]\nhost = "0.0.0.0"\nport = 5000\nworkers = 4'),
    ("config_benign", "la till TIMEOUT=30 och RETRIES=3 i .env idag"),
    ("config_benign", "Ich habe in der config LOG_LEVEL=debug gesetzt, jetzt sieht man mehr"),
    ("config_benign", "he puesto SESSION_COOKIE_SECURE=True en settings.py"),
    # ------------------------------------------------------------------ urls
    ("urls", "git@github.com:acme-labs/billing-service.git"),
    ("urls", "clone it with https://anna@bitbucket.org/anna/dotfiles.git"),
    ("urls", "ssh://deploy@build.example.com:2222/srv/app"),
    ("urls", "postgres://app@localhost:5432/shop — lokalt med trust-auth"),
    ("urls", "mailto:support@example.se"),
    ("urls", "https://example.com/account/reset-password?lang=de"),
    ("urls", "docs: https://docs.python.org/3/library/secrets.html"),
    ("urls", "ftp://anonymous@ftp.example.org/pub/"),
    ("urls", "lien : https://www.example.fr/mot-de-passe-oublie"),
    ("urls", "https://www.example.it/login?redirect=/area-riservata"),
    ("urls", "https://example.pt/recuperar-senha"),
    ("urls", "git clone git@gitlab.com:gemeente-utrecht/parkeren.git"),
    ("urls", "https://jan.kowalski@example.pl nie działa w Safari"),
    ("urls", "sftp://ola@filer.example.no/hjem"),
    ("urls", "make a new one at https://github.com/settings/tokens"),
    # ------------------------------------------------------------------ key_talk
    ("key_talk", "left my house keys at the office again"),
    ("key_talk", "press the Esc key twice to leave insert mode"),
    ("key_talk", "the song is in the key of D minor"),
    ("key_talk", "the key insight from the paper is that caching beats recomputation"),
    ("key_talk", "nyckeln till förrådet hänger på kroken i hallen"),
    ("key_talk", "Ich habe den Schlüssel beim Nachbarn abgegeben"),
    ("key_talk", "la clave del éxito es la constancia"),
    ("key_talk", "perdí las llaves del coche otra vez"),
    ("key_talk", "j'ai oublié ma clé USB au bureau"),
    ("key_talk", "mi serve una chiave inglese da 13"),
    ("key_talk", "a chave do carro ficou na portaria"),
    ("key_talk", "de sleutel ligt bij de buren"),
    ("key_talk", "zgubiłem klucze do mieszkania"),
    ("key_talk", "nøkkelen er hos vaktmesteren"),
    ("key_talk", "nøglen til cyklen er væk"),
    ("key_talk", "avain on naapurilla"),
    ("key_talk", "add a primary key on user_id and a foreign key to orders"),
    ("key_talk", "the public key is fine to share, just never send the private one"),
]
