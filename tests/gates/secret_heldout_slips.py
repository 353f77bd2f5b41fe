"""Second held-out set for the secret gate: the families issue 27 found still slipping.

Written and committed before the gate changes for issue 27, never tuned on. It holds new
cases of each family (a password stated without a verb, passwords made of plain words,
credentials inside URLs of any scheme, "login is user / pass", env-style ``*_URL=`` lines,
and the same in the other languages the gate claims) and new look-alikes of each. The five
strings quoted in the issue are NOT here: they are in ``secret_cases`` (the dev set).
Do not add cases here to fix a miss; add them to ``secret_cases``.

Every credential is made up.

``SLIP_SECRETS``: (family, text, values that must be gone after ``redact``).
``SLIP_LOOKALIKES``: (family, text that must not be flagged at all).
"""

from __future__ import annotations

SLIP_SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    # a password stated without "is"
    ("no_verb", "the prod mysql password Lantern88", ("Lantern88",)),
    ("no_verb", "office printer pw: kettle42", ("kettle42",)),
    ("no_verb", "gate passcode 4471", ("4471",)),
    ("no_verb", "router admin pwd Velvet#Fox", ("Velvet#Fox",)),
    ("no_verb", "Backup NAS password: orchard2019 (don't share)", ("orchard2019",)),
    ("no_verb", "the old vpn password tr0mbone, new one coming", ("tr0mbone",)),
    ("no_verb", "jira username anna.k password Rainfall9", ("Rainfall9",)),
    # passwords made of plain words
    ("plain_words", "my laptop password is sunshine", ("sunshine",)),
    ("plain_words", "The guest wifi passphrase is PurpleMonkeyDishwasher.", ("PurpleMonkey",)),
    ("plain_words", "the password for the shared drive is Marmalade", ("Marmalade",)),
    ("plain_words", "the alarm password is bluebird.", ("bluebird",)),
    ("plain_words", "Our netflix password is HappyOtterRiver", ("HappyOtterRiver",)),
    # credentials inside URLs, any scheme
    ("url_creds", "REDIS_URL=redis://:s3cretcache@cache.internal:6379/0", ("s3cretcache",)),
    ("url_creds", "broker: amqp://rabbit:carrot@mq.local:5672/vhost", ("carrot",)),
    ("url_creds", "mongodb+srv://svc_app:Qw3rty@cluster0.abcde.mongodb.net/prod", ("Qw3rty",)),
    ("url_creds", "clone with https://deploy:gh0stly@git.internal/team/repo.git", ("gh0stly",)),
    ("url_creds", "MONGO_URL=mongodb://root:kq@mongo:27017", ("root:kq",)),
    ("url_creds", "ftp://anon:letmein@files.internal.net/pub", ("letmein",)),
    ("url_creds", "sftp://backup:Hx7pq@10.0.0.5/srv", ("Hx7pq",)),
    # env-style *_URL= lines
    ("env_url", "export AMQP_URL=amqps://svc:Brk9q2@mq.prod:5671", ("Brk9q2",)),
    ("env_url", 'DB_URL="mysql://shop:sh0pkeeper@127.0.0.1/shop"', ("sh0pkeeper",)),
    ("env_url", "CELERY_BROKER_URL=redis://default:plum@redis:6379/1", ("plum",)),
    # login is user / pass
    ("login_pair", "The router login is admin / tiger77", ("tiger77",)),
    ("login_pair", "NAS creds: backup/Orca2024!", ("Orca2024!",)),
    ("login_pair", "ssh login: deploy / walrus", ("walrus",)),
    ("login_pair", "login for the cms = editor / Kiwi-Fruit-3", ("Kiwi-Fruit-3",)),
    ("login_pair", "the camera's credentials are admin/Pelican55", ("Pelican55",)),
    # other languages
    ("other_lang", "wifi-lösenordet är Sommarregn2025", ("Sommarregn2025",)),
    ("other_lang", "lösenord till routern: Granskog7", ("Granskog7",)),
    ("other_lang", "inloggning: admin / Blåbär99", ("Blåbär99",)),
    ("other_lang", "Das WLAN-Passwort lautet Himbeere", ("Himbeere",)),
    ("other_lang", "Passwort vom Router: Zugspitze-2962", ("Zugspitze-2962",)),
    ("other_lang", "Kennwort Edelweiss88", ("Edelweiss88",)),
    ("other_lang", "Zugang: admin / Brezel77", ("Brezel77",)),
    ("other_lang", "le mot de passe du wifi : Soleil2025", ("Soleil2025",)),
    ("other_lang", "mot de passe Chouette42 pour le NAS", ("Chouette42",)),
    ("other_lang", "la contraseña del portátil es Manzana", ("Manzana",)),
    ("other_lang", "contraseña: pato1234", ("pato1234",)),
    ("other_lang", "la password del modem è Ciao2024", ("Ciao2024",)),
    ("other_lang", "wachtwoord van de NAS: Fietsbel77", ("Fietsbel77",)),
    ("other_lang", "salasana: Mustikka9", ("Mustikka9",)),
    ("other_lang", "hasło do routera to Bursztyn", ("Bursztyn",)),
]

SLIP_LOOKALIKES: list[tuple[str, str]] = [
    # prose about passwords
    ("password_prose", "Change the password every 90 days"),
    ("password_prose", "password reset link expired"),
    ("password_prose", "password manager: Bitwarden"),
    ("password_prose", "the password is case-sensitive"),
    ("password_prose", "my password is too weak"),
    ("password_prose", "the password was changed yesterday"),
    ("password_prose", "the password is incorrect"),
    ("password_prose", "passwords must differ from the username"),
    ("password_prose", "password hashing uses argon2id"),
    ("password_prose", "the wifi password is on the fridge"),
    ("password_prose", "pw: see vault"),
    ("password_prose", "I changed my password yesterday"),
    ("password_prose", "I reset the password for Anna yesterday"),
    ("password_prose", "Passwords: at least 12 chars, one digit"),
    ("password_prose", "the password is stored hashed with bcrypt"),
    ("password_prose", "the passcode has 6 digits"),
    ("password_prose", "pw hash mismatch after the upgrade"),
    ("password_prose", "the admin password is strong enough"),
    ("password_prose", "The password is wrong."),
    # words that contain a credential noun
    ("lookalike_noun", "passport number renewal is due in March"),
    ("lookalike_noun", "passcode screen appears after 5 minutes"),
    ("lookalike_noun", "PIN entry is on the keypad"),
    # slashes that are not user / pass
    ("slash_pair", "login is via SSO / SAML"),
    ("slash_pair", "admin/user roles are defined in the RBAC config"),
    ("slash_pair", "read/write permissions for the group"),
    ("slash_pair", "user/pass authentication is disabled"),
    ("slash_pair", "login: alice"),
    ("slash_pair", "the login page moved to /auth/login"),
    # URLs without credentials
    ("url_plain", "the login page is https://portal.example.com/login"),
    ("url_plain", "git@github.com:acme/app.git"),
    ("url_plain", "ssh://git@gitlab.internal:2222/team/app.git"),
    ("url_plain", "http://localhost:5173/@vite/client"),
    ("url_plain", "https://registry.npmjs.org/@types%2fnode"),
    ("url_plain", "postgres://user:password@localhost/db is the template in the docs"),
    ("url_plain", "DATABASE_URL=postgres://localhost:5432/app"),
    ("url_plain", "REDIS_URL=redis://cache:6379/0"),
    ("url_plain", "http://[fe80::1]:8080/status"),
    ("url_plain", "https://user@example.com/repo"),
    ("url_plain", "ftp://ftp.gnu.org/gnu/"),
    # other languages
    ("other_lang", "Das Passwort muss 12 Zeichen haben"),
    ("other_lang", "Das Passwort ist falsch"),
    ("other_lang", "Mein Passwort ist weg"),
    ("other_lang", "Passwort vergessen? Hier klicken"),
    ("other_lang", "le mot de passe est trop court"),
    ("other_lang", "lösenordet är för kort"),
    ("other_lang", "lösenordet har gått ut"),
    ("other_lang", "Lösenord: se Bitwarden"),
    ("other_lang", "la contraseña es incorrecta"),
    ("other_lang", "het wachtwoord is onjuist"),
    ("other_lang", "salasana on väärä"),
    ("other_lang", "hasło jest nieprawidłowe"),
]
