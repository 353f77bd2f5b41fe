"""Third held-out set for the secret gate: credentials in environment variables and commands.

Written and committed before the gate changes for the env-variable family (the miss was
``PGPASSWORD=Wint3r-is-here``), never tuned on. It holds shell, ``.env``, YAML /
docker-compose, Windows ``set`` and PowerShell assignments whose value is a word-ish
passphrase; passwords on command lines (mysql, psql, curl, redis-cli, docker ...);
``Authorization`` headers; the same inside fenced code blocks, stated in prose, and in the
other languages the gate's prose rules read. Look-alikes are the empty, templated, vaulted,
prompted and documented forms of the same lines, which must stay silent.
Do not add cases here to fix a miss; add them to ``secret_env_tuning``.

Every credential is made up.

``ENV_SECRETS``: (family, text, values that must be gone after ``redact``).
``ENV_LOOKALIKES``: (family, text that must not be flagged at all).
"""

from __future__ import annotations

ENV_SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    # shell and .env assignments
    ("env_shell", "export PGPASSWORD=Hollow-pine-42", ("Hollow-pine-42",)),
    ("env_shell", "PGPASSWORD=quiet-harbor psql -h db.internal -U report", ("quiet-harbor",)),
    ("env_shell", "MYSQL_PWD=Larch-tree-7 mysql -u root shop", ("Larch-tree-7",)),
    ("env_shell", "export MYSQL_PWD='amber waves 19'", ("amber waves 19",)),
    ("env_shell", "REDIS_PASSWORD=velvet-thunder-8", ("velvet-thunder-8",)),
    ("env_shell", 'SMTP_PASSWORD="river stone forty"', ("river stone forty",)),
    (
        "env_shell",
        "export AWS_SECRET_ACCESS_KEY=q7Rk2Lm9ZpX4vTn8Wc1Hs6Yd3Jf0Bg5AeQ2uN7xK",
        ("q7Rk2Lm9ZpX4vTn8Wc1Hs6Yd3Jf0Bg5AeQ2uN7xK",),
    ),
    ("env_shell", "GITHUB_TOKEN=ci-bot-Larkspur-19 ./release.sh", ("ci-bot-Larkspur-19",)),
    ("env_shell", "export VAULT_TOKEN=s.Kd82hQpLw0xZ", ("s.Kd82hQpLw0xZ",)),
    ("env_shell", "DJANGO_SECRET_KEY=correct-battery-staple-horse", ("correct-battery",)),
    ("env_shell", "export RABBITMQ_DEFAULT_PASS=bunny-hop", ("bunny-hop",)),
    ("env_shell", "ADMIN_PASSWORD=Sunflower", ("Sunflower",)),
    # YAML, docker-compose, Kubernetes
    ("env_yaml", '    REDIS_PASSWORD: "orange-sky-41"', ("orange-sky-41",)),
    ("env_yaml", "      MYSQL_ROOT_PASSWORD: tulip-garden-88", ("tulip-garden-88",)),
    ("env_yaml", "      - POSTGRES_PASSWORD=moonlight-Bay3", ("moonlight-Bay3",)),
    (
        "env_yaml",
        "environment:\n  POSTGRES_USER: app\n  POSTGRES_PASSWORD: lantern-field\n",
        ("lantern-field",),
    ),
    (
        "env_yaml",
        'env:\n  - name: DB_PASSWORD\n    value: "Maple-syrup-2024"\n',
        ("Maple-syrup-2024",),
    ),
    ("env_yaml", "  GITHUB_TOKEN: heron-lake-305", ("heron-lake-305",)),
    # Windows cmd and PowerShell
    ("env_windows", "set PGPASSWORD=Harbor-lights-9", ("Harbor-lights-9",)),
    ("env_windows", 'set "DB_PASS=Quartz!lake"', ("Quartz!lake",)),
    ("env_windows", 'setx API_TOKEN "falcon-nine-3321"', ("falcon-nine-3321",)),
    ("env_windows", '$env:API_KEY = "pumpkin-spice-77"', ("pumpkin-spice-77",)),
    ("env_windows", "$env:PGPASSWORD='Cobalt-owl-12'; psql -U app", ("Cobalt-owl-12",)),
    ("env_windows", "$Env:MYSQL_PWD = 'seashell'", ("seashell",)),
    (
        "env_windows",
        '[Environment]::SetEnvironmentVariable("DB_PASSWORD", "Saffron-kite-5", "User")',
        ("Saffron-kite-5",),
    ),
    # passwords on a command line
    ("cli", "mysql -u root -p'Glacier#42' shop", ("Glacier#42",)),
    ("cli", "mysql -uroot -pGlacierpass9 -h 10.0.0.4", ("Glacierpass9",)),
    ("cli", "mysqldump --user=backup --password=Pebble-beach-4 shop > shop.sql", ("Pebble",)),
    ("cli", "curl -u deploy:Maple-leaf-3 https://ci.internal/api/build", ("Maple-leaf-3",)),
    ("cli", "curl --user admin:tangerine https://nas.local/api", ("tangerine",)),
    ("cli", "redis-cli -a Nimbus-cloud-6 ping", ("Nimbus-cloud-6",)),
    ("cli", "sshpass -p 'Cedar-grove-2' ssh pi@10.0.0.9", ("Cedar-grove-2",)),
    ("cli", "docker login -u bot -p Spruce-hill-9 registry.internal", ("Spruce-hill-9",)),
    ("cli", "mongosh -u admin -p Ocean-breeze-3 --authenticationDatabase admin", ("Ocean",)),
    ("cli", "psql --password Tundra-wolf-8", ("Tundra-wolf-8",)),
    ("cli", "wget --http-user=ops --http-password=kestrel55 https://files.internal", ("kestrel",)),
    # Authorization headers
    ("auth_header", "Authorization: Basic YWRtaW46aHVudGVyMg==", ("YWRtaW46aHVudGVyMg",)),
    (
        "auth_header",
        'curl -H "Authorization: Basic ZGVwbG95OlNwcnVjZTk=" https://ci.internal',
        ("ZGVwbG95OlNwcnVjZTk",),
    ),
    ("auth_header", "Authorization: Bearer dev-token-Lynx-2291", ("dev-token-Lynx-2291",)),
    (
        "auth_header",
        "curl -H 'Authorization: Bearer 7f3c9a1e5b2d' https://api.internal/v1/me",
        ("7f3c9a1e5b2d",),
    ),
    ("auth_header", "Proxy-Authorization: Basic b3BzOmtlc3RyZWw1NQ==", ("b3BzOmtlc3RyZWw1NQ",)),
    # fenced code blocks in a note
    (
        "code_block",
        "Staging restore:\n```bash\nexport PGHOST=db.staging\nexport PGPASSWORD=Wren-song-17\n"
        "pg_restore -d app dump.sql\n```\n",
        ("Wren-song-17",),
    ),
    (
        "code_block",
        "```yaml\nservices:\n  redis:\n    environment:\n      REDIS_PASSWORD: marble-arch\n```",
        ("marble-arch",),
    ),
    (
        "code_block",
        '```powershell\n$env:DB_PASSWORD = "Birch-canoe-4"\n.\\migrate.ps1\n```',
        ("Birch-canoe-4",),
    ),
    (
        "code_block",
        "```sh\nmysql -h db -u etl -p'Copper kettle 8' warehouse\n```",
        ("Copper kettle 8",),
    ),
    # stated in prose
    ("prose", "PGPASSWORD on the reporting box is Thistle-down-6", ("Thistle-down-6",)),
    ("prose", "set REDIS_PASSWORD to velvet-morning in the compose file", ("velvet-morning",)),
    ("prose", "the MYSQL_PWD for staging is Otter-pond-44", ("Otter-pond-44",)),
    ("prose", "CI uses GITHUB_TOKEN=gale-force-1290 until Friday", ("gale-force-1290",)),
    ("prose", "the basic auth for the dashboard is ops / kestrel55", ("kestrel55",)),
    ("prose", "I put PGPASSWORD=Wint3r-is-coming in my .bashrc", ("Wint3r-is-coming",)),
    # other languages the gate reads
    ("other_lang", "Setze PGPASSWORD auf Fichtenwald-7", ("Fichtenwald-7",)),
    ("other_lang", "PGPASSWORD är Älgstigen-12 på staging", ("Älgstigen-12",)),
    ("other_lang", "le MYSQL_PWD est Cerisier-9", ("Cerisier-9",)),
    ("other_lang", "exporta PGPASSWORD=Tormenta-de-verano", ("Tormenta-de-verano",)),
    ("other_lang", "la REDIS_PASSWORD è Limone-Verde-5", ("Limone-Verde-5",)),
    ("other_lang", "PGPASSWORD on Koivumetsä-4 tuotannossa", ("Koivumetsä-4",)),
    ("other_lang", "hasło w zmiennej PGPASSWORD to Jantar-77", ("Jantar-77",)),
    ("other_lang", "de DB_PASSWORD is Tulpenveld-88", ("Tulpenveld-88",)),
]

ENV_LOOKALIKES: list[tuple[str, str]] = [
    # empty, templated, vaulted, prompted
    ("env_empty", "PGPASSWORD="),
    ("env_empty", "export PGPASSWORD="),
    ("env_empty", "AWS_SECRET_ACCESS_KEY="),
    ("env_empty", 'REDIS_PASSWORD=""'),
    ("env_empty", "    POSTGRES_PASSWORD: ''"),
    ("env_template", "export PGPASSWORD=$(vault read -field=password secret/db)"),
    ("env_template", 'export PGPASSWORD="$(pass show db/prod)"'),
    ("env_template", "password: ${DB_PASSWORD}"),
    ("env_template", "REDIS_PASSWORD: ${REDIS_PASSWORD:-}"),
    ("env_template", "  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}"),
    ("env_template", "API_KEY=<your-token-here>"),
    ("env_template", '$env:API_KEY = "<your-api-key>"'),
    ("env_template", "set PASSWORD=%DB_PASSWORD%"),
    ("env_template", 'MYSQL_PWD="$MYSQL_PWD"'),
    ("env_template", '    REDIS_PASSWORD: "{{ vault_redis_password }}"'),
    ("env_template", "$env:PGPASSWORD = $cred.GetNetworkCredential().Password"),
    ("env_template", "DB_PASSWORD=your-password-here"),
    ("env_template", "POSTGRES_PASSWORD_FILE=/run/secrets/pg_password"),
    ("env_template", "PGPASSFILE=/home/app/.pgpass"),
    ("env_template", "      - name: DB_PASSWORD\n        valueFrom:\n          secretKeyRef:"),
    # settings that only mention a secret word
    ("env_setting", "PASSWORD_MIN_LENGTH=12"),
    ("env_setting", "TOKEN_TTL=3600"),
    ("env_setting", "PASSWORD_RESET_TIMEOUT=86400"),
    ("env_setting", "MAX_TOKENS=4096"),
    ("env_setting", "AUTH_TYPE=basic"),
    ("env_setting", "TOKEN_URL=https://auth.internal/oauth/token"),
    ("env_setting", "PASSWORD_HASHER=argon2"),
    ("env_setting", "KEY_ROTATION_DAYS=30"),
    ("env_setting", "export GITHUB_TOKEN_PERMISSIONS=read-all"),
    ("env_setting", "set SECRET_SCANNING=enabled"),
    # prompts and files on the command line
    ("cli_prompt", "mysql -u root -p shop"),
    ("cli_prompt", "psql -h db -U app -W"),
    ("cli_prompt", 'curl -u "$USER:$TOKEN" https://ci.internal/api'),
    ("cli_prompt", "curl -u USER:PASSWORD https://api.example.com"),
    ("cli_prompt", "docker login -u bot --password-stdin < token.txt"),
    ("cli_prompt", "redis-cli -a $REDIS_PASSWORD ping"),
    ("cli_prompt", "mysqldump --defaults-extra-file=~/.my.cnf shop"),
    ("cli_prompt", "ssh -p 2222 deploy@10.0.0.9"),
    ("cli_prompt", "pg_dump -p 5433 -U app shop"),
    # headers without a credential
    ("header", "Authorization: Bearer <token>"),
    ("header", 'curl -H "Authorization: Bearer $TOKEN" https://api.internal'),
    ("header", "Authorization: Bearer ${ACCESS_TOKEN}"),
    ("header", "The API expects an Authorization: Basic header over TLS only"),
    ("header", "Authorization: Bearer followed by the token from /login"),
    # documentation prose
    ("doc_prose", "PGPASSWORD sets the password psql uses; prefer ~/.pgpass"),
    ("doc_prose", "Never put MYSQL_PWD in scripts, it is insecure"),
    ("doc_prose", "the GITHUB_TOKEN is created automatically for each workflow run"),
    ("doc_prose", "set PGPASSWORD to the value from Vault before running the job"),
    ("doc_prose", "$env:API_KEY is read by the client at start-up"),
    ("doc_prose", "REDIS_PASSWORD must be at least 16 characters long"),
    ("doc_prose", "rotate AWS_SECRET_ACCESS_KEY every 90 days"),
    ("doc_prose", "-p without a value makes mysql prompt for the password"),
    ("doc_prose", "use --password-stdin instead of -p on shared machines"),
    ("doc_prose", "the Bearer token expires after one hour"),
    # other languages
    ("other_lang", "PGPASSWORD setzt man besser in ~/.pgpass"),
    ("other_lang", "la variable PGPASSWORD est vide"),
    ("other_lang", "PGPASSWORD är tom på staging"),
    ("other_lang", "la variable DB_PASSWORD se lee del entorno"),
]
