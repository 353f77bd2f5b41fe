"""Tuning set for the env-variable family of the secret gate: the rules were fitted to it.

Same families as ``secret_heldout_env`` (written first, never tuned on) but different cases:
shell / ``.env`` / YAML / Windows / PowerShell assignments of word-ish passphrases, passwords
on command lines, ``Authorization`` headers, the same in code blocks, prose and the other
languages the gate reads; look-alikes that must stay silent. Add a case here to fix a miss.

Every credential is made up.
"""

from __future__ import annotations

ENV_TUNING_SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    # the miss that opened this family
    ("env_shell", "PGPASSWORD=Wint3r-is-here psql -h db -U app", ("Wint3r-is-here",)),
    ("env_shell", "PGPASSWORD=Wint3r-is-here", ("Wint3r-is-here",)),
    ("env_shell", "export DB_PASSWORD=snow-falls-here", ("snow-falls-here",)),
    ("env_shell", "export VAULT_TOKEN=hvs.Qm3kR8", ("hvs.Qm3kR8",)),
    ("env_shell", "export CONSUL_HTTP_TOKEN=k.Zr91Lp", ("k.Zr91Lp",)),
    ("env_shell", "MYSQL_PASSWORD=gooseberry mysql -u app", ("gooseberry",)),
    # YAML, docker-compose, Kubernetes
    ("env_yaml", '  - name: REDIS_PASSWORD\n    value: "pine-cone-77"\n', ("pine-cone-77",)),
    ("env_yaml", "- name: API_TOKEN\n  value: otter-slide-3\n", ("otter-slide-3",)),
    # Windows cmd and PowerShell
    ("env_windows", 'setx DB_PASSWORD "walnut-tree-12"', ("walnut-tree-12",)),
    ("env_windows", "setx /M API_KEY amber-lamp-5", ("amber-lamp-5",)),
    (
        "env_windows",
        "[System.Environment]::SetEnvironmentVariable('API_TOKEN', 'Garnet-fox-8', 'Machine')",
        ("Garnet-fox-8",),
    ),
    ("env_windows", '$env:GITHUB_TOKEN="heron-nest-9"', ("heron-nest-9",)),
    ("env_windows", '$env:PASS = "Winter-sun"', ("Winter-sun",)),
    # passwords on a command line
    ("cli", "mysql -h db -u app -p'Sand dune 4' shop", ("Sand dune 4",)),
    ("cli", 'mysql -u root -p"Oak#Leaf7"', ("Oak#Leaf7",)),
    ("cli", "redis-cli -h cache -a Lemon-drop-2 info", ("Lemon-drop-2",)),
    ("cli", "redis-cli --pass Lemon-tart-3 info", ("Lemon-tart-3",)),
    ("cli", "sshpass -p Birch-bark-5 scp x pi@host:", ("Birch-bark-5",)),
    ("cli", "docker login registry.internal -u ci -p Fern-gully-6", ("Fern-gully-6",)),
    ("cli", "mongo -u root -p Coral-reef-7 admin", ("Coral-reef-7",)),
    ("cli", "htpasswd -b .htpasswd admin Ember-fox-5", ("Ember-fox-5",)),
    ("cli", "htpasswd -nbB admin Quill-ink-4 > .htpasswd", ("Quill-ink-4",)),
    # Authorization headers
    ("auth_header", "Authorization: Bearer staging-key-Owl-4471", ("staging-key-Owl-4471",)),
    ("auth_header", "-H 'Authorization: Bearer abc123def4'", ("abc123def4",)),
    # prose
    ("prose", "PGPASSWORD for the replica is Cloud-berry-5", ("Cloud-berry-5",)),
    ("prose", "set DB_PASSWORD to blue-harbor-9 in the env file", ("blue-harbor-9",)),
    ("prose", "the REDIS_PASSWORD on prod is Kelp-forest-2", ("Kelp-forest-2",)),
    ("prose", "the basic auth for staging is admin / Puffin-rock-8", ("Puffin-rock-8",)),
    ("prose", "MYSQL_PWD is now quartzite", ("quartzite",)),
    # other languages
    ("other_lang", "PGPASSWORD ist Nordsee-Welle-3", ("Nordsee-Welle-3",)),
    ("other_lang", "setze DB_PASSWORD auf Bergsee-9", ("Bergsee-9",)),
    ("other_lang", "MYSQL_PWD är Vitsippa-5", ("Vitsippa-5",)),
    ("other_lang", "le PGPASSWORD c'est Mirabelle-2", ("Mirabelle-2",)),
    ("other_lang", "la DB_PASSWORD es Olivo-Azul-8", ("Olivo-Azul-8",)),
    ("other_lang", "la DB_PASSWORD è Girasole-6", ("Girasole-6",)),
    ("other_lang", "REDIS_PASSWORD on Mänty-3", ("Mänty-3",)),
    ("other_lang", "het PGPASSWORD is Molen-7", ("Molen-7",)),
    ("other_lang", "PGPASSWORD to Wisła-44", ("Wisła-44",)),
    ("other_lang", "a PGPASSWORD é Castanha-7", ("Castanha-7",)),
    ("other_lang", "PGPASSWORDは Sakura-88 です", ("Sakura-88",)),
    ("other_lang", "PGPASSWORD는 Hangang-5", ("Hangang-5",)),
    ("other_lang", "PGPASSWORD是 Changjiang-3", ("Changjiang-3",)),
    ("other_lang", "PGPASSWORD — Beryoza-9", ("Beryoza-9",)),
]

ENV_TUNING_LOOKALIKES: list[tuple[str, str]] = [
    ("env_template", "export PGPASSWORD=$(vault kv get -field=pw secret/app)"),
    ("env_template", "PGPASSWORD=$(cat /run/secrets/pg) psql -U app"),
    ("env_template", "export DB_PASSWORD=`pass show db`"),
    ("env_template", "$env:DB_PASSWORD = (Get-Secret -Name db -AsPlainText)"),
    ("env_template", "$env:API_KEY = $secret"),
    ("env_template", "setx API_KEY %API_KEY%"),
    ("env_template", '$env:AUTH = "basic"'),
    ("env_template", "- name: DB_PASSWORD\n  value: ${DB_PASSWORD}\n"),
    ("env_template", "API_TOKEN=token_goes_here"),
    ("env_template", "DB_PASSWORD=password-here"),
    ("cli_prompt", "mysql -u app -p -h db shop"),
    ("cli_prompt", 'redis-cli -a "$REDIS_PASSWORD" info'),
    ("cli_prompt", "sshpass -f ~/.sshpass ssh pi@host"),
    ("cli_prompt", "docker login -u ci -p $CI_TOKEN registry.internal"),
    ("cli_prompt", "nc -p 8080 -l"),
    ("cli_prompt", "git commit -a -m 'fix'"),
    ("cli_prompt", "mkdir -p build/out"),
    ("header", "Authorization: Bearer <access-token>"),
    ("header", "send the Bearer token in the Authorization header"),
    ("doc_prose", "PGPASSWORD is read by libpq when no password is given"),
    ("doc_prose", "set DB_PASSWORD to a long random value"),
    ("doc_prose", "the REDIS_PASSWORD on prod is rotated monthly"),
    ("doc_prose", "MYSQL_PWD is deprecated in MySQL 8"),
    ("doc_prose", "SSH_KEY is id_ed25519"),
    ("doc_prose", "the PRIVATE_KEY is key.pem"),
    ("doc_prose", "the GITHUB_TOKEN is read-only"),
    ("cli_prompt", "docker run -d -p 5432:5432 postgres"),
    ("cli_prompt", "htpasswd -c .htpasswd admin"),
    ("cli_prompt", "use `htpasswd -b file user pass` for a script"),
    ("cli_prompt", "htpasswd -nb USER PASSWORD: the password comes last."),
    ("env_template", "- name: LOG_LEVEL\n  value: debug\n"),
    ("other_lang", "PGPASSWORD ist leer"),
    ("other_lang", "le PGPASSWORD est obligatoire"),
    ("other_lang", "la DB_PASSWORD es obligatoria"),
    ("other_lang", "PGPASSWORDは必須です"),
    ("other_lang", "PGPASSWORD — see the vault"),
]
