"""Held-out labelled set for the secret gate: never tuned on, scored once.

Written before the gate changes it measures, so its figures say how the gate does on shapes
nobody fitted rules to. Do not add cases here to fix a miss; add them to ``secret_cases``.

Every credential is made up. Bodies come from a seeded RNG and vendor prefixes are assembled
by concatenation, so no complete token-shaped literal sits in this file.

``HELDOUT_SECRETS``: (family, text, values that must be gone after ``redact``).
``HELDOUT_SPLIT``: (family, consecutive user messages, values that must be gone from every
message after the gate's adjacent-message redaction).
``HELDOUT_LOOKALIKES``: (family, text that must not be flagged at all).
"""

from __future__ import annotations

import base64
import random
import string

_rng = random.Random(77120431)

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = LOWER + UPPER + DIGITS
UPPER_ALNUM = UPPER + DIGITS
HEX = DIGITS + "abcdef"
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def _r(n: int, alphabet: str = ALNUM) -> str:
    """Random string that mixes every character class its alphabet offers."""
    while True:
        s = "".join(_rng.choice(alphabet) for _ in range(n))
        wanted = [cls for cls in (LOWER, UPPER, DIGITS) if set(cls) & set(alphabet)]
        if all(set(s) & set(cls) for cls in wanted):
            return s


def _digits(n: int) -> str:
    return str(_rng.randint(1, 9)) + "".join(_rng.choice(DIGITS) for _ in range(n - 1))


SK = "s" + "k-"
# Short reference-style keys: a known prefix plus a short random-looking tail.
SHORT_PROJ = SK + "proj-" + "x7Kq2mP9wL4t"
SHORT_PROJ_2 = SK + "proj-" + _r(10)
SHORT_SK = SK + _r(14)
SHORT_ANT = SK + "ant-" + _r(12)
SHORT_M0 = "m" + "0-" + _r(10)
SHORT_M0_2 = "m" + "0-" + _r(16)
SHORT_AK = "a" + "k_" + _r(9)
SHORT_AK_2 = "a" + "k_" + _r(14)

TG_34 = _digits(10) + ":" + "AA" + _r(32, URLSAFE)
TG_36 = _digits(9) + ":" + "AA" + _r(34, URLSAFE)

GROQ = "g" + "sk_" + _r(52)
XAI = "x" + "ai-" + _r(80)
REPLICATE = "r" + "8_" + _r(37)
PPLX = "pp" + "lx-" + _r(48)
NOTION = "se" + "cret_" + _r(43)
NOTION_NTN = "nt" + "n_" + _digits(12) + _r(34)
LINEAR = "li" + "n_api_" + _r(40)
ATLASSIAN = "ATA" + "TT3xFfGF0" + _r(180, URLSAFE) + "=" + _r(8, HEX).upper()
DATABRICKS = "da" + "pi" + _r(32, HEX)
SUPABASE = "sb" + "p_" + _r(40, HEX)
SUPABASE_SECRET = "sb" + "_secret_" + _r(32, URLSAFE)
DO_PAT = "do" + "p_v1_" + _r(64, HEX)
DO_OAUTH = "do" + "o_v1_" + _r(64, HEX)
SHOPIFY = "sh" + "pat_" + _r(32, HEX)
SHOPIFY_SS = "sh" + "pss_" + _r(32, HEX)
TWILIO_SK = "S" + "K" + _r(32, HEX)
TWILIO_AUTH = _r(32, HEX)
MAILGUN = "ke" + "y-" + _r(32, HEX)
AGE = "AGE-" + "SECRET-KEY-1" + "".join(_rng.choice(BECH32) for _ in range(58))
SQUARE = "sq" + "0atp-" + _r(22, URLSAFE)
SQUARE_SECRET = "sq" + "0csp-" + _r(43, URLSAFE)
FACEBOOK = "EA" + "ACEdEose0cBA" + _r(120)
FACEBOOK_2 = "EA" + "AG" + _r(140)
TWITTER = "A" * 22 + _r(20) + "%2F" + _r(24) + "%3D" + _r(50)
TWITTER_SECRET = _r(50)

AZURE_ACCOUNT_KEY = _r(86, B64) + "=="
NETRC_PW = _r(20, URLSAFE)
KEYED_32 = _r(32)
KEYED_40 = _r(40, URLSAFE)
KEYED_44 = _r(43, B64) + "="
KEYED_28 = _r(28)
KEYED_25 = _r(25)
KEYED_36 = _r(36)

GHP_B64_SRC = "gh" + "p_" + _r(36)
GHP_B64 = base64.b64encode(GHP_B64_SRC.encode()).decode()
OPENAI_B64_SRC = SK + "proj-" + _r(40, URLSAFE)
OPENAI_B64 = base64.b64encode(OPENAI_B64_SRC.encode()).decode()
AKIA_HEX_SRC = "AK" + "IA" + _r(16, UPPER_ALNUM)
AKIA_HEX = AKIA_HEX_SRC.encode().hex()
STRIPE_HEX_SRC = "sk" + "_live_" + _r(24)
STRIPE_HEX = STRIPE_HEX_SRC.encode().hex()
SLACK_B64_SRC = "xo" + "xb-" + _digits(12) + "-" + _digits(13) + "-" + _r(24)
SLACK_B64 = base64.b64encode(SLACK_B64_SRC.encode()).decode()

SPLIT_GHP = "gh" + "p_" + _r(36)
SPLIT_OPENAI = SK + "proj-" + _r(48, URLSAFE)
SPLIT_ANT = SK + "ant-api03-" + _r(60, URLSAFE)
SPLIT_AKIA = "AK" + "IA" + _r(16, UPPER_ALNUM)
SPLIT_TG = _digits(10) + ":" + "AA" + _r(33, URLSAFE)
SPLIT_GROQ = "g" + "sk_" + _r(52)

HELDOUT_SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    # short keys with a known prefix
    ("short_prefix", f"OPENAI_API_KEY={SHORT_PROJ}", (SHORT_PROJ,)),
    ("short_prefix", f"try {SHORT_PROJ_2} for the sandbox project", (SHORT_PROJ_2,)),
    ("short_prefix", f"my old key was {SHORT_SK}, revoke it", (SHORT_SK,)),
    ("short_prefix", f"claude dev key {SHORT_ANT}", (SHORT_ANT,)),
    ("short_prefix", f"mem0 says my key is {SHORT_M0}", (SHORT_M0,)),
    ("short_prefix", f'"MEM0_API_KEY": "{SHORT_M0_2}"', (SHORT_M0_2,)),
    ("short_prefix", f"Kite key {SHORT_AK} works", (SHORT_AK,)),
    ("short_prefix", f"ak={SHORT_AK_2}", (SHORT_AK_2,)),
    # English prose announcing a credential
    ("prose_en", "the password for the prod router is tangerine7", ("tangerine7",)),
    ("prose_en", "My passphrase is purple-monkey-dishwasher-42", ("purple-monkey-dishwasher",)),
    ("prose_en", "her PIN is 9051", ("9051",)),
    ("prose_en", "the door code is 4821, don't share it", ("4821",)),
    ("prose_en", "alarm code: 2580", ("2580",)),
    ("prose_en", "my bank password is Falcon!Ridge88", ("Falcon!Ridge88",)),
    ("prose_en", "NAS login is admin, password Qz8!rTp4", ("Qz8!rTp4",)),
    ("prose_en", "the recovery code is 8F3K-2M9Q-7XTA", ("8F3K-2M9Q-7XTA",)),
    ("prose_en", "the wifi key is moonlight-Harbor-9", ("moonlight-Harbor-9",)),
    ("prose_en", "my gmail password's Sunshine#2024", ("Sunshine#2024",)),
    ("prose_en", "password for jenkins = Bu1ld3r!", ("Bu1ld3r!",)),
    ("prose_en", "use password Horse-Battery-77 for the guest account", ("Horse-Battery-77",)),
    ("prose_en", "the voicemail pin = 7713", ("7713",)),
    ("prose_en", "The secret is xK93-LmQ2-pZ7w.", ("xK93-LmQ2-pZ7w",)),
    # other languages
    ("prose_de", "Mein Passwort ist Sonnenblume-88", ("Sonnenblume-88",)),
    ("prose_de", "Das Kennwort für den Server lautet Gk7#pLm2", ("Gk7#pLm2",)),
    ("prose_de", "Meine PIN ist 4402.", ("4402",)),
    ("prose_fr", "Mon mot de passe est Papillon!93", ("Papillon!93",)),
    ("prose_fr", "le code PIN est 5820", ("5820",)),
    ("prose_es", "Mi contraseña es Girasol_2024", ("Girasol_2024",)),
    ("prose_es", "la clave del wifi es Naranja77", ("Naranja77",)),
    ("prose_pt", "A minha senha é Saudade#71", ("Saudade#71",)),
    ("prose_pt", "a senha do banco é Pipoca2023", ("Pipoca2023",)),
    ("prose_it", "La mia password è Gelato!456", ("Gelato!456",)),
    ("prose_it", "la parola d'ordine è Vespa1962", ("Vespa1962",)),
    ("prose_nl", "Mijn wachtwoord is Tulpen-2024", ("Tulpen-2024",)),
    ("prose_nl", "het wachtwoord van de router is Fiets88!", ("Fiets88!",)),
    ("prose_ja", "私のパスワードは Sakura2024! です", ("Sakura2024!",)),
    ("prose_ja", "暗証番号は 8264 です", ("8264",)),
    ("prose_ru", "Мой пароль: Medved-1980", ("Medved-1980",)),
    ("prose_ru", "пароль от почты — Zima2024!", ("Zima2024!",)),
    ("prose_ko", "내 비밀번호는 Kimchi#2024 입니다", ("Kimchi#2024",)),
    ("prose_ko", "비밀번호: Hangang99", ("Hangang99",)),
    ("prose_fi", "Salasanani on Sauna-Kalja7", ("Sauna-Kalja7",)),
    ("prose_fi", "wlanin salasana on Revontuli22", ("Revontuli22",)),
    ("prose_pl", "Moje hasło to Pierogi!2024", ("Pierogi!2024",)),
    ("prose_pl", "hasło do wifi: Krakow1988", ("Krakow1988",)),
    ("prose_sv", "Mitt lösenord är Midsommar-24", ("Midsommar-24",)),
    ("prose_zh", "我的密码是 Panda@2024", ("Panda@2024",)),
    # keyed configuration values that are random
    ("keyed_config", f"app_key: {KEYED_32}", (KEYED_32,)),
    ("keyed_config", f"hmac = {KEYED_40}", (KEYED_40,)),
    ("keyed_config", f"signing_key: {KEYED_44}", (KEYED_44,)),
    ("keyed_config", f"LICENSE_KEY={KEYED_28}", (KEYED_28,)),
    ("keyed_config", f"twitter:\n  consumer_key: {KEYED_25}\n", (KEYED_25,)),
    ("keyed_config", f"api_hash: {TWILIO_AUTH}", (TWILIO_AUTH,)),
    ("keyed_config", f"credential = {KEYED_36}", (KEYED_36,)),
    # Telegram bot tokens of unusual length
    ("telegram", f"bot token {TG_34}", (TG_34,)),
    ("telegram", f"my telegram bot: {TG_36}", (TG_36,)),
    ("telegram", f"TG_TOKEN={TG_36}", (TG_36,)),
    # vendors not covered before
    ("groq", f"GROQ_API_KEY={GROQ}", (GROQ,)),
    ("groq", f"use {GROQ} for the llama calls", (GROQ,)),
    ("xai", f"grok key: {XAI}", (XAI,)),
    ("replicate", f"export REPLICATE_API_TOKEN={REPLICATE}", (REPLICATE,)),
    ("perplexity", f"perplexity: {PPLX}", (PPLX,)),
    ("notion", f"Notion integration secret {NOTION}", (NOTION,)),
    ("notion", f"NOTION_TOKEN={NOTION_NTN}", (NOTION_NTN,)),
    ("linear", f"linear api key {LINEAR}", (LINEAR,)),
    ("atlassian", f"JIRA_API_TOKEN={ATLASSIAN}", (ATLASSIAN,)),
    ("databricks", f"databricks token {DATABRICKS}", (DATABRICKS,)),
    ("supabase", f"supabase access token: {SUPABASE}", (SUPABASE,)),
    ("supabase", f"SUPABASE_SECRET_KEY={SUPABASE_SECRET}", (SUPABASE_SECRET,)),
    ("digitalocean", f"doctl auth init -t {DO_PAT}", (DO_PAT,)),
    ("digitalocean", f"the DO oauth token {DO_OAUTH}", (DO_OAUTH,)),
    ("shopify", f"X-Shopify-Access-Token: {SHOPIFY}", (SHOPIFY,)),
    ("shopify", f"shared secret {SHOPIFY_SS} for the app", (SHOPIFY_SS,)),
    ("twilio", f"Twilio API key {TWILIO_SK}", (TWILIO_SK,)),
    ("twilio", f"twilio auth token is {TWILIO_AUTH}", (TWILIO_AUTH,)),
    ("mailgun", f"mailgun: {MAILGUN}", (MAILGUN,)),
    ("age", f"# created: 2026-01-04\n{AGE}", (AGE,)),
    ("square", f"square sandbox token {SQUARE}", (SQUARE,)),
    ("square", f"SQUARE_APP_SECRET={SQUARE_SECRET}", (SQUARE_SECRET,)),
    ("facebook", f"fb page token {FACEBOOK}", (FACEBOOK,)),
    ("facebook", f"access_token={FACEBOOK_2}", (FACEBOOK_2,)),
    ("twitter", f"TWITTER_BEARER_TOKEN={TWITTER}", (TWITTER,)),
    ("twitter", f"twitter consumer secret: {TWITTER_SECRET}", (TWITTER_SECRET,)),
    # connection strings and command lines
    (
        "conn_string",
        "jdbc:mysql://db.internal:3306/shop?user=app&password=Gr8tPl4ins&useSSL=true",
        ("Gr8tPl4ins",),
    ),
    (
        "conn_string",
        "Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql.internal,1433;"
        "Database=crm;Uid=svc;Password=Tz7!qLm2;",
        ("Tz7!qLm2",),
    ),
    (
        "conn_string",
        "DefaultEndpointsProtocol=https;AccountName=acmelogs;"
        f"AccountKey={AZURE_ACCOUNT_KEY};EndpointSuffix=core.windows.net",
        (AZURE_ACCOUNT_KEY,),
    ),
    (
        "conn_string",
        f"machine api.heroku.com\n  login anna@example.com\n  password {NETRC_PW}\n",
        (NETRC_PW,),
    ),
    ("conn_string", "machine ftp.example.org login bob password Kv3rn-Fj4ll", ("Kv3rn-Fj4ll",)),
    ("conn_string", "curl -u admin:Pl4typ.us9 https://ci.internal/api/json", ("Pl4typ.us9",)),
    ("conn_string", "mysql -u root -pR00tPass99 shop", ("R00tPass99",)),
    ("conn_string", "PGPASSWORD=Wint3r-is-here psql -h db -U app", ("Wint3r-is-here",)),
    ("conn_string", "smtp:\n  user: alerts\n  pass: M4ilR00m!\n", ("M4ilR00m!",)),
    (
        "conn_string",
        "Server=db01;Database=erp;User Id=sa;Pwd=Dr4gonfly#7;",
        ("Dr4gonfly#7",),
    ),
    # encoded keys
    ("encoded", f"GITHUB_TOKEN_B64={GHP_B64}", (GHP_B64,)),
    ("encoded", f"echo {OPENAI_B64} | base64 -d > ~/.openai", (OPENAI_B64,)),
    ("encoded", f"the access key id in hex: {AKIA_HEX}", (AKIA_HEX,)),
    ("encoded", f"stripe key hex-encoded {STRIPE_HEX}", (STRIPE_HEX,)),
    ("encoded", f"data: {SLACK_B64}", (SLACK_B64,)),
]

HELDOUT_SPLIT: list[tuple[str, list[str], tuple[str, ...]]] = [
    (
        "split",
        [f"here is my github token {SPLIT_GHP[:18]}", SPLIT_GHP[18:]],
        (SPLIT_GHP[:18], SPLIT_GHP[18:]),
    ),
    (
        "split",
        [f"OPENAI_API_KEY={SPLIT_OPENAI[:30]}", SPLIT_OPENAI[30:]],
        (SPLIT_OPENAI[30:],),
    ),
    (
        "split",
        [f"claude key part one: {SPLIT_ANT[:40]}", SPLIT_ANT[40:]],
        (SPLIT_ANT[40:],),
    ),
    ("split", [f"aws id {SPLIT_AKIA[:8]}", SPLIT_AKIA[8:]], (SPLIT_AKIA[8:],)),
    ("split", [f"bot token {SPLIT_TG[:20]}", SPLIT_TG[20:]], (SPLIT_TG[20:],)),
    ("split", ["my password is", "Blaubeere-73"], ("Blaubeere-73",)),
    ("split", [f"groq {SPLIT_GROQ[:12]}", SPLIT_GROQ[12:]], (SPLIT_GROQ[12:],)),
]

_SHA40 = _r(40, HEX)
_UUID = f"{_r(8, HEX)}-{_r(4, HEX)}-4{_r(3, HEX)}-b{_r(3, HEX)}-{_r(12, HEX)}"
_UUID_2 = f"{_r(8, HEX)}-{_r(4, HEX)}-4{_r(3, HEX)}-9{_r(3, HEX)}-{_r(12, HEX)}"

HELDOUT_LOOKALIKES: list[tuple[str, str]] = [
    ("git_sha", "Reverted 3f9c2a1 and cherry-picked 8b7e6d5 onto release"),
    ("git_sha", f"commit {_SHA40} (HEAD -> main, origin/main)"),
    ("git_sha", f"git show {_SHA40[:12]}:memclaw/cli/app.py"),
    ("git_sha", f"Merge: {_r(7, HEX)} {_r(7, HEX)}"),
    ("uuid", f"tenant {_UUID} was migrated"),
    ("uuid", f"x-correlation-id: {_UUID_2}"),
    ("uuid", f"workspace_id={_UUID}"),
    ("order_number", "Order #112-4459871-2231456 has shipped"),
    ("order_number", "invoice INV-2024-00871 is overdue"),
    ("order_number", "tracking number 1Z999AA10123456784"),
    ("order_number", "PO 4500012345 approved by finance"),
    ("order_number", "See ticket PROJ-4821 for details"),
    ("version", "v2.3.0-rc.1+sha.5114f85"),
    ("version", "node 20.11.1, npm 10.2.4"),
    ("version", "libssl3 3.0.2-0ubuntu1.15 is installed"),
    ("version", "macOS build 24A335"),
    ("prose_password", "the password is on the sticky note under the keyboard"),
    ("prose_password", "the password is in the team vault"),
    ("prose_password", "my password is the same as last time"),
    ("prose_password", "I forgot my password again"),
    ("prose_password", "reset your password via the link in the email"),
    ("prose_password", "Das Passwort ist abgelaufen."),
    ("prose_password", "Le mot de passe est incorrect."),
    ("prose_password", "La contraseña es demasiado corta."),
    ("prose_password", "A senha está errada."),
    ("prose_password", "Salasana on vanhentunut."),
    ("prose_password", "パスワードは後で送ります"),
    ("prose_password", "пароль неверный"),
    ("prose_password", "hasło jest za krótkie"),
    ("prose_password", "het wachtwoord is verlopen"),
    ("prose_password", "비밀번호는 나중에 보내 드릴게요"),
    ("pin", "PIN code reset instructions"),
    ("pin", "Your PIN must be 4 to 6 digits."),
    ("pin", "the PIN is printed on the letter from the bank"),
    ("code", "the code is ready for review"),
    ("code", "the error code is 404"),
    ("code", "status code: 503"),
    ("code", "exit code 137 means the container was OOM-killed"),
    ("code", "zip code 11453"),
    ("code", "the verification code expires in 10 minutes"),
    ("key_token_prose", "the key is to keep it simple"),
    ("key_token_prose", "the token is expired, log in again"),
    ("key_token_prose", "the secret is patience"),
    ("key_token_prose", "primary key: id"),
    ("docs_prefix", "Groq keys start with gsk_ and DigitalOcean tokens with dop_v1_."),
    ("docs_prefix", "Shopify admin tokens begin with shpat_"),
    ("docs_prefix", "age secret keys begin with AGE-SECRET-KEY-1"),
    ("hash", f"sha1: {_r(40, HEX)}"),
    ("hash", f'ETag: W/"{_r(32, HEX)}"'),
    ("hash", f"span_id: {_r(16, HEX)}"),
    ("encoded_plain", "Base64 of 'hello world' is aGVsbG8gd29ybGQ="),
    ("encoded_plain", "the accent colour is #3fa7c2"),
    ("encoded_plain", "MAC address 00:1A:2B:3C:4D:5E"),
    ("config_plain", "api_version: 2024-06-01"),
    ("config_plain", "key_id: 42"),
    ("config_plain", "pass: 3"),
    ("config_plain", "password_reset_url: https://example.com/reset"),
    ("command_no_value", "mysql -u root -p shop"),
    ("command_no_value", "curl -u admin https://ci.internal/api/json"),
    ("command_no_value", "jdbc:postgresql://db:5432/app?user=app&ssl=true"),
    ("command_no_value", "AccountName=acmelogs;EndpointSuffix=core.windows.net"),
    ("command_no_value", "machine api.heroku.com login anna@example.com"),
]
