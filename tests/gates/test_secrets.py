"""Tests for the secret gate: detection, redaction, look-alikes, properties and speed."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memclaw.gates import SecretFinding, contains_secret, find_secrets, redact, redact_adjacent

from . import secret_cases as cases
from . import secret_heldout as heldout
from . import secret_heldout_slips as slips
from .secret_cases import NON_SECRET_CASES, SECRET_CASES
from .secret_score import realistic_100kb, score


def _case_id(text: str) -> str:
    return text[:40].replace("\n", "⏎")


# ---------------------------------------------------------------------------------------------
# Labelled data set
# ---------------------------------------------------------------------------------------------


def test_data_set_is_large_enough() -> None:
    assert len(SECRET_CASES) >= 197
    assert len(NON_SECRET_CASES) >= 196
    assert len(heldout.HELDOUT_SECRETS) + len(heldout.HELDOUT_SPLIT) >= 75
    assert len(heldout.HELDOUT_LOOKALIKES) >= 50


def test_tuning_set_recall_and_false_positive_rate() -> None:
    result = score(cases.LABELLED_SECRET_CASES, cases.SPLIT_CASES, cases.LABELLED_NON_SECRET_CASES)
    assert (result.missed, result.false_positives) == ([], [])
    assert result.recall == 1.0 and result.fpr == 0.0


def test_held_out_set_stays_above_its_floor() -> None:
    # Floor stated before the held-out set was first scored; its figures are reported by
    # benchmarks/bench_secrets.py and must not be tuned towards.
    result = score(heldout.HELDOUT_SECRETS, heldout.HELDOUT_SPLIT, heldout.HELDOUT_LOOKALIKES)
    assert result.recall >= 0.85
    assert result.fpr <= 0.05


def test_the_issue_27_held_out_set_is_caught_without_false_positives() -> None:
    # Written before the fix (its own commit); first scored after it at recall 1.000, FPR
    # 0.000 (before: 0.429). The floor leaves room for judgement calls, not for leaks of
    # whole families, and look-alikes must stay silent.
    result = score(slips.SLIP_SECRETS, [], slips.SLIP_LOOKALIKES)
    assert result.recall >= 0.9, result.missed
    assert result.false_positives == []


def test_every_case_has_a_family() -> None:
    labelled = [*cases.LABELLED_SECRET_CASES, *heldout.HELDOUT_SECRETS]
    assert all(family and family.islower() for family, _t, _s in labelled)
    assert all(family for family, _t in cases.LABELLED_NON_SECRET_CASES)


@pytest.mark.parametrize(
    ("text", "secrets"), SECRET_CASES, ids=[_case_id(t) for t, _ in SECRET_CASES]
)
def test_every_secret_is_detected_and_redacted(text: str, secrets: tuple[str, ...]) -> None:
    assert contains_secret(text)
    redacted = redact(text)
    for secret in secrets:
        assert secret not in redacted
    assert "[REDACTED:" in redacted
    assert not contains_secret(redacted)


@pytest.mark.parametrize("text", NON_SECRET_CASES, ids=[_case_id(t) for t in NON_SECRET_CASES])
def test_look_alikes_are_not_flagged(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text) == text


def test_detection_report(capsys: pytest.CaptureFixture[str]) -> None:
    """Measured figures for the whole data set; the gate must miss nothing and flag nothing."""
    detected = sum(1 for text, _ in SECRET_CASES if contains_secret(text))
    fully_redacted = sum(
        1 for text, secrets in SECRET_CASES if not any(s in redact(text) for s in secrets)
    )
    false_positives = [text for text in NON_SECRET_CASES if contains_secret(text)]
    with capsys.disabled():
        print(
            f"\nsecret gate: detected {detected}/{len(SECRET_CASES)} secrets, "
            f"fully redacted {fully_redacted}/{len(SECRET_CASES)}, "
            f"false positives {len(false_positives)}/{len(NON_SECRET_CASES)}"
        )
    assert detected == len(SECRET_CASES)
    assert fully_redacted == len(SECRET_CASES)
    assert false_positives == []


def test_no_full_token_literal_in_data_set_source() -> None:
    # Vendor prefixes are assembled at import time so hosted secret scanners stay quiet.
    with open(cases.__file__, encoding="utf-8") as fh:
        source = fh.read()
    assert not contains_secret(source.split("SECRET_CASES: list")[0].split("_r(")[0])
    for token in (cases.GHP, cases.SLACK_BOT, cases.AKIA, cases.STRIPE_SK, cases.OPENAI_PROJ):
        assert token not in source


# ---------------------------------------------------------------------------------------------
# Kinds, spans and redaction format
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("password=hunter2", "password"),
        (f"OPENAI_API_KEY={cases.OPENAI_PROJ}", "openai_key"),
        (f"key {cases.ANTHROPIC}", "anthropic_key"),
        (f"export GITHUB_TOKEN={cases.GHP}", "github_token"),
        (f"id {cases.AKIA}", "aws_access_key_id"),
        (f"aws_secret_access_key = {cases.AWS_SECRET}", "aws_secret_key"),
        (f"Authorization: Bearer {cases.OPAQUE_BEARER}", "bearer_token"),
        (f"token {cases.SLACK_BOT}", "slack_token"),
        (f"bot {cases.TELEGRAM}", "bot_token"),
        (f"post to {cases.SLACK_HOOK}", "webhook_url"),
        (f"jwt {cases.JWT}", "jwt"),
        (f"maps {cases.GOOGLE}", "google_api_key"),
        (f"stripe {cases.STRIPE_SK}", "stripe_key"),
        (f"db postgres://app:{cases.DB_PW}@db:5432/x", "url_password"),
        (f"my api key is {cases.RAND_32}", "high_entropy"),
        (cases.PEM_RSA, "private_key"),
        ("TOKEN=abc123def", "token"),
        ("client_secret: s3cr3t-value", "secret"),
    ],
)
def test_kinds(text: str, kind: str) -> None:
    findings = find_secrets(text)
    assert [f.kind for f in findings] == [kind]


def test_assignment_keeps_the_key_name() -> None:
    assert redact("password=hunter2") == "password=[REDACTED:password]"
    assert redact('{"password": "hunter2"}') == '{"password": "[REDACTED:password]"}'
    assert redact("DB_PASSWORD=changeme # prod") == "DB_PASSWORD=[REDACTED:password] # prod"
    assert redact(f"export GITHUB_TOKEN={cases.GHP}") == (
        "export GITHUB_TOKEN=[REDACTED:github_token]"
    )


def test_specific_rule_wins_over_generic_assignment() -> None:
    text = f"OPENAI_API_KEY={cases.OPENAI_LEGACY}"
    assert redact(text) == "OPENAI_API_KEY=[REDACTED:openai_key]"


def test_span_covers_only_the_secret() -> None:
    text = "the wifi password is Kaffe2024 btw"
    (f,) = find_secrets(text)
    assert text[f.start : f.end] == "Kaffe2024"
    assert f.line == 1


def test_telegram_bot_id_stays_readable() -> None:
    _bot_id, secret = cases.TELEGRAM.split(":")
    redacted = redact(f"TELEGRAM_BOT_TOKEN={cases.TELEGRAM}")
    assert secret not in redacted
    assert redacted.startswith("TELEGRAM_BOT_TOKEN=")


def test_several_secrets_in_one_text_are_all_redacted() -> None:
    text = (
        f"OPENAI_API_KEY={cases.OPENAI_LEGACY}\n"
        f"SLACK_BOT_TOKEN={cases.SLACK_BOT}\n"
        "password: hunter2\n"
    )
    redacted = redact(text)
    assert redacted == (
        "OPENAI_API_KEY=[REDACTED:openai_key]\n"
        "SLACK_BOT_TOKEN=[REDACTED:slack_token]\n"
        "password: [REDACTED:password]\n"
    )


# ---------------------------------------------------------------------------------------------
# PEM blocks and line numbers
# ---------------------------------------------------------------------------------------------


def test_pem_block_is_one_multiline_finding() -> None:
    text = f"intro line\nHere is the deploy key:\n{cases.PEM_RSA}\nkeep it safe\n"
    (f,) = find_secrets(text)
    assert f.kind == "private_key"
    assert f.line == 3
    assert text[f.start : f.end] == cases.PEM_RSA
    redacted = redact(text)
    assert redacted == "intro line\nHere is the deploy key:\n[REDACTED:private_key]\nkeep it safe\n"
    assert all(line not in redacted for line in cases.PEM_BODY)


def test_pem_block_without_end_line_is_still_redacted() -> None:
    text = f"-----BEGIN EC PRIVATE KEY-----\n{cases.TRUNCATED_BODY}\n"
    assert cases.TRUNCATED_BODY not in redact(text)


def test_pem_documentation_placeholder_is_not_a_secret() -> None:
    text = "-----BEGIN PRIVATE KEY-----\nXXXX\nXXXX\n-----END PRIVATE KEY-----"
    assert not contains_secret(text)


def test_line_numbers_are_one_based_and_correct() -> None:
    text = "\n".join(
        [
            "password=hunter2",  # line 1
            "nothing here",
            f"export GITHUB_TOKEN={cases.GHP}",  # line 3
            "",
            "",
            f"aws id {cases.AKIA}",  # line 6
        ]
    )
    assert [(f.line, f.kind) for f in find_secrets(text)] == [
        (1, "password"),
        (3, "github_token"),
        (6, "aws_access_key_id"),
    ]


def test_findings_are_sorted_and_disjoint() -> None:
    text = "\n".join(t for t, _ in SECRET_CASES)
    findings = find_secrets(text)
    assert findings == sorted(findings, key=lambda f: f.start)
    for a, b in itertools.pairwise(findings):
        assert a.end <= b.start
    for f in findings:
        assert f.line == text.count("\n", 0, f.start) + 1


# ---------------------------------------------------------------------------------------------
# Finding objects never leak the secret
# ---------------------------------------------------------------------------------------------


def test_preview_never_shows_the_whole_secret() -> None:
    for text, _secrets in SECRET_CASES:
        for f in find_secrets(text):
            secret = text[f.start : f.end]
            assert f.preview.endswith("…")
            shown = f.preview[:-1]
            assert len(shown) <= 4
            assert len(shown) <= len(secret) // 3
            assert secret.startswith(shown)
            assert secret not in repr(f)


def test_finding_is_frozen() -> None:
    f = SecretFinding(kind="password", start=0, end=1, line=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.kind = "x"  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# Placeholders and idempotence
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "<your-key>",
        "${API_KEY}",
        "$API_KEY",
        "{{ api_key }}",
        "xxxx",
        "****",
        "...",
        "[REDACTED]",
        "",
    ],
)
def test_placeholders_are_not_secrets(value: str) -> None:
    for template in ("API_KEY={v}", 'password: "{v}"', "token = {v}", "secret={v}"):
        assert not contains_secret(template.format(v=value)), template.format(v=value)


def test_changeme_is_a_password() -> None:
    assert contains_secret("password=changeme")


def test_redaction_markers_are_never_flagged() -> None:
    for kind in ("password", "openai_key", "high_entropy", "url_password", "private_key"):
        marker = f"[REDACTED:{kind}]"
        for template in ("{m}", "password={m}", "token: {m}", "postgres://u:{m}@db/x", "key {m}"):
            assert find_secrets(template.format(m=marker)) == []


def test_redact_is_idempotent_on_the_data_set() -> None:
    for text, _ in SECRET_CASES:
        once = redact(text)
        assert redact(once) == once
    for text in NON_SECRET_CASES:
        assert redact(text) == text


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

_fragments = st.sampled_from([t for t, _ in SECRET_CASES] + NON_SECRET_CASES)
_noise = st.text(
    alphabet=st.sampled_from(list("abcXYZ0189 _-=:/.@?&'\"\n\t[]{}<>$*#密码é")), max_size=40
)
_mixed = st.lists(st.one_of(_fragments, _noise, st.text(max_size=30)), max_size=6).map("".join)
_PROPERTY_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@_PROPERTY_SETTINGS
@given(st.one_of(st.text(), _mixed))
def test_redact_is_idempotent_and_total(text: str) -> None:
    once = redact(text)
    assert redact(once) == once
    assert not contains_secret(once)


@_PROPERTY_SETTINGS
@given(st.one_of(st.text(), _mixed))
def test_findings_are_well_formed(text: str) -> None:
    findings = find_secrets(text)
    last_end = 0
    for f in findings:
        assert 0 <= last_end <= f.start < f.end <= len(text)
        assert f.line == text.count("\n", 0, f.start) + 1
        last_end = f.end


# ---------------------------------------------------------------------------------------------
# Speed: the gate runs before every memory write
# ---------------------------------------------------------------------------------------------


def test_a_realistic_100kb_dump_holds_only_its_two_secrets() -> None:
    # How fast the gate reads it is benchmarks/bench_secrets.py's to say, not a test's.
    findings = find_secrets(realistic_100kb())
    assert [f.kind for f in findings] == ["password", "github_token"]


# ---------------------------------------------------------------------------------------------
# Capture issue: shapes that used to be stored verbatim
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "the reference example " + "s" + "k-proj-abc123def456",
        "m" + "0-k2J8xQ4p9Lw",
        "a" + "k_9fQ2xW7m",
        "the password for the staging db is hunter2",
        "my PIN is 4471",
        "my password is hunter2-Blue!",
        "api_id: Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz",
        "Mein Passwort ist Apfelbaum-61",
        "PGPASSWORD=Glacier77 psql -h db",
        "Server=db;Uid=sa;Pwd=Kestrel#42;",
        "curl -u ops:Wombat-31 https://ci.internal",
        "mysql -u app -pTeal0Fox shop",
    ],
)
def test_capture_issue_shapes_are_redacted(text: str) -> None:
    assert contains_secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "sk-learn and m0-style are not keys",
        "the password is in my head",
        "the PIN must have 4 digits",
        "PIN reset steps are in the wiki",
        "mysql -u app -p crm",
        "the key is in the drawer",
        "token: Optional[str] = None",
    ],
)
def test_capture_issue_look_alikes_stay_quiet(text: str) -> None:
    assert find_secrets(text) == []


def test_a_key_in_base64_is_redacted() -> None:
    import base64

    encoded = base64.b64encode(cases.GHP.encode()).decode()
    assert [f.kind for f in find_secrets(f"blob {encoded}")] == ["encoded_secret"]


def test_split_key_is_redacted_in_both_messages() -> None:
    first, second = cases.GHP[:15], cases.GHP[15:]
    out = redact_adjacent([f"token {first}", second, "thanks!"])
    assert first not in out[0] and second not in out[1]
    assert out[0].startswith("token [REDACTED:") and out[1].startswith("[REDACTED:")
    assert out[2] == "thanks!"


def test_split_password_announced_in_the_previous_message() -> None:
    out = redact_adjacent(["my password is", "Blaubeere-73"])
    assert out == ["my password is", "[REDACTED:password]"]


def test_adjacent_ordinary_messages_are_untouched() -> None:
    texts = ["fixed in commit 3f9a2c1", "b4d5e6f7 was the parent", "the password is long"]
    assert redact_adjacent(texts) == texts
    assert redact_adjacent([]) == []
