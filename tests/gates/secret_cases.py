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

SECRET_CASES: list[tuple[str, tuple[str, ...]]] = [
    # OpenAI / Anthropic style
    (f"OPENAI_API_KEY={OPENAI_PROJ}", (OPENAI_PROJ,)),
    (f"My OpenAI key is {OPENAI_LEGACY}, please use it for the embeddings job.", (OPENAI_LEGACY,)),
    (f'client = OpenAI(api_key="{OPENAI_LEGACY}")', (OPENAI_LEGACY,)),
    (f"Använd nyckeln {OPENAI_PROJ} för produktionsmiljön.", (OPENAI_PROJ,)),
    (f"openai:\n  key: {OPENAI_SVC}\n  model: gpt-4o", (OPENAI_SVC,)),
    (f"test key for the demo: {OPENAI_HANDMADE}", (OPENAI_HANDMADE,)),
    (f"ANTHROPIC_API_KEY={ANTHROPIC}", (ANTHROPIC,)),
    (f"我的 Anthropic 密钥是 {ANTHROPIC_2}，不要外传。", (ANTHROPIC_2,)),
    (f"The Claude key ({ANTHROPIC}) was rotated yesterday.", (ANTHROPIC,)),
    # mem0
    (f"MEM0_API_KEY={MEM0}", (MEM0,)),
    (f"use mem0 key {MEM0_2} for the plugin config", (MEM0_2,)),
    # GitHub
    (f"export GITHUB_TOKEN={GHP}", (GHP,)),
    (f"git clone https://{GHP}@github.com/acme/infra.git", (GHP,)),
    (f'{{"token": "{GHO}", "scope": "repo"}}', (GHO,)),
    (f"The app installation returned {GHS} for the CI job.", (GHS,)),
    (f"user-to-server token {GHU} expires in 8 hours", (GHU,)),
    (f"refresh with {GHR} when it expires", (GHR,)),
    (f"Fine-grained PAT: {GH_PAT}", (GH_PAT,)),
    (f"Här är min GitHub-token: {GHP}", (GHP,)),
    (f"https://x-access-token:{GHS}@github.com/acme/app.git", (GHS,)),
    # AWS
    (f"aws_access_key_id = {AKIA}", (AKIA,)),
    (f"aws_secret_access_key = {AWS_SECRET}", (AWS_SECRET,)),
    (f"AWS_SECRET_ACCESS_KEY={AWS_SECRET_2}", (AWS_SECRET_2,)),
    (
        f"[default]\naws_access_key_id={AKIA_2}\naws_secret_access_key={AWS_SECRET}\n",
        (AKIA_2, AWS_SECRET),
    ),
    (f"STS gave me {ASIA} as the temporary access key id", (ASIA,)),
    (f"Nyckel-id för AWS: {AKIA}", (AKIA,)),
    # ak_ keys
    (f"The Kite API key {AK_KEY} expires Friday.", (AK_KEY,)),
    (f"configure with ak {AK_KEY_2} please", (AK_KEY_2,)),
    # Bearer / Authorization headers
    (
        f"curl -H 'Authorization: Bearer {OPAQUE_BEARER}' https://api.example.com/v1",
        (OPAQUE_BEARER,),
    ),
    (f"Authorization: Bearer {JWT}", (JWT,)),
    (f"send it with header bearer {OPAQUE_BEARER}", (OPAQUE_BEARER,)),
    (f"Authorization: Basic {BASIC}", (BASIC,)),
    (f"请在请求头里加上 Authorization: Bearer {OPAQUE_BEARER} 再重试", (OPAQUE_BEARER,)),
    # Slack
    (f"SLACK_BOT_TOKEN={SLACK_BOT}", (SLACK_BOT,)),
    (f"the old slack user token {SLACK_USER} still works", (SLACK_USER,)),
    (f"Socket mode needs {SLACK_APP}", (SLACK_APP,)),
    # Telegram / Discord bots
    (f"TELEGRAM_BOT_TOKEN={TELEGRAM}", (TELEGRAM,)),
    (f"BotFather gave me {TELEGRAM_2} for @memclaw_bot", (TELEGRAM_2,)),
    (f"Bot-token för Telegram: {TELEGRAM}", (TELEGRAM,)),
    (f"DISCORD_TOKEN={DISCORD_BOT}", (DISCORD_BOT,)),
    (f"the discord bot logs in with {DISCORD_BOT}", (DISCORD_BOT,)),
    # Webhooks and tokens in URLs
    (f"Post alerts to {SLACK_HOOK} please", (SLACK_HOOK_PATH,)),
    (f"discord webhook: {DISCORD_HOOK}", (DISCORD_HOOK.rsplit("/", 1)[1],)),
    (f"Teams channel hook {TEAMS_HOOK}", (TEAMS_HOOK.split("/webhookb2/")[1],)),
    (
        f"Zap endpoint https://api.example.io/webhooks/{GENERIC_HOOK_SECRET}/run",
        (GENERIC_HOOK_SECRET,),
    ),
    (f"callback: https://example.com/callback?token={URL_TOKEN}&next=/home", (URL_TOKEN,)),
    (
        "https://acct.blob.core.windows.net/backups/db.tar?sv=2022-11-02&se=2026-12-01"
        f"&sr=b&sp=r&sig={AZURE_SIG}",
        (AZURE_SIG,),
    ),
    (f"https://maps.example.com/api/geocode?key={MAPS_KEY}&q=stockholm", (MAPS_KEY,)),
    (f"open https://app.example.com/login?access_token={URL_TOKEN}", (URL_TOKEN,)),
    # Credentials inside connection URLs
    (f"DATABASE_URL=postgres://app:{DB_PW}@db.internal:5432/prod", (DB_PW,)),
    (f"cache lives at redis://:{REDIS_PW}@cache.local:6379/0", (REDIS_PW,)),
    (f"mongodb+srv://admin:{MONGO_PW}@cluster0.ab1cd.mongodb.net/app", (MONGO_PW,)),
    # Assignments in all their forms
    ("password=hunter2", ("hunter2",)),
    ("passwd: S3cr3t!pass", ("S3cr3t!pass",)),
    (f'token = "{RAND_32}"', (RAND_32,)),
    ("secret='kanelbulle-42'", ("kanelbulle-42",)),
    (f"api_key: {RAND_HEX_32}", (RAND_HEX_32,)),
    (f"apikey: {RAND_28}", (RAND_28,)),
    ('{"username": "bob", "password": "correct horse battery staple"}', ("correct horse",)),
    ("database:\n  host: db.internal\n  password: Tr0ub4dor&3\n", ("Tr0ub4dor&3",)),
    ("DB_PASSWORD=changeme", ("changeme",)),
    ("SMTP_PASS=mailpass99", ("mailpass99",)),
    (f"REDIS_PWD={REDIS_PW}", (REDIS_PW,)),
    ("JWT_SECRET=supersecretvalue123", ("supersecretvalue123",)),
    (f"SESSION_AUTH={RAND_30}", (RAND_30,)),
    (f"STRIPE_KEY={RAND_36}", (RAND_36,)),
    (f'export NPM_TOKEN="{NPM}"', (NPM,)),
    (f"X-API-Key: {RAND_HEX_40}", (RAND_HEX_40,)),
    (f'{{"apiKey": "{RAND_32}"}}', (RAND_32,)),
    (f"client_secret: {RAND_40_B64}", (RAND_40_B64,)),
    ('password = "p@ssw0rd!"', ("p@ssw0rd!",)),
    ("mysql -u root --password='s3cr3tR00t' prod", ("s3cr3tR00t",)),
    ("run it with --token Zq8vN3kLp2Xw9 and wait", ("Zq8vN3kLp2Xw9",)),
    ("the wifi password is Kaffe2024 btw", ("Kaffe2024",)),
    ("Lösenordet är Vinter2025 till routern.", ("Vinter2025",)),
    ("服务器的密码是 Qw3rty!9，别告诉别人", ("Qw3rty!9",)),
    ("数据库密码：Zx9kLm2p", ("Zx9kLm2p",)),
    ("ALTER USER app WITH PASSWORD 'N0tS0Secret';", ("N0tS0Secret",)),
    ("My PIN is 482913.", ("482913",)),
    ("Pairing code: 7Q4-XK9", ("7Q4-XK9",)),
    ("AUTH_TOKEN=abc", ("abc",)),
    ("password: 123456", ("123456",)),
    ('{"password":"hunter2"}', ("hunter2",)),
    ("- POSTGRES_PASSWORD=mysecretpassword", ("mysecretpassword",)),
    (
        "kubectl create secret generic db --from-literal=password=S3cr3tKube",
        ("S3cr3tKube",),
    ),
    (f"heroku config:set API_TOKEN={RAND_28}", (RAND_28,)),
    (f"npm config set //registry.npmjs.org/:_authToken={RAND_36}", (RAND_36,)),
    (f"Set-Cookie: session_token={RAND_40_B64}; HttpOnly", (RAND_40_B64,)),
    ("passphrase: correct-horse-battery-staple", ("correct-horse-battery-staple",)),
    (f"**Password:** {DB_PW}", (DB_PW,)),
    ("secret_key_base = 'f00dbabe-deadbeef-Cafe42'", ("f00dbabe-deadbeef-Cafe42",)),
    (f"min token: {RAND_30}", (RAND_30,)),
    (f"令牌：{RAND_36}", (RAND_36,)),
    # PEM private keys
    (f"Here is the deploy key:\n{PEM_RSA}\nkeep it safe", (*PEM_BODY,)),
    (PEM_OPENSSH, (*OPENSSH_BODY,)),
    (f'{{"type": "service_account", "private_key": {PEM_JSON_ESCAPED}}}', (EC_BODY,)),
    (f"-----BEGIN EC PRIVATE KEY-----\n{TRUNCATED_BODY}\n", (TRUNCATED_BODY,)),
    (
        f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{PGP_BODY}\n-----END PGP PRIVATE KEY BLOCK-----",
        (PGP_BODY,),
    ),
    # JWTs
    (f"here's the session jwt {JWT} for testing", (JWT,)),
    (f"Cookie: session={JWT_2}", (JWT_2,)),
    # Google / Stripe / other vendors
    (f"GOOGLE_MAPS_KEY={GOOGLE}", (GOOGLE,)),
    (f"the places API works with {GOOGLE_2} now", (GOOGLE_2,)),
    (f"Stripe live secret: {STRIPE_SK}", (STRIPE_SK,)),
    (f"restricted key {STRIPE_RK} for the reporting job", (STRIPE_RK,)),
    (f"publishable key {STRIPE_PK}", (STRIPE_PK,)),
    (f"in tests we use {STRIPE_TEST}", (STRIPE_TEST,)),
    (f"STRIPE_WEBHOOK_SECRET={STRIPE_WH}", (STRIPE_WH,)),
    (f"HF token {HF} has read access", (HF,)),
    (f"GitLab: {GLPAT}", (GLPAT,)),
    (f"twine upload -u __token__ -p {PYPI}", (PYPI,)),
    (f"SendGrid {SENDGRID}", (SENDGRID,)),
    # High-entropy strings in context
    (f"my api key is {RAND_32}", (RAND_32,)),
    (f"cookie:\n  signing_salt: {RAND_28}\n", (RAND_28,)),
    (f"Here is the credential: {RAND_40_B64}", (RAND_40_B64,)),
    (f"API-nyckeln: {RAND_36}", (RAND_36,)),
    (f"private_token: {RAND_HEX_40}", (RAND_HEX_40,)),
    (f"the deploy key value is {RAND_44}", (RAND_44,)),
    (f"KEY={RAND_30}", (RAND_30,)),
    (f'<add key="ApiKey" value="{RAND_32}" />', (RAND_32,)),
    (f"creds for staging: {RAND_36}", (RAND_36,)),
    (f"encryption_salt = {RAND_44}", (RAND_44,)),
    # Several secrets in one message
    (
        f"Setup notes: OPENAI_API_KEY={OPENAI_LEGACY}\nSLACK_BOT_TOKEN={SLACK_BOT}\n"
        f"and the db password is {MONGO_PW}",
        (OPENAI_LEGACY, SLACK_BOT, MONGO_PW),
    ),
]

_SHA40 = _r(40, HEX)
_SHA64 = _r(64, HEX)
_UUID = f"{_r(8, HEX)}-{_r(4, HEX)}-4{_r(3, HEX)}-a{_r(3, HEX)}-{_r(12, HEX)}"
_B64_PUB = _r(68, B64)

NON_SECRET_CASES: list[str] = [
    "Bearer of bad news: the deploy failed again.",
    "We discussed the token economy in the meeting.",
    "the password policy requires 12 characters",
    "set password= in the config file",
    f"fixed in commit {_SHA40}, see the changelog",
    f"HEAD is now at {_SHA40[:7]} Merge branch 'main'",
    f"Request id {_UUID} failed with 502",
    f"UUID4: {_UUID}",
    f"session {_UUID} started",
    f"sha256: {_SHA64}",
    f"checksum: {_SHA64}",
    f"docker pull ghcr.io/acme/api@sha256:{_SHA64}",
    f"{_SHA64}  memclaw-0.1.0.tar.gz",
    f"md5 {_r(32, HEX)}",
    f'etag: "{_r(40, HEX)}"',
    f"trace_id={_r(32, HEX)}",
    f"integrity: sha512-{_r(86, B64)}==",
    "sk-learn is not a real package; use scikit-learn",
    "ask-me-anything session on Friday",
    "update the task-list for the sprint",
    "the skeleton loader flickers on slow networks",
    "AKIANA is not an access key, it is a word I made up",
    "AKIAIOSFODNN7 is too short to be a key id",
    "Version 2.14.3-beta.1+build.5678 released",
    "Python 3.11.7 on linux",
    "Server IP is 192.168.1.42, gateway 10.0.0.1, IPv6 fe80::1ff:fe23:4567:890a",
    "Meeting on 2026-11-29T10:00:00Z",
    "2026-11-29 10:00:00 UTC",
    "10:30 standup, 14:00 review",
    "ratio 16:9 for the slides",
    "/home/user/projects/memclaw/memclaw/gates/secrets.py",
    "C:\\Users\\anna\\AppData\\Roaming\\Code\\User\\settings.json",
    "https://github.com/openai/openai-python/blob/main/README.md",
    "https://example.com/search?q=python+regex&page=2",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://example.com/api?key=short1",
    "postgres://localhost:5432/mydb",
    "postgres://user:password@localhost:5432/db",
    "git@github.com:acme/memclaw.git",
    "ssh://git@host.example.com:2222/repo.git",
    "我们明天下午三点开会，讨论新的部署流程。",
    "密码策略要求至少12个字符。",
    "用户的令牌数量上限是4096。",
    "Vi ses på fredag, glöm inte lösenordspolicyn.",
    "Lösenordet måste vara minst 12 tecken.",
    "Användaren föredrar mörkt tema och svarar på svenska.",
    "## Tokens\n\n- **Token**: a unit of text\n- **Context window**: 200k tokens\n",
    "| Key | Value |\n|---|---|\n| theme | dark |\n| lang | sv |",
    "The API key must be stored in the vault, never in code.",
    "password: see 1Password entry 'Prod DB'",
    "def login(username: str, password: str) -> Token:",
    "token: Optional[str] = None",
    "password: string;",
    "token = get_token()",
    'api_key=os.environ["OPENAI_API_KEY"]',
    "api_key=settings.OPENAI_API_KEY",
    "connect(host=host, password=password)",
    "password=self.password",
    "OPENAI_API_KEY=<your-key>",
    "API_KEY=${API_KEY}",
    "export GITHUB_TOKEN=$GH_TOKEN",
    'password: "****"',
    "token: xxxx",
    "SECRET_KEY=",
    "password: [REDACTED]",
    "api_key: ...",
    '"password": ""',
    "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx",
    "api_key: your_api_key_here",
    "password={{ db_password }}",
    "max_tokens: 4096",
    "TOKEN_TTL=3600",
    "PASSWORD_MIN_LENGTH=12",
    "AUTH_PROVIDER=google",
    "auth: oauth2",
    "sort_key: created_at",
    "KEY_FILE=/etc/ssl/private/server.key",
    "token_url: https://auth.example.com/oauth/token",
    "secret_name: prod/db/credentials",
    '"token_type": "bearer"',
    "token_count: 1532",
    "password_hash: $2b$12$abcdefghijklmnopqrstuv",
    "passwordless: true",
    "secret_santa: true",
    "first_pass: complete",
    "AWS_REGION=eu-north-1",
    "AWS_ACCESS_KEY_ID is read from the environment",
    f"my ssh key is ssh-ed25519 {_B64_PUB} anna@laptop",
    "SSH key fingerprint SHA256:" + _r(43, B64),
    f"-----BEGIN PUBLIC KEY-----\n{_r(64, B64)}\n{_r(64, B64)}\n-----END PUBLIC KEY-----",
    f"-----BEGIN CERTIFICATE-----\n{_r(64, B64)}\n-----END CERTIFICATE-----",
    "The tokenizer splits text into tokens.",
    "Use `Bearer` authentication with a short-lived token.",
    "Authorization header format: `Authorization: Bearer <token>`",
    "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com",
    "Bearer tokens are documented in RFC 6750.",
    "Base64 of 'hi' is aGk=",
    "isbn 978-3-16-148410-0",
    "Call me at +46 70 123 45 67",
    "Order #A1B2C3 shipped",
    "the commit message was 'fix: handle sk- prefix'",
    "We rotate the Slack token every 90 days.",
    "xoxo, Anna",
    "Telegram channel @memclaw_updates",
    "hooks.slack.com is blocked by the firewall",
    "see https://discord.com/api/webhooks for the docs",
    "A JWT starts with eyJ because it is base64 of '{\"'.",
    "AIza is the prefix of Google API keys.",
    "The Stripe test mode uses keys starting with sk_test_.",
    "pk_live_ keys are publishable",
    "ghp_ prefix means a personal access token",
    "sk-ant- is the Anthropic prefix",
    "key: AuthTokenProviderFactoryImpl2",
    "model: claude-3-5-sonnet-20241022",
    "MODEL=gpt-4o-mini-2024-07-18",
    "branch: feature/add-user-authentication-flow",
    "The secret: we use Redis for caching.",
    "Token: the smallest unit the model reads.",
    "key: value",
    "keyboard shortcut: Ctrl+Shift+P",
    "Monkey: 3, Donkey: 5",
    "The key insight: caching beats recomputing.",
    "The Chrome extension id is aapocclcgogkmnckokdopfmhonfmgoek",
    "Her password was stolen last year, so she uses a manager now.",
    "The password is too short.",
    "password is required",
    "pairing code is required for new devices",
    "Remember: tokens expire after 3600 seconds.",
    "PASS: test_login (0.02s)",
    "--- PASS: TestTokenRefresh (0.00s)",
    '<input type="password" name="password" autocomplete="current-password">',
    "grant_type=password&username=bob",
    "Tokenomics and secretaries are unrelated topics.",
    "the secret ingredient is love",
    "The secrets manager is AWS Secrets Manager.",
    "agent:main:" + _UUID,
    "the blob QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco is on IPFS",
    "Price: 1,299 SEK",
    "I prefer uv over pip because it is faster.",
    "Deshraj owns the frontend; the API keys are managed by Taranjeet.",
    "Run `pytest -k test_token_refresh -x` before pushing.",
    "[REDACTED:password] was removed from the note",
    "password=[REDACTED:password]",
    "The `password` field is optional when SSO is enabled.",
    "Users authenticate with passkeys instead of passwords.",
    "Set `OPENAI_API_KEY` in your shell profile, not in the repo.",
]
