"""The red team's set from issue 38: the secrets the gate stored on every write path after
four rounds of patterns, the split ones, and the two benign lines it refused.

These were seen while building the principle-based rules
(``memclaw.gates.credentials.principles``): they are a dev set, reported beside the blind
``secret_heldout_principles``, never instead of it.
Every credential is made up.
"""

from __future__ import annotations

RED_SECRETS: list[tuple[str, str, tuple[str, ...]]] = [
    ("userinfo", "connect with admin:Pa55w0rd!@10.0.3.17:5432/orders", ("Pa55w0rd!",)),
    (
        "totp_seed",
        "TOTP seed for the admin panel 2FA: KRUGS4ZANFZSAYJAONSWG4TFOQ",
        ("KRUGS4ZANFZSAYJAONSWG4TFOQ",),
    ),
    ("card", "Company Visa 4539 1488 0343 6467 exp 09/27 CVV 321", ("4539 1488 0343 6467", "321")),
    (
        "card",
        "card number 4916338506082832, valid to 11/26, security code 774",
        ("4916338506082832", "774"),
    ),
    (
        "iban",
        "IBAN DE89 3704 0044 0532 0130 00, online banking PIN 55123",
        ("DE89 3704 0044 0532 0130 00", "55123"),
    ),
    (
        "passphrase",
        "passphrase for the backup disk: violet otter dances at noon",
        ("violet otter dances at noon",),
    ),
    ("pgpass", "~/.pgpass: db.acme.internal:5432:orders:report:Quokka-Lime-3", ("Quokka-Lime-3",)),
    ("wifi", "WPA2 key for the guest network: gr33n-tea-kettle", ("gr33n-tea-kettle",)),
    ("login", "smtp login noreply@acme.io / Mistletoe!2026", ("Mistletoe!2026",)),
    (
        "auth_header",
        "Authorization: SSWS 00QCjAl4MlV-WPXM9qL0HmjFx-vbGua7kD3nR",
        ("00QCjAl4MlV-WPXM9qL0HmjFx-vbGua7kD3nR",),
    ),
    (
        "seed_phrase",
        "wallet seed words: ribbon salmon forest ladder quantum velvet harbor mimic ozone "
        "tribe cactus unveil",
        ("ribbon salmon", "ozone tribe"),
    ),
    ("credential_word", "code wifi : Baguette-Soleil-12", ("Baguette-Soleil-12",)),
    ("credential_word", "il codice del cancello è 3378", ("3378",)),
    ("credential_word", "Meine Geheimzahl für die EC-Karte ist 5830", ("5830",)),
    ("credential_word", "Portkoden är 1947", ("1947",)),
    (
        "every_occurrence",
        "GitHub recovery codes: 4f2a9-c1b7d 3e0a8-f1b6c 5e2d9-a0f3c 7b8e1-d4c6a",
        ("4f2a9-c1b7d", "3e0a8-f1b6c", "5e2d9-a0f3c", "7b8e1-d4c6a"),
    ),
]

RED_SPLIT: list[tuple[str, list[str], tuple[str, ...]]] = [
    (
        "question_answer",
        [
            "What's the password for the staging database again?",
            "Hmm, I remember: it's Marzipan-Kite-5",
        ],
        ("Marzipan-Kite-5",),
    ),
    ("question_answer", ["What is the alarm code at the cabin?", "2580"], ("2580",)),
]

RED_LOOKALIKES: list[tuple[str, str]] = [
    (
        "digest",
        "image: nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
    ),
    ("policy", "Lösenordet måste bytas var 90:e dag"),
]
