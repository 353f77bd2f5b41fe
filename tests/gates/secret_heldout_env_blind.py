"""A blind check of the env-variable family, written after the gate changes but before it was
ever scored, and never tuned on.

``secret_heldout_env`` was written before the fix, but its misses were printed (the "before"
figures) while the fix was being made, so its "after" figure flatters a little. This set was
written without running the gate on any of its lines; its first score is the figure to trust.
Do not add cases here to fix a miss; add them to ``secret_env_tuning``.

Every credential is made up.
"""

from __future__ import annotations

BLIND_SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    ("env_shell", "export PGPASSWORD=Drift-wood-31 && pg_dump shop", ("Drift-wood-31",)),
    ("env_shell", "POSTGRES_PASSWORD=meadowlark docker compose up", ("meadowlark",)),
    ("env_shell", "export NPM_TOKEN=npm-ci-Kiwi-7731", ("npm-ci-Kiwi-7731",)),
    ("env_shell", "SENTRY_AUTH_TOKEN=glacier-mint-55 sentry-cli releases new", ("glacier-mint",)),
    ("env_shell", "export MINIO_ROOT_PASSWORD='paper lantern 6'", ("paper lantern 6",)),
    ("env_yaml", "      MONGO_INITDB_ROOT_PASSWORD: brambleberry", ("brambleberry",)),
    ("env_yaml", "  - name: SMTP_PASSWORD\n    value: 'Heather-moor-4'\n", ("Heather-moor-4",)),
    ("env_yaml", "    RABBITMQ_DEFAULT_PASS: 'carrot-cake-9'", ("carrot-cake-9",)),
    ("env_windows", "set MYSQL_PWD=Canyon-echo-2 && mysql -u app", ("Canyon-echo-2",)),
    ("env_windows", '$env:OPENAI_API_KEY="team-dev-Robin-44"', ("team-dev-Robin-44",)),
    ("env_windows", "setx SMTP_PASSWORD Puddle-jump-8 /M", ("Puddle-jump-8",)),
    ("cli", "mysql --host=db --user=app -p'tidal pool 3' app", ("tidal pool 3",)),
    ("cli", "mariadb -u root -pRiverbank77", ("Riverbank77",)),
    ("cli", "curl -u ci-bot:Sparrow-hawk-6 https://jenkins.internal/job/x", ("Sparrow-hawk-6",)),
    ("cli", "redis-cli -h 10.0.0.3 -p 6379 -a 'Frost-bite-1' KEYS '*'", ("Frost-bite-1",)),
    ("cli", "podman login quay.internal -u robot -p Comet-tail-5", ("Comet-tail-5",)),
    ("cli", "sshpass -p'Ridge-line-8' rsync -a src/ pi@nas:/backup", ("Ridge-line-8",)),
    ("auth_header", "Authorization: Bearer svc-report-Fox-9921", ("svc-report-Fox-9921",)),
    (
        "auth_header",
        'fetch(url, {headers: {"Authorization": "Bearer 9f2k7q1z0x"}})',
        ("9f2k7q1z0x",),
    ),
    (
        "code_block",
        "```bash\n# nightly\nexport MYSQL_PWD=Sea-glass-12\nmysqldump shop > /backup/shop.sql\n```",
        ("Sea-glass-12",),
    ),
    ("prose", "the POSTGRES_PASSWORD in compose is Nettle-patch-3", ("Nettle-patch-3",)),
    ("prose", "change NPM_TOKEN to maple-grove-88 on the runner", ("maple-grove-88",)),
    ("other_lang", "das REDIS_PASSWORD lautet Holunder-12", ("Holunder-12",)),
    ("other_lang", "le PGPASSWORD du serveur est Lavande-4", ("Lavande-4",)),
    ("other_lang", "la SMTP_PASSWORD es Naranjo-31", ("Naranjo-31",)),
    ("other_lang", "MYSQL_PWD på servern är Lingon-77", ("Lingon-77",)),
]

BLIND_LOOKALIKES: list[tuple[str, str]] = [
    ("env_empty", "export MYSQL_PWD="),
    ("env_empty", "SMTP_PASSWORD=''"),
    ("env_template", "export NPM_TOKEN=${NPM_TOKEN:?missing}"),
    ("env_template", "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}"),
    ("env_template", '$env:OPENAI_API_KEY = Read-Host -AsSecureString "key"'),
    ("env_template", "export PGPASSWORD=$(aws secretsmanager get-secret-value --secret-id db)"),
    ("env_template", "  - name: SMTP_PASSWORD\n    valueFrom:\n      secretKeyRef: {name: smtp}"),
    ("env_template", "SENTRY_AUTH_TOKEN=<paste token>"),
    ("env_setting", "PASSWORD_EXPIRY_DAYS=90"),
    ("env_setting", "TOKEN_AUDIENCE=api://default"),
    ("env_setting", "export SECRET_SCAN=true"),
    ("env_setting", "NPM_TOKEN_SCOPE=@acme"),
    ("cli_prompt", "mariadb -u root -p"),
    ("cli_prompt", "podman run -p 8443:443 web"),
    ("cli_prompt", "redis-cli -p 6380 ping"),
    ("cli_prompt", "curl -u ci-bot https://jenkins.internal/job/x"),
    ("cli_prompt", "rsync -e 'ssh -p 2200' src/ nas:/backup"),
    ("header", "Authorization: Bearer {token}"),
    ("header", "the Authorization header carries a Bearer token"),
    ("doc_prose", "POSTGRES_PASSWORD is required by the image"),
    ("doc_prose", "change NPM_TOKEN to a granular token before June"),
    ("doc_prose", "the SMTP_PASSWORD in compose is only a default"),
    ("doc_prose", "SENTRY_AUTH_TOKEN needs the project:releases scope"),
    ("other_lang", "das REDIS_PASSWORD ist Pflicht"),
    ("other_lang", "le PGPASSWORD du serveur est inconnu"),
    ("other_lang", "MYSQL_PWD på servern är tomt"),
]
