"""Labelled data set for the secret gate.

Every credential below is made up. Token bodies are generated from a seeded RNG and vendor
prefixes are assembled by concatenation at import time, so no complete token-shaped literal
appears in this file (hosted secret scanners would otherwise block the push).

``SECRET_CASES``: (text, secret values that must be gone after ``redact``).
``NON_SECRET_CASES``: look-alikes that must not be flagged at all.
"""

from __future__ import annotations

import base64
import random
import string

_rng = random.Random(20261129)

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = LOWER + UPPER + DIGITS
UPPER_ALNUM = UPPER + DIGITS
HEX = DIGITS + "abcdef"
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"


def _r(n: int, alphabet: str = ALNUM) -> str:
    """Random string; resampled until it mixes every character class the alphabet offers,
    like real generated credentials do."""
    while True:
        s = "".join(_rng.choice(alphabet) for _ in range(n))
        wanted = [cls for cls in (LOWER, UPPER, DIGITS) if set(cls) & set(alphabet)]
        if all(set(s) & set(cls) for cls in wanted):
            return s


def _digits(n: int) -> str:
    return str(_rng.randint(1, 9)) + "".join(_rng.choice(DIGITS) for _ in range(n - 1))


# --- vendor-shaped tokens (prefixes split so the source never holds a whole token) ----------
SK = "s" + "k-"
OPENAI_LEGACY = SK + _r(48)
OPENAI_PROJ = SK + "proj-" + _r(74, URLSAFE)
OPENAI_SVC = SK + "svcacct-" + _r(60, URLSAFE)
OPENAI_HANDMADE = SK + "abcdefghijklmnopqrstuvwxyz" + "123456"
ANTHROPIC = SK + "ant-api03-" + _r(93, URLSAFE) + "AA"
ANTHROPIC_2 = SK + "ant-" + _r(40)
MEM0 = "m" + "0-" + _r(40)
MEM0_2 = "m" + "0-" + _r(32)
GHP = "gh" + "p_" + _r(36)
GHO = "gh" + "o_" + _r(36)
GHU = "gh" + "u_" + _r(36)
GHS = "gh" + "s_" + _r(36)
GHR = "gh" + "r_" + _r(36)
GH_PAT = "github" + "_pat_" + _r(22) + "_" + _r(59)
AKIA = "AK" + "IA" + _r(16, UPPER_ALNUM)
AKIA_2 = "AK" + "IA" + _r(16, UPPER_ALNUM)
ASIA = "AS" + "IA" + _r(16, UPPER_ALNUM)
AWS_SECRET = _r(40, B64)
AWS_SECRET_2 = _r(40, B64)
AK_KEY = "a" + "k_" + _r(32)
AK_KEY_2 = "a" + "k_" + _r(24)
OPAQUE_BEARER = _r(40, URLSAFE + ".~")
SLACK_BOT = "xo" + "xb-" + _digits(12) + "-" + _digits(13) + "-" + _r(24)
SLACK_USER = "xo" + "xp-" + _digits(12) + "-" + _digits(12) + "-" + _digits(13) + "-" + _r(32, HEX)
SLACK_APP = "xa" + "pp-1-" + _r(11, UPPER_ALNUM) + "-" + _digits(13) + "-" + _r(64, HEX)
TELEGRAM = _digits(10) + ":" + "AA" + _r(33, URLSAFE)
TELEGRAM_2 = _digits(9) + ":" + "AA" + _r(33, URLSAFE)
DISCORD_BOT = "M" + _r(25) + "." + _r(6) + "." + _r(38, URLSAFE)
SLACK_HOOK_PATH = "T" + _r(10, UPPER_ALNUM) + "/B" + _r(10, UPPER_ALNUM) + "/" + _r(24)
SLACK_HOOK = "https://hooks.slack.com/services/" + SLACK_HOOK_PATH
DISCORD_HOOK = "https://discord.com/api/webhooks/" + _digits(18) + "/" + _r(68, URLSAFE)
TEAMS_HOOK = "https://contoso.webhook.office.com/webhookb2/" + _r(36, HEX) + "@" + _r(36, HEX)
GENERIC_HOOK_SECRET = _r(32)
URL_TOKEN = _r(40, URLSAFE)
AZURE_SIG = _r(20) + "%2B" + _r(18) + "%3D"
MAPS_KEY = _r(32)
DB_PW = _r(18, ALNUM + "!#%^*")
REDIS_PW = _r(24)
MONGO_PW = _r(16)
JWT = "ey" + "J" + _r(30, URLSAFE) + "." + "ey" + "J" + _r(60, URLSAFE) + "." + _r(43, URLSAFE)
JWT_2 = "ey" + "JhbGciOiJIUzI1NiJ9." + "ey" + "J" + _r(48, URLSAFE) + "." + _r(43, URLSAFE)
GOOGLE = "AI" + "za" + _r(35, URLSAFE)
GOOGLE_2 = "AI" + "za" + _r(35, URLSAFE)
STRIPE_SK = "sk" + "_live_" + _r(24)
STRIPE_RK = "rk" + "_live_" + _r(24)
STRIPE_PK = "pk" + "_live_" + _r(24)
STRIPE_TEST = "sk" + "_test_" + _r(24)
STRIPE_WH = "wh" + "sec_" + _r(32)
HF = "h" + "f_" + _r(34, LOWER + UPPER)
NPM = "np" + "m_" + _r(36)
GLPAT = "gl" + "pat-" + _r(20, URLSAFE)
PYPI = "py" + "pi-AgEIcHlwaS5vcmc" + _r(60, URLSAFE)
SENDGRID = "S" + "G." + _r(22, URLSAFE) + "." + _r(43, URLSAFE)
RAND_32 = _r(32)
RAND_40_B64 = _r(40, B64)
RAND_HEX_40 = _r(40, HEX)
RAND_HEX_32 = _r(32, HEX)
RAND_28 = _r(28)
RAND_36 = _r(36)
RAND_30 = _r(30)
RAND_44 = _r(44, B64) + "="
BASIC = base64.b64encode(b"deploy:" + _r(14).encode()).decode()

PEM_BODY = [_r(64, B64) for _ in range(6)] + [_r(40, B64) + "=="]
PEM_RSA = (
    "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(PEM_BODY) + "\n-----END RSA PRIVATE KEY-----"
)
OPENSSH_BODY = [_r(70, B64) for _ in range(4)]
PEM_OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    + "\n".join(OPENSSH_BODY)
    + "\n-----END OPENSSH PRIVATE KEY-----\n"
)
EC_BODY = _r(64, B64)
PEM_JSON_ESCAPED = (
    '"-----BEGIN PRIVATE KEY-----\\n'
    + EC_BODY
    + "\\n"
    + _r(40, B64)
    + '\\n-----END PRIVATE KEY-----\\n"'
)
TRUNCATED_BODY = _r(64, B64)
PGP_BODY = _r(64, B64)

LABELLED_SECRET_CASES: list[tuple[str, str, tuple[str, ...]]] = [
    ("openai_anthropic", f"OPENAI_API_KEY={OPENAI_PROJ}", (OPENAI_PROJ,)),
    (
        "openai_anthropic",
        f"My OpenAI key is {OPENAI_LEGACY}, please use it for the embeddings job.",
        (OPENAI_LEGACY,),
    ),
    ("openai_anthropic", f'client = OpenAI(api_key="{OPENAI_LEGACY}")', (OPENAI_LEGACY,)),
    ("openai_anthropic", f"Använd nyckeln {OPENAI_PROJ} för produktionsmiljön.", (OPENAI_PROJ,)),
    ("openai_anthropic", f"openai:\n  key: {OPENAI_SVC}\n  model: gpt-4o", (OPENAI_SVC,)),
    ("openai_anthropic", f"test key for the demo: {OPENAI_HANDMADE}", (OPENAI_HANDMADE,)),
    ("openai_anthropic", f"ANTHROPIC_API_KEY={ANTHROPIC}", (ANTHROPIC,)),
    ("openai_anthropic", f"我的 Anthropic 密钥是 {ANTHROPIC_2}，不要外传。", (ANTHROPIC_2,)),
    ("openai_anthropic", f"The Claude key ({ANTHROPIC}) was rotated yesterday.", (ANTHROPIC,)),
    ("mem0", f"MEM0_API_KEY={MEM0}", (MEM0,)),
    ("mem0", f"use mem0 key {MEM0_2} for the plugin config", (MEM0_2,)),
    ("github", f"export GITHUB_TOKEN={GHP}", (GHP,)),
    ("github", f"git clone https://{GHP}@github.com/acme/infra.git", (GHP,)),
    ("github", f'{{"token": "{GHO}", "scope": "repo"}}', (GHO,)),
    ("github", f"The app installation returned {GHS} for the CI job.", (GHS,)),
    ("github", f"user-to-server token {GHU} expires in 8 hours", (GHU,)),
    ("github", f"refresh with {GHR} when it expires", (GHR,)),
    ("github", f"Fine-grained PAT: {GH_PAT}", (GH_PAT,)),
    ("github", f"Här är min GitHub-token: {GHP}", (GHP,)),
    ("github", f"https://x-access-token:{GHS}@github.com/acme/app.git", (GHS,)),
    ("aws", f"aws_access_key_id = {AKIA}", (AKIA,)),
    ("aws", f"aws_secret_access_key = {AWS_SECRET}", (AWS_SECRET,)),
    ("aws", f"AWS_SECRET_ACCESS_KEY={AWS_SECRET_2}", (AWS_SECRET_2,)),
    (
        "aws",
        f"[default]\naws_access_key_id={AKIA_2}\naws_secret_access_key={AWS_SECRET}\n",
        (AKIA_2, AWS_SECRET),
    ),
    ("aws", f"STS gave me {ASIA} as the temporary access key id", (ASIA,)),
    ("aws", f"Nyckel-id för AWS: {AKIA}", (AKIA,)),
    ("ak_key", f"The Kite API key {AK_KEY} expires Friday.", (AK_KEY,)),
    ("ak_key", f"configure with ak {AK_KEY_2} please", (AK_KEY_2,)),
    (
        "bearer",
        f"curl -H 'Authorization: Bearer {OPAQUE_BEARER}' https://api.example.com/v1",
        (OPAQUE_BEARER,),
    ),
    ("bearer", f"Authorization: Bearer {JWT}", (JWT,)),
    ("bearer", f"send it with header bearer {OPAQUE_BEARER}", (OPAQUE_BEARER,)),
    ("bearer", f"Authorization: Basic {BASIC}", (BASIC,)),
    ("bearer", f"请在请求头里加上 Authorization: Bearer {OPAQUE_BEARER} 再重试", (OPAQUE_BEARER,)),
    ("slack", f"SLACK_BOT_TOKEN={SLACK_BOT}", (SLACK_BOT,)),
    ("slack", f"the old slack user token {SLACK_USER} still works", (SLACK_USER,)),
    ("slack", f"Socket mode needs {SLACK_APP}", (SLACK_APP,)),
    ("bot_token", f"TELEGRAM_BOT_TOKEN={TELEGRAM}", (TELEGRAM,)),
    ("bot_token", f"BotFather gave me {TELEGRAM_2} for @memclaw_bot", (TELEGRAM_2,)),
    ("bot_token", f"Bot-token för Telegram: {TELEGRAM}", (TELEGRAM,)),
    ("bot_token", f"DISCORD_TOKEN={DISCORD_BOT}", (DISCORD_BOT,)),
    ("bot_token", f"the discord bot logs in with {DISCORD_BOT}", (DISCORD_BOT,)),
    ("url_token", f"Post alerts to {SLACK_HOOK} please", (SLACK_HOOK_PATH,)),
    ("url_token", f"discord webhook: {DISCORD_HOOK}", (DISCORD_HOOK.rsplit("/", 1)[1],)),
    ("url_token", f"Teams channel hook {TEAMS_HOOK}", (TEAMS_HOOK.split("/webhookb2/")[1],)),
    (
        "url_token",
        f"Zap endpoint https://api.example.io/webhooks/{GENERIC_HOOK_SECRET}/run",
        (GENERIC_HOOK_SECRET,),
    ),
    (
        "url_token",
        f"callback: https://example.com/callback?token={URL_TOKEN}&next=/home",
        (URL_TOKEN,),
    ),
    (
        "url_token",
        "https://acct.blob.core.windows.net/backups/db.tar?sv=2022-11-02&se=2026-12-01"
        f"&sr=b&sp=r&sig={AZURE_SIG}",
        (AZURE_SIG,),
    ),
    ("url_token", f"https://maps.example.com/api/geocode?key={MAPS_KEY}&q=stockholm", (MAPS_KEY,)),
    ("url_token", f"open https://app.example.com/login?access_token={URL_TOKEN}", (URL_TOKEN,)),
    ("url_password", f"DATABASE_URL=postgres://app:{DB_PW}@db.internal:5432/prod", (DB_PW,)),
    ("url_password", f"cache lives at redis://:{REDIS_PW}@cache.local:6379/0", (REDIS_PW,)),
    ("url_password", f"mongodb+srv://admin:{MONGO_PW}@cluster0.ab1cd.mongodb.net/app", (MONGO_PW,)),
    ("assignment", "password=hunter2", ("hunter2",)),
    ("assignment", "passwd: S3cr3t!pass", ("S3cr3t!pass",)),
    ("assignment", f'token = "{RAND_32}"', (RAND_32,)),
    ("assignment", "secret='kanelbulle-42'", ("kanelbulle-42",)),
    ("assignment", f"api_key: {RAND_HEX_32}", (RAND_HEX_32,)),
    ("assignment", f"apikey: {RAND_28}", (RAND_28,)),
    (
        "assignment",
        '{"username": "bob", "password": "correct horse battery staple"}',
        ("correct horse",),
    ),
    ("assignment", "database:\n  host: db.internal\n  password: Tr0ub4dor&3\n", ("Tr0ub4dor&3",)),
    ("assignment", "DB_PASSWORD=changeme", ("changeme",)),
    ("assignment", "SMTP_PASS=mailpass99", ("mailpass99",)),
    ("assignment", f"REDIS_PWD={REDIS_PW}", (REDIS_PW,)),
    ("assignment", "JWT_SECRET=supersecretvalue123", ("supersecretvalue123",)),
    ("assignment", f"SESSION_AUTH={RAND_30}", (RAND_30,)),
    ("assignment", f"STRIPE_KEY={RAND_36}", (RAND_36,)),
    ("assignment", f'export NPM_TOKEN="{NPM}"', (NPM,)),
    ("assignment", f"X-API-Key: {RAND_HEX_40}", (RAND_HEX_40,)),
    ("assignment", f'{{"apiKey": "{RAND_32}"}}', (RAND_32,)),
    ("assignment", f"client_secret: {RAND_40_B64}", (RAND_40_B64,)),
    ("assignment", 'password = "p@ssw0rd!"', ("p@ssw0rd!",)),
    ("assignment", "mysql -u root --password='s3cr3tR00t' prod", ("s3cr3tR00t",)),
    ("assignment", "run it with --token Zq8vN3kLp2Xw9 and wait", ("Zq8vN3kLp2Xw9",)),
    ("assignment", "the wifi password is Kaffe2024 btw", ("Kaffe2024",)),
    ("assignment", "Lösenordet är Vinter2025 till routern.", ("Vinter2025",)),
    ("assignment", "服务器的密码是 Qw3rty!9，别告诉别人", ("Qw3rty!9",)),
    ("assignment", "数据库密码：Zx9kLm2p", ("Zx9kLm2p",)),
    ("assignment", "ALTER USER app WITH PASSWORD 'N0tS0Secret';", ("N0tS0Secret",)),
    ("assignment", "My PIN is 482913.", ("482913",)),
    ("assignment", "Pairing code: 7Q4-XK9", ("7Q4-XK9",)),
    ("assignment", "AUTH_TOKEN=abc", ("abc",)),
    ("assignment", "password: 123456", ("123456",)),
    ("assignment", '{"password":"hunter2"}', ("hunter2",)),
    ("assignment", "- POSTGRES_PASSWORD=mysecretpassword", ("mysecretpassword",)),
    (
        "assignment",
        "kubectl create secret generic db --from-literal=password=S3cr3tKube",
        ("S3cr3tKube",),
    ),
    ("assignment", f"heroku config:set API_TOKEN={RAND_28}", (RAND_28,)),
    ("assignment", f"npm config set //registry.npmjs.org/:_authToken={RAND_36}", (RAND_36,)),
    ("assignment", f"Set-Cookie: session_token={RAND_40_B64}; HttpOnly", (RAND_40_B64,)),
    ("assignment", "passphrase: correct-horse-battery-staple", ("correct-horse-battery-staple",)),
    ("assignment", f"**Password:** {DB_PW}", (DB_PW,)),
    ("assignment", "secret_key_base = 'f00dbabe-deadbeef-Cafe42'", ("f00dbabe-deadbeef-Cafe42",)),
    ("assignment", f"min token: {RAND_30}", (RAND_30,)),
    ("assignment", f"令牌：{RAND_36}", (RAND_36,)),
    ("private_key", f"Here is the deploy key:\n{PEM_RSA}\nkeep it safe", (*PEM_BODY,)),
    ("private_key", PEM_OPENSSH, (*OPENSSH_BODY,)),
    (
        "private_key",
        f'{{"type": "service_account", "private_key": {PEM_JSON_ESCAPED}}}',
        (EC_BODY,),
    ),
    ("private_key", f"-----BEGIN EC PRIVATE KEY-----\n{TRUNCATED_BODY}\n", (TRUNCATED_BODY,)),
    (
        "private_key",
        f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{PGP_BODY}\n-----END PGP PRIVATE KEY BLOCK-----",
        (PGP_BODY,),
    ),
    ("jwt", f"here's the session jwt {JWT} for testing", (JWT,)),
    ("jwt", f"Cookie: session={JWT_2}", (JWT_2,)),
    ("vendor", f"GOOGLE_MAPS_KEY={GOOGLE}", (GOOGLE,)),
    ("vendor", f"the places API works with {GOOGLE_2} now", (GOOGLE_2,)),
    ("vendor", f"Stripe live secret: {STRIPE_SK}", (STRIPE_SK,)),
    ("vendor", f"restricted key {STRIPE_RK} for the reporting job", (STRIPE_RK,)),
    ("vendor", f"publishable key {STRIPE_PK}", (STRIPE_PK,)),
    ("vendor", f"in tests we use {STRIPE_TEST}", (STRIPE_TEST,)),
    ("vendor", f"STRIPE_WEBHOOK_SECRET={STRIPE_WH}", (STRIPE_WH,)),
    ("vendor", f"HF token {HF} has read access", (HF,)),
    ("vendor", f"GitLab: {GLPAT}", (GLPAT,)),
    ("vendor", f"twine upload -u __token__ -p {PYPI}", (PYPI,)),
    ("vendor", f"SendGrid {SENDGRID}", (SENDGRID,)),
    ("high_entropy", f"my api key is {RAND_32}", (RAND_32,)),
    ("high_entropy", f"cookie:\n  signing_salt: {RAND_28}\n", (RAND_28,)),
    ("high_entropy", f"Here is the credential: {RAND_40_B64}", (RAND_40_B64,)),
    ("high_entropy", f"API-nyckeln: {RAND_36}", (RAND_36,)),
    ("high_entropy", f"private_token: {RAND_HEX_40}", (RAND_HEX_40,)),
    ("high_entropy", f"the deploy key value is {RAND_44}", (RAND_44,)),
    ("high_entropy", f"KEY={RAND_30}", (RAND_30,)),
    ("high_entropy", f'<add key="ApiKey" value="{RAND_32}" />', (RAND_32,)),
    ("high_entropy", f"creds for staging: {RAND_36}", (RAND_36,)),
    ("high_entropy", f"encryption_salt = {RAND_44}", (RAND_44,)),
    (
        "several",
        f"Setup notes: OPENAI_API_KEY={OPENAI_LEGACY}\nSLACK_BOT_TOKEN={SLACK_BOT}\n"
        f"and the db password is {MONGO_PW}",
        (OPENAI_LEGACY, SLACK_BOT, MONGO_PW),
    ),
]

_SHA40 = _r(40, HEX)
_SHA64 = _r(64, HEX)
_UUID = f"{_r(8, HEX)}-{_r(4, HEX)}-4{_r(3, HEX)}-a{_r(3, HEX)}-{_r(12, HEX)}"
_B64_PUB = _r(68, B64)

LABELLED_NON_SECRET_CASES: list[tuple[str, str]] = [
    ("prose", "Bearer of bad news: the deploy failed again."),
    ("prose", "We discussed the token economy in the meeting."),
    ("prose", "the password policy requires 12 characters"),
    ("prose", "set password= in the config file"),
    ("hash_id", f"fixed in commit {_SHA40}, see the changelog"),
    ("hash_id", f"HEAD is now at {_SHA40[:7]} Merge branch 'main'"),
    ("hash_id", f"Request id {_UUID} failed with 502"),
    ("hash_id", f"UUID4: {_UUID}"),
    ("hash_id", f"session {_UUID} started"),
    ("hash_id", f"sha256: {_SHA64}"),
    ("hash_id", f"checksum: {_SHA64}"),
    ("hash_id", f"docker pull ghcr.io/acme/api@sha256:{_SHA64}"),
    ("hash_id", f"{_SHA64}  memclaw-0.1.0.tar.gz"),
    ("hash_id", f"md5 {_r(32, HEX)}"),
    ("hash_id", f'etag: "{_r(40, HEX)}"'),
    ("hash_id", f"trace_id={_r(32, HEX)}"),
    ("hash_id", f"integrity: sha512-{_r(86, B64)}=="),
    ("prefix_word", "sk-learn is not a real package; use scikit-learn"),
    ("prefix_word", "ask-me-anything session on Friday"),
    ("prefix_word", "update the task-list for the sprint"),
    ("prefix_word", "the skeleton loader flickers on slow networks"),
    ("prefix_word", "AKIANA is not an access key, it is a word I made up"),
    ("prefix_word", "AKIAIOSFODNN7 is too short to be a key id"),
    ("version_date", "Version 2.14.3-beta.1+build.5678 released"),
    ("version_date", "Python 3.11.7 on linux"),
    ("version_date", "Server IP is 192.168.1.42, gateway 10.0.0.1, IPv6 fe80::1ff:fe23:4567:890a"),
    ("version_date", "Meeting on 2026-11-29T10:00:00Z"),
    ("version_date", "2026-11-29 10:00:00 UTC"),
    ("version_date", "10:30 standup, 14:00 review"),
    ("version_date", "ratio 16:9 for the slides"),
    ("path_url", "/home/user/projects/memclaw/memclaw/gates/secrets.py"),
    ("path_url", "C:\\Users\\anna\\AppData\\Roaming\\Code\\User\\settings.json"),
    ("path_url", "https://github.com/openai/openai-python/blob/main/README.md"),
    ("path_url", "https://example.com/search?q=python+regex&page=2"),
    ("path_url", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
    ("path_url", "https://example.com/api?key=short1"),
    ("path_url", "postgres://localhost:5432/mydb"),
    ("path_url", "postgres://user:password@localhost:5432/db"),
    ("path_url", "git@github.com:acme/memclaw.git"),
    ("path_url", "ssh://git@host.example.com:2222/repo.git"),
    ("prose_i18n", "我们明天下午三点开会，讨论新的部署流程。"),
    ("prose_i18n", "密码策略要求至少12个字符。"),
    ("prose_i18n", "用户的令牌数量上限是4096。"),
    ("prose_i18n", "Vi ses på fredag, glöm inte lösenordspolicyn."),
    ("prose_i18n", "Lösenordet måste vara minst 12 tecken."),
    ("prose_i18n", "Användaren föredrar mörkt tema och svarar på svenska."),
    ("docs", "## Tokens\n\n- **Token**: a unit of text\n- **Context window**: 200k tokens\n"),
    ("docs", "| Key | Value |\n|---|---|\n| theme | dark |\n| lang | sv |"),
    ("docs", "The API key must be stored in the vault, never in code."),
    ("docs", "password: see 1Password entry 'Prod DB'"),
    ("code", "def login(username: str, password: str) -> Token:"),
    ("code", "token: Optional[str] = None"),
    ("code", "password: string;"),
    ("code", "token = get_token()"),
    ("code", 'api_key=os.environ["OPENAI_API_KEY"]'),
    ("code", "api_key=settings.OPENAI_API_KEY"),
    ("code", "connect(host=host, password=password)"),
    ("code", "password=self.password"),
    ("placeholder", "OPENAI_API_KEY=<your-key>"),
    ("placeholder", "API_KEY=${API_KEY}"),
    ("placeholder", "export GITHUB_TOKEN=$GH_TOKEN"),
    ("placeholder", 'password: "****"'),
    ("placeholder", "token: xxxx"),
    ("placeholder", "SECRET_KEY="),
    ("placeholder", "password: [REDACTED]"),
    ("placeholder", "api_key: ..."),
    ("placeholder", '"password": ""'),
    ("placeholder", "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx"),
    ("placeholder", "api_key: your_api_key_here"),
    ("placeholder", "password={{ db_password }}"),
    ("config_plain", "max_tokens: 4096"),
    ("config_plain", "TOKEN_TTL=3600"),
    ("config_plain", "PASSWORD_MIN_LENGTH=12"),
    ("config_plain", "AUTH_PROVIDER=google"),
    ("config_plain", "auth: oauth2"),
    ("config_plain", "sort_key: created_at"),
    ("config_plain", "KEY_FILE=/etc/ssl/private/server.key"),
    ("config_plain", "token_url: https://auth.example.com/oauth/token"),
    ("config_plain", "secret_name: prod/db/credentials"),
    ("config_plain", '"token_type": "bearer"'),
    ("config_plain", "token_count: 1532"),
    ("config_plain", "password_hash: $2b$12$abcdefghijklmnopqrstuv"),
    ("config_plain", "passwordless: true"),
    ("config_plain", "secret_santa: true"),
    ("config_plain", "first_pass: complete"),
    ("config_plain", "AWS_REGION=eu-north-1"),
    ("config_plain", "AWS_ACCESS_KEY_ID is read from the environment"),
    ("public_key", f"my ssh key is ssh-ed25519 {_B64_PUB} anna@laptop"),
    ("public_key", "SSH key fingerprint SHA256:" + _r(43, B64)),
    (
        "public_key",
        f"-----BEGIN PUBLIC KEY-----\n{_r(64, B64)}\n{_r(64, B64)}\n-----END PUBLIC KEY-----",
    ),
    ("public_key", f"-----BEGIN CERTIFICATE-----\n{_r(64, B64)}\n-----END CERTIFICATE-----"),
    ("docs", "The tokenizer splits text into tokens."),
    ("docs", "Use `Bearer` authentication with a short-lived token."),
    ("docs", "Authorization header format: `Authorization: Bearer <token>`"),
    ("docs", "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com"),
    ("docs", "Bearer tokens are documented in RFC 6750."),
    ("docs", "Base64 of 'hi' is aGk="),
    ("order_number", "isbn 978-3-16-148410-0"),
    ("order_number", "Call me at +46 70 123 45 67"),
    ("order_number", "Order #A1B2C3 shipped"),
    ("docs_prefix", "the commit message was 'fix: handle sk- prefix'"),
    ("docs_prefix", "We rotate the Slack token every 90 days."),
    ("docs_prefix", "xoxo, Anna"),
    ("docs_prefix", "Telegram channel @memclaw_updates"),
    ("docs_prefix", "hooks.slack.com is blocked by the firewall"),
    ("docs_prefix", "see https://discord.com/api/webhooks for the docs"),
    ("docs_prefix", "A JWT starts with eyJ because it is base64 of '{\"'."),
    ("docs_prefix", "AIza is the prefix of Google API keys."),
    ("docs_prefix", "The Stripe test mode uses keys starting with sk_test_."),
    ("docs_prefix", "pk_live_ keys are publishable"),
    ("docs_prefix", "ghp_ prefix means a personal access token"),
    ("docs_prefix", "sk-ant- is the Anthropic prefix"),
    ("config_plain", "key: AuthTokenProviderFactoryImpl2"),
    ("config_plain", "model: claude-3-5-sonnet-20241022"),
    ("config_plain", "MODEL=gpt-4o-mini-2024-07-18"),
    ("config_plain", "branch: feature/add-user-authentication-flow"),
    ("config_plain", "The secret: we use Redis for caching."),
    ("config_plain", "Token: the smallest unit the model reads."),
    ("config_plain", "key: value"),
    ("config_plain", "keyboard shortcut: Ctrl+Shift+P"),
    ("config_plain", "Monkey: 3, Donkey: 5"),
    ("config_plain", "The key insight: caching beats recomputing."),
    ("config_plain", "The Chrome extension id is aapocclcgogkmnckokdopfmhonfmgoek"),
    ("prose", "Her password was stolen last year, so she uses a manager now."),
    ("prose", "The password is too short."),
    ("prose", "password is required"),
    ("prose", "pairing code is required for new devices"),
    ("prose", "Remember: tokens expire after 3600 seconds."),
    ("prose", "PASS: test_login (0.02s)"),
    ("prose", "--- PASS: TestTokenRefresh (0.00s)"),
    ("prose", '<input type="password" name="password" autocomplete="current-password">'),
    ("prose", "grant_type=password&username=bob"),
    ("prose", "Tokenomics and secretaries are unrelated topics."),
    ("prose", "the secret ingredient is love"),
    ("prose", "The secrets manager is AWS Secrets Manager."),
    ("hash_id", "agent:main:" + _UUID),
    ("hash_id", "the blob QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco is on IPFS"),
    ("hash_id", "Price: 1,299 SEK"),
    ("hash_id", "I prefer uv over pip because it is faster."),
    ("hash_id", "Deshraj owns the frontend; the API keys are managed by Taranjeet."),
    ("hash_id", "Run `pytest -k test_token_refresh -x` before pushing."),
    ("docs", "[REDACTED:password] was removed from the note"),
    ("docs", "password=[REDACTED:password]"),
    ("docs", "The `password` field is optional when SSO is enabled."),
    ("docs", "Users authenticate with passkeys instead of passwords."),
    ("docs", "Set `OPENAI_API_KEY` in your shell profile, not in the repo."),
]


# --- capture issue: shapes that used to be stored verbatim ---------------------------------
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
REF_PROJ = SK + "proj-" + "abc123def456"
SHORT_SK_2 = SK + _r(16)
SHORT_PROJ_3 = SK + "proj-" + _r(12, URLSAFE)
SHORT_ANT_2 = SK + "ant-api03-" + _r(14)
SHORT_M0_3 = "m" + "0-" + _r(12)
SHORT_AK_3 = "a" + "k_" + _r(10)
SHORT_AK_4 = "a" + "k_" + "7fK2pQ9x"
TG_BODY_34 = _digits(10) + ":" + "AA" + _r(32, URLSAFE)
TG_BODY_36 = _digits(10) + ":" + "AA" + _r(34, URLSAFE)
API_ID = "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz"
GROQ_2 = "g" + "sk_" + _r(52)
XAI_2 = "x" + "ai-" + _r(80)
REPLICATE_2 = "r" + "8_" + _r(37)
PPLX_2 = "pp" + "lx-" + _r(48)
NOTION_2 = "se" + "cret_" + _r(43)
NOTION_NTN_2 = "nt" + "n_" + _digits(11) + _r(35)
LINEAR_2 = "li" + "n_api_" + _r(40)
ATLASSIAN_2 = "ATA" + "TT3xFfGF0" + _r(170, URLSAFE) + "=" + _r(8, HEX).upper()
DATABRICKS_2 = "da" + "pi" + _r(32, HEX) + "-2"
SUPABASE_2 = "sb" + "p_" + _r(40, HEX)
SUPABASE_SECRET_2 = "sb" + "_secret_" + _r(31, URLSAFE)
DO_PAT_2 = "do" + "p_v1_" + _r(64, HEX)
DO_REFRESH = "do" + "r_v1_" + _r(64, HEX)
SHOPIFY_2 = "sh" + "pat_" + _r(32, HEX)
SHOPIFY_CA = "sh" + "pca_" + _r(32, HEX)
SHOPIFY_PA = "sh" + "ppa_" + _r(32, HEX)
TWILIO_SK_2 = "S" + "K" + _r(32, HEX)
TWILIO_AUTH_2 = _r(32, HEX)
MAILGUN_2 = "ke" + "y-" + _r(32, HEX)
AGE_2 = "AGE-" + "SECRET-KEY-1" + "".join(_rng.choice(BECH32) for _ in range(58))
SQUARE_2 = "sq" + "0atp-" + _r(22, URLSAFE)
SQUARE_CSP = "sq" + "0csp-" + _r(43, URLSAFE)
SQUARE_EAAA = "EA" + "AA" + _r(60, URLSAFE)
FACEBOOK_3 = "EA" + "ACEdEose0cBA" + _r(110)
TWITTER_2 = "A" * 22 + _r(18) + "%2F" + _r(22) + "%3D" + _r(52)
AZURE_KEY_2 = _r(86, B64) + "=="
ENC_GHP = base64.b64encode(("gh" + "p_" + _r(36)).encode()).decode()
ENC_ANT = base64.b64encode((SK + "ant-api03-" + _r(40, URLSAFE)).encode()).decode()
ENC_AKIA_HEX = ("AK" + "IA" + _r(16, UPPER_ALNUM)).encode().hex()
ENC_OPENAI_HEX = (SK + "proj-" + _r(24)).encode().hex()
KEYED_A = _r(32)
KEYED_B = _r(40, URLSAFE)
KEYED_C = _r(26)
SPLIT_KEY = SK + "proj-" + _r(48, URLSAFE)
SPLIT_GHP_2 = "gh" + "p_" + _r(36)
SPLIT_SLACK = "xo" + "xb-" + _digits(12) + "-" + _digits(13) + "-" + _r(24)
SPLIT_AKIA_2 = "AK" + "IA" + _r(16, UPPER_ALNUM)

LABELLED_SECRET_CASES += [
    ("short_prefix", f"Extract this: my key is {REF_PROJ}", (REF_PROJ,)),
    ("short_prefix", f"OPENAI_API_KEY={REF_PROJ}", (REF_PROJ,)),
    ("short_prefix", f"old key {SHORT_SK_2}", (SHORT_SK_2,)),
    ("short_prefix", f"project key {SHORT_PROJ_3} for staging", (SHORT_PROJ_3,)),
    ("short_prefix", f"anthropic: {SHORT_ANT_2}", (SHORT_ANT_2,)),
    ("short_prefix", f"mem0 key {SHORT_M0_3}", (SHORT_M0_3,)),
    ("short_prefix", f"the Kite key is {SHORT_AK_3}", (SHORT_AK_3,)),
    ("short_prefix", f"ak key: {SHORT_AK_4}", (SHORT_AK_4,)),
    ("prose_en", "the password for the staging db is hunter2", ("hunter2",)),
    ("prose_en", "my PIN is 4471", ("4471",)),
    ("prose_en", "my password is hunter2-Blue!", ("hunter2-Blue",)),
    ("prose_en", "The passphrase for the backup disk is Orange-Kayak-19", ("Orange-Kayak-19",)),
    ("prose_en", "gate code is 1937", ("1937",)),
    ("prose_en", "my token is Tq8-Lw2-Pz9", ("Tq8-Lw2-Pz9",)),
    ("prose_en", "the wifi password: Lighthouse42", ("Lighthouse42",)),
    ("prose_en", "password for the printer = Pr1nt!ng", ("Pr1nt!ng",)),
    ("prose_en", "login is root, password Zebra#Moon5", ("Zebra#Moon5",)),
    ("prose_en", "the safe code is 90210", ("90210",)),
    ("prose_en", "My secret is Snowfall_77", ("Snowfall_77",)),
    ("prose_de", "Das Passwort für das WLAN ist Kuckuck-2023", ("Kuckuck-2023",)),
    ("prose_de", "Meine PIN lautet 3390", ("3390",)),
    ("prose_fr", "Le mot de passe du serveur est Baguette#12", ("Baguette#12",)),
    ("prose_fr", "mon code PIN est 6612", ("6612",)),
    ("prose_es", "La contraseña del correo es Paella2024!", ("Paella2024!",)),
    ("prose_es", "mi PIN es 7719", ("7719",)),
    ("prose_pt", "Minha senha é Cachorro88", ("Cachorro88",)),
    ("prose_pt", "a palavra-passe é Lisboa#2020", ("Lisboa#2020",)),
    ("prose_it", "La password del router è Pizza4Ever", ("Pizza4Ever",)),
    ("prose_it", "il PIN è 5521", ("5521",)),
    ("prose_nl", "Het wachtwoord is Molen2022!", ("Molen2022!",)),
    ("prose_nl", "mijn pincode is 8143", ("8143",)),
    ("prose_ja", "パスワードは Fuji-San3776 です", ("Fuji-San3776",)),
    ("prose_ja", "パスワード：Tokyo2020x", ("Tokyo2020x",)),
    ("prose_ru", "Пароль: Kotik2023!", ("Kotik2023!",)),
    ("prose_ru", "мой пароль Sibir-77", ("Sibir-77",)),
    ("prose_ko", "비밀번호는 Seoul2024! 입니다", ("Seoul2024!",)),
    ("prose_ko", "제 비밀번호: Bibim-77", ("Bibim-77",)),
    ("prose_fi", "Salasana on Mokki2023", ("Mokki2023",)),
    ("prose_fi", "PIN-koodini on 6083", ("6083",)),
    ("prose_pl", "Hasło to Wisla-1997", ("Wisla-1997",)),
    ("prose_pl", "moje hasło: Zubr2023!", ("Zubr2023!",)),
    ("prose_sv", "Koden till porten är 4512", ("4512",)),
    ("prose_zh", "我的PIN码是 5832", ("5832",)),
    ("keyed_config", f"api_id: {API_ID}", (API_ID,)),
    ("keyed_config", f"master_key: {KEYED_A}", (KEYED_A,)),
    ("keyed_config", f"app_secret = {KEYED_B}", (KEYED_B,)),
    ("keyed_config", f"consumer_secret: {KEYED_C}", (KEYED_C,)),
    ("keyed_config", f"api_hash={TWILIO_AUTH_2}", (TWILIO_AUTH_2,)),
    ("telegram", f"bot token {TG_BODY_34}", (TG_BODY_34,)),
    ("telegram", f"TELEGRAM_TOKEN={TG_BODY_36}", (TG_BODY_36,)),
    ("groq", f"groq: {GROQ_2}", (GROQ_2,)),
    ("xai", f"XAI_API_KEY={XAI_2}", (XAI_2,)),
    ("replicate", f"replicate token {REPLICATE_2}", (REPLICATE_2,)),
    ("perplexity", f"PERPLEXITY_API_KEY={PPLX_2}", (PPLX_2,)),
    ("notion", f"notion: {NOTION_2}", (NOTION_2,)),
    ("notion", f"use {NOTION_NTN_2} for the wiki sync", (NOTION_NTN_2,)),
    ("linear", f"LINEAR_API_KEY={LINEAR_2}", (LINEAR_2,)),
    ("atlassian", f"confluence token {ATLASSIAN_2}", (ATLASSIAN_2,)),
    ("databricks", f"DATABRICKS_TOKEN={DATABRICKS_2}", (DATABRICKS_2,)),
    ("supabase", f"supabase: {SUPABASE_2}", (SUPABASE_2,)),
    ("supabase", f"new secret key {SUPABASE_SECRET_2}", (SUPABASE_SECRET_2,)),
    ("digitalocean", f"DIGITALOCEAN_TOKEN={DO_PAT_2}", (DO_PAT_2,)),
    ("digitalocean", f"refresh token {DO_REFRESH}", (DO_REFRESH,)),
    ("shopify", f"shopify admin token {SHOPIFY_2}", (SHOPIFY_2,)),
    ("shopify", f"custom app {SHOPIFY_CA}", (SHOPIFY_CA,)),
    ("shopify", f"private app password {SHOPIFY_PA}", (SHOPIFY_PA,)),
    ("twilio", f"TWILIO_API_KEY={TWILIO_SK_2}", (TWILIO_SK_2,)),
    ("twilio", f"TWILIO_AUTH_TOKEN={TWILIO_AUTH_2}", (TWILIO_AUTH_2,)),
    ("mailgun", f"MAILGUN_API_KEY={MAILGUN_2}", (MAILGUN_2,)),
    ("mailgun", f"mailgun key {MAILGUN_2}", (MAILGUN_2,)),
    ("age", f"AGE_KEY: {AGE_2}", (AGE_2,)),
    ("square", f"square prod token {SQUARE_2}", (SQUARE_2,)),
    ("square", f"oauth secret {SQUARE_CSP}", (SQUARE_CSP,)),
    ("square", f"SQUARE_ACCESS_TOKEN={SQUARE_EAAA}", (SQUARE_EAAA,)),
    ("facebook", f"graph api token {FACEBOOK_3}", (FACEBOOK_3,)),
    ("twitter", f"bearer for the X API: {TWITTER_2}", (TWITTER_2,)),
    (
        "conn_string",
        "jdbc:postgresql://db:5432/app?user=app&password=Secr3tPg",
        ("Secr3tPg",),
    ),
    (
        "conn_string",
        "Driver={PostgreSQL};Server=db;Port=5432;Database=app;Uid=app;Password=Wh1sky!Sour;",
        ("Wh1sky!Sour",),
    ),
    (
        "conn_string",
        f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={AZURE_KEY_2}",
        (AZURE_KEY_2,),
    ),
    ("conn_string", "machine github.com login anna password Gh0st-Rider9", ("Gh0st-Rider9",)),
    ("conn_string", "curl -u deploy:Tr4ctor9 https://nexus.internal/repo", ("Tr4ctor9",)),
    ("conn_string", "mysql -h db -u app -pS3quel!99 app", ("S3quel!99",)),
    ("conn_string", "PGPASSWORD=elephant42 pg_dump app", ("elephant42",)),
    ("conn_string", "mail:\n  host: smtp.example.com\n  pass: Envel0pe!\n", ("Envel0pe!",)),
    ("encoded", f"GITHUB_TOKEN_B64={ENC_GHP}", (ENC_GHP,)),
    ("encoded", f"claude key base64: {ENC_ANT}", (ENC_ANT,)),
    ("encoded", f"access key id hex {ENC_AKIA_HEX}", (ENC_AKIA_HEX,)),
    ("encoded", f"{ENC_OPENAI_HEX}", (ENC_OPENAI_HEX,)),
]

# (family, consecutive user messages, values that must be gone from every message)
SPLIT_CASES: list[tuple[str, list[str], tuple[str, ...]]] = [
    ("split", [f"my key is {SPLIT_KEY[:25]}", SPLIT_KEY[25:]], (SPLIT_KEY[25:],)),
    ("split", [f"token {SPLIT_GHP_2[:14]}", SPLIT_GHP_2[14:]], (SPLIT_GHP_2[14:],)),
    ("split", [f"SLACK_BOT_TOKEN={SPLIT_SLACK[:20]}", SPLIT_SLACK[20:]], (SPLIT_SLACK[20:],)),
    ("split", [SPLIT_AKIA_2[:10], SPLIT_AKIA_2[10:]], (SPLIT_AKIA_2[:10], SPLIT_AKIA_2[10:])),
    ("split", ["the password for the NAS is", "Quokka-2024"], ("Quokka-2024",)),
]

LABELLED_NON_SECRET_CASES += [
    ("git_sha", f"pushed {_r(7, HEX)}..{_r(7, HEX)} to main"),
    ("git_sha", f"bisect points at {_r(40, HEX)}"),
    ("git_sha", f"parent {_r(40, HEX)}"),
    ("uuid", f"user {_UUID} logged in"),
    ("uuid", f"idempotency_key: {_UUID}"),
    ("order_number", "Order 408-1234567-7654321 arrives Tuesday"),
    ("order_number", "booking reference KX7Q2M"),
    ("order_number", "invoice no. 2026-0042"),
    ("order_number", "case number 00045123"),
    ("version", "v1.2.3-alpha.4"),
    ("version", "openssl 3.0.13 30 Jan 2024"),
    ("version", "Chrome/122.0.6261.94"),
    ("prose_password", "the password is in 1Password under 'router'"),
    ("prose_password", "my password is too weak, I need a new one"),
    ("prose_password", "what is the password for the wifi?"),
    ("prose_password", "the password was changed yesterday"),
    ("prose_password", "Das Passwort ist zu kurz."),
    ("prose_password", "Mein Passwort ist geheim."),
    ("prose_password", "Le mot de passe est expiré."),
    ("prose_password", "Mi contraseña es segura."),
    ("prose_password", "A senha é obrigatória."),
    ("prose_password", "La password è scaduta."),
    ("prose_password", "Het wachtwoord is onjuist."),
    ("prose_password", "パスワードは忘れました"),
    ("prose_password", "Пароль: смотри в менеджере паролей"),
    ("prose_password", "비밀번호는 안전합니다"),
    ("prose_password", "Salasana on liian lyhyt."),
    ("prose_password", "Hasło to podstawa bezpieczeństwa."),
    ("prose_password", "Lösenordet är hemligt."),
    ("pin", "PIN reset instructions are in the wiki"),
    ("pin", "the PIN is on the back of the card"),
    ("pin", "your PIN is 4 digits"),
    ("code", "the code is 200 lines long"),
    ("code", "the code is on GitHub"),
    ("code", "response code: 429"),
    ("code", "country code is +46"),
    ("code", "the discount code is SAVE10"),
    ("key_token_prose", "the token is valid for one hour"),
    ("key_token_prose", "the key is in the drawer"),
    ("key_token_prose", "the secret is out"),
    ("docs_prefix", "Notion secrets start with secret_ and Linear keys with lin_api_."),
    ("docs_prefix", "Square tokens look like sq0atp-... in the dashboard"),
    ("docs_prefix", "the sk-proj- prefix marks project keys"),
    ("hash", f"sha256sum: {_r(64, HEX)}"),
    ("hash", f"blob {_r(40, HEX)}"),
    ("hash", f"request_id: {_r(32, HEX)}"),
    ("encoded_plain", "base64 of 'memclaw' is bWVtY2xhdw=="),
    ("encoded_plain", "color: #ff8800"),
    ("config_plain", "key_count: 12"),
    ("config_plain", "pass: 2"),
    ("config_plain", "api_timeout: 30"),
    ("config_plain", "user_id: 48213"),
    ("command_no_value", "mysql -u app -p"),
    ("command_no_value", "curl -u deploy https://nexus.internal/repo"),
    ("command_no_value", "PGPASSWORD= psql -h db"),
    ("command_no_value", "jdbc:mysql://db:3306/shop?user=app"),
    ("chat", "Nothing secret here, just chatting about lunch."),
]

# Issue 27: families that still slipped (the five strings, then more of each family).
LABELLED_SECRET_CASES += [
    ("prose_sv", "lösenordet till VPN:en är Snöfall#2026", ("Snöfall#2026",)),
    ("no_verb", "the staging db password hunter2", ("hunter2",)),
    ("login_pair", "The admin login is root / hunter2", ("hunter2",)),
    ("plain_words", "The wifi password is CorrectHorseBatteryStaple", ("CorrectHorse",)),
    ("url_creds", "DATABASE_URL=postgres://admin:pw@db.internal:5432/app", ("admin:pw@",)),
    ("no_verb", "password hunter2 for the test box", ("hunter2",)),
    ("no_verb", "pw: x9fj2k", ("x9fj2k",)),
    ("no_verb", "the storage room passcode 1234", ("1234",)),
    ("no_verb", "PWD Tiger#Lily", ("Tiger#Lily",)),
    ("no_verb", "Mein Passwort Kuchen2020", ("Kuchen2020",)),
    ("no_verb", "lösenord Hallon55 till kontot", ("Hallon55",)),
    ("plain_words", "the wifi password is sunflower", ("sunflower",)),
    ("plain_words", "my bank password is Dragonfly.", ("Dragonfly",)),
    ("plain_words", "password: marigold", ("marigold",)),
    ("plain_words", "Das Passwort ist Schmetterling", ("Schmetterling",)),
    ("plain_words", "lösenordet är Kanelbulle", ("Kanelbulle",)),
    ("plain_words", "le mot de passe est Lavande", ("Lavande",)),
    ("plain_words", "la contraseña es TortugaVerde", ("TortugaVerde",)),
    ("url_creds", "https://bob:hunter2@intranet.local/wiki", ("hunter2",)),
    ("url_creds", "redis://:pw@cache:6379", (":pw@",)),
    ("url_creds", "amqp://guest:guest@localhost:5672/", ("guest@",)),
    ("url_creds", "mongodb+srv://ops:Zz9@cluster.mongodb.net/db", ("Zz9",)),
    ("env_url", "SENTRY_DSN_URL=https://app:k3y@sentry.internal/4", ("k3y",)),
    ("login_pair", "login: root/toor", ("toor",)),
    ("login_pair", "the printer credentials are admin / Printer99", ("Printer99",)),
    ("login_pair", "creds are bob:Tr0ub4dor", ("Tr0ub4dor",)),
    ("login_pair", "inloggningen är admin / Sommar2025", ("Sommar2025",)),
    ("login_pair", "Anmeldung: admin / Brot123", ("Brot123",)),
    ("login_pair", "identifiants : admin / Fromage77", ("Fromage77",)),
    ("login_pair", "credenciales: admin / Paella88", ("Paella88",)),
    ("prose_en", "the router password's Falcon99", ("Falcon99",)),
    ("config_i18n", "KENNWORT=Edelweiss", ("Edelweiss",)),
    ("config_i18n", "MOT_DE_PASSE=lavande", ("lavande",)),
    ("config_i18n", "wachtwoord=fietsbel", ("fietsbel",)),
    ("config_i18n", "пароль=медведь", ("медведь",)),
]

LABELLED_NON_SECRET_CASES += [
    ("password_prose", "the password policy requires 12 characters"),
    ("password_prose", "reset your password at the portal"),
    ("password_prose", "I forgot my password yesterday"),
    ("password_prose", "the password is expired"),
    ("password_prose", "the password is long enough"),
    ("password_prose", "the password is fine"),
    ("password_prose", "password strength meter"),
    ("password_prose", "password: required"),
    ("password_prose", "Passwort: siehe Tresor"),
    ("password_prose", "pwd /home/anna/projects"),
    ("password_prose", "hash the password sha256 style"),
    ("password_prose", "the password is different now"),
    ("password_prose", "Password manager: LastPass"),
    ("lookalike_noun", "passport number renewal"),
    ("slash_pair", "user/group permissions"),
    ("slash_pair", "login: Google/Facebook"),
    ("slash_pair", "login via OAuth/OIDC"),
    ("slash_pair", "credentials: email/password"),
    ("url_plain", "https://example.com/login"),
    ("url_plain", "postgres://user:pass@host/db"),
    ("url_plain", "mysql://localhost:3306/app"),
    ("slash_pair", "logins went up to 500/week"),
    ("slash_pair", "login to aws/console"),
    ("slash_pair", "login: github.com/settings"),
    ("password_prose", "my password's strength"),
    ("password_prose", "the password's length is 12"),
    ("config_i18n", "KENNWORT_MIN_LENGTH=8"),
    ("config_i18n", "salasana_vaihdettu: true"),
]

SECRET_CASES: list[tuple[str, tuple[str, ...]]] = [(t, s) for _f, t, s in LABELLED_SECRET_CASES]
NON_SECRET_CASES: list[str] = [t for _f, t in LABELLED_NON_SECRET_CASES]
